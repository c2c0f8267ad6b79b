// The type checker's side of the primitive rules (step-dialect §8): one primitive application's arguments,
// parameters and fns, with Zip/Map's tuple arguments and Partition/Merge's selectors, typed by the rules of
// prim_rules.hpp (the output dims and when there are none) and the arity of the primitive table; a failed
// rule becomes its diagnostic here, with the spec's text at its location.
#include "core/step/prim_rules.hpp"
#include "core/step/typecheck_internal.hpp"

namespace sf::step::typecheck_detail {

// Types one primitive application. For comprehension bodies `item` supplies the loop stream's type and
// `fn_var` maps the fn variable to the item's fn.
bool Checker::apply(const Statement& s, const PrimCall& c, Prim p, TypedStatement& ts, std::vector<StreamType>& outs,
                    bool& list_result, const std::pair<std::string, const StreamType*>* item,
                    const std::map<std::string, const FnDecl*>* fn_var) {
  Params ps = collect_params(c, p);
  ResolvedCall& rc = ts.call;
  rc.prim = p;
  bool ok = ps.ok;
  const FnDecl* f = nullptr;
  auto kw = [&](std::string_view k) -> const Kwarg* {
    return ps.find(k);
  };
  if (const Kwarg* k = kw("fn")) {
    bool stateful = p != Prim::Map;
    f = fn_param(p, *k, stateful, fn_var);
    if (!f || f->stateful() != stateful) ok = false;
    rc.fn = f;
  }
  // Argument streams.
  const ApplyArg& arg = c.arg;
  // A single argument stream: its text and its type (the loop item's, or the environment's; not copied).
  struct SingleArg {
    std::string name;
    const StreamType* st = nullptr;  // null: not a single stream (reported, or poisoned)
  };
  auto single = [&](std::string_view expects) -> SingleArg {
    if (item) {
      if (arg.tuple || arg.refs.size() != 1 || arg.refs[0].kind != Ref::Kind::Name ||
          arg.refs[0].name != item->first) {
        return {};  // A-LOOP reported by the affine checker
      }
      return {item->first, item->second};
    }
    if (arg.tuple || arg.refs.size() != 1) {
      t_arg(p, arg.loc, expects, what_arg(arg));
      return {};
    }
    bool reported = false;
    const StreamType* st = stream_ref(arg.refs[0], p, expects, reported);
    if (!st) return {};
    return {ref_text(arg.refs[0]), st};
  };

  // The one-input primitives share one prologue: the argument must be a single stream, recorded as the input.
  static const StreamType kNoInput{};
  SingleArg sx;
  if (takes_one_stream(p)) {
    sx = single("a single stream");
    if (!sx.st) return false;
    ts.inputs.push_back(*sx.st);
  }
  const std::string& xn = sx.name;
  const StreamType& x = sx.st ? *sx.st : kNoInput;

  switch (p) {
    case Prim::Map: {
      std::optional<std::pair<std::string, StreamType>> zipped;
      SingleArg mx;
      if (arg.tuple && !item) {
        zipped = zip_args(p, arg);
        if (!zipped) return false;
        mx = {std::move(zipped->first), &zipped->second};
      } else {
        mx = single("a single stream or a tuple of streams");
        if (!mx.st) return false;
      }
      ts.inputs.push_back(*mx.st);
      if (!ok || !f) return false;
      if (!check_fn_input(p, *f, mx.name, *mx.st, arg.loc)) return false;
      outs.push_back(StreamType{f->output, mx.st->dims});
      return true;
    }
    case Prim::Zip: {
      if (!arg.tuple) {
        t_arg(p, arg.loc, "a tuple of at least two streams", what_arg(arg));
        return false;
      }
      auto z = zip_args(p, arg);
      if (!z) return false;
      ts.inputs.push_back(z->second);
      if (!ok) return false;
      outs.push_back(z->second);
      return true;
    }
    case Prim::Accum:
    case Prim::Scan: {
      const Kwarg* kb = kw("b");
      std::optional<int> k = kb ? int_param(p, *kb) : std::nullopt;
      if (!k || !ok || !f) return false;
      int r = x.rank();
      if (!rule::fold_depth(*k, r).ok()) {
        std::string verb = p == Prim::Accum ? "reduces" : "scans";
        rank_error(p, *kb, "step." + std::string(prim_name(p)) + "(b=" + std::to_string(*k) + ") " + verb +
                               " the " + std::to_string(*k) +
                               " innermost dimension(s), so b must be between 1 and the rank of " +
                               describe(xn, x) + ".",
                   *k, r);
        return false;
      }
      rc.b = *k;
      if (!check_fn_input(p, *f, xn, x, arg.loc)) return false;
      StreamType& y = outs.emplace_back(StreamType{f->output, {}});
      if (p == Prim::Accum) {
        rule::accum_dims(x.dims, *k, y.dims);
      } else {
        rule::scan_dims(x.dims, y.dims);
      }
      return true;
    }
    case Prim::Bufferize: {
      const Kwarg* ka = kw("a");
      std::optional<int> k = ka ? int_param(p, *ka) : std::nullopt;
      if (!k || !ok) return false;
      int r = x.rank();
      StreamType y;
      const rule::Check chk = rule::bufferize(x.dims, x.dtype.is_tuple(), *k, &y.dims);
      if (chk.why == rule::Why::Tuple) {
        error(chk.code, arg.loc,
              "step.Bufferize cannot buffer tuple elements (" + describe(xn, x) +
                  "): Map them to a single field first");
        return false;
      }
      if (!chk.ok()) {
        rank_error(p, *ka, "step.Bufferize(a=" + std::to_string(*k) + ") packs the " + std::to_string(*k) +
                               " innermost dimension(s) into a buffer, so a must be between 1 and the rank of " +
                               describe(xn, x) + ".",
                   *k, r);
        return false;
      }
      rc.a = *k;
      ScalarType st = x.dtype.scalar();
      const auto packed = rule::bufferize_packed(x.dims, *k);
      st.buffer.insert(st.buffer.end(), packed.begin(), packed.end());
      y.dtype = DType::of(st);
      outs.push_back(std::move(y));
      return true;
    }
    case Prim::Streamify: {
      if (!ok) return false;
      const bool buffers = !x.dtype.is_tuple() && x.dtype.scalar().is_buffer();
      StreamType y;
      const rule::Check chk = rule::streamify(
          x.dims, buffers, buffers ? std::span<const Dim>(x.dtype.scalar().buffer) : std::span<const Dim>(),
          &y.dims);
      if (!chk.ok()) {
        error(chk.code, arg.loc,
              "step.Streamify needs a stream of Buffer elements, but " + describe(xn, x) +
                  " does not carry buffers");
        return false;
      }
      y.dtype = DType::of(x.dtype.scalar().unbuffered());
      outs.push_back(std::move(y));
      return true;
    }
    case Prim::Promote: {
      const Kwarg* kb = kw("b");
      std::optional<int> k = kb ? int_param(p, *kb) : std::nullopt;
      if (!k || !ok) return false;
      int r = x.rank();
      StreamType y{x.dtype, {}};
      const rule::Check chk = rule::promote(x.dims, *k, &y.dims);
      if (!chk.ok()) {
        error(chk.code, kb->value.loc,
              "step.Promote(b=" + std::to_string(*k) +
                  "): b is where the new size-1 dimension goes, from 0 (new innermost) to rank+1 = " +
                  std::to_string(r + 1) + " (new outermost), for " + describe(xn, x));
        return false;
      }
      rc.b = *k;
      outs.push_back(std::move(y));
      return true;
    }
    case Prim::Repeat: {
      const Kwarg* kn = kw("n");
      std::optional<Dim> n = kn ? dim_param(p, *kn) : std::nullopt;
      if (!n || !ok) return false;
      rc.n = *n;
      rule::repeat_dims(x.dims, *n, outs.emplace_back(StreamType{x.dtype, {}}).dims);
      return true;
    }
    case Prim::RepeatRef: {
      if (!arg.tuple || arg.refs.size() != 2) {
        t_arg(p, arg.loc, "a tuple (data, ref)", what_arg(arg));
        return false;
      }
      bool reported = false;
      auto xd = stream_ref(arg.refs[0], p, "a tuple (data, ref)", reported);
      auto rr = stream_ref(arg.refs[1], p, "a tuple (data, ref)", reported);
      if (!xd || !rr || !ok) return false;
      ts.inputs = {*xd, *rr};
      int r = xd->rank();
      StreamType y{xd->dtype, {}};
      const rule::Check chk = rule::repeat_ref(xd->dims, rr->dims, &y.dims);
      if (!chk.ok()) {
        std::string reason = chk.why == rule::Why::RefRank
                                 ? "it has rank " + std::to_string(rr->rank())
                                 : "its outer dims " + dims_str(Dims(rr->dims.begin() + 1, rr->dims.end())) +
                                       " differ from " + dims_str(xd->dims);
        error(chk.code, arg.refs[1].loc,
              "step.RepeatRef: the reference " + describe(ref_text(arg.refs[1]), *rr) + " must have rank " +
                  std::to_string(r + 1) + " and dims [n] + " + dims_str(xd->dims) +
                  " (the data's dims with one extra innermost dimension); " + reason);
        return false;
      }
      rc.n = rr->dims[0];
      outs.push_back(std::move(y));
      return true;
    }
    case Prim::Flatten: {
      const Kwarg* kl = kw("L");
      if (!kl || !ok) return false;
      int r = x.rank();
      std::vector<std::int64_t> L;
      bool good = kl->value.kind == KwVal::Kind::IntList && !kl->value.list.empty();
      if (good) {  // L lists consecutive dims lo..hi, and the span is the rule's
        L = kl->value.list;
        for (std::size_t i = 1; i < L.size(); ++i)
          if (L[i] != L[i - 1] + 1) good = false;
        if (good && !rule::flatten_span(L.front(), L.back(), r).ok()) good = false;
      }
      if (!good) {
        error("T-PARAM-VALUE", kl->value.loc,
              "step.Flatten(L=" + kwval_text(kl->value) +
                  "): L must list consecutive dimensions l…h with 1 ≤ l and h ≤ rank of " + describe(xn, x) +
                  "; dimension l−1 absorbs dimensions l…h");
        return false;
      }
      int lo = static_cast<int>(L.front()), hi = static_cast<int>(L.back());
      rc.L = {lo, hi};
      rule::flatten_dims(x.dims, lo, hi, outs.emplace_back(StreamType{x.dtype, {}}).dims);
      return true;
    }
    case Prim::Reshape: {
      const Kwarg* kl = kw("L");
      const Kwarg* ks = kw("S");
      std::optional<Dim> split = ks ? dim_param(p, *ks) : std::nullopt;
      if (!kl || !split || !ok) return false;
      const Dim& c_dim = *split;
      int r = x.rank();
      std::vector<std::int64_t> L;
      if (kl->value.kind == KwVal::Kind::IntList) {
        L = kl->value.list;
        std::sort(L.begin(), L.end());
      }
      std::string bad;
      switch (rule::reshape_indices(std::span<const std::int64_t>(L), r).why) {
        case rule::Why::Ok:
          break;
        case rule::Why::Empty:
          bad = "L must be a non-empty list of dimension indices";
          break;
        case rule::Why::Duplicate:
          bad = "the indices in L must be distinct";
          break;
        default:
          bad = "every index must be between 0 and the rank of " + describe(xn, x);
          break;
      }
      if (!bad.empty()) {
        param_value(p, *kl, bad);
        return false;
      }
      rc.S = c_dim;
      for (auto j : L) rc.L.push_back(static_cast<int>(j));
      // Divisibility under every binding.
      for (auto j : L) {
        const Dim& sj = x.dims[static_cast<std::size_t>(j)];
        for (std::size_t bi = 0; bi < bindings_.size(); ++bi) {
          auto v = sj.eval_nonneg(*bindings_[bi]);
          auto w = c_dim.eval(*bindings_[bi]);
          if (v && w && *v % *w != 0) {
            error("T-RESHAPE-DIV", ks->value.loc,
                  "step.Reshape(L=" + kwval_text(kl->value) + ", S=" + c_dim.str() + "): dimension " +
                      std::to_string(j) + " of " + describe(xn, x) + " has size " + sj.str() + " = " +
                      std::to_string(*v) + ", which is not a multiple of " + c_dim.str() + " = " + std::to_string(*w));
            return false;
          }
        }
      }
      rule::reshape_dims(x.dims, std::span<const std::int64_t>(L), c_dim,
                         outs.emplace_back(StreamType{x.dtype, {}}).dims);
      return true;
    }
    case Prim::Copy:
    case Prim::Identity: {
      if (!ok) return false;
      outs.push_back(x);
      if (p == Prim::Copy) {
        outs.push_back(x);
      } else {
        diags_.push_back(make_warning("W-IDENTITY", line_prefix(c.loc) + "step.Identity has no effect", c.loc));
      }
      return true;
    }
    case Prim::Partition: return partition(s, c, ts, outs, list_result, ps, ok);
    case Prim::Merge: return merge(c, ts, outs, f, ok);
  }
  return false;
}

void Checker::rank_error(Prim p, const Kwarg& k, std::string msg, int kval, int r) {
  (void)p;
  if (r == 0) {
    msg += " A rank-0 stream has nothing to reduce: add a placeholder dimension with step.Promote(b=1) (remove it "
           "later with step.Flatten).";
  } else if (kval == r + 1) {
    msg += " The outermost dimension cannot be reduced directly: add an outer placeholder with step.Promote(b=" +
           std::to_string(r + 1) + ").";
  }
  // The spec's message has no trailing period before the hint for Bufferize/Accum; keep "rank of X." + hint.
  error("T-RANK", k.value.loc, msg);
}

std::optional<std::pair<std::string, StreamType>> Checker::zip_args(Prim p, const ApplyArg& arg) {
  std::vector<std::pair<std::string, const StreamType*>> xs;  // types in the environment, not copied
  bool reported = false, poisoned = false;
  for (const auto& r : arg.refs) {
    const StreamType* st = stream_ref(r, p, "a tuple of streams", reported);
    if (!st) {
      poisoned = true;
      continue;
    }
    xs.emplace_back(ref_text(r), st);
  }
  if (poisoned) return std::nullopt;
  const std::string& n1 = xs[0].first;
  const StreamType& x1 = *xs[0].second;
  if (std::size_t j =
          rule::zip_mismatch(xs.size(), [&](std::size_t i) -> const Dims& { return xs[i].second->dims; });
      j < xs.size()) {
    const std::string& nj = xs[j].first;
    const StreamType& xj = *xs[j].second;
    std::string hint;
    if (xj.dims.size() == x1.dims.size()) {
      auto a = x1.dims, b = xj.dims;
      auto key = [](const Dim& d) { return d.str(); };
      std::sort(a.begin(), a.end(), [&](auto& l, auto& r) { return key(l) < key(r); });
      std::sort(b.begin(), b.end(), [&](auto& l, auto& r) { return key(l) < key(r); });
      if (a == b) {
        hint = "(same dims in a different order)";
      } else {
        bool same_values = true;
        for (const SizeBinding* bnd : bindings_) {
          for (std::size_t i = 0; i < a.size(); ++i) {
            auto va = x1.dims[i].eval_nonneg(*bnd), vb = xj.dims[i].eval_nonneg(*bnd);
            if (!va || !vb || *va != *vb) same_values = false;
          }
          break;  // the main binding decides
        }
        if (same_values) {
          for (std::size_t i = 0; i < a.size(); ++i) {
            if (x1.dims[i] != xj.dims[i]) {
              hint = "(dims " + x1.dims[i].str() + " vs " + xj.dims[i].str() +
                     " are different symbols even if their values agree)";
              break;
            }
          }
        }
      }
    } else {
      bool j_more = xj.dims.size() > x1.dims.size();
      std::size_t d = j_more ? xj.dims.size() - x1.dims.size() : x1.dims.size() - xj.dims.size();
      hint = "(" + (j_more ? nj : n1) + " has " + std::to_string(d) +
             " more dimension(s): Accum, Repeat or RepeatRef can align them)";
    }
    error("T-ZIP-DIMS", arg.refs[j].loc,
          "step." + std::string(prim_name(p)) + " needs streams with equal dims, but " + describe(nj, xj) +
              " differs from " + describe(n1, x1) + (hint.empty() ? "" : " " + hint));
    return std::nullopt;
  }
  DType t = xs[0].second->dtype;
  std::vector<std::string> names{xs[0].first};
  for (std::size_t j = 1; j < xs.size(); ++j) {
    t = concat(t, xs[j].second->dtype);
    names.push_back(xs[j].first);
  }
  return std::make_pair("(" + join(names) + ")", StreamType{t, x1.dims});
}

bool Checker::selector_type(Prim p, const std::string& cn, const StreamType& c, const Location& loc) {
  const rule::Check chk =
      rule::selector_type(!c.dtype.is_tuple() && !c.dtype.scalar().is_buffer() && c.dtype.scalar().multihot);
  if (!chk.ok()) {
    error(chk.code, loc,
          "step." + std::string(prim_name(p)) + ": the selector " + describe(cn, c) +
              " must carry Multihot elements");
    return false;
  }
  return true;
}

std::optional<std::int64_t> Checker::lanes_value(const StreamType& c) const {
  return c.dtype.scalar().lanes.eval(*bindings_[0]);
}

bool Checker::partition(const Statement& s, const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs,
                        bool& list_result, Params& ps, bool ok) {
  const ApplyArg& arg = c.arg;
  if (!arg.tuple || arg.refs.size() != 2) {
    t_arg(Prim::Partition, arg.loc, "a tuple (data, selector)", what_arg(arg));
    return false;
  }
  bool reported = false;
  auto x = stream_ref(arg.refs[0], Prim::Partition, "a tuple (data, selector)", reported);
  auto sel = stream_ref(arg.refs[1], Prim::Partition, "a tuple (data, selector)", reported);
  if (!x || !sel) return false;
  ts.inputs = {*x, *sel};
  std::string xn = ref_text(arg.refs[0]), cn = ref_text(arg.refs[1]);
  // N = INT, size symbol or X_value: the bound integer.
  std::optional<std::int64_t> n;
  if (const Kwarg* kn = ps.find("N")) {
    const KwVal& v = kn->value;
    if (v.kind == KwVal::Kind::Int && v.integer > 0) {
      n = v.integer;
    } else if (v.kind == KwVal::Kind::Name && is_size_symbol(v.name)) {
      n = bindings_[0]->at(v.name);
    } else if (v.kind == KwVal::Kind::Name && is_size_value(v.name)) {
      n = bindings_[0]->at(v.name.substr(0, v.name.size() - 6));
    } else {
      param_value(Prim::Partition, *kn, "N must be a positive integer, a size symbol or X_value");
      return false;
    }
  }
  if (!ok || !n) return false;
  if (!selector_type(Prim::Partition, cn, *sel, arg.refs[1].loc)) return false;
  auto lv = lanes_value(*sel);
  if (const rule::Check chk = rule::selector_lanes(lv.has_value(), lv.value_or(0), *n); !chk.ok()) {
    error(chk.code, ps.find("N")->value.loc,
          "step.Partition(N=" + std::to_string(*n) + "): the selector has " +
              sel->dtype.scalar().lanes.str() + " = " + (lv ? std::to_string(*lv) : std::string("?")) +
              " lanes; N must equal it");
    return false;
  }
  int r = x->rank(), rc = sel->rank();
  if (const rule::Check chk = rule::partition_selector(x->dims, sel->dims); !chk.ok()) {
    std::string outer = rc > r ? "fewer than " + std::to_string(rc + 1)
                               : dims_str(Dims(x->dims.begin() + (r - rc), x->dims.end()));
    error(chk.code, arg.refs[1].loc,
          "step.Partition: the selector dims " + dims_str(sel->dims) + " must equal the " +
              std::to_string(rc + 1) + " outermost dims of the data " + describe(xn, *x) + ", which are " +
              outer);
    return false;
  }
  ts.call.N = *n;
  std::string base = s.targets.empty() ? "L" : s.targets[0];
  // The bound of each dynamic dim: the selector's positions (the bindings are copied on the first one).
  if (extended_.empty())
    for (const SizeBinding* b : bindings_) extended_.push_back(*b);
  for (std::size_t bi = 0; bi < bindings_.size(); ++bi) {
    auto pos = positions(*sel, bi);
    for (std::int64_t e = 0; e < *n; ++e) extended_[bi][base + "#" + std::to_string(e)] = pos.value_or(0);
  }
  for (std::int64_t e = 0; e < *n; ++e)
    rule::partition_dims(x->dims, sel->dims, Dim::dynamic(base, static_cast<int>(e)),
                         outs.emplace_back(StreamType{x->dtype, {}}).dims);
  list_result = true;
  return true;
}

bool Checker::merge(const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs, const FnDecl* f, bool ok) {
  const ApplyArg& arg = c.arg;
  const char* expects = "a tuple (list, selector) whose list is a stream list or [A, B, ...]";
  if (!arg.tuple || arg.refs.size() != 2) {
    t_arg(Prim::Merge, arg.loc, expects, what_arg(arg));
    return false;
  }
  const Ref& lr = arg.refs[0];
  std::vector<std::pair<std::string, const StreamType*>> items;  // types in the environment, not copied
  std::string ln = ref_text(lr);
  bool reported = false;
  if (lr.kind == Ref::Kind::List) {
    bool poisoned = false;
    for (const auto& it : lr.items) {
      const StreamType* st = stream_ref(it, Prim::Merge, expects, reported);
      if (!st) {
        poisoned = true;
        continue;
      }
      items.emplace_back(ref_text(it), st);
    }
    if (poisoned) return false;
  } else {
    const Value* v = lr.kind == Ref::Kind::Name ? lookup(lr.name) : nullptr;
    if (lr.kind == Ref::Kind::Name && v && v->kind == Kind::Poison) return false;
    if (!v || v->kind != Kind::List) {
      t_arg(Prim::Merge, lr.loc, expects, what_ref(lr));
      return false;
    }
    for (std::size_t e = 0; e < v->items->size(); ++e)
      items.emplace_back(lr.name + "[" + std::to_string(e) + "]", &(*v->items)[e]);
  }
  auto sel = stream_ref(arg.refs[1], Prim::Merge, expects, reported);
  if (!sel) return false;
  for (const auto& it : items) ts.inputs.push_back(*it.second);
  ts.inputs.push_back(*sel);
  if (items.empty()) {
    t_arg(Prim::Merge, lr.loc, expects, "an empty list");
    return false;
  }
  const StreamType& t0 = *items[0].second;
  for (std::size_t e = 0; e < items.size(); ++e) {
    const StreamType& te = *items[e].second;
    if (const rule::Check chk = rule::merge_item(te.dims, t0.dims, te.dtype == t0.dtype); !chk.ok()) {
      error(chk.code, lr.loc,
            "step.Merge: the streams of " + ln + " must share dtype and all dims but the outermost; stream " +
                std::to_string(e) + " is " + describe(items[e].first, te) + " but stream 0 is " +
                describe(items[0].first, t0));
      return false;
    }
  }
  std::string cn = ref_text(arg.refs[1]);
  if (!selector_type(Prim::Merge, cn, *sel, arg.refs[1].loc)) return false;
  auto lv = lanes_value(*sel);
  if (const rule::Check chk =
          rule::selector_lanes(lv.has_value(), lv.value_or(0), static_cast<std::int64_t>(items.size()));
      !chk.ok()) {
    error(chk.code, arg.refs[1].loc,
          "step.Merge: " + ln + " has " + std::to_string(items.size()) + " streams but the selector has " +
              sel->dtype.scalar().lanes.str() + " = " + (lv ? std::to_string(*lv) : std::string("?")) +
              " lanes");
    return false;
  }
  if (!ok || !f) return false;
  if (!check_fn_input(Prim::Merge, *f, ln, t0, lr.loc)) return false;
  rule::merge_dims(t0.dims, sel->dims, outs.emplace_back(StreamType{f->output, {}}).dims);
  return true;
}

}  // namespace sf::step::typecheck_detail
