#include "core/step/names.hpp"

#include "core/step/lexer.hpp"
#include "core/step/name_key.hpp"
#include "core/step/primitives.hpp"

namespace sf::step {

bool TaskNames::is_size_constant(std::string_view name) const {
  constexpr std::string_view suffix = "_value";
  if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) return false;
  return sizes.count(NameKey{name.substr(0, name.size() - suffix.size())}) > 0;
}

bool TaskNames::contains(std::string_view name) const {
  const NameKey k{name};
  return inputs.count(k) || parameters.count(k) || fns.count(k) || outputs.count(k) || sizes.count(k) ||
         is_size_constant(name);
}

bool defines_stream_list(const Statement& st) {
  if (st.kind == Statement::Kind::Comprehension) return true;
  return st.kind == Statement::Kind::Assign && is_prim(st.call.prim, Prim::Partition) &&
         st.targets.size() == 1;
}

namespace {

std::optional<std::int64_t> kw_int(const PrimCall& c, std::string_view key, const SizeBinding* sizes) {
  for (const auto& k : c.kwargs) {
    if (k.key != key) continue;
    if (k.value.kind == KwVal::Kind::Int) return k.value.integer;
    if (k.value.kind == KwVal::Kind::Name && sizes) {
      std::string n = k.value.name;
      if (auto it = sizes->find(n); it != sizes->end()) return it->second;
      constexpr std::string_view suffix = "_value";
      if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        if (auto it2 = sizes->find(n.substr(0, n.size() - suffix.size())); it2 != sizes->end()) return it2->second;
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::string at_line(const Location& l) { return "line " + std::to_string(l.line) + ": "; }

class NameChecker {
 public:
  NameChecker(const Program& p, const TaskNames& n, Diagnostics& d, const SizeBinding* sizes)
      : prog_(p), names_(n), diags_(d), lengths_(stream_list_lengths(p, sizes)) {
    std::size_t targets = 0;
    for (const auto& st : p.stmts) targets += st.targets.size();
    all_targets_.reserve(targets);
    defined_.reserve(targets);
    for (const auto& st : p.stmts)
      for (std::size_t i = 0; i < st.targets.size(); ++i)
        all_targets_.emplace_back(st.targets[i], st.target_locs[i].line);
  }

  bool run() {
    for (const auto& st : prog_.stmts) statement(st);
    return ok_;
  }

 private:
  std::string what(std::string_view n) const {
    if (names_.inputs.count(n)) return "a task input";
    if (names_.parameters.count(n)) return "a task parameter";
    if (names_.fns.count(n)) return "a task fn";
    if (names_.outputs.count(n)) return "a task output name";
    if (names_.sizes.count(n)) return "a size symbol";
    if (names_.is_size_constant(n)) return "a size constant";
    return "a reserved word";
  }
  void error(const char* code, std::string msg, Location loc) {
    diags_.push_back(make_error(code, at_line(loc) + msg, loc));
    ok_ = false;
  }

  void define(const std::string& n, Location loc) {
    if (is_reserved_word(n) || names_.contains(n)) {
      error("N-RESERVED", "'" + n + "' cannot be assigned: it is " + what(n) + "; choose another name", loc);
      return;
    }
    if (const int* line = defined_line(n)) {
      error("N-REDEF",
            "'" + n + "' is already defined on line " + std::to_string(*line) + "; every name is assigned exactly once",
            loc);
      return;
    }
    defined_.emplace_back(n, loc.line);
  }

  void undefined(const std::string& n, Location loc, const std::string& extra = "") {
    std::string msg = "'" + n + "' is not defined";
    if (const int* line = first_target_line(n); line && !defined_line(n))
      msg += " yet (it is defined later, on line " + std::to_string(*line) + "; uses must follow the definition)";
    error("N-UNDEF", msg + extra, loc);
  }

  void use_stream(const std::string& n, Location loc) {
    if (defined_line(n) || names_.inputs.count(NameKey{n})) return;
    if (names_.contains(n) || is_reserved_word(n)) {
      error("N-UNDEF", "'" + n + "' is " + what(n) + ", not a stream: apply and return take streams", loc);
      return;
    }
    undefined(n, loc);
  }

  void ref(const Ref& r, const std::string* local) {
    switch (r.kind) {
      case Ref::Kind::Name:
        if (local && r.name == *local) return;
        use_stream(r.name, r.loc);
        return;
      case Ref::Kind::Index: {
        use_stream(r.name, r.loc);
        auto it = lengths_.find(r.name);
        if (it != lengths_.end() && defined_line(r.name) && (r.index < 0 || r.index >= it->second))
          error("N-INDEX",
                "'" + r.name + "[" + std::to_string(r.index) + "]' is out of range: stream list '" + r.name +
                    "' has " + std::to_string(it->second) + " stream(s), so the index must be between 0 and " +
                    std::to_string(it->second - 1),
                r.loc);
        return;
      }
      case Ref::Kind::List:
        for (const auto& i : r.items) ref(i, local);
        return;
    }
  }

  void call(const PrimCall& c, const std::string* local_stream, const std::string* local_fn) {
    for (const auto& k : c.kwargs) {
      if (k.value.kind != KwVal::Kind::Name) continue;
      if (k.key == "fn") continue;  // T-FN-UNKNOWN (type checker)
      bool is_known = false;
      for (auto kk : param_keys()) is_known |= (kk == k.key);
      if (!is_known) continue;  // T-PARAM-UNKNOWN (type checker)
      const std::string& n = k.value.name;
      if (names_.contains(n) || defined_line(n)) continue;
      if ((local_stream && n == *local_stream) || (local_fn && n == *local_fn)) continue;
      undefined(n, k.value.loc);
    }
    for (const auto& r : c.arg.refs) ref(r, local_stream);
  }

  void fn_name(const std::string& n, Location loc) {
    if (names_.contains(n) || defined_line(n)) return;
    undefined(n, loc, " (a fn list names fns of the task)");
  }

  void comp_var(const std::string& v, Location loc, const std::string* other) {
    if (is_reserved_word(v) || names_.contains(v)) {
      error("N-RESERVED", "the loop variable '" + v + "' cannot be used: it is " + what(v) + "; choose another name",
            loc);
    } else if (const int* line = first_target_line(v)) {
      error("N-REDEF",
            "the loop variable '" + v + "' must not equal another name, but '" + v + "' is defined on line " +
                std::to_string(*line),
            loc);
    } else if (other && *other == v) {
      error("N-REDEF", "the two loop variables are both named '" + v + "'", loc);
    }
  }

  void statement(const Statement& st) {
    switch (st.kind) {
      case Statement::Kind::Assign: call(st.call, nullptr, nullptr); break;
      case Statement::Kind::FnList:
        for (std::size_t i = 0; i < st.fn_names.size(); ++i) fn_name(st.fn_names[i], st.fn_name_locs[i]);
        break;
      case Statement::Kind::Comprehension: {
        const Comprehension& c = st.comp;
        comp_var(c.stream_var, c.stream_var_loc, nullptr);
        if (!c.fn_var.empty()) comp_var(c.fn_var, c.fn_var_loc, &c.stream_var);
        if (!c.list_name.empty()) use_stream(c.list_name, c.list_loc);
        for (std::size_t i = 0; i < c.list_literal.size(); ++i) use_stream(c.list_literal[i], c.list_literal_locs[i]);
        if (!c.fns_name.empty()) fn_name(c.fns_name, c.fns_loc);
        for (std::size_t i = 0; i < c.fns_literal.size(); ++i) fn_name(c.fns_literal[i], c.fns_literal_locs[i]);
        call(c.body, &c.stream_var, c.fn_var.empty() ? nullptr : &c.fn_var);
        break;
      }
      case Statement::Kind::Return:
        for (const auto& r : st.returns) ref(r, nullptr);
        break;
    }
    for (std::size_t i = 0; i < st.targets.size(); ++i) {
      // A duplicate inside one statement (A, A = ...) is a redefinition too.
      define(st.targets[i], st.target_locs[i]);
    }
  }

  const Program& prog_;
  const TaskNames& names_;
  Diagnostics& diags_;
  std::map<std::string, std::int64_t, std::less<>> lengths_;
  // (name, line) pairs: a program has a few dozen names, searched in place (the names point into the program).
  std::vector<std::pair<std::string_view, int>> defined_;      // program name -> definition line (each once)
  std::vector<std::pair<std::string_view, int>> all_targets_;  // every target in program order

  const int* defined_line(std::string_view n) const {
    for (auto it = defined_.rbegin(); it != defined_.rend(); ++it)
      if (it->first == n) return &it->second;
    return nullptr;
  }
  const int* first_target_line(std::string_view n) const {  // the first definition, as map::emplace kept
    for (const auto& [name, line] : all_targets_)
      if (name == n) return &line;
    return nullptr;
  }
  bool ok_ = true;
};

}  // namespace

std::map<std::string, std::int64_t, std::less<>> stream_list_lengths(const Program& program,
                                                                     const SizeBinding* sizes) {
  std::map<std::string, std::int64_t, std::less<>> out;
  for (const auto& st : program.stmts) {
    if (!defines_stream_list(st) || st.targets.size() != 1) continue;
    std::optional<std::int64_t> len;
    if (st.kind == Statement::Kind::Assign) {
      len = kw_int(st.call, "N", sizes);
    } else if (!st.comp.list_name.empty()) {
      if (auto it = out.find(st.comp.list_name); it != out.end()) len = it->second;
    } else if (!st.comp.list_literal.empty()) {
      len = static_cast<std::int64_t>(st.comp.list_literal.size());
    }
    if (len && *len >= 0)
      out[st.targets[0]] = *len;
    else
      out.erase(st.targets[0]);
  }
  return out;
}

bool check_names(const Program& program, const TaskNames& names, Diagnostics& diags, const SizeBinding* sizes) {
  return NameChecker(program, names, diags, sizes).run();
}

}  // namespace sf::step
