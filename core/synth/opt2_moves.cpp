#include "core/synth/opt2_moves.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/step2/program.hpp"

namespace sf::synth::opt2 {

namespace {

constexpr const char* kNames[kMoveKinds] = {"tile",        "par_dispatch", "write_back_mu",
                                            "compute_bw",  "drop_const_input", "reuse_load",
                                            "parallel_split", "add_tree_split", "merge_elementwise"};

bool is_load(const Line& l) { return l.op == "OffChipLoad"; }

std::optional<long long> to_int(const std::string& s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// "[a, b, c]" -> {"a", "b", "c"} (empty when not a list).
std::vector<std::string> list_items(const std::string& text) {
  std::vector<std::string> out;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return out;
  std::string cur;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string list_text(const std::vector<std::string>& items) {
  std::string s = "[";
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + "]";
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The divisor t of the first "X/t" in `text` (X a whole identifier), nullopt when none.
std::optional<long long> divisor_of(const std::string& text, const std::string& sym) {
  const std::string pat = sym + "/";
  for (std::size_t p = text.find(pat); p != std::string::npos; p = text.find(pat, p + 1)) {
    if (p > 0 && ident_char(text[p - 1])) continue;
    std::size_t e = p + pat.size();
    std::size_t d = e;
    while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
    if (d == e) continue;
    return to_int(text.substr(e, d - e));
  }
  return std::nullopt;
}

// Every whole "X/t" in `text` replaced by "X/u".
std::string replace_div(const std::string& text, const std::string& sym, long long t, long long u) {
  const std::string from = sym + "/" + std::to_string(t), to = sym + "/" + std::to_string(u);
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t p = text.find(from, pos);
    if (p == std::string::npos) break;
    bool left_ok = p == 0 || !ident_char(text[p - 1]);
    std::size_t e = p + from.size();
    bool right_ok = e >= text.size() || !std::isdigit(static_cast<unsigned char>(text[e]));
    out.append(text, pos, p - pos);
    out += (left_ok && right_ok) ? to : from;
    pos = e;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

std::string float_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

const step::TensorDecl* input_decl(const step::TaskDoc& task, const std::string& name) {
  for (const auto& t : task.tensor_inputs)
    if (t.name == name) return &t;
  return nullptr;
}

std::set<std::string> all_names(const std::vector<Line>& lines) {
  std::set<std::string> s;
  for (const auto& l : lines)
    for (const auto& t : l.targets) s.insert(t);
  return s;
}

std::string fresh(std::set<std::string>& used, const std::string& base) {
  for (int i = 0;; ++i) {
    std::string n = i == 0 ? base : base + "_" + std::to_string(i);
    if (used.insert(n).second) return n;
  }
}

int index_of_target(const std::vector<Line>& lines, const std::string& name) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto& t : lines[i].targets)
      if (t == name) return static_cast<int>(i);
  return -1;
}

int uses(const std::vector<Line>& lines, const std::string& name) {
  int n = 0;
  for (const auto& l : lines)
    for (const auto& a : l.args)
      if (a == name) ++n;
  return n;
}

template <class T>
const T& pick(const std::vector<T>& v, Rng& rng) {
  return v[rng.below(v.size())];
}

// ---- the moves ----------------------------------------------------------------------------------------

MoveOutcome move_tile(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  // Size symbols that some load iterates over as X/t.
  std::vector<std::string> syms;
  for (const auto& [name, _] : task.sizes) {
    for (const auto& l : lines)
      if (is_load(l) && l.kw("shape") && divisor_of(*l.kw("shape"), name)) {
        syms.push_back(name);
        break;
      }
  }
  if (syms.empty()) return {};
  std::string sym;
  bool up = true;
  if (!req.param.empty() && req.param.size() > 2) {
    sym = req.param.substr(0, req.param.size() - 2);
    up = req.param.substr(req.param.size() - 2) == "*2";
    if (std::find(syms.begin(), syms.end(), sym) == syms.end()) return {};
  } else {
    sym = pick(syms, rng);
    up = rng.unit() < 0.75;
  }
  MoveOutcome out;
  out.param = sym + (up ? "*2" : "/2");
  std::string detail;
  for (auto& l : lines) {
    if (!is_load(l) || !l.kw("shape")) continue;
    auto t = divisor_of(*l.kw("shape"), sym);
    if (!t) continue;
    long long u = up ? *t * 2 : *t / 2;
    if (u < 1 || (!up && *t % 2 != 0)) continue;
    l.set_kw("shape", replace_div(*l.kw("shape"), sym, *t, u));
    if (const auto* st = l.kw("stride")) l.set_kw("stride", replace_div(*st, sym, *t, u));
    // The tile entry aligned (from the right) with X in the loaded tensor's shape.
    if (const auto* tile = l.kw("tile"); tile && !l.args.empty()) {
      auto items = list_items(*tile);
      if (const auto* decl = input_decl(task, l.args[0]); decl && !items.empty()) {
        for (std::size_t k = 0; k < items.size() && k < decl->shape.size(); ++k) {
          std::size_t ti = items.size() - 1 - k, di = decl->shape.size() - 1 - k;
          if (decl->shape[di].str() == sym && to_int(items[ti]) == *t) items[ti] = std::to_string(u);
        }
        l.set_kw("tile", list_text(items));
      }
    }
    if (detail.empty()) detail = " (" + sym + "/" + std::to_string(*t) + " -> " + sym + "/" + std::to_string(u) + ")";
    out.applied = true;
  }
  out.what = "tile " + out.param + " on every load over " + sym + detail;
  return out;
}

MoveOutcome move_par_dispatch(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  static const std::vector<std::string> values{"8", "16", "32"};
  MoveOutcome out;
  out.param = req.param.empty() ? pick(values, rng) : req.param;
  for (auto& l : lines)
    if (l.kw("par_dispatch") && *l.kw("par_dispatch") != out.param) {
      l.set_kw("par_dispatch", out.param);
      out.applied = true;
    }
  out.what = "par_dispatch=" + out.param + " on every off-chip load and store";
  return out;
}

MoveOutcome move_write_back(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  MoveOutcome out;
  out.param = req.param.empty() ? (rng.unit() < 0.8 ? "0" : "1") : req.param;
  std::vector<std::size_t> cand;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (const auto* w = lines[i].kw("write_back_mu"); w && *w != out.param) cand.push_back(i);
  if (cand.empty()) return {};
  Line& l = lines[pick(cand, rng)];
  l.set_kw("write_back_mu", out.param);
  out.applied = true;
  out.what = "write_back_mu=" + out.param + " on " + l.targets.front();
  return out;
}

MoveOutcome move_compute_bw(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  std::vector<std::size_t> nodes;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (const auto* b = lines[i].kw("compute_bw"); b && to_int(*b)) nodes.push_back(i);
  if (nodes.empty()) return {};
  std::size_t target = pick(nodes, rng);
  if (!req.busiest.empty() && rng.unit() < 0.7) {
    for (const auto& b : req.busiest) {
      int i = index_of_target(lines, b);
      if (i >= 0 && lines[i].kw("compute_bw") && to_int(*lines[i].kw("compute_bw"))) {
        target = static_cast<std::size_t>(i);
        break;
      }
    }
  }
  MoveOutcome out;
  out.param = req.param.empty() ? (rng.unit() < 0.5 ? "x2" : "x1.5") : req.param;
  long long old = *to_int(*lines[target].kw("compute_bw"));
  long long now = out.param == "x2" ? old * 2 : out.param == "x1.5" ? old * 3 / 2 : old / 2;
  if (now < 1 || now == old) return {};
  lines[target].set_kw("compute_bw", std::to_string(now));
  out.what = "compute_bw " + std::to_string(old) + " -> " + std::to_string(now) + " on " + lines[target].targets.front();
  // The largest other node pays for a raise (never below 32).
  std::size_t donor = lines.size();
  long long best = 0;
  for (std::size_t i : nodes)
    if (i != target && *to_int(*lines[i].kw("compute_bw")) > best) best = *to_int(*lines[i].kw("compute_bw")), donor = i;
  if (donor < lines.size() && now > old) {
    long long d = std::max<long long>(32, best - (now - old));
    lines[donor].set_kw("compute_bw", std::to_string(d));
    out.what += ", " + lines[donor].targets.front() + " " + std::to_string(best) + " -> " + std::to_string(d);
  }
  out.applied = true;
  return out;
}

MoveOutcome move_drop_const(const step::TaskDoc& task, std::vector<Line>& lines, Rng& rng) {
  std::vector<std::pair<std::size_t, std::size_t>> cand;  // load, consumer
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!is_load(lines[i]) || lines[i].args.empty()) continue;
    const auto* decl = input_decl(task, lines[i].args[0]);
    if (!decl || decl->gen != step::TensorDecl::Gen::Full) continue;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const Line& c = lines[j];
      if (c.op == "BinaryMap" && c.kw("fn") && *c.kw("fn") == "mul" && c.args.size() == 2 &&
          (c.args[0] == lines[i].targets[0] || c.args[1] == lines[i].targets[0]))
        cand.emplace_back(i, j);
    }
  }
  if (cand.empty()) return {};
  auto [li, ci] = pick(cand, rng);
  const auto* decl = input_decl(task, lines[li].args[0]);
  Line& c = lines[ci];
  std::string other = c.args[0] == lines[li].targets[0] ? c.args[1] : c.args[0];
  Line u;
  u.targets = c.targets;
  u.op = "UnaryMap";
  u.kwargs = {{"fn", "scale"}, {"c", float_text(decl->full * decl->scale)}};
  for (const auto& [k, v] : c.kwargs)
    if (k != "fn") u.kwargs.emplace_back(k, v);
  u.form = '1';
  u.args = {other};
  MoveOutcome out;
  out.applied = true;
  out.param = decl->name;
  out.what = "constant input " + decl->name + " -> UnaryMap(fn=scale, c=" + float_text(decl->full * decl->scale) +
             ") on " + c.targets.front() + ", its load dropped";
  c = u;
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li));
  return out;
}

MoveOutcome move_reuse_load(std::vector<Line>& lines, Rng& rng) {
  std::vector<std::pair<std::size_t, std::size_t>> same, similar;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (std::size_t j = i + 1; j < lines.size(); ++j)
      if (is_load(lines[i]) && is_load(lines[j]) && lines[i].args == lines[j].args)
        (lines[i].kwargs == lines[j].kwargs ? same : similar).emplace_back(i, j);
  if (same.empty() && similar.empty()) return {};
  auto [i, j] = !same.empty() && (similar.empty() || rng.unit() < 0.8) ? pick(same, rng) : pick(similar, rng);
  const std::string keep = lines[i].targets[0], drop = lines[j].targets[0];
  for (auto& l : lines)
    for (auto& a : l.args)
      if (a == drop) a = keep;
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(j));
  MoveOutcome out;
  out.applied = true;
  out.param = lines[i].args.empty() ? "" : lines[i].args[0];
  out.what = "re-load " + drop + " of " + out.param + " replaced by the stream of " + keep;
  return out;
}

// BinaryMapAccum nodes fed directly by two loads: (accum index, load a index, load b index).
std::vector<std::array<std::size_t, 3>> accum_on_loads(const std::vector<Line>& lines) {
  std::vector<std::array<std::size_t, 3>> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.op != "BinaryMapAccum" || l.args.size() != 2) continue;
    int a = index_of_target(lines, l.args[0]), b = index_of_target(lines, l.args[1]);
    if (a < 0 || b < 0 || !is_load(lines[a]) || !is_load(lines[b]) || !lines[a].kw("shape")) continue;
    if (uses(lines, l.args[0]) != 1 || uses(lines, l.args[1]) != 1) continue;
    out.push_back({i, static_cast<std::size_t>(a), static_cast<std::size_t>(b)});
  }
  return out;
}

MoveOutcome move_parallel_split(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  auto cand = accum_on_loads(lines);
  if (cand.empty()) return {};
  auto [ci, ai, bi] = pick(cand, rng);
  MoveOutcome out;
  out.param = req.param.empty() ? (rng.unit() < 0.5 ? "2" : "4") : req.param;
  auto n = to_int(out.param);
  if (!n || *n < 2 || *n > 8) return {};
  const long long L = static_cast<long long>(list_items(*lines[ai].kw("shape")).size());
  auto used = all_names(lines);
  const Line acc = lines[ci];
  std::vector<Line> add;
  std::vector<std::vector<std::string>> lanes(2);
  for (int side = 0; side < 2; ++side) {
    const std::string& src = acc.args[side];
    Line f{{fresh(used, src + "f")}, "Flatten", {{"min", std::to_string(L - 1)}, {"max", std::to_string(L)}}, '1', {src}};
    Line p;
    for (long long k = 0; k < *n; ++k) p.targets.push_back(fresh(used, src + std::to_string(k)));
    p.op = "Parallelize";
    p.kwargs = {{"n", out.param}, {"rank", std::to_string(L - 1)}};
    p.args = {f.targets[0]};
    lanes[side] = p.targets;
    add.push_back(f);
    add.push_back(p);
  }
  Line re{{acc.targets[0]}, "StaticReassemble", {{"rank", std::to_string(std::max<long long>(0, L - 2))}}, 'l', {}};
  for (long long k = 0; k < *n; ++k) {
    Line c = acc;
    c.targets = {fresh(used, acc.targets[0] + std::to_string(k))};
    if (const auto* bw = acc.kw("compute_bw"); bw && to_int(*bw)) c.set_kw("compute_bw", std::to_string(*to_int(*bw) / *n));
    c.args = {lanes[0][k], lanes[1][k]};
    re.args.push_back(c.targets[0]);
    add.push_back(c);
  }
  add.push_back(re);
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(ci));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(ci), add.begin(), add.end());
  out.applied = true;
  out.what = "parallel split of " + acc.targets[0] + " into " + out.param + " lanes (Parallelize/StaticReassemble)";
  return out;
}

MoveOutcome move_add_tree(std::vector<Line>& lines, Rng& rng) {
  auto cand = accum_on_loads(lines);
  if (cand.empty()) return {};
  auto [ci, ai, bi] = pick(cand, rng);
  auto shape = list_items(*lines[ai].kw("shape"));
  if (shape.empty()) return {};
  // The reduction's trip count halved: "K/128" -> "K/256", "8" -> "4", "K" -> "K/2".
  std::string last = shape.back(), chunk;
  if (auto v = to_int(last)) {
    chunk = std::to_string(*v / 2);
  } else if (auto slash = last.rfind('/'); slash != std::string::npos && to_int(last.substr(slash + 1))) {
    chunk = last.substr(0, slash + 1) + std::to_string(*to_int(last.substr(slash + 1)) * 2);
  } else {
    chunk = last + "/2";
  }
  const long long L = static_cast<long long>(shape.size());
  auto used = all_names(lines);
  const Line acc = lines[ci];
  std::vector<Line> add;
  std::vector<std::vector<std::string>> halves(2);
  for (int side = 0; side < 2; ++side) {
    const std::string& src = acc.args[side];
    Line f{{fresh(used, src + "f")}, "Flatten", {{"min", "0"}, {"max", std::to_string(L)}}, '1', {src}};
    Line p{{fresh(used, src + "0"), fresh(used, src + "1")}, "Parallelize", {{"n", "2"}, {"rank", "0"}}, '1', {f.targets[0]}};
    add.push_back(f);
    add.push_back(p);
    for (int k = 0; k < 2; ++k) {
      Line r{{fresh(used, src + "k" + std::to_string(k))}, "Reshape", {{"chunk", chunk}, {"rank", "0"}}, '1', {p.targets[k]}};
      halves[side].push_back(r.targets[0]);
      add.push_back(r);
    }
  }
  long long bw = acc.kw("compute_bw") && to_int(*acc.kw("compute_bw")) ? *to_int(*acc.kw("compute_bw")) : 1024;
  std::vector<std::string> qs;
  for (int k = 0; k < 2; ++k) {
    Line c = acc;
    c.targets = {fresh(used, acc.targets[0] + "p" + std::to_string(k))};
    c.set_kw("compute_bw", std::to_string(std::max<long long>(32, (bw - 64) / 2)));
    c.set_kw("write_back_mu", "0");
    c.args = {halves[0][k], halves[1][k]};
    add.push_back(c);
    Line q{{fresh(used, acc.targets[0] + "q" + std::to_string(k))}, "Reshape", {{"chunk", "1"}, {"rank", "0"}}, '1', {c.targets[0]}};
    qs.push_back(q.targets[0]);
    add.push_back(q);
  }
  add.push_back(Line{{acc.targets[0]}, "BinaryMap", {{"fn", "add"}, {"write_back_mu", "0"}, {"compute_bw", "64"}}, 't', qs});
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(ci));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(ci), add.begin(), add.end());
  MoveOutcome out;
  out.applied = true;
  out.param = "2";
  out.what = "reduction of " + acc.targets[0] + " split in two halves (chunk " + chunk + ") joined by an add";
  return out;
}

std::optional<double> c_value(const Line& l) {
  const auto* c = l.kw("c");
  if (!c) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(c->c_str(), &end);
  if (end == c->c_str()) return std::nullopt;
  return v;
}

bool is_scale(const Line& l) { return l.op == "UnaryMap" && l.kw("fn") && *l.kw("fn") == "scale" && c_value(l); }

MoveOutcome move_merge(std::vector<Line>& lines, Rng& rng) {
  struct Cand {
    std::size_t at, inner;
    double c;
    std::string src;
  };
  std::vector<Cand> cand;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.op == "BinaryMap" && l.kw("fn") && *l.kw("fn") == "add" && l.args.size() == 2) {
      for (int s = 0; s < 2; ++s) {
        int h = index_of_target(lines, l.args[s]);
        if (h >= 0 && is_scale(lines[h]) && lines[h].args.size() == 1 && lines[h].args[0] == l.args[1 - s])
          cand.push_back({i, static_cast<std::size_t>(h), *c_value(lines[h]) + 1.0, l.args[1 - s]});
      }
    } else if (is_scale(l) && l.args.size() == 1) {
      int h = index_of_target(lines, l.args[0]);
      if (h >= 0 && is_scale(lines[h]) && lines[h].args.size() == 1)
        cand.push_back({i, static_cast<std::size_t>(h), *c_value(lines[h]) * *c_value(l), lines[h].args[0]});
    }
  }
  if (cand.empty()) return {};
  Cand c = pick(cand, rng);
  Line& l = lines[c.at];
  Line u{l.targets, "UnaryMap", {{"fn", "scale"}, {"c", float_text(c.c)}}, '1', {c.src}};
  for (const auto& [k, v] : l.kwargs)
    if (k != "fn" && k != "c") u.kwargs.emplace_back(k, v);
  MoveOutcome out;
  out.applied = true;
  out.param = float_text(c.c);
  out.what = "elementwise " + lines[c.inner].targets[0] + " and " + l.targets[0] + " merged into one scale (c=" +
             out.param + ")";
  l = u;
  const std::string inner = lines[c.inner].targets[0];
  if (uses(lines, inner) == 0) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(c.inner));
  return out;
}

}  // namespace

std::string_view move_name(MoveKind k) { return kNames[static_cast<int>(k)]; }

std::optional<MoveKind> move_from_name(std::string_view name) {
  for (int i = 0; i < kMoveKinds; ++i)
    if (name == kNames[i]) return static_cast<MoveKind>(i);
  return std::nullopt;
}

const std::vector<MoveKind>& all_moves() {
  static const std::vector<MoveKind> v = [] {
    std::vector<MoveKind> out;
    for (int i = 0; i < kMoveKinds; ++i) out.push_back(static_cast<MoveKind>(i));
    return out;
  }();
  return v;
}

const std::string* Line::kw(std::string_view name) const {
  for (const auto& [k, v] : kwargs)
    if (k == name) return &v;
  return nullptr;
}

void Line::set_kw(const std::string& name, const std::string& value) {
  for (auto& [k, v] : kwargs)
    if (k == name) {
      v = value;
      return;
    }
  kwargs.emplace_back(name, value);
}

std::optional<std::vector<Line>> read_lines(std::string_view impl) {
  Diagnostics diags;
  auto prog = step2::parse_program(impl, step2::ParseOptions{}, diags);
  if (!prog) return std::nullopt;
  std::vector<Line> out;
  for (const auto& s : prog->stmts) {
    Line l;
    l.targets = s.targets;
    l.op = s.op;
    for (const auto& k : s.kwargs) l.kwargs.emplace_back(k.name, k.value.text);
    l.form = s.form == step2::Statement::ArgForm::One ? '1' : s.form == step2::Statement::ArgForm::Tuple ? 't' : 'l';
    for (const auto& a : s.args) l.args.push_back(a.text());
    out.push_back(std::move(l));
  }
  return out;
}

std::string print_lines(const std::vector<Line>& lines) {
  std::string s;
  for (const auto& l : lines) {
    for (std::size_t i = 0; i < l.targets.size(); ++i) s += (i ? ", " : "") + l.targets[i];
    s += " = step." + l.op + "(";
    for (std::size_t i = 0; i < l.kwargs.size(); ++i) s += (i ? ", " : "") + l.kwargs[i].first + "=" + l.kwargs[i].second;
    s += ").apply(";
    s += l.form == 't' ? "(" : l.form == 'l' ? "[" : "";
    for (std::size_t i = 0; i < l.args.size(); ++i) s += (i ? ", " : "") + l.args[i];
    s += l.form == 't' ? ")" : l.form == 'l' ? "]" : "";
    s += ")\n";
  }
  return s;
}

std::uint64_t Rng::next() {
  std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
std::size_t Rng::below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
double Rng::unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

MoveOutcome apply_move(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  switch (req.kind) {
    case MoveKind::Tile: return move_tile(task, lines, req, rng);
    case MoveKind::ParDispatch: return move_par_dispatch(lines, req, rng);
    case MoveKind::WriteBackMu: return move_write_back(lines, req, rng);
    case MoveKind::ComputeBw: return move_compute_bw(lines, req, rng);
    case MoveKind::DropConstInput: return move_drop_const(task, lines, rng);
    case MoveKind::ReuseLoad: return move_reuse_load(lines, rng);
    case MoveKind::ParallelSplit: return move_parallel_split(lines, req, rng);
    case MoveKind::AddTreeSplit: return move_add_tree(lines, rng);
    case MoveKind::MergeElementwise: return move_merge(lines, rng);
  }
  return {};
}

}  // namespace sf::synth::opt2
