#include "core/step/typecheck.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/step/task.hpp"
#include "core/step/name_key.hpp"

namespace sf::step {

namespace {

// Saturating arithmetic for element counts (a bomb must be reported, not overflow).
std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

std::string line_prefix(const Location& l) { return "line " + std::to_string(l.line) + ": "; }

std::string join(const std::vector<std::string>& xs, std::string_view sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) s += sep;
    s += xs[i];
  }
  return s;
}

std::string int_list_str(const std::vector<std::int64_t>& v) {
  std::vector<std::string> xs;
  for (auto x : v) xs.push_back(std::to_string(x));
  return "[" + join(xs) + "]";
}

enum class Kind { Stream, List, FnList, Poison };

// A name's value in the environment. Stream types are not copied: they point into the checker's input types or
// into the typed program's statements (sized before the first statement, so they do not move).
struct Value {
  Kind kind = Kind::Poison;
  const StreamType* st = nullptr;                  // Stream
  const std::vector<StreamType>* items = nullptr;  // List
  std::vector<const FnDecl*> fns;                  // FnList (nullptr for unknown fn names)
};

class Checker {
 public:
  // Types the program under one size binding (§15.11: the driver runs one Checker per binding).
  Checker(const Program& prog, const TaskDoc& task, Diagnostics& diags, const TypecheckOptions& opt,
          const char* binding_name, const SizeBinding& binding)
      : Checker(prog, task, diags, opt, std::vector<const SizeBinding*>{&binding}) {
    binding_name_ = binding_name;
  }

  // Types the program under several bindings at once: every size-dependent rule is evaluated under each, but a
  // Partition's N and Merge's lane count under the first only, and an error message names the first binding.
  // typecheck() uses it only as a quick test that a program without Partition/Merge types cleanly.
  Checker(const Program& prog, const TaskDoc& task, Diagnostics& diags, const TypecheckOptions& opt,
          std::vector<const SizeBinding*> bindings)
      : prog_(prog), task_(task), diags_(diags), opt_(opt), binding_name_("sizes"), bindings_(std::move(bindings)) {
    input_types_.reserve(task.inputs.size());  // no regrowth: the environment points at them
    std::size_t names = task.inputs.size();
    for (const auto& st : prog.stmts) names += st.targets.size();
    env_.reserve(names);
    for (const auto& in : task.inputs) {
      Value v;
      v.kind = Kind::Stream;
      v.st = &input_types_.emplace_back(StreamType{in.dtype, in.dims});
      bind(in.name, std::move(v));
    }
    totals_.assign(bindings_.size(), 0);
  }

  std::optional<TypedProgram> run() {
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
    if (count_errors() != errors_before) return std::nullopt;
    return tp;
  }

 private:
  std::size_t count_errors() const {
    return static_cast<std::size_t>(
        std::count_if(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.is_error(); }));
  }

  void error(const char* code, const Location& loc, const std::string& msg) {
    diags_.push_back(make_error(code, line_prefix(loc) + msg, loc));
  }

  // ---- names -------------------------------------------------------------------------------------------
  void fn_list(const Statement& s) {
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

  // The task fn of that name (the last one, as a name -> fn map built in declaration order would hold); a task
  // has a few fns, searched in place.
  const FnDecl* find_fn(std::string_view name) const {
    for (auto it = task_.fns.rbegin(); it != task_.fns.rend(); ++it)
      if (it->func_name == name) return &*it;
    return nullptr;
  }

  std::string available_fns() const {
    std::vector<std::string> xs;
    for (const auto& f : task_.fns) xs.push_back(f.func_name);
    return join(xs);
  }

  void bind(std::string_view name, Value&& v) { env_.emplace_back(name, std::move(v)); }

  // Resolves a ref to a stream. Lists/fn lists used as streams are T-ARG (reported by the caller via `what`).
  const Value* lookup(const std::string& name) const {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

  // Describes what an argument ref is, for T-ARG messages.
  std::string what_ref(const Ref& r) const {
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

  std::string what_arg(const ApplyArg& a) const {
    if (a.tuple) return "a tuple of " + std::to_string(a.refs.size()) + " refs";
    if (a.refs.empty()) return "nothing";
    return what_ref(a.refs[0]);
  }

  // A ref that must be a stream: its type in the environment (valid until the environment changes, i.e. for
  // the statement being typed). Returns null (poison) silently when the name was poisoned, with T-ARG when it is
  // a list, fn list or list literal.
  const StreamType* stream_ref(const Ref& r, Prim p, std::string_view expects, bool& reported) {
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

  std::string ref_text(const Ref& r) const {
    if (r.kind == Ref::Kind::Index) return r.name + "[" + std::to_string(r.index) + "]";
    if (r.kind == Ref::Kind::List) {
      std::vector<std::string> xs;
      for (const auto& i : r.items) xs.push_back(ref_text(i));
      return "[" + join(xs) + "]";
    }
    return r.name;
  }

  void t_arg(Prim p, const Location& loc, std::string_view expects, const std::string& what) {
    error("T-ARG", loc,
          "step." + std::string(prim_name(p)) + "(…).apply expects " + std::string(expects) + ", got " + what);
  }

  // ---- parameters --------------------------------------------------------------------------------------
  struct Params {
    // The given keyword arguments by key (keys point into the call; a call has a few, each at most once).
    std::vector<std::pair<std::string_view, const Kwarg*>> kw;
    bool ok = true;
    const Kwarg* find(std::string_view key) const {
      for (const auto& [k, v] : kw)
        if (k == key) return v;
      return nullptr;
    }
  };

  Params collect_params(const PrimCall& c, Prim p) {
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

  static std::string kwval_text(const KwVal& v) {
    switch (v.kind) {
      case KwVal::Kind::Int: return std::to_string(v.integer);
      case KwVal::Kind::Name: return v.name;
      case KwVal::Kind::IntList: return int_list_str(v.list);
    }
    return "";
  }

  void param_value(Prim p, const Kwarg& kw, const std::string& reason) {
    error("T-PARAM-VALUE", kw.value.loc,
          "step." + std::string(prim_name(p)) + ": " + kw.key + "=" + kwval_text(kw.value) + " is invalid: " + reason);
  }

  std::optional<int> int_param(Prim p, const Kwarg& kw) {
    if (kw.value.kind != KwVal::Kind::Int) {
      param_value(p, kw, "it must be an integer");
      return std::nullopt;
    }
    return static_cast<int>(kw.value.integer);
  }

  bool is_size_symbol(const std::string& n) const { return task_.sizes.count(NameKey{n}) > 0; }
  bool is_size_value(const std::string& n) const {
    return n.size() > 6 && n.ends_with("_value") && is_size_symbol(n.substr(0, n.size() - 6));
  }

  // n= / S=: a size symbol or a positive INT.
  std::optional<Dim> dim_param(Prim p, const Kwarg& kw) {
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

  const FnDecl* fn_param(Prim p, const Kwarg& kw, bool stateful,
                         const std::map<std::string, const FnDecl*>* fn_var = nullptr) {
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

  bool check_fn_kind(Prim p, const FnDecl& f, bool stateful, const Location& loc) {
    if (f.stateful() == stateful) return true;
    error("T-FN-KIND", loc,
          "step." + std::string(prim_name(p)) + " needs a " + (stateful ? "stateful" : "stateless") + " fn, but " +
              f.func_name + " is " + (f.stateful() ? "stateful (it has init)" : "stateless (it has no init)"));
    return false;
  }

  bool check_fn_input(Prim p, const FnDecl& f, const std::string& xname, const StreamType& x, const Location& loc) {
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

  // ---- limits ------------------------------------------------------------------------------------------
  // Static element counts (§15.2). Dynamic dims count as the selector's positions (an upper bound).
  void check_limits(const std::string& name, const StreamType& t, const Location& loc) {
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

  static std::string big_str(std::int64_t v) {
    if (v == INT64_MAX) return "more than 9.2e18";
    return std::to_string(v);
  }

  static std::string binding_str(const SizeBinding& b) {
    std::vector<std::string> xs;
    for (const auto& [k, v] : b) xs.push_back(k + "=" + std::to_string(v));
    return "{" + join(xs) + "}";
  }

  // The binding bi extended with the bounds of the dynamic dims defined so far.
  const SizeBinding& with_dynamic(std::size_t bi) const {
    return extended_.empty() ? *bindings_[bi] : extended_[bi];
  }

  // Positions of a stream under binding bi (saturating); dynamic dims count as their selector's positions.
  std::optional<std::int64_t> positions(const StreamType& t, std::size_t bi) const {
    const SizeBinding& b = with_dynamic(bi);
    std::int64_t pos = 1;
    for (const auto& d : t.dims) {
      auto v = d.eval_nonneg(b);
      if (!v) return std::nullopt;
      pos = sat_mul(pos, *v);
    }
    return pos;
  }

  // ---- statements --------------------------------------------------------------------------------------
  // `t` is a typed statement's output (the environment keeps a pointer to it).
  void define(const std::string& name, const StreamType& t, const Location& loc) {
    Value v;
    v.kind = Kind::Stream;
    v.st = &t;
    bind(name, std::move(v));
    check_limits(name, t, loc);
  }

  void poison(const Statement& s) {
    for (const auto& t : s.targets) bind(t, Value{});
  }

  void assign(const Statement& s, TypedStatement& ts) {
    auto p = prim_from_name(s.call.prim);
    if (!p) {
      error("P-PRIM", s.call.prim_loc,
            "unknown primitive 'step." + s.call.prim +
                "' (known: Map, Zip, Accum, Scan, Bufferize, Streamify, Promote, Repeat, RepeatRef, Flatten, "
                "Reshape, Copy, Partition, Merge, Identity)");
      poison(s);
      return;
    }
    ts.call.prim = *p;
    // Targets.
    std::size_t nt = s.targets.size();
    auto targets_error = [&](const std::string& msg) {
      error("T-TARGETS", s.loc, msg);
      poison(s);
    };
    if (*p == Prim::Copy && nt != 2) {
      targets_error("step.Copy produces two streams: write `A, B = step.Copy().apply(X)`");
      return;
    }
    if (*p != Prim::Copy && *p != Prim::Partition && nt != 1) {
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

  static bool one_input(Prim p) {
    switch (p) {
      case Prim::Accum:
      case Prim::Scan:
      case Prim::Bufferize:
      case Prim::Streamify:
      case Prim::Promote:
      case Prim::Repeat:
      case Prim::Flatten:
      case Prim::Reshape:
      case Prim::Copy:
      case Prim::Identity: return true;
      default: return false;
    }
  }

  // Types one primitive application. For comprehension bodies `item` supplies the loop stream's type and
  // `fn_var` maps the fn variable to the item's fn.
  bool apply(const Statement& s, const PrimCall& c, Prim p, TypedStatement& ts, std::vector<StreamType>& outs,
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
    if (one_input(p)) {
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
        if (*k < 1 || *k > r) {
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
        Dims d = x.dims;
        if (p == Prim::Accum) d.erase(d.begin(), d.begin() + *k);
        outs.push_back(StreamType{f->output, d});
        return true;
      }
      case Prim::Bufferize: {
        const Kwarg* ka = kw("a");
        std::optional<int> k = ka ? int_param(p, *ka) : std::nullopt;
        if (!k || !ok) return false;
        int r = x.rank();
        if (x.dtype.is_tuple()) {
          error("T-BUF-TUPLE", arg.loc,
                "step.Bufferize cannot buffer tuple elements (" + describe(xn, x) + "): Map them to a single field first");
          return false;
        }
        if (*k < 1 || *k > r) {
          rank_error(p, *ka, "step.Bufferize(a=" + std::to_string(*k) + ") packs the " + std::to_string(*k) +
                                 " innermost dimension(s) into a buffer, so a must be between 1 and the rank of " +
                                 describe(xn, x) + ".",
                     *k, r);
          return false;
        }
        rc.a = *k;
        ScalarType st = x.dtype.scalar();
        st.buffer.insert(st.buffer.end(), x.dims.begin(), x.dims.begin() + *k);
        outs.push_back(StreamType{DType::of(st), Dims(x.dims.begin() + *k, x.dims.end())});
        return true;
      }
      case Prim::Streamify: {
        if (!ok) return false;
        if (x.dtype.is_tuple() || !x.dtype.scalar().is_buffer()) {
          error("T-NOT-BUFFER", arg.loc,
                "step.Streamify needs a stream of Buffer elements, but " + describe(xn, x) + " does not carry buffers");
          return false;
        }
        const ScalarType& st = x.dtype.scalar();
        Dims d = st.buffer;
        d.insert(d.end(), x.dims.begin(), x.dims.end());
        outs.push_back(StreamType{DType::of(st.unbuffered()), d});
        return true;
      }
      case Prim::Promote: {
        const Kwarg* kb = kw("b");
        std::optional<int> k = kb ? int_param(p, *kb) : std::nullopt;
        if (!k || !ok) return false;
        int r = x.rank();
        if (*k < 0 || *k > r + 1) {
          error("T-PARAM-VALUE", kb->value.loc,
                "step.Promote(b=" + std::to_string(*k) +
                    "): b is where the new size-1 dimension goes, from 0 (new innermost) to rank+1 = " +
                    std::to_string(r + 1) + " (new outermost), for " + describe(xn, x));
          return false;
        }
        rc.b = *k;
        Dims d = x.dims;
        d.insert(d.begin() + *k, Dim::constant(1));
        outs.push_back(StreamType{x.dtype, d});
        return true;
      }
      case Prim::Repeat: {
        const Kwarg* kn = kw("n");
        std::optional<Dim> n = kn ? dim_param(p, *kn) : std::nullopt;
        if (!n || !ok) return false;
        rc.n = *n;
        Dims d = x.dims;
        d.insert(d.begin(), *n);
        outs.push_back(StreamType{x.dtype, d});
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
        std::string reason;
        if (rr->rank() != r + 1) {
          reason = "it has rank " + std::to_string(rr->rank());
        } else if (!std::equal(xd->dims.begin(), xd->dims.end(), rr->dims.begin() + 1)) {
          reason = "its outer dims " + dims_str(Dims(rr->dims.begin() + 1, rr->dims.end())) + " differ from " +
                   dims_str(xd->dims);
        }
        if (!reason.empty()) {
          error("T-REF", arg.refs[1].loc,
                "step.RepeatRef: the reference " + describe(ref_text(arg.refs[1]), *rr) + " must have rank " +
                    std::to_string(r + 1) + " and dims [n] + " + dims_str(xd->dims) +
                    " (the data's dims with one extra innermost dimension); " + reason);
          return false;
        }
        rc.n = rr->dims[0];
        Dims d = xd->dims;
        d.insert(d.begin(), rr->dims[0]);
        outs.push_back(StreamType{xd->dtype, d});
        return true;
      }
      case Prim::Flatten: {
        const Kwarg* kl = kw("L");
        if (!kl || !ok) return false;
        int r = x.rank();
        std::vector<std::int64_t> L;
        bool good = kl->value.kind == KwVal::Kind::IntList && !kl->value.list.empty();
        if (good) {
          L = kl->value.list;
          for (std::size_t i = 1; i < L.size(); ++i)
            if (L[i] != L[i - 1] + 1) good = false;
          if (L.front() < 1 || L.back() > r) good = false;
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
        Dim prod = x.dims[static_cast<std::size_t>(lo - 1)];
        for (int j = lo; j <= hi; ++j) prod = prod * x.dims[static_cast<std::size_t>(j)];
        Dims d(x.dims.begin(), x.dims.begin() + (lo - 1));
        d.push_back(prod);
        d.insert(d.end(), x.dims.begin() + hi + 1, x.dims.end());
        outs.push_back(StreamType{x.dtype, d});
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
        std::string bad;
        if (kl->value.kind != KwVal::Kind::IntList || kl->value.list.empty()) {
          bad = "L must be a non-empty list of dimension indices";
        } else {
          L = kl->value.list;
          std::sort(L.begin(), L.end());
          if (std::adjacent_find(L.begin(), L.end()) != L.end()) bad = "the indices in L must be distinct";
          if (bad.empty() && (L.front() < 0 || L.back() > r))
            bad = "every index must be between 0 and the rank of " + describe(xn, x);
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
        Dims d = x.dims;
        for (auto it = L.rbegin(); it != L.rend(); ++it) {
          auto j = static_cast<std::size_t>(*it);
          Dim sj = d[j];
          d[j] = c_dim;
          d.insert(d.begin() + static_cast<std::ptrdiff_t>(j) + 1, sj / c_dim);
        }
        outs.push_back(StreamType{x.dtype, d});
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

  void rank_error(Prim p, const Kwarg& k, std::string msg, int kval, int r) {
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

  std::optional<std::pair<std::string, StreamType>> zip_args(Prim p, const ApplyArg& arg) {
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
    for (std::size_t j = 1; j < xs.size(); ++j) {
      const std::string& nj = xs[j].first;
      const StreamType& xj = *xs[j].second;
      if (xj.dims == x1.dims) continue;
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

  bool selector_type(Prim p, const std::string& cn, const StreamType& c, const Location& loc) {
    if (c.dtype.is_tuple() || c.dtype.scalar().is_buffer() || !c.dtype.scalar().multihot) {
      error("T-SEL-TYPE", loc,
            "step." + std::string(prim_name(p)) + ": the selector " + describe(cn, c) + " must carry Multihot elements");
      return false;
    }
    return true;
  }

  std::optional<std::int64_t> lanes_value(const StreamType& c) const {
    return c.dtype.scalar().lanes.eval(*bindings_[0]);
  }

  bool partition(const Statement& s, const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs,
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
    if (!lv || *lv != *n) {
      error("T-SEL-N", ps.find("N")->value.loc,
            "step.Partition(N=" + std::to_string(*n) + "): the selector has " + sel->dtype.scalar().lanes.str() +
                " = " + (lv ? std::to_string(*lv) : std::string("?")) + " lanes; N must equal it");
      return false;
    }
    int r = x->rank(), rc = sel->rank();
    if (rc > r || !std::equal(sel->dims.begin(), sel->dims.end(), x->dims.begin() + (r - rc))) {
      std::string outer = rc > r ? "fewer than " + std::to_string(rc + 1)
                                 : dims_str(Dims(x->dims.begin() + (r - rc), x->dims.end()));
      error("T-SEL-DIMS", arg.refs[1].loc,
            "step.Partition: the selector dims " + dims_str(sel->dims) + " must equal the " + std::to_string(rc + 1) +
                " outermost dims of the data " + describe(xn, *x) + ", which are " + outer);
      return false;
    }
    ts.call.N = *n;
    int p = r - rc;
    std::string base = s.targets.empty() ? "L" : s.targets[0];
    // The bound of each dynamic dim: the selector's positions (the bindings are copied on the first one).
    if (extended_.empty())
      for (const SizeBinding* b : bindings_) extended_.push_back(*b);
    for (std::size_t bi = 0; bi < bindings_.size(); ++bi) {
      auto pos = positions(*sel, bi);
      for (std::int64_t e = 0; e < *n; ++e) extended_[bi][base + "#" + std::to_string(e)] = pos.value_or(0);
    }
    for (std::int64_t e = 0; e < *n; ++e) {
      Dims d(x->dims.begin(), x->dims.begin() + p);
      d.push_back(Dim::dynamic(base, static_cast<int>(e)));
      outs.push_back(StreamType{x->dtype, d});
    }
    list_result = true;
    return true;
  }

  bool merge(const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs, const FnDecl* f, bool ok) {
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
      bool same = te.dtype == t0.dtype && te.rank() == t0.rank() &&
                  std::equal(te.dims.begin(), te.dims.end() - 1, t0.dims.begin());
      if (!same) {
        error("T-MERGE-LIST", lr.loc,
              "step.Merge: the streams of " + ln + " must share dtype and all dims but the outermost; stream " +
                  std::to_string(e) + " is " + describe(items[e].first, te) + " but stream 0 is " +
                  describe(items[0].first, t0));
        return false;
      }
    }
    std::string cn = ref_text(arg.refs[1]);
    if (!selector_type(Prim::Merge, cn, *sel, arg.refs[1].loc)) return false;
    auto lv = lanes_value(*sel);
    if (!lv || *lv != static_cast<std::int64_t>(items.size())) {
      error("T-SEL-N", arg.refs[1].loc,
            "step.Merge: " + ln + " has " + std::to_string(items.size()) + " streams but the selector has " +
                sel->dtype.scalar().lanes.str() + " = " + (lv ? std::to_string(*lv) : std::string("?")) + " lanes");
      return false;
    }
    if (!ok || !f) return false;
    if (!check_fn_input(Prim::Merge, *f, ln, t0, lr.loc)) return false;
    Dims d(t0.dims.begin(), t0.dims.end() - 1);
    d.insert(d.end(), sel->dims.begin(), sel->dims.end());
    outs.push_back(StreamType{f->output, d});
    return true;
  }

  void comprehension(const Statement& s, TypedStatement& ts) {
    const Comprehension& c = s.comp;
    auto p = prim_from_name(c.body.prim);
    if (!p) {
      error("P-PRIM", c.body.prim_loc,
            "unknown primitive 'step." + c.body.prim +
                "' (known: Map, Zip, Accum, Scan, Bufferize, Streamify, Promote, Repeat, RepeatRef, Flatten, "
                "Reshape, Copy, Partition, Merge, Identity)");
      poison(s);
      return;
    }
    static const std::set<Prim> allowed = {Prim::Map,     Prim::Accum,  Prim::Scan,    Prim::Bufferize,
                                           Prim::Streamify, Prim::Promote, Prim::Repeat, Prim::Flatten,
                                           Prim::Reshape, Prim::Identity};
    if (!allowed.count(*p)) {
      error("T-ARG", c.body.prim_loc,
            "step." + c.body.prim +
                " cannot be the body of a list comprehension (allowed: Map, Accum, Scan, Bufferize, Streamify, "
                "Promote, Repeat, Flatten, Reshape, Identity)");
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

  void returns(const Statement& s, TypedProgram& tp) {
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

  const Program& prog_;
  const TaskDoc& task_;
  Diagnostics& diags_;
  TypecheckOptions opt_;
  std::vector<StreamType> input_types_;  // the task inputs' types (the environment points at them)
  // (name, value) in binding order; a name bound again shadows its earlier entry (lookups search from the back),
  // as a map would replace it. The names point into the task and the program.
  std::vector<std::pair<std::string_view, Value>> env_;
  std::string binding_name_;
  std::vector<const SizeBinding*> bindings_;  // the task's (or the caller's) bindings, not copied
  std::vector<SizeBinding> extended_;
  std::vector<std::int64_t> totals_;
  bool limit_reported_ = false;
};

}  // namespace

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

std::optional<TypedProgram> typecheck(const Program& prog, const TaskDoc& task, Diagnostics& diags,
                                      const TypecheckOptions& opt) {
  if (opt.only_binding) return Checker(prog, task, diags, opt, "sizes", *opt.only_binding).run();
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
  auto typed = Checker(prog, task, first, opt, all[0].name, *all[0].sizes).run();
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
      typed.reset();
    }
  }
  return typed;
}

}  // namespace sf::step
