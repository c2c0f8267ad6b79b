// The rewrite moves that restructure streams (docs/synth.md, "STeP-25 optimiser"): tile shape, reusing a
// re-load (implicit Broadcast or Bufferize/Streamify), the parallel split and the add-tree split of a
// reduction. Each edits the program text and never checks the result.
#include <algorithm>
#include <array>
#include <cctype>

#include "core/synth/opt2_moves_util.hpp"

namespace sf::synth::opt2::detail {

namespace {

// The divisor t of the first whole "X/t" in `text`, nullopt when none.
std::optional<long long> divisor_in(const std::string& text, const std::string& sym) {
  const std::string pat = sym + "/";
  for (std::size_t p = text.find(pat); p != std::string::npos; p = text.find(pat, p + 1)) {
    if (p > 0 && ident_char(text[p - 1])) continue;
    std::size_t e = p + pat.size(), d = e;
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

struct TileChoice {
  std::string sym;
  long long from = 0, to = 0;
};

// The tile edits a careful author considers: size symbol X iterated as X/t by some load, the new extent
// u = 2t or t/2 dividing X under every binding (a column extent stays a multiple of 16 floats: 64 bytes).
std::vector<TileChoice> tile_choices(const step::TaskDoc& task, const std::vector<Line>& lines) {
  std::vector<TileChoice> out;
  for (const auto& [sym, _] : task.sizes) {
    std::optional<long long> t;
    bool column = false;
    for (const auto& l : lines) {
      if (!is_load(l) || !l.kw("shape")) continue;
      auto d = divisor_in(*l.kw("shape"), sym);
      if (!d) continue;
      t = t ? t : d;
      if (const auto* decl = l.args.empty() ? nullptr : input_decl(task, l.args[0]);
          decl && !decl->shape.empty() && decl->shape.back().str() == sym)
        column = true;
    }
    if (!t) continue;
    for (long long u : {*t * 2, *t / 2}) {
      if (u < 1 || (u < *t && *t % 2 != 0) || (column && u % 16 != 0)) continue;
      if (divides_everywhere(task, sym, u)) out.push_back({sym, *t, u});
    }
  }
  return out;
}

}  // namespace

// Tile extent along X: every "X/t" of the program (shape, stride, repeat, chunk, ...) becomes "X/u", each
// load's tile entry along X follows, and an Accum's out=Tile entry at the same position that still says t.
MoveOutcome move_tile(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  auto choices = tile_choices(task, lines);
  if (!req.param.empty()) {
    // A rule's "X*2" / "X/2": applied when it is one of the edits that divide (a rule from another task may not).
    std::erase_if(choices, [&](const TileChoice& c) {
      return req.param != c.sym + (c.to > c.from ? "*2" : "/2");
    });
  } else {
    // Larger tiles mean fewer, larger PMU reads; smaller ones are tried a quarter of the time.
    std::vector<TileChoice> up, down;
    for (const auto& c : choices) (c.to > c.from ? up : down).push_back(c);
    if (!up.empty() && (down.empty() || rng.unit() < 0.75)) choices = up;
    else if (!down.empty()) choices = down;
  }
  if (choices.empty()) return {};
  const TileChoice c = pick(choices, rng);
  MoveOutcome out;
  out.param = c.sym + (c.to > c.from ? "*2" : "/2");
  std::set<int> tile_pos;  // 0 rows, 1 columns: where a load's tile followed
  for (auto& l : lines) {
    if (is_load(l) && l.kw("tile") && !l.args.empty() && l.kw("shape") && divisor_in(*l.kw("shape"), c.sym)) {
      auto items = list_items(*l.kw("tile"));
      if (const auto* decl = input_decl(task, l.args[0]); decl && !items.empty()) {
        for (std::size_t k = 0; k < items.size() && k < decl->shape.size(); ++k) {
          std::size_t ti = items.size() - 1 - k, di = decl->shape.size() - 1 - k;
          if (decl->shape[di].str() == c.sym && to_int(items[ti]) == c.from) {
            items[ti] = std::to_string(c.to);
            if (items.size() == 2) tile_pos.insert(static_cast<int>(ti));
          }
        }
        l.set_kw("tile", list_text(items));
      }
    }
    for (auto& [k, v] : l.kwargs)
      if (v.find(c.sym + "/") != std::string::npos) v = replace_div(v, c.sym, c.from, c.to);
  }
  for (auto& l : lines) {
    const auto* o = l.op == "Accum" ? l.kw("out") : nullptr;
    if (!o || o->rfind("Tile[", 0) != 0) continue;
    auto items = list_items(o->substr(4));
    for (int p : tile_pos)
      if (items.size() == 2 && to_int(items[p]) == c.from) items[p] = std::to_string(c.to);
    l.set_kw("out", "Tile" + list_text(items));
  }
  out.applied = true;
  out.what = "tile " + out.param + " (" + c.sym + "/" + std::to_string(c.from) + " -> " + c.sym + "/" +
             std::to_string(c.to) + " in every shape and stride, the tiles along " + c.sym + " with them)";
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

// A re-load of a tensor that an earlier load already reads with the same tile: the earlier stream is held on
// chip (Bufferize over its innermost b dims) and replayed (Streamify). When the re-load has one more dim of
// stride 0 than the first load, that dim becomes Streamify's repeat (r > 1, the dims inside it buffered) or a
// Promote (a size-1 dim). Fails like a hand edit: a buffer too large for the chip (C-ONCHIP), a replay that
// waits on a consumer of the first stream (C-DEADLOCK).
MoveOutcome move_bufferize_reload(std::vector<Line>& lines, const MoveRequest& req, Rng& rng) {
  struct Cand {
    std::size_t first, again;
    int inserted = -1;  // position of the extra stride-0 dim in the re-load's shape, -1 when the shapes agree
  };
  std::vector<Cand> cand;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const Line &a = lines[i], &b = lines[j];
      if (!is_load(a) || !is_load(b) || a.args != b.args || !a.kw("tile") || !b.kw("tile") || *a.kw("tile") != *b.kw("tile"))
        continue;
      if (!a.kw("shape") || !b.kw("shape") || !a.kw("stride") || !b.kw("stride")) continue;
      auto s1 = list_items(*a.kw("shape")), s2 = list_items(*b.kw("shape"));
      auto t1 = list_items(*a.kw("stride")), t2 = list_items(*b.kw("stride"));
      if (s1.empty() || s1.size() != t1.size() || s2.size() != t2.size()) continue;
      if (s1 == s2 && t1 == t2) {
        cand.push_back({i, j, -1});
        continue;
      }
      if (s2.size() != s1.size() + 1) continue;
      for (std::size_t q = 0; q < s2.size(); ++q) {
        if (t2[q] != "0") continue;
        auto rs = s2, rt = t2;
        rs.erase(rs.begin() + static_cast<std::ptrdiff_t>(q));
        rt.erase(rt.begin() + static_cast<std::ptrdiff_t>(q));
        const std::size_t inner = s2.size() - 1 - q;
        if (rs == s1 && rt == t1 && (s2[q] == "1" || inner >= 1)) {
          cand.push_back({i, j, static_cast<int>(q)});
          break;
        }
      }
    }
  if (cand.empty()) return {};
  const Cand c = pick(cand, rng);
  const Line first = lines[c.first], again = lines[c.again];
  const auto s2 = list_items(*again.kw("shape"));
  const long long L = static_cast<long long>(list_items(*first.kw("shape")).size());
  const std::size_t inner = c.inserted < 0 ? 0 : s2.size() - 1 - static_cast<std::size_t>(c.inserted);
  const bool repeat = c.inserted >= 0 && s2[c.inserted] != "1";
  long long b = 1;
  if (repeat) {
    b = static_cast<long long>(inner);  // the buffered group is what the repeated dim encloses
  } else if (auto p = to_int(req.param); p && *p >= 1 && *p <= L) {
    b = *p;
  } else if (rng.unit() >= 0.6) {
    b = 1 + static_cast<long long>(rng.below(static_cast<std::size_t>(L)));  // sometimes a larger block
  }
  auto used = all_names(lines);
  const std::string drop = again.targets[0];
  std::vector<Line> add;
  Line bz{{fresh(used, drop + "_buf")}, "Bufferize", {{"rank", std::to_string(b)}}, '1', {first.targets[0]}};
  Line sz{{drop}, "Streamify", {}, '1', {bz.targets[0]}};
  if (repeat) sz.kwargs.emplace_back("repeat", "[" + s2[c.inserted] + "]");
  sz.kwargs.emplace_back("rank", std::to_string(b));
  add.push_back(bz);
  if (c.inserted >= 0 && !repeat) {
    sz.targets = {fresh(used, drop + "_str")};
    add.push_back(sz);
    add.push_back(Line{{drop}, "Promote", {{"rank", std::to_string(inner)}}, '1', {sz.targets[0]}});
  } else {
    add.push_back(sz);
  }
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(c.again));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(c.again), add.begin(), add.end());
  MoveOutcome out;
  out.applied = true;
  out.param = std::to_string(b);
  out.what = "re-load " + drop + " of " + (first.args.empty() ? "?" : first.args[0]) + " -> Bufferize(rank=" +
             out.param + ") of " + first.targets[0] + " + Streamify" + (repeat ? "(repeat=[" + s2[c.inserted] + "])" : "") +
             (c.inserted >= 0 && !repeat ? " + Promote" : "");
  return out;
}

namespace {

// BinaryMapAccum(rank=1) nodes fed directly by two loads of equal shape: (accum index, load a, load b).
std::vector<std::array<std::size_t, 3>> accum_on_loads(const std::vector<Line>& lines) {
  std::vector<std::array<std::size_t, 3>> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.op != "BinaryMapAccum" || l.args.size() != 2 || !l.kw("rank") || *l.kw("rank") != "1") continue;
    int a = index_of_target(lines, l.args[0]), b = index_of_target(lines, l.args[1]);
    if (a < 0 || b < 0 || !is_load(lines[a]) || !is_load(lines[b]) || !lines[a].kw("shape")) continue;
    if (uses(lines, l.args[0]) != 1 || uses(lines, l.args[1]) != 1) continue;
    out.push_back({i, static_cast<std::size_t>(a), static_cast<std::size_t>(b)});
  }
  return out;
}

// Flatten(min, max) of `src`, then Parallelize(n, rank = min) into n lanes named src0, src1, ...: appends both
// statements to `add` and returns the lanes.
std::vector<std::string> flatten_and_deal(const std::string& src, long long min, long long max, long long n,
                                          std::set<std::string>& used, std::vector<Line>& add) {
  Line f{{fresh(used, src + "f")}, "Flatten", {{"min", std::to_string(min)}, {"max", std::to_string(max)}}, '1', {src}};
  Line p{{}, "Parallelize", {{"n", std::to_string(n)}, {"rank", std::to_string(min)}}, '1', {f.targets[0]}};
  for (long long k = 0; k < n; ++k) p.targets.push_back(fresh(used, src + std::to_string(k)));
  add.push_back(f);
  add.push_back(p);
  return p.targets;
}

// Reshapes that turn a stream whose outermost dim is the product of `dims` (rank r) back into [1, dims...]
// (rank r + dims.size()): the last one is named `target`.
std::vector<Line> restore_dims(std::vector<std::string> dims, long long r, const std::string& src,
                               const std::string& target, std::set<std::string>& used) {
  std::vector<Line> out;
  std::string cur = src;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    std::string chunk;
    for (std::size_t m = k; m < dims.size(); ++m) chunk = dim_product(chunk, dims[m]);
    const bool last = k + 1 == dims.size();
    Line l{{last ? target : fresh(used, target + "_r" + std::to_string(k))}, "Reshape",
           {{"chunk", chunk}, {"rank", std::to_string(r)}}, '1', {cur}};
    cur = l.targets[0];
    out.push_back(l);
  }
  return out;
}

}  // namespace

// The accumulation's (m, n) loop split over lanes: both operand streams have their leading 1 and outer p shape
// dims merged (Flatten), dealt to n lanes (Parallelize), one accumulator per lane at 1/n of the compute_bw,
// joined (StaticReassemble) and reshaped back to the original dims. n is chosen among 2, 4, 8 dividing the
// merged extent under every binding.
MoveOutcome move_parallel_split(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req,
                                Rng& rng) {
  struct Cand {
    std::array<std::size_t, 3> at;
    long long p, n;
  };
  std::vector<Cand> cand;
  for (const auto& at : accum_on_loads(lines)) {
    const auto shape = list_items(*lines[at[1]].kw("shape"));
    std::string merged;
    for (std::size_t p = 1; p < shape.size(); ++p) {
      merged = dim_product(merged, shape[p - 1]);
      for (long long n : {2LL, 4LL, 8LL})
        if ((req.param.empty() || to_int(req.param) == n) && divides_everywhere(task, merged, n))
          cand.push_back({at, static_cast<long long>(p), n});
    }
  }
  if (cand.empty()) return {};
  const Cand c = pick(cand, rng);
  const auto [ci, ai, bi] = c.at;
  const auto shape = list_items(*lines[ai].kw("shape"));
  const long long L = static_cast<long long>(shape.size());
  MoveOutcome out;
  out.param = std::to_string(c.n);
  auto used = all_names(lines);
  const Line acc = lines[ci];
  std::vector<Line> add;
  std::vector<std::vector<std::string>> lanes(2);
  for (int side = 0; side < 2; ++side) lanes[side] = flatten_and_deal(acc.args[side], L - c.p, L, c.n, used, add);
  Line re{{fresh(used, acc.targets[0] + "_all")}, "StaticReassemble", {{"rank", std::to_string(L - c.p - 1)}}, 'l', {}};
  for (long long k = 0; k < c.n; ++k) {
    Line lane = acc;
    lane.targets = {fresh(used, acc.targets[0] + std::to_string(k))};
    if (const auto* bw = acc.kw("compute_bw"); bw && to_int(*bw))
      lane.set_kw("compute_bw", std::to_string(std::max<long long>(1, *to_int(*bw) / c.n)));
    lane.args = {lanes[0][k], lanes[1][k]};
    re.args.push_back(lane.targets[0]);
    add.push_back(lane);
  }
  add.push_back(re);
  auto back = restore_dims({shape.begin(), shape.begin() + c.p}, L - c.p - 1, re.targets[0], acc.targets[0], used);
  add.insert(add.end(), back.begin(), back.end());
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(ci));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(ci), add.begin(), add.end());
  out.applied = true;
  out.what = "parallel split of " + acc.targets[0] + " into " + out.param + " lanes over its outer " +
             std::to_string(c.p) + " dim(s) (Flatten/Parallelize/StaticReassemble)";
  return out;
}

// The reduction split in two halves: both operand streams flattened and dealt tile by tile to two
// accumulators (each sums every other k tile; Reshape restores the k groups of half the length), the two
// partial sums joined by an add and reshaped back to the output dims. Needs an even number of k tiles under
// every binding.
MoveOutcome move_add_tree(const step::TaskDoc& task, std::vector<Line>& lines, Rng& rng) {
  std::vector<std::array<std::size_t, 3>> cand;
  for (const auto& at : accum_on_loads(lines)) {
    const auto shape = list_items(*lines[at[1]].kw("shape"));
    if (!shape.empty() && divides_everywhere(task, shape.back(), 2)) cand.push_back(at);
  }
  if (cand.empty()) return {};
  auto [ci, ai, bi] = pick(cand, rng);
  const auto shape = list_items(*lines[ai].kw("shape"));
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
    const auto lanes = flatten_and_deal(src, 0, L, 2, used, add);
    for (int k = 0; k < 2; ++k) {
      Line r{{fresh(used, src + "k" + std::to_string(k))}, "Reshape", {{"chunk", chunk}, {"rank", "0"}}, '1', {lanes[k]}};
      halves[side].push_back(r.targets[0]);
      add.push_back(r);
    }
  }
  long long bw = acc.kw("compute_bw") && to_int(*acc.kw("compute_bw")) ? *to_int(*acc.kw("compute_bw")) : 1024;
  std::vector<std::string> parts;
  for (int k = 0; k < 2; ++k) {
    Line c = acc;
    c.targets = {fresh(used, acc.targets[0] + "p" + std::to_string(k))};
    c.set_kw("compute_bw", std::to_string(std::max<long long>(32, (bw - 64) / 2)));
    c.set_kw("write_back_mu", "0");
    c.args = {halves[0][k], halves[1][k]};
    parts.push_back(c.targets[0]);
    add.push_back(c);
  }
  const std::string sum = shape.size() > 1 ? fresh(used, acc.targets[0] + "_sum") : acc.targets[0];
  add.push_back(Line{{sum}, "BinaryMap", {{"fn", "add"}, {"write_back_mu", "0"}, {"compute_bw", "64"}}, 't', parts});
  auto back = restore_dims({shape.begin(), shape.end() - 1}, 0, sum, acc.targets[0], used);
  add.insert(add.end(), back.begin(), back.end());
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(ci));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(ci), add.begin(), add.end());
  MoveOutcome out;
  out.applied = true;
  out.param = "2";
  out.what = "reduction of " + acc.targets[0] + " split in two halves (chunk " + chunk + ") joined by an add";
  return out;
}

}  // namespace sf::synth::opt2::detail
