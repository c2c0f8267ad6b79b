// Internal to core/step's type checker (typecheck.cpp, typecheck_statements.cpp, typecheck_prims.cpp): the
// Checker that types one program under one or several size bindings, its environment values and the
// small helpers its files share. Not included outside core/step.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/step/name_key.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::step::typecheck_detail {

// Saturating arithmetic for element counts (a bomb must be reported, not overflow).
inline std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
inline std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

inline std::string line_prefix(const Location& l) { return "line " + std::to_string(l.line) + ": "; }

inline std::string join(const std::vector<std::string>& xs, std::string_view sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) s += sep;
    s += xs[i];
  }
  return s;
}

inline std::string int_list_str(const std::vector<std::int64_t>& v) {
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

  // The typed program, or nullopt when an error was added (then `partial`, when set, receives what was typed:
  // the statements of a poisoned or failing argument have no outs).
  std::optional<TypedProgram> run(TypedProgram* partial = nullptr);

 private:
  std::size_t count_errors() const {
    return static_cast<std::size_t>(
        std::count_if(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.is_error(); }));
  }

  void error(const char* code, const Location& loc, const std::string& msg) {
    diags_.push_back(make_error(code, line_prefix(loc) + msg, loc));
  }

  // ---- names, parameters and fns (typecheck.cpp) -----------------------------------------------------
  // The task fn of that name (the last one, as a name -> fn map built in declaration order would hold); a task
  // has a few fns, searched in place.
  const FnDecl* find_fn(std::string_view name) const {
    for (auto it = task_.fns.rbegin(); it != task_.fns.rend(); ++it)
      if (it->func_name == name) return &*it;
    return nullptr;
  }

  void bind(std::string_view name, Value&& v) { env_.emplace_back(name, std::move(v)); }

  // Resolves a ref to a stream. Lists/fn lists used as streams are T-ARG (reported by the caller via `what`).
  const Value* lookup(const std::string& name) const {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

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

  bool is_size_symbol(const std::string& n) const { return task_.sizes.count(NameKey{n}) > 0; }
  bool is_size_value(const std::string& n) const {
    return n.size() > 6 && n.ends_with("_value") && is_size_symbol(n.substr(0, n.size() - 6));
  }

  void fn_list(const Statement& s);
  std::string available_fns() const;
  std::string what_ref(const Ref& r) const;
  std::string what_arg(const ApplyArg& a) const;
  const StreamType* stream_ref(const Ref& r, Prim p, std::string_view expects, bool& reported);
  std::string ref_text(const Ref& r) const;
  void t_arg(Prim p, const Location& loc, std::string_view expects, const std::string& what);
  Params collect_params(const PrimCall& c, Prim p);
  static std::string kwval_text(const KwVal& v);
  void param_value(Prim p, const Kwarg& kw, const std::string& reason);
  std::optional<int> int_param(Prim p, const Kwarg& kw);
  std::optional<Dim> dim_param(Prim p, const Kwarg& kw);
  const FnDecl* fn_param(Prim p, const Kwarg& kw, bool stateful,
                         const std::map<std::string, const FnDecl*>* fn_var = nullptr);
  bool check_fn_kind(Prim p, const FnDecl& f, bool stateful, const Location& loc);
  bool check_fn_input(Prim p, const FnDecl& f, const std::string& xname, const StreamType& x, const Location& loc);

  // ---- limits and statements (typecheck_statements.cpp) -----------------------------------------------
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

  void check_limits(const std::string& name, const StreamType& t, const Location& loc);
  static std::string big_str(std::int64_t v);
  static std::string binding_str(const SizeBinding& b);
  void define(const std::string& name, const StreamType& t, const Location& loc);
  void poison(const Statement& s);
  void unknown_prim(const PrimCall& call, const Statement& s);  // P-PRIM at the name, then poison(s)
  void assign(const Statement& s, TypedStatement& ts);
  void comprehension(const Statement& s, TypedStatement& ts);
  void returns(const Statement& s, TypedProgram& tp);

  // ---- primitive applications (typecheck_prims.cpp) -------------------------------------------------
  bool apply(const Statement& s, const PrimCall& c, Prim p, TypedStatement& ts, std::vector<StreamType>& outs,
             bool& list_result, const std::pair<std::string, const StreamType*>* item,
             const std::map<std::string, const FnDecl*>* fn_var);
  void rank_error(Prim p, const Kwarg& k, std::string msg, int kval, int r);
  std::optional<std::pair<std::string, StreamType>> zip_args(Prim p, const ApplyArg& arg);
  bool selector_type(Prim p, const std::string& cn, const StreamType& c, const Location& loc);
  std::optional<std::int64_t> lanes_value(const StreamType& c) const;
  bool partition(const Statement& s, const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs,
                 bool& list_result, Params& ps, bool ok);
  bool merge(const PrimCall& c, TypedStatement& ts, std::vector<StreamType>& outs, const FnDecl* f, bool ok);

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

}  // namespace sf::step::typecheck_detail
