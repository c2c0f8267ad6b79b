#include "core/synth/opt2_moves.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/step/dim.hpp"
#include "core/step2/program.hpp"
#include "core/synth/opt2_moves_util.hpp"

namespace sf::synth::opt2 {

namespace detail {

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

std::optional<std::vector<long long>> dim_values(const step::TaskDoc& task, const std::string& expr) {
  std::string err;
  auto d = step::parse_dim(expr, err);
  if (!d) return std::nullopt;
  std::vector<step::SizeBinding> bs;
  for (const auto& nb : task.static_bindings()) bs.push_back(nb.sizes);
  if (task.perf_sizes) bs.push_back(*task.perf_sizes);
  if (bs.empty()) bs.push_back(task.sizes);
  std::vector<long long> out;
  for (const auto& b : bs) {
    auto v = d->eval(b);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool divides_everywhere(const step::TaskDoc& task, const std::string& expr, long long n) {
  auto vs = dim_values(task, expr);
  if (!vs || n < 1) return false;
  return std::all_of(vs->begin(), vs->end(), [n](long long v) { return v % n == 0; });
}

std::string dim_product(const std::string& a, const std::string& b) {
  if (a.empty() || a == "1") return b;
  if (b.empty() || b == "1") return a;
  return a + "*" + b;
}

std::string limit_of(const MoveRequest& req, const std::string& name) {
  for (std::size_t i = 0; i < req.busiest.size() && i < req.limits.size(); ++i)
    if (req.busiest[i] == name) return req.limits[i];
  return "";
}

bool any_limit(const MoveRequest& req, const std::string& limit) {
  return std::find(req.limits.begin(), req.limits.end(), limit) != req.limits.end();
}

}  // namespace detail

namespace {

using namespace detail;

constexpr const char* kNames[kMoveKinds] = {"tile",           "par_dispatch",     "write_back_mu", "compute_bw",
                                            "drop_const_input", "reuse_load",     "bufferize_reload",
                                            "parallel_split", "add_tree_split",   "merge_elementwise"};

std::string float_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// ---- the node-local moves -----------------------------------------------------------------------------

// par_dispatch of every memory operator. When the report names an hbm-bound node, only a raise is chosen.
MoveOutcome move_par_dispatch(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  static const std::vector<std::string> values{"8", "16", "32"};
  MoveOutcome out;
  long long now = 0;
  for (const auto& l : lines)
    if (const auto* p = l.kw("par_dispatch"); p && to_int(*p)) now = std::max(now, *to_int(*p));
  std::vector<std::string> up;
  for (const auto& v : values)
    if (*to_int(v) > now) up.push_back(v);
  out.param = !req.param.empty() ? req.param : any_limit(req, "hbm") && !up.empty() ? pick(up, rng) : pick(values, rng);
  for (auto& l : lines)
    if (l.kw("par_dispatch") && *l.kw("par_dispatch") != out.param) {
      l.set_kw("par_dispatch", out.param);
      out.applied = true;
    }
  out.what = "par_dispatch=" + out.param + " on every off-chip load and store";
  return out;
}

// write_back_mu of one node: mostly 0 (the write-back is the slow path), on a node the report says is bound
// by its write-back when there is one.
MoveOutcome move_write_back(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  MoveOutcome out;
  out.param = req.param.empty() ? (rng.unit() < 0.9 ? "0" : "1") : req.param;
  std::vector<std::size_t> cand, bound;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (const auto* w = lines[i].kw("write_back_mu"); w && *w != out.param) {
      cand.push_back(i);
      if (limit_of(req, lines[i].targets.front()) == "write_back") bound.push_back(i);
    }
  if (cand.empty()) return {};
  Line& l = lines[!bound.empty() && rng.unit() < 0.8 ? pick(bound, rng) : pick(cand, rng)];
  l.set_kw("write_back_mu", out.param);
  out.applied = true;
  out.what = "write_back_mu=" + out.param + " on " + l.targets.front();
  return out;
}

// compute_bw reallocation: one node up (the busiest compute-bound node the report names, else the busiest with
// a compute_bw, else any), paid by the other nodes not bound by compute (those the report does not name first,
// largest first; each halves before any goes down to 32). The sum is kept when the donors can pay; when they
// cannot, the answer exceeds the budget (C-COMPUTE).
MoveOutcome move_compute_bw(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  std::vector<std::size_t> nodes;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (const auto* b = lines[i].kw("compute_bw"); b && to_int(*b)) nodes.push_back(i);
  if (nodes.size() < 2) return {};  // nothing to reallocate from
  auto bw = [&](std::size_t i) { return *to_int(*lines[i].kw("compute_bw")); };
  std::size_t target = pick(nodes, rng);
  if (!req.busiest.empty() && rng.unit() < 0.8) {
    int best = -1;
    for (const auto& b : req.busiest) {
      int i = index_of_target(lines, b);
      if (i < 0 || std::find(nodes.begin(), nodes.end(), static_cast<std::size_t>(i)) == nodes.end()) continue;
      if (best < 0) best = i;
      if (limit_of(req, b) == "compute") {
        best = i;
        break;
      }
    }
    if (best >= 0) target = static_cast<std::size_t>(best);
  }
  MoveOutcome out;
  out.param = req.param.empty() ? (rng.unit() < 0.5 ? "x2" : "x1.5") : req.param;
  const long long old = bw(target);
  const long long now = out.param == "x2" ? old * 2 : out.param == "x1.5" ? old * 3 / 2 : old / 2;
  if (now < 1 || now == old) return {};
  lines[target].set_kw("compute_bw", std::to_string(now));
  out.what = "compute_bw " + std::to_string(old) + " -> " + std::to_string(now) + " on " + lines[target].targets.front();
  // Donors: the nodes the report does not name first, then named ones not bound by compute; largest first.
  auto named = [&](std::size_t i) {
    return std::find(req.busiest.begin(), req.busiest.end(), lines[i].targets.front()) != req.busiest.end();
  };
  std::vector<std::size_t> donors;
  for (std::size_t i : nodes)
    if (i != target && limit_of(req, lines[i].targets.front()) != "compute") donors.push_back(i);
  std::stable_sort(donors.begin(), donors.end(), [&](std::size_t a, std::size_t b) {
    return named(a) != named(b) ? !named(a) : bw(a) > bw(b);
  });
  // First every donor halves at most; only then do donors go down to 32.
  long long owed = now - old;
  std::vector<long long> was;
  for (std::size_t d : donors) was.push_back(bw(d));
  for (int pass = 0; pass < 2 && owed > 0; ++pass)
    for (std::size_t k = 0; k < donors.size() && owed > 0; ++k) {
      const long long floor = pass == 0 ? was[k] / 2 : 32;
      const long long give = std::min(owed, std::max<long long>(0, bw(donors[k]) - floor));
      lines[donors[k]].set_kw("compute_bw", std::to_string(bw(donors[k]) - give));
      owed -= give;
    }
  for (std::size_t k = 0; k < donors.size(); ++k)
    if (bw(donors[k]) != was[k])
      out.what += ", " + lines[donors[k]].targets.front() + " " + std::to_string(was[k]) + " -> " +
                  std::to_string(bw(donors[k]));
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
    case MoveKind::BufferizeReload: return move_bufferize_reload(lines, req, rng);
    case MoveKind::ParallelSplit: return move_parallel_split(task, lines, req, rng);
    case MoveKind::AddTreeSplit: return move_add_tree(task, lines, rng);
    case MoveKind::MergeElementwise: return move_merge(lines, rng);
  }
  return {};
}

}  // namespace sf::synth::opt2
