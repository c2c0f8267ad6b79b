// The type checker's driver: one run over the statements, the names and refs of the environment, a
// primitive's parameters and fns; and the public entry points (typecheck() runs the Checker per binding).
#include "core/step/typecheck.hpp"

#include <set>
#include <tuple>

#include "core/step/typecheck_internal.hpp"

namespace sf::step::typecheck_detail {

std::optional<TypedProgram> Checker::run(TypedProgram* partial) {
  std::size_t errors_before = count_errors();
  TypedProgram tp;
  tp.stmts.resize(prog_.stmts.size());
  for (std::size_t i = 0; i < prog_.stmts.size(); ++i) {
    const Statement& s = prog_.stmts[i];
    TypedStatement& ts = tp.stmts[i];
    ts.stmt = &s;
    switch (s.kind) {
      case Statement::Kind::FnList: fn_list(s); break;
      case Statement::Kind::Assign: assign(s, ts); break;
      case Statement::Kind::Comprehension: comprehension(s, ts); break;
      case Statement::Kind::Return: returns(s, tp); break;
    }
  }
  if (count_errors() != errors_before) {
    if (partial) *partial = std::move(tp);
    return std::nullopt;
  }
  return tp;
}

void Checker::fn_list(const Statement& s) {
  Value v;
  v.kind = Kind::FnList;
  for (std::size_t i = 0; i < s.fn_names.size(); ++i) {
    const FnDecl* f = find_fn(s.fn_names[i]);
    if (!f)
      error("T-FN-UNKNOWN", i < s.fn_name_locs.size() ? s.fn_name_locs[i] : s.loc,
            "'" + s.fn_names[i] + "' is not a fn of this task (available: " + available_fns() + ")");
    v.fns.push_back(f);
  }
  if (!s.targets.empty()) bind(s.targets[0], std::move(v));
}

std::string Checker::available_fns() const {
  std::vector<std::string> xs;
  for (const auto& f : task_.fns) xs.push_back(f.func_name);
  return join(xs);
}

// Describes what an argument ref is, for T-ARG messages.
std::string Checker::what_ref(const Ref& r) const {
  if (r.kind == Ref::Kind::List) return "a list literal of " + std::to_string(r.items.size()) + " stream(s)";
  if (r.kind == Ref::Kind::Index) return "the stream '" + r.name + "[" + std::to_string(r.index) + "]'";
  const Value* v = lookup(r.name);
  if (!v) return "'" + r.name + "'";
  switch (v->kind) {
    case Kind::List: return "a stream list '" + r.name + "' — apply it element-wise with a list comprehension";
    case Kind::FnList: return "a fn list '" + r.name + "'";
    default: return "the stream '" + r.name + "'";
  }
}

std::string Checker::what_arg(const ApplyArg& a) const {
  if (a.tuple) return "a tuple of " + std::to_string(a.refs.size()) + " refs";
  if (a.refs.empty()) return "nothing";
  return what_ref(a.refs[0]);
}

// A ref that must be a stream: its type in the environment (valid until the environment changes, i.e. for
// the statement being typed). Returns null (poison) silently when the name was poisoned, with T-ARG when it is
// a list, fn list or list literal.
const StreamType* Checker::stream_ref(const Ref& r, Prim p, std::string_view expects, bool& reported) {
  if (r.kind == Ref::Kind::List) {
    t_arg(p, r.loc, expects, what_ref(r));
    reported = true;
    return nullptr;
  }
  const Value* v = lookup(r.name);
  if (!v || v->kind == Kind::Poison) return nullptr;
  if (r.kind == Ref::Kind::Index) {
    if (v->kind != Kind::List) {
      t_arg(p, r.loc, expects, "'" + r.name + "[" + std::to_string(r.index) + "]' ('" + r.name +
                                   "' is not a stream list)");
      reported = true;
      return nullptr;
    }
    if (r.index < 0 || r.index >= static_cast<std::int64_t>(v->items->size())) {
      error("N-INDEX", r.loc,
            "'" + r.name + "' has " + std::to_string(v->items->size()) + " streams, so index " +
                std::to_string(r.index) + " is out of range");
      reported = true;
      return nullptr;
    }
    return &(*v->items)[static_cast<std::size_t>(r.index)];
  }
  if (v->kind != Kind::Stream) {
    t_arg(p, r.loc, expects, what_ref(r));
    reported = true;
    return nullptr;
  }
  return v->st;
}

std::string Checker::ref_text(const Ref& r) const {
  if (r.kind == Ref::Kind::Index) return r.name + "[" + std::to_string(r.index) + "]";
  if (r.kind == Ref::Kind::List) {
    std::vector<std::string> xs;
    for (const auto& i : r.items) xs.push_back(ref_text(i));
    return "[" + join(xs) + "]";
  }
  return r.name;
}

void Checker::t_arg(Prim p, const Location& loc, std::string_view expects, const std::string& what) {
  error("T-ARG", loc,
        "step." + std::string(prim_name(p)) + "(…).apply expects " + std::string(expects) + ", got " + what);
}

Checker::Params Checker::collect_params(const PrimCall& c, Prim p) {
  Params ps;
  const auto allowed = prim_info(p).params;
  for (const auto& kw : c.kwargs) {
    bool known =
        std::any_of(allowed.begin(), allowed.end(), [&](const PrimParam& s) { return s.key == kw.key; });
    if (!known) {
      std::string list;
      if (allowed.empty()) {
        list = "it takes no parameters";
      } else {
        std::vector<std::string> ks;
        for (const auto& s : allowed) ks.emplace_back(s.key);
        list = "its parameters: " + join(ks);
      }
      error("T-PARAM-UNKNOWN", kw.loc,
            "step." + std::string(prim_name(p)) + " has no parameter '" + kw.key + "' (" + list + ")");
      ps.ok = false;
      continue;
    }
    if (ps.find(kw.key)) {
      param_value(p, kw, "it is given more than once");
      ps.ok = false;
      continue;
    }
    ps.kw.emplace_back(kw.key, &kw);
  }
  for (const auto& s : allowed) {
    if (!ps.find(s.key)) {
      error("T-PARAM-MISSING", c.loc,
            "step." + std::string(prim_name(p)) + " needs " + std::string(s.key) + "= (" + std::string(s.meaning) +
                ")");
      ps.ok = false;
    }
  }
  return ps;
}

std::string Checker::kwval_text(const KwVal& v) {
  switch (v.kind) {
    case KwVal::Kind::Int: return std::to_string(v.integer);
    case KwVal::Kind::Name: return v.name;
    case KwVal::Kind::IntList: return int_list_str(v.list);
  }
  return "";
}

void Checker::param_value(Prim p, const Kwarg& kw, const std::string& reason) {
  error("T-PARAM-VALUE", kw.value.loc,
        "step." + std::string(prim_name(p)) + ": " + kw.key + "=" + kwval_text(kw.value) + " is invalid: " + reason);
}

std::optional<int> Checker::int_param(Prim p, const Kwarg& kw) {
  if (kw.value.kind != KwVal::Kind::Int) {
    param_value(p, kw, "it must be an integer");
    return std::nullopt;
  }
  return static_cast<int>(kw.value.integer);
}

// n= / S=: a size symbol or a positive INT.
std::optional<Dim> Checker::dim_param(Prim p, const Kwarg& kw) {
  const KwVal& v = kw.value;
  if (v.kind == KwVal::Kind::Int) {
    if (v.integer <= 0) {
      param_value(p, kw, "it must be a size symbol or a positive integer");
      return std::nullopt;
    }
    return Dim::constant(v.integer);
  }
  if (v.kind == KwVal::Kind::Name) {
    if (is_size_symbol(v.name)) return Dim::symbol(v.name);
    if (is_size_value(v.name)) {
      std::string sym = v.name.substr(0, v.name.size() - 6);
      param_value(p, kw, "use the symbol " + sym + " so the shape stays symbolic");
      return std::nullopt;
    }
  }
  param_value(p, kw, "it must be a size symbol or a positive integer");
  return std::nullopt;
}

const FnDecl* Checker::fn_param(Prim p, const Kwarg& kw, bool stateful,
                                const std::map<std::string, const FnDecl*>* fn_var) {
  if (kw.value.kind != KwVal::Kind::Name) {
    param_value(p, kw, "fn= takes the name of a fn of this task");
    return nullptr;
  }
  const FnDecl* f = nullptr;
  if (fn_var && fn_var->count(kw.value.name)) {
    f = fn_var->at(kw.value.name);
    if (!f) return nullptr;  // already reported
  } else {
    f = find_fn(kw.value.name);
    if (!f) {
      error("T-FN-UNKNOWN", kw.value.loc,
            "'" + kw.value.name + "' is not a fn of this task (available: " + available_fns() + ")");
      return nullptr;
    }
  }
  check_fn_kind(p, *f, stateful, kw.value.loc);
  return f;
}

bool Checker::check_fn_kind(Prim p, const FnDecl& f, bool stateful, const Location& loc) {
  if (f.stateful() == stateful) return true;
  error("T-FN-KIND", loc,
        "step." + std::string(prim_name(p)) + " needs a " + (stateful ? "stateful" : "stateless") + " fn, but " +
            f.func_name + " is " + (f.stateful() ? "stateful (it has init)" : "stateless (it has no init)"));
  return false;
}

bool Checker::check_fn_input(Prim p, const FnDecl& f, const std::string& xname, const StreamType& x, const Location& loc) {
  if (f.input == x.dtype) return true;
  std::string hint;
  const DType& want = f.input;
  const DType& got = x.dtype;
  if (want.fields.size() == got.fields.size() && want.is_tuple()) {
    auto a = want.fields, b = got.fields;
    auto key = [](const ScalarType& s) { return s.str(); };
    std::sort(a.begin(), a.end(), [&](auto& l, auto& r) { return key(l) < key(r); });
    std::sort(b.begin(), b.end(), [&](auto& l, auto& r) { return key(l) < key(r); });
    if (a == b) hint = " Same fields in a different order: zip the streams in the order the fn expects.";
  }
  if (hint.empty() && !want.is_tuple() && !got.is_tuple()) {
    const ScalarType& w = want.scalar();
    const ScalarType& g = got.scalar();
    if (w.is_buffer() && !g.is_buffer() && w.unbuffered() == g) {
      hint = " " + f.func_name + " works on whole buffers: Bufferize first.";
    } else if (!w.is_buffer() && g.is_buffer() && g.unbuffered() == w) {
      hint = " " + f.func_name + " works on single elements: Streamify first.";
    } else if (w.is_buffer() && g.is_buffer() && w.unbuffered() == g.unbuffered() && w.buffer != g.buffer) {
      hint = " The buffer dims differ (" + dims_str(w.buffer) + " vs " + dims_str(g.buffer) +
             "): check which dimensions were bufferized.";
    }
  }
  error("T-FN-INPUT", loc,
        "step." + std::string(prim_name(p)) + "(fn=" + f.func_name + ") consumes elements of dtype " + want.str() +
            ", but " + describe(xname, x) + " carries " + got.str() + "." + hint);
  return false;
}

}  // namespace sf::step::typecheck_detail

namespace sf::step {

std::string describe(std::string_view name, const StreamType& t) {
  return "`" + std::string(name) + "` (dtype " + t.dtype.str() + ", dims " + dims_str(t.dims) + ", rank " +
         std::to_string(t.rank()) + ")";
}

std::optional<std::int64_t> element_scalars(const DType& t, const SizeBinding& b) {
  std::int64_t total = 0;
  for (const auto& f : t.fields) {
    std::int64_t n = 1;
    // The dims of f.esh() in its order (buffer dims innermost-last, then the lanes), without building it.
    auto times = [&](const Dim& d) {
      auto v = d.eval_nonneg(b);
      return v && !__builtin_mul_overflow(n, *v, &n);
    };
    for (auto it = f.buffer.rbegin(); it != f.buffer.rend(); ++it)
      if (!times(*it)) return std::nullopt;
    if (f.multihot && !times(f.lanes)) return std::nullopt;
    if (__builtin_add_overflow(total, n, &total)) return std::nullopt;
  }
  return total;
}

std::size_t statements_before_error(const std::vector<int>& first_lines, const Diagnostics& diags) {
  if (first_lines.empty()) return 0;
  int first = 0;  // the first error line at or after the first statement
  for (const auto& d : diags)
    if (d.is_error() && d.loc.line >= first_lines.front() && (first == 0 || d.loc.line < first)) first = d.loc.line;
  if (first == 0) return first_lines.size();
  // The statement the error is in: the last one starting on or before its line.
  std::size_t k = 0;
  while (k + 1 < first_lines.size() && first_lines[k + 1] <= first) ++k;
  return k;
}

TypedProgram types_before_error(TypedProgram tp, const Program& prog, const Diagnostics& diags) {
  std::vector<int> lines;
  for (const auto& s : prog.stmts) lines.push_back(s.loc.line);
  tp.stmts.resize(prog.stmts.size());
  for (std::size_t i = statements_before_error(lines, diags); i < tp.stmts.size(); ++i) {
    tp.stmts[i].outs.clear();
    tp.stmts[i].list_result = false;
  }
  tp.returns.clear();
  return tp;
}

namespace {

std::optional<TypedProgram> typecheck_all(const Program& prog, const TaskDoc& task, Diagnostics& diags,
                                          const TypecheckOptions& opt);

}  // namespace

std::optional<TypedProgram> typecheck(const Program& prog, const TaskDoc& task, Diagnostics& diags,
                                      const TypecheckOptions& opt) {
  const std::size_t from = diags.size();
  auto typed = typecheck_all(prog, task, diags, opt);
  if (!typed && opt.partial)
    *opt.partial = types_before_error(std::move(*opt.partial), prog,
                                      Diagnostics(diags.begin() + static_cast<std::ptrdiff_t>(from), diags.end()));
  return typed;
}

namespace {

std::optional<TypedProgram> typecheck_all(const Program& prog, const TaskDoc& task, Diagnostics& diags,
                                          const TypecheckOptions& opt) {
  using typecheck_detail::Checker;
  if (opt.only_binding) return Checker(prog, task, diags, opt, "sizes", *opt.only_binding).run(opt.partial);
  // Every size-dependent rule (Partition N, Merge lanes, list lengths, Reshape divisibility, element limits) under
  // every binding: one run per binding; a later run adds only errors at a new location or with a new code, with
  // the binding named. The typed program is the one of `sizes`.
  const auto all = task.static_binding_refs();
  // Quick path: a program without Partition or Merge (whose N / lane count bind per binding) that types cleanly
  // under every binding at once has exactly the diagnostics (warnings) and typed program of the `sizes` run, and
  // no per-binding run could add an error. Anything else (an error, Partition, Merge) takes the exact path below.
  if (opt.one_pass && all.size() > 1 && std::none_of(prog.stmts.begin(), prog.stmts.end(), [](const Statement& s) {
        const std::string& p = s.kind == Statement::Kind::Comprehension ? s.comp.body.prim : s.call.prim;
        return is_prim(p, Prim::Partition) || is_prim(p, Prim::Merge);
      })) {
    std::vector<const SizeBinding*> sizes;
    for (const auto& nb : all) sizes.push_back(nb.sizes);
    Diagnostics quick;
    if (auto typed = Checker(prog, task, quick, opt, std::move(sizes)).run()) {
      diags.insert(diags.end(), std::make_move_iterator(quick.begin()), std::make_move_iterator(quick.end()));
      return typed;
    }
  }
  Diagnostics first;
  auto typed = Checker(prog, task, first, opt, all[0].name, *all[0].sizes).run(opt.partial);
  std::set<std::tuple<std::string, int, int>> seen;
  for (const auto& d : first)
    if (d.is_error()) seen.emplace(d.code, d.loc.line, d.loc.column);
  diags.insert(diags.end(), first.begin(), first.end());
  for (std::size_t i = 1; i < all.size(); ++i) {
    Diagnostics local;
    if (Checker(prog, task, local, opt, all[i].name, *all[i].sizes).run()) continue;
    for (auto& d : local) {
      if (!d.is_error() || !seen.emplace(d.code, d.loc.line, d.loc.column).second) continue;
      d.message += " (under " + std::string(all[i].name) + ": " + binding_text(*all[i].sizes) + ")";
      diags.push_back(std::move(d));
      if (typed && opt.partial) *opt.partial = *typed;  // `sizes` typed cleanly: another binding failed
      typed.reset();
    }
  }
  return typed;
}

}  // namespace

}  // namespace sf::step
