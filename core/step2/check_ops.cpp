// The step-v2 operators' kwargs and type rules (docs/step25.md "Operators" and "Type-rule details"), applied
// to concrete shapes under one size binding. Every failure names the operator and the kwarg or argument, the
// value seen, the value expected and the fix.
#include <algorithm>
#include <map>
#include <set>

#include "core/step2/check_internal.hpp"

namespace sf::step2::detail {

namespace {

ElemType tile_elem(TileShape t) {
  ElemType e;
  e.tile = t;
  return e;
}
ElemType buffer_elem(TileShape t, std::vector<std::int64_t> shape) {
  ElemType e;
  e.tile = t;
  e.is_buffer = true;
  e.buffer_shape = std::move(shape);
  return e;
}

std::string tile_text(TileShape t) { return "Tile[" + std::to_string(t.rows) + ", " + std::to_string(t.cols) + "]"; }

std::string list_text(const std::vector<std::int64_t>& v) { return shape_text(v); }

std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
  std::int64_t p = 1;
  for (std::size_t i = from; i < to && i < v.size(); ++i) p = (v[i] > 0 && p > INT64_MAX / v[i]) ? INT64_MAX : p * v[i];
  return p;
}

class Rule {
 public:
  Rule(Ctx& c, const StmtIn& in, Kwargs& kw) : c_(c), in_(in), kw_(kw), st_(*in.st), op_(in.info->name) {}

  // ---- kwargs ----
  bool resolve() {
    bool ok = true;
    std::map<std::string, const Kwarg*> seen;
    std::set<std::string> hinted;
    for (const Kwarg& k : st_.kwargs) {
      auto spec = std::find_if(in_.info->kwargs.begin(), in_.info->kwargs.end(),
                               [&](const KwSpec& s) { return k.name == s.name; });
      if (spec == in_.info->kwargs.end()) {
        std::string hint = step_py_hint(in_.info->op, k.name);
        bool known_here = !hint.empty() && std::any_of(in_.info->kwargs.begin(), in_.info->kwargs.end(),
                                                       [&](const KwSpec& s) { return hint == s.name; });
        std::string allowed;
        for (const auto& s : in_.info->kwargs) allowed += (allowed.empty() ? "" : ", ") + std::string(s.name);
        if (k.name == "pad" || k.name == "add_outer_dim" || k.name == "filter")
          error("T2-ARG", k.loc, "step." + op_ + ": kwarg '" + k.name + "' is phase 2 of STeP-25 and not available; "
                                 "expected one of " + allowed + "; fix: remove it");
        else if (known_here && hinted.insert(hint).second)
          error("T2-ARG", k.loc, "step." + op_ + ": unknown kwarg '" + k.name + "' (step_py's name); StepForge "
                                 "spells it '" + hint + "'; fix: write " + hint + "=" + k.value.text);
        else
          error("T2-ARG", k.loc, "step." + op_ + ": unknown kwarg '" + k.name + "'; expected one of " +
                                     (allowed.empty() ? "none" : allowed) + "; fix: remove or rename it");
        ok = false;
        continue;
      }
      if (!seen.emplace(k.name, &k).second) {
        error("T2-ARG", k.loc, "step." + op_ + ": kwarg '" + k.name + "' is given twice; fix: keep one");
        ok = false;
      }
    }
    for (const auto& s : in_.info->kwargs)
      if (s.required && !seen.count(s.name) && !hinted.count(s.name)) {
        error("T2-ARG", st_.op_loc, "step." + op_ + ": missing kwarg '" + std::string(s.name) + "'; fix: add " +
                                        s.name + "=" + example(s));
        ok = false;
      }
    if (!ok) return false;
    for (const auto& [name, k] : seen) ok &= value(*k);
    return ok;
  }

  static std::string example(const KwSpec& s) {
    switch (s.kind) {
      case KwKind::Fn: return "<fn>, e.g. fn=matmul";
      case KwKind::List: return "[...]";
      case KwKind::Tile: return "Tile[r, c]";
      case KwKind::Float: return "<number>";
      case KwKind::Int: break;
    }
    if (std::string_view(s.name) == "compute_bw") return "<integer >= 1>";
    if (std::string_view(s.name) == "par_dispatch") return "4";
    if (std::string_view(s.name) == "write_back_mu") return "0 or 1";
    return "<integer>";
  }

  std::string bind_note() const {
    return c_.sizes == c_.task.sizes ? "" : " under " + step::binding_text(c_.sizes);
  }

  std::optional<std::int64_t> dim_value(const step::Dim& d, const std::string& kw, Location loc) {
    std::string why;
    auto v = d.eval_nonneg(c_.sizes, &why);
    if (!v) {
      error("T2-ARG", loc, "step." + op_ + ": " + kw + " contains " + d.str() + ", which is not a non-negative integer" +
                               bind_note() + " (" + why + "); fix: use a dim that divides exactly");
      return std::nullopt;
    }
    return v;
  }

  std::map<std::string, std::int64_t> ints;
  std::map<std::string, std::vector<std::int64_t>> lists;

  bool value(const Kwarg& k) {
    const KwSpec& s = *std::find_if(in_.info->kwargs.begin(), in_.info->kwargs.end(),
                                    [&](const KwSpec& x) { return k.name == x.name; });
    const KwValue& v = k.value;
    auto kind_error = [&](const char* expected) {
      error("T2-ARG", v.loc, "step." + op_ + ": " + k.name + "=" + v.text + " has the wrong kind of value; expected " +
                                 expected + "; fix: write " + k.name + "=" + example(s));
      return false;
    };
    switch (s.kind) {
      case KwKind::Int: {
        if (v.kind != KwValue::Kind::Dim) return kind_error("an integer");
        auto x = dim_value(v.dim, k.name, v.loc);
        if (!x) return false;
        ints[k.name] = *x;
        return true;
      }
      case KwKind::Fn: {
        if (v.kind != KwValue::Kind::Dim || v.name.empty()) return kind_error("a tile-function name");
        auto f = find_fn(v.name);
        if (!f) {
          std::string all;
          for (const auto& x : fn_table()) all += (all.empty() ? "" : ", ") + std::string(x.name);
          error("T2-FN", v.loc, "step." + op_ + ": unknown fn '" + v.name + "'; expected one of " + all +
                                    "; fix: use a library fn");
          return false;
        }
        kw_.fn = *f;
        kw_fn_ = true;
        return true;
      }
      case KwKind::Float: {
        if (v.kind == KwValue::Kind::Float) kw_.c = v.number;
        else if (v.kind == KwValue::Kind::Dim && v.dim.is_constant() && v.dim.den() == 1) kw_.c = static_cast<double>(v.dim.num());
        else return kind_error("a number");
        c_set_ = true;
        return true;
      }
      case KwKind::List: {
        if (v.kind != KwValue::Kind::List) return kind_error("a list [d0, d1, ...]");
        std::vector<std::int64_t> out;
        for (const auto& d : v.list) {
          auto x = dim_value(d, k.name, v.loc);
          if (!x) return false;
          out.push_back(*x);
        }
        lists[k.name] = out;
        return true;
      }
      case KwKind::Tile: {
        if (v.kind != KwValue::Kind::Tile) return kind_error("Tile[r, c]");
        auto r = dim_value(v.list[0], k.name, v.loc), cc = dim_value(v.list[1], k.name, v.loc);
        if (!r || !cc) return false;
        if (*r < 1 || *cc < 1) {
          error("T2-TILE", v.loc, "step." + op_ + ": " + k.name + "=" + v.text + " has an empty tile; expected "
                                  "rows and columns >= 1");
          return false;
        }
        kw_.tile = {*r, *cc};
        return true;
      }
    }
    return false;
  }

  Location kwloc(const char* k) const {
    for (const auto& x : st_.kwargs)
      if (x.name == k) return x.value.loc;
    return st_.op_loc;
  }
  std::string kwtext(const char* k) const {
    for (const auto& x : st_.kwargs)
      if (x.name == k) return x.name + "=" + x.value.text;
    return k;
  }

  void error(const char* code, Location loc, const std::string& msg) {
    c_.err(code, loc, msg + (bind_note().empty() ? "" : " (" + bind_note().substr(1) + ")"));
  }

  // ---- common kwarg checks ----
  bool range(const char* k, std::int64_t lo, std::int64_t hi, const char* code, const std::string& what) {
    auto it = ints.find(k);
    if (it == ints.end()) return true;
    if (it->second < lo || it->second > hi) {
      error(code, kwloc(k), "step." + op_ + ": " + kwtext(k) + (bind_note().empty() ? "" : " = " + std::to_string(it->second)) +
                                " is out of range; expected " + what + "; fix: use a value in [" + std::to_string(lo) +
                                ", " + std::to_string(hi) + "]");
      return false;
    }
    return true;
  }
  bool compute_kwargs() {
    bool ok = true;
    if (ints.count("compute_bw")) {
      kw_.compute_bw = ints["compute_bw"];
      if (kw_.compute_bw < 1) {
        error("C-BW", kwloc("compute_bw"), "step." + op_ + ": compute_bw=" + std::to_string(kw_.compute_bw) +
                                               " is below 1 (the cost model divides FLOPs by it); expected an integer "
                                               ">= 1; fix: give this node a share of the budget, e.g. compute_bw=1024");
        ok = false;
      }
    }
    if (ints.count("write_back_mu")) {
      ok &= range("write_back_mu", 0, 1, "T2-ARG", "0 (keep the result on chip) or 1 (write it back to the PMU)");
      kw_.write_back_mu = static_cast<int>(ints["write_back_mu"]);
    }
    return ok;
  }
  bool par_dispatch() {
    kw_.par_dispatch = static_cast<int>(std::min<std::int64_t>(ints["par_dispatch"], 1 << 30));
    if (ints["par_dispatch"] < 1) {
      error("C-BW", kwloc("par_dispatch"), "step." + op_ + ": par_dispatch=" + std::to_string(ints["par_dispatch"]) +
                                               " is below 1 (requests are issued in bundles of par_dispatch); "
                                               "expected an integer >= 1; fix: par_dispatch=4");
      return false;
    }
    return true;
  }
  bool tile_input(std::size_t i, const char* what) {
    if (i < in_.ins.size() && in_.ins[i].elem.is_buffer) {
      error("T2-DTYPE", in_.in_locs[i], "step." + op_ + ": " + what + " is a stream of " + elem_text(in_.ins[i].elem) +
                                            "; expected a stream of tiles; fix: Streamify the buffers first");
      return false;
    }
    return true;
  }
  bool rank_kw(const char* k, std::int64_t lo, std::int64_t hi) {
    return range(k, lo, hi, "T2-RANK",
                 std::to_string(lo) + " <= " + k + " <= " + std::to_string(hi) + " for an input of shape " +
                     shape_text(in_.ins.empty() ? std::vector<std::int64_t>{} : in_.ins[0].shape));
  }
  bool fn_kind_is(std::initializer_list<FnKind> ks, const std::string& expected) {
    FnKind k = fn_kind(kw_.fn);
    if (std::find(ks.begin(), ks.end(), k) != ks.end() && !(in_.info->op == Op::Accum && k == FnKind::Binary &&
                                                             kw_.fn != Fn::Add && kw_.fn != Fn::Mul && kw_.fn != Fn::Max))
      return true;
    error("T2-FN", kwloc("fn"), "step." + op_ + ": fn=" + std::string(fn_name(kw_.fn)) + " cannot be used here; expected " +
                                    expected + "; fix: use one of those, or another operator");
    return false;
  }
  bool const_c() {
    bool needs = fn_kind(kw_.fn) == FnKind::Const;
    if (needs && !c_set_) {
      error("T2-FN", kwloc("fn"), "step." + op_ + ": fn=" + std::string(fn_name(kw_.fn)) +
                                      " needs its constant; fix: add c=<number>, e.g. c=0.5");
      return false;
    }
    if (!needs && c_set_) {
      error("T2-ARG", kwloc("c"), "step." + op_ + ": c= applies only to fn=scale and fn=shift, not fn=" +
                                      std::string(fn_name(kw_.fn)) + "; fix: remove c=");
      return false;
    }
    return true;
  }
  bool equal_shapes(const char* what) {
    if (in_.ins[0].shape == in_.ins[1].shape) return true;
    error("T2-SHAPE", in_.in_locs[1], "step." + op_ + ": the " + what + " have shapes " + shape_text(in_.ins[0].shape) +
                                          " and " + shape_text(in_.ins[1].shape) + "; expected equal shapes; fix: "
                                          "load or reshape both with the same outer loops");
    return false;
  }

  // ---- the rules ----
  bool run(std::vector<StreamType>& outs) {
    if (!resolve()) return false;
    const Op op = in_.info->op;
    const auto& ins = in_.ins;
    auto out1 = [&](ElemType e, std::vector<std::int64_t> shape) { outs.push_back({std::move(e), std::move(shape)}); };
    switch (op) {
      case Op::OffChipLoad: return load(outs);
      case Op::OffChipStore: {
        const bool pd = par_dispatch();  // both are reported
        return tile_input(0, "the stored stream") && pd;
      }
      case Op::UnaryMap: {
        const bool kw_ok = compute_kwargs();
        bool ok = tile_input(0, "the input") && kw_ok;
        if (!ok || !fn_kind_is({FnKind::Unary, FnKind::Reduce, FnKind::Const},
                               "a one-tile fn (silu, exp, tanh, rsqrt, square, sigmoid, gelu, relu, row_sum, row_max, "
                               "scale, shift)") || !const_c())
          return false;
        std::string why;
        auto t = fn_out_tile(kw_.fn, ins[0].elem.tile, ins[0].elem.tile, why);
        out1(tile_elem(*t), ins[0].shape);
        return true;
      }
      case Op::BinaryMap:
      case Op::BinaryMapAccum: {
        const bool kw_ok = compute_kwargs(), t0 = tile_input(0, "the first input");
        bool ok = tile_input(1, "the second input") && kw_ok && t0;
        if (!ok) return false;
        if (op == Op::BinaryMap && !fn_kind_is({FnKind::Binary, FnKind::Matmul}, "a two-tile fn (add, mul, div, sub, max, matmul, matmul_t)"))
          return false;
        if (op == Op::BinaryMapAccum && !fn_kind_is({FnKind::Matmul}, "matmul or matmul_t"))
          return false;
        if (op == Op::BinaryMap && !const_c()) return false;
        if (!equal_shapes("two input streams")) return false;
        std::string why;
        auto t = fn_out_tile(kw_.fn, ins[0].elem.tile, ins[1].elem.tile, why);
        if (!t) {
          error("T2-TILE", in_.in_locs[1], "step." + op_ + ": fn=" + std::string(fn_name(kw_.fn)) + ": " + why +
                                               "; fix: choose tile sizes that agree");
          return false;
        }
        if (op == Op::BinaryMap) {
          out1(tile_elem(*t), ins[0].shape);
          return true;
        }
        if (!rank_kw("rank", 1, ins[0].rank())) return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        out1(tile_elem(*t), {ins[0].shape.begin(), ins[0].shape.end() - kw_.rank});
        return true;
      }
      case Op::Accum: {
        const bool kw_ok = compute_kwargs();
        bool ok = tile_input(0, "the input") && kw_ok;
        if (!ok || !fn_kind_is({FnKind::Binary, FnKind::Retile}, "add, mul, max, retile_row or retile_col") ||
            !rank_kw("rank", 1, ins[0].rank()))
          return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        TileShape x = ins[0].elem.tile;
        std::int64_t g = product(ins[0].shape, ins[0].shape.size() - static_cast<std::size_t>(kw_.rank), ins[0].shape.size());
        TileShape want = x;
        if (kw_.fn == Fn::RetileRow) want.rows = x.rows * g;
        if (kw_.fn == Fn::RetileCol) want.cols = x.cols * g;
        if (!(kw_.tile == want)) {
          error("T2-TILE", kwloc("out"), "step." + op_ + ": out=" + tile_text(kw_.tile) + " but fn=" +
                                             std::string(fn_name(kw_.fn)) + " over groups of " + std::to_string(g) + " " +
                                             tile_text(x) + " gives " + tile_text(want) + "; fix: out=" + tile_text(want));
          return false;
        }
        out1(tile_elem(kw_.tile), {ins[0].shape.begin(), ins[0].shape.end() - kw_.rank});
        return true;
      }
      case Op::Broadcast: {
        if (!range("n", 1, 64, "T2-ARG", "1 <= n <= 64")) return false;
        kw_.n = static_cast<int>(ints["n"]);
        for (int i = 0; i < kw_.n; ++i) outs.push_back(ins[0]);
        return true;
      }
      case Op::Bufferize: {
        if (!tile_input(0, "the input") || !rank_kw("rank", 1, ins[0].rank())) return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        ElemType e = buffer_elem(ins[0].elem.tile, {ins[0].shape.end() - kw_.rank, ins[0].shape.end()});
        out1(e, {ins[0].shape.begin(), ins[0].shape.end() - kw_.rank});
        return true;
      }
      case Op::Streamify: {
        if (!ins[0].elem.is_buffer) {
          error("T2-DTYPE", in_.in_locs[0], "step." + op_ + ": the input is a stream of " + elem_text(ins[0].elem) +
                                                "; expected a stream of Buffers; fix: Bufferize it first");
          return false;
        }
        const auto& b = ins[0].elem.buffer_shape;
        if (!range("rank", static_cast<std::int64_t>(b.size()), static_cast<std::int64_t>(b.size()), "T2-RANK",
                   "the buffer's rank " + std::to_string(b.size()) + " (the buffer shape is " + shape_text(b) + ")"))
          return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        kw_.repeat = lists.count("repeat") ? lists["repeat"] : std::vector<std::int64_t>{};
        if (kw_.repeat.size() > 1) {
          error("T2-ARG", kwloc("repeat"), "step." + op_ + ": " + kwtext("repeat") + " has " +
                                               std::to_string(kw_.repeat.size()) + " entries; expected at most one "
                                               "(STeP-25 v2.0); fix: use one repeat entry (their product)");
          return false;
        }
        if (!kw_.repeat.empty() && kw_.repeat[0] < 1) {
          error("T2-ARG", kwloc("repeat"), "step." + op_ + ": repeat=" + list_text(kw_.repeat) +
                                               "; expected a repeat count >= 1; fix: repeat=[1] or remove it");
          return false;
        }
        std::vector<std::int64_t> s = ins[0].shape;
        s.insert(s.end(), kw_.repeat.begin(), kw_.repeat.end());
        s.insert(s.end(), b.begin(), b.end());
        out1(tile_elem(ins[0].elem.tile), s);
        return true;
      }
      case Op::RepeatStatic: {
        if (!range("n", 1, 1 << 20, "T2-ARG", "n >= 1")) return false;
        kw_.n = static_cast<int>(ints["n"]);
        std::vector<std::int64_t> s = ins[0].shape;
        s.push_back(kw_.n);
        out1(ins[0].elem, s);
        return true;
      }
      case Op::ExpandRef: {
        const auto& x = ins[0];
        const auto& r = ins[1];
        if (!range("rank", 1, r.rank(), "T2-RANK", "1 <= rank <= the reference's rank " + std::to_string(r.rank())))
          return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        std::size_t e = static_cast<std::size_t>(kw_.rank);
        std::vector<std::int64_t> want(r.shape.begin(), r.shape.end() - static_cast<long>(e));
        want.insert(want.end(), e, 1);
        if (x.shape != want) {
          error("T2-SHAPE", in_.in_locs[0], "step." + op_ + ": the expanded stream has shape " + shape_text(x.shape) +
                                                "; with ref " + shape_text(r.shape) + " and rank=" +
                                                std::to_string(e) + " expected " + shape_text(want) +
                                                "; fix: Promote or RepeatStatic it to that shape first");
          return false;
        }
        out1(x.elem, r.shape);
        return true;
      }
      case Op::Promote: {
        if (!rank_kw("rank", 0, ins[0].rank())) return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        std::vector<std::int64_t> s = ins[0].shape;
        s.insert(s.end() - kw_.rank, 1);
        out1(ins[0].elem, s);
        return true;
      }
      case Op::Flatten: {
        if (!rank_kw("min", 0, ins[0].rank()) || !rank_kw("max", 0, ins[0].rank())) return false;
        kw_.min = static_cast<int>(ints["min"]);
        kw_.max = static_cast<int>(ints["max"]);
        if (kw_.min >= kw_.max) {
          error("T2-RANK", kwloc("max"), "step." + op_ + ": min=" + std::to_string(kw_.min) + ", max=" +
                                             std::to_string(kw_.max) + "; expected min < max; fix: max=" +
                                             std::to_string(kw_.min + 1));
          return false;
        }
        const auto& s = ins[0].shape;
        std::size_t n = s.size();
        std::size_t lo = n - 1 - static_cast<std::size_t>(kw_.max), hi = n - 1 - static_cast<std::size_t>(kw_.min);
        std::vector<std::int64_t> o(s.begin(), s.begin() + static_cast<long>(lo));
        o.push_back(product(s, lo, hi + 1));
        o.insert(o.end(), s.begin() + static_cast<long>(hi) + 1, s.end());
        out1(ins[0].elem, o);
        return true;
      }
      case Op::Reshape: {
        if (!rank_kw("rank", 0, ins[0].rank()) || !range("chunk", 1, INT32_MAX, "T2-ARG", "chunk >= 1")) return false;
        if (ints.count("write_back_mu")) {
          if (!range("write_back_mu", 0, 1, "T2-ARG", "0 or 1")) return false;
          kw_.write_back_mu = static_cast<int>(ints["write_back_mu"]);
        }
        kw_.rank = static_cast<int>(ints["rank"]);
        kw_.chunk = ints["chunk"];
        auto s = ins[0].shape;
        std::size_t pos = s.size() - 1 - static_cast<std::size_t>(kw_.rank);
        if (s[pos] % kw_.chunk != 0) {
          error("T2-RANK", kwloc("chunk"), "step." + op_ + ": chunk=" + std::to_string(kw_.chunk) +
                                               " does not divide the dim " + std::to_string(s[pos]) + " at rank " +
                                               std::to_string(kw_.rank) + " of " + shape_text(s) +
                                               "; expected a divisor (padding is phase 2); fix: use a chunk that divides " +
                                               std::to_string(s[pos]));
          return false;
        }
        std::int64_t d = s[pos];
        s[pos] = d / kw_.chunk;
        s.insert(s.begin() + static_cast<long>(pos) + 1, kw_.chunk);
        out1(ins[0].elem, s);
        return true;
      }
      case Op::RetileStreamify: {
        if (!tile_input(0, "the input")) return false;
        if (ints.count("split_row") && !range("split_row", 0, 1, "T2-ARG", "0 (columns) or 1 (rows)")) return false;
        kw_.split_row = ints.count("split_row") ? static_cast<int>(ints["split_row"]) : 1;
        TileShape t = ins[0].elem.tile;
        auto s = ins[0].shape;
        s.back() *= kw_.split_row ? t.rows : t.cols;
        out1(tile_elem(kw_.split_row ? TileShape{1, t.cols} : TileShape{t.rows, 1}), s);
        return true;
      }
      case Op::Parallelize: {
        if (!range("n", 1, 64, "T2-ARG", "1 <= n <= 64") ||
            !range("rank", ins[0].rank(), ins[0].rank(), "T2-RANK", "the input's rank " + std::to_string(ins[0].rank())))
          return false;
        kw_.n = static_cast<int>(ints["n"]);
        kw_.rank = static_cast<int>(ints["rank"]);
        if (ins[0].shape[0] % kw_.n != 0) {
          error("T2-ARG", kwloc("n"), "step." + op_ + ": n=" + std::to_string(kw_.n) + " does not divide the outermost dim " +
                                          std::to_string(ins[0].shape[0]) + " of " + shape_text(ins[0].shape) +
                                          "; expected a divisor; fix: choose n dividing it");
          return false;
        }
        kw_.switch_cycles = lists.count("switch") ? lists["switch"] : std::vector<std::int64_t>{1};
        if (kw_.switch_cycles.size() != 1 && kw_.switch_cycles.size() != static_cast<std::size_t>(kw_.n)) {
          error("T2-ARG", kwloc("switch"), "step." + op_ + ": " + kwtext("switch") + " has " +
                                               std::to_string(kw_.switch_cycles.size()) + " entries; expected 1 or n = " +
                                               std::to_string(kw_.n) + "; fix: one entry per output");
          return false;
        }
        auto s = ins[0].shape;
        s[0] /= kw_.n;
        for (int i = 0; i < kw_.n; ++i) out1(ins[0].elem, s);
        return true;
      }
      case Op::StaticReassemble: {
        for (std::size_t i = 1; i < ins.size(); ++i)
          if (!(ins[i] == ins[0])) {
            error("T2-SHAPE", in_.in_locs[i], "step." + op_ + ": input " + std::to_string(i) + " is " +
                                                  type_text(ins[i]) + " but input 0 is " + type_text(ins[0]) +
                                                  "; expected equal streams; fix: reassemble the outputs of one Parallelize");
            return false;
          }
        if (!range("rank", ins[0].rank(), ins[0].rank(), "T2-RANK", "the inputs' rank " + std::to_string(ins[0].rank())))
          return false;
        kw_.rank = static_cast<int>(ints["rank"]);
        kw_.n = static_cast<int>(ins.size());
        auto s = ins[0].shape;
        s[0] *= static_cast<std::int64_t>(ins.size());
        out1(ins[0].elem, s);
        return true;
      }
    }
    return false;
  }

  bool load(std::vector<StreamType>& outs) {
    bool ok = par_dispatch();
    const auto& tile = lists["tile"];
    const auto& stride = lists["stride"];
    const auto& shape = lists["shape"];
    const auto& X = in_.tensor_shape;
    if (tile.size() != 2) {
      error("T2-ARG", kwloc("tile"), "step." + op_ + ": " + kwtext("tile") + " has " + std::to_string(tile.size()) +
                                         " entries; expected [rows, cols]; fix: tile=[128, 128]");
      return false;
    }
    if (stride.size() != shape.size()) {
      error("T2-ARG", kwloc("stride"), "step." + op_ + ": " + kwtext("stride") + " has " + std::to_string(stride.size()) +
                                           " entries but " + kwtext("shape") + " has " + std::to_string(shape.size()) +
                                           "; expected one stride per dim of shape; fix: give " +
                                           std::to_string(shape.size()) + " strides");
      return false;
    }
    for (std::int64_t d : shape)
      if (d < 1) {
        error("T2-ARG", kwloc("shape"), "step." + op_ + ": " + kwtext("shape") + " = " + list_text(shape) +
                                            " has a dim below 1; expected positive dims; fix: remove empty loops");
        return false;
      }
    std::int64_t R = X.size() >= 2 ? X[X.size() - 2] : 1, C = X.back();
    std::int64_t tr = tile[0], tc = tile[1];
    if (tr < 1 || tc < 1 || R % tr != 0 || C % tc != 0) {
      error("T2-TILE", kwloc("tile"), "step." + op_ + ": " + kwtext("tile") + " = " + list_text(tile) +
                                          " does not divide the tensor's last two dims (" + std::to_string(R) + ", " +
                                          std::to_string(C) + "); expected tr | " + std::to_string(R) + " and tc | " +
                                          std::to_string(C) + "; fix: choose dividing tile sizes");
      return false;
    }
    if ((tc * 4) % 64 != 0) {
      error("T2-TILE", kwloc("tile"), "step." + op_ + ": tile columns " + std::to_string(tc) + " are " +
                                          std::to_string(tc * 4) + " bytes, not a multiple of 64 bytes (one HBM "
                                          "request); expected tc a multiple of 16; fix: use a tile width that is a "
                                          "multiple of 16");
      return false;
    }
    kw_.tile = {tr, tc};
    kw_.stride = stride;
    kw_.shape = shape;
    std::vector<std::int64_t> s{1};
    s.insert(s.end(), shape.begin(), shape.end());
    outs.push_back({tile_elem(kw_.tile), s});
    return ok;
  }

 private:
  Ctx& c_;
  const StmtIn& in_;
  Kwargs& kw_;
  const Statement& st_;
  std::string op_;
  bool kw_fn_ = false, c_set_ = false;
};

}  // namespace

std::string elem_text(const ElemType& e) {
  std::string t = tile_text(e.tile);
  return e.is_buffer ? "Buffer[" + t + ", " + shape_text(e.buffer_shape) + "]" : t;
}

bool type_statement(Ctx& c, const StmtIn& in, Kwargs& kw, std::vector<StreamType>& outs) {
  Rule r(c, in, kw);
  return r.run(outs);
}

}  // namespace sf::step2::detail
