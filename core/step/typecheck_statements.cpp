// The type checker's statements (step-dialect §7): assignments, list comprehensions and the returned
// outputs, with the static element limits checked as each stream is defined (§15.2).

#include "core/step/typecheck_internal.hpp"

namespace sf::step::typecheck_detail {

// Static element counts (§15.2). Dynamic dims count as the selector's positions (an upper bound).
void Checker::check_limits(const std::string& name, const StreamType& t, const Location& loc) {
  if (!opt_.check_limits || limit_reported_) return;
  for (std::size_t bi = 0; bi < bindings_.size(); ++bi) {
    auto pos = positions(t, bi);
    const SizeBinding& b = with_dynamic(bi);
    auto es = element_scalars(t.dtype, b);
    if (!pos || !es) continue;
    std::int64_t n = sat_mul(*pos, *es);
    totals_[bi] = sat_add(totals_[bi], n);
    if (n > opt_.max_stream_scalars) {
      error("L-ELEMENTS", loc,
            "stream '" + name + "' would hold " + big_str(n) + " scalars under " + binding_name_ + " " + binding_str(*bindings_[bi]) +
                ", over the limit of " + std::to_string(opt_.max_stream_scalars) + " per stream");
      limit_reported_ = true;
      return;
    }
    if (totals_[bi] > opt_.max_total_scalars) {
      error("L-ELEMENTS", loc,
            "the program's streams would hold " + big_str(totals_[bi]) + " scalars in total under " + binding_name_ + " " +
                binding_str(*bindings_[bi]) + " (after stream '" + name + "'), over the limit of " +
                std::to_string(opt_.max_total_scalars));
      limit_reported_ = true;
      return;
    }
  }
}

std::string Checker::big_str(std::int64_t v) {
  if (v == INT64_MAX) return "more than 9.2e18";
  return std::to_string(v);
}

std::string Checker::binding_str(const SizeBinding& b) {
  std::vector<std::string> xs;
  for (const auto& [k, v] : b) xs.push_back(k + "=" + std::to_string(v));
  return "{" + join(xs) + "}";
}

// `t` is a typed statement's output (the environment keeps a pointer to it).
void Checker::define(const std::string& name, const StreamType& t, const Location& loc) {
  Value v;
  v.kind = Kind::Stream;
  v.st = &t;
  bind(name, std::move(v));
  check_limits(name, t, loc);
}

void Checker::poison(const Statement& s) {
  for (const auto& t : s.targets) bind(t, Value{});
}

void Checker::unknown_prim(const PrimCall& call, const Statement& s) {
  error("P-PRIM", call.prim_loc,
        "unknown primitive 'step." + call.prim + "' (known: " + primitive_names_text() + ")");
  poison(s);
}

void Checker::assign(const Statement& s, TypedStatement& ts) {
  auto p = prim_from_name(s.call.prim);
  if (!p) {
    unknown_prim(s.call, s);
    return;
  }
  ts.call.prim = *p;
  // Targets.
  std::size_t nt = s.targets.size();
  auto targets_error = [&](const std::string& msg) {
    error("T-TARGETS", s.loc, msg);
    poison(s);
  };
  const PrimOuts produces = prim_info(*p).outs;
  if (produces == PrimOuts::Two && nt != 2) {
    targets_error("step.Copy produces two streams: write `A, B = step.Copy().apply(X)`");
    return;
  }
  if (produces == PrimOuts::One && nt != 1) {
    targets_error("step." + std::string(prim_name(*p)) + " produces one stream, but " + std::to_string(nt) +
                  " targets are given");
    return;
  }
  std::vector<StreamType> outs;
  bool list_result = false;
  bool ok = apply(s, s.call, *p, ts, outs, list_result, nullptr, nullptr);
  if (!ok) {
    poison(s);
    return;
  }
  ts.outs = std::move(outs);  // read below as ts.outs
  ts.list_result = list_result;
  if (*p == Prim::Partition) {
    if (nt == 1) {
      Value v;
      v.kind = Kind::List;
      v.items = &ts.outs;
      bind(s.targets[0], std::move(v));
      for (std::size_t e = 0; e < ts.outs.size(); ++e)
        check_limits(s.targets[0] + "[" + std::to_string(e) + "]", ts.outs[e], s.loc);
    } else if (nt == ts.outs.size()) {
      ts.list_result = false;
      for (std::size_t e = 0; e < nt; ++e) define(s.targets[e], ts.outs[e], s.loc);
    } else {
      error("T-TARGETS", s.loc,
            "step.Partition(N=" + std::to_string(ts.call.N) + ") produces a list of " +
                std::to_string(ts.outs.size()) + " streams: write one name for the list or exactly " +
                std::to_string(ts.outs.size()) + " names");
      poison(s);
    }
    return;
  }
  for (std::size_t i = 0; i < nt; ++i) define(s.targets[i], ts.outs[i < ts.outs.size() ? i : 0], s.loc);
}

void Checker::comprehension(const Statement& s, TypedStatement& ts) {
  const Comprehension& c = s.comp;
  auto p = prim_from_name(c.body.prim);
  if (!p) {
    unknown_prim(c.body, s);
    return;
  }
  if (!is_comprehension_body(*p)) {
    error("T-ARG", c.body.prim_loc,
          "step." + c.body.prim + " cannot be the body of a list comprehension (allowed: " +
              comprehension_body_names_text() + ")");
    poison(s);
    return;
  }
  // The stream list (types in the environment, not copied).
  std::vector<std::pair<std::string, const StreamType*>> items;
  if (!c.list_literal.empty()) {
    for (std::size_t i = 0; i < c.list_literal.size(); ++i) {
      const Value* v = lookup(c.list_literal[i]);
      if (!v || v->kind == Kind::Poison) {
        poison(s);
        return;
      }
      if (v->kind != Kind::Stream) {
        error("T-ARG", c.list_literal_locs[i],
              "a list comprehension iterates over streams, but '" + c.list_literal[i] + "' is not a stream");
        poison(s);
        return;
      }
      items.emplace_back(c.list_literal[i], v->st);
    }
  } else {
    const Value* v = lookup(c.list_name);
    if (!v || v->kind == Kind::Poison) {
      poison(s);
      return;
    }
    if (v->kind != Kind::List) {
      error("T-ARG", c.list_loc,
            "a list comprehension iterates over a stream list, but '" + c.list_name + "' is " +
                (v->kind == Kind::FnList ? "a fn list" : "a single stream"));
      poison(s);
      return;
    }
    for (std::size_t e = 0; e < v->items->size(); ++e)
      items.emplace_back(c.list_name + "[" + std::to_string(e) + "]", &(*v->items)[e]);
  }
  // The fns.
  std::vector<const FnDecl*> fns;
  bool have_fns = !c.fn_var.empty();
  if (have_fns) {
    std::string fns_label;
    if (!c.fns_literal.empty()) {
      for (std::size_t i = 0; i < c.fns_literal.size(); ++i) {
        const FnDecl* f = find_fn(c.fns_literal[i]);
        if (!f) {
          error("T-FN-UNKNOWN", c.fns_literal_locs[i],
                "'" + c.fns_literal[i] + "' is not a fn of this task (available: " + available_fns() + ")");
          poison(s);
          return;
        }
        fns.push_back(f);
      }
      fns_label = "[" + join(c.fns_literal) + "]";
    } else {
      const Value* v = lookup(c.fns_name);
      if (!v || v->kind == Kind::Poison) {
        poison(s);
        return;
      }
      if (v->kind != Kind::FnList) {
        error("T-ARG", c.fns_loc, "'" + c.fns_name + "' is not a fn list: write NAME = [fn_a, fn_b] first");
        poison(s);
        return;
      }
      if (std::find(v->fns.begin(), v->fns.end(), nullptr) != v->fns.end()) {
        poison(s);
        return;
      }
      fns = v->fns;
      fns_label = c.fns_name;
    }
    std::string list_label = c.list_literal.empty() ? c.list_name : "[" + join(c.list_literal) + "]";
    if (fns.size() != items.size()) {
      std::string a = c.fns_first ? fns_label : list_label, b = c.fns_first ? list_label : fns_label;
      std::size_t na = c.fns_first ? fns.size() : items.size(), nb = c.fns_first ? items.size() : fns.size();
      // Message form of §5.3: "zip({a}, {b}): {a} has {n} fns but {b} has {m} streams" (fns side first).
      (void)na;
      (void)nb;
      error("T-ZIP-LEN", c.list_loc,
            "zip(" + a + ", " + b + "): " + fns_label + " has " + std::to_string(fns.size()) + " fns but " +
                list_label + " has " + std::to_string(items.size()) + " streams");
      poison(s);
      return;
    }
  }
  bool all_ok = true;
  std::vector<StreamType> outs;
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::map<std::string, const FnDecl*> fv;
    if (have_fns) fv[c.fn_var] = fns[i];
    TypedStatement tmp;
    std::vector<StreamType> o;
    bool lr = false;
    std::pair<std::string, const StreamType*> item{c.stream_var, items[i].second};
    std::size_t before = count_errors();
    if (!apply(s, c.body, *p, tmp, o, lr, &item, have_fns ? &fv : nullptr)) {
      all_ok = false;
      if (count_errors() != before) break;  // one report per comprehension
      continue;
    }
    if (i == 0) ts.call = tmp.call;
    ts.inputs.push_back(*items[i].second);
    outs.push_back(std::move(o[0]));
  }
  if (!all_ok || s.targets.empty()) {
    poison(s);
    return;
  }
  ts.fns = fns;
  ts.outs = std::move(outs);
  ts.list_result = true;
  Value v;
  v.kind = Kind::List;
  v.items = &ts.outs;
  bind(s.targets[0], std::move(v));
  for (std::size_t e = 0; e < ts.outs.size(); ++e)
    check_limits(s.targets[0] + "[" + std::to_string(e) + "]", ts.outs[e], s.loc);
}

void Checker::returns(const Statement& s, TypedProgram& tp) {
  std::vector<std::pair<std::string, const StreamType*>> got;  // types in the environment, not copied
  bool poisoned = false;
  for (const auto& r : s.returns) {
    if (r.kind == Ref::Kind::List) {
      poisoned = true;  // O-LIST reported by the affine checker
      continue;
    }
    const Value* v = lookup(r.name);
    if (!v || v->kind == Kind::Poison) {
      poisoned = true;
      continue;
    }
    if (r.kind == Ref::Kind::Index) {
      if (v->kind != Kind::List || r.index < 0 || r.index >= static_cast<std::int64_t>(v->items->size())) {
        if (v->kind == Kind::List)
          error("N-INDEX", r.loc,
                "'" + r.name + "' has " + std::to_string(v->items->size()) + " streams, so index " +
                    std::to_string(r.index) + " is out of range");
        poisoned = true;
        continue;
      }
      got.emplace_back(ref_text(r), &(*v->items)[static_cast<std::size_t>(r.index)]);
      continue;
    }
    if (v->kind != Kind::Stream) {
      poisoned = true;  // lists: O-LIST (affine checker); fn lists: not streams
      if (v->kind == Kind::FnList)
        error("O-DTYPE", r.loc, "'" + r.name + "' is a fn list, not a stream; only streams can be returned");
      continue;
    }
    got.emplace_back(r.name, v->st);
  }
  if (poisoned) return;
  const auto& outs = task_.outputs;
  if (got.size() != outs.size()) {
    std::vector<std::string> names;
    for (const auto& o : outs) names.push_back(o.name);
    error("O-COUNT", s.loc,
          "the program returns " + std::to_string(got.size()) + " stream(s) but the task has " +
              std::to_string(outs.size()) + " output(s) (" + join(names) + ")");
    return;
  }
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::string& xn = got[i].first;
    const StreamType& x = *got[i].second;
    const Location& loc = s.returns[i].loc;
    if (x.dtype != outs[i].dtype) {
      error("O-DTYPE", loc,
            "output " + outs[i].name + " must have dtype " + outs[i].dtype.str() + ", but '" + xn + "' has dtype " +
                x.dtype.str());
      continue;
    }
    if (x.dims != outs[i].dims) {
      std::string hint;
      bool dynamic = std::any_of(x.dims.begin(), x.dims.end(), [](const Dim& d) { return d.is_dynamic(); });
      if (dynamic) {
        hint = " (a Partition result must be merged before it is returned)";
      } else if (x.dims.size() == outs[i].dims.size() &&
                 std::is_permutation(x.dims.begin(), x.dims.end(), outs[i].dims.begin())) {
        hint = " (same dims in a different order)";
      }
      error("O-DIMS", loc,
            "output " + outs[i].name + " must have dims " + dims_str(outs[i].dims) + ", but '" + xn +
                "' has dims " + dims_str(x.dims) + hint);
      continue;
    }
    tp.returns.push_back(x);
  }
}

}  // namespace sf::step::typecheck_detail
