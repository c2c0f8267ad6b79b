#include "core/step/printer.hpp"

#include <algorithm>

#include "core/step/primitives.hpp"
#include "core/step/printer_detail.hpp"

namespace sf::step {

namespace detail {

namespace {

// The names as printed: unchanged, or renamed as canonical_program renames them (PrintStyle::rename).
class Renamer {
 public:
  explicit Renamer(bool on) : on_(on) {}
  bool on() const { return on_; }
  const std::string& operator()(const std::string& n) const {
    if (!on_) return n;
    if (comp_) {  // a comprehension body: its stream variable, then its fn variable, shadow the program's names
      if (n == comp_->stream_var) return s_;
      if (!comp_->fn_var.empty() && n == comp_->fn_var) return f_;
    }
    for (auto it = defined_.rbegin(); it != defined_.rend(); ++it)
      if (*it->first == n) return it->second;
    return n;
  }
  void enter(const Comprehension* c) { comp_ = c; }
  // The printed names of a statement's targets; they take effect after its body (define()).
  const std::string& target(const Statement& st, std::size_t i) {
    if (!on_) return st.targets[i];
    const bool fnlist = st.kind == Statement::Kind::FnList;
    pending_.push_back({&st.targets[i], fnlist ? "_l" + std::to_string(++l_) : "_v" + std::to_string(++v_)});
    return pending_.back().second;
  }
  void define() {
    for (auto& p : pending_) defined_.push_back(std::move(p));
    pending_.clear();
  }

 private:
  bool on_;
  const Comprehension* comp_ = nullptr;
  const std::string s_ = "_s", f_ = "_f";
  std::vector<std::pair<const std::string*, std::string>> defined_, pending_;
  int v_ = 0, l_ = 0;
};

void print_ref(const Ref& r, const Renamer& nm, std::string& out) {
  switch (r.kind) {
    case Ref::Kind::Name: out += nm(r.name); return;
    case Ref::Kind::Index: out += nm(r.name) + "[" + std::to_string(r.index) + "]"; return;
    case Ref::Kind::List:
      out += '[';
      for (std::size_t i = 0; i < r.items.size(); ++i) {
        if (i) out += ", ";
        print_ref(r.items[i], nm, out);
      }
      out += ']';
      return;
  }
}

int kw_rank(const std::string& k) {
  const auto order = param_keys();
  for (std::size_t i = 0; i < order.size(); ++i)
    if (order[i] == k) return static_cast<int>(i);
  return static_cast<int>(order.size());
}

std::string kwval(const Kwarg& k, const PrintStyle& style, const Renamer& nm) {
  const KwVal& v = k.value;
  switch (v.kind) {
    case KwVal::Kind::Int:
    case KwVal::Kind::IntList:
      return kwval_text(v);
    case KwVal::Kind::Name:
      if (style.canonical && style.sizes && k.key == "N") {
        const std::string& n = nm(v.name);
        if (auto it = style.sizes->find(n); it != style.sizes->end()) return std::to_string(it->second);
        constexpr std::string_view suffix = "_value";
        if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
          if (auto it = style.sizes->find(n.substr(0, n.size() - suffix.size())); it != style.sizes->end())
            return std::to_string(it->second);
      }
      return nm(v.name);
  }
  return {};
}

void print_call(const PrimCall& c, const PrintStyle& style, const Renamer& nm, std::string& out) {
  // Keyword arguments in print order (a call has at most a few; more than 8 take the heap).
  const Kwarg* inline_kws[8];
  std::vector<const Kwarg*> heap_kws;
  const Kwarg** kws = inline_kws;
  if (c.kwargs.size() > 8) {
    heap_kws.resize(c.kwargs.size());
    kws = heap_kws.data();
  }
  const std::size_t nk = c.kwargs.size();
  for (std::size_t i = 0; i < nk; ++i) kws[i] = &c.kwargs[i];
  if (style.canonical) {  // stable insertion sort by rank (std::stable_sort would allocate a buffer)
    for (std::size_t i = 1; i < nk; ++i) {
      const Kwarg* k = kws[i];
      const int r = kw_rank(k->key);
      std::size_t j = i;
      for (; j > 0 && kw_rank(kws[j - 1]->key) > r; --j) kws[j] = kws[j - 1];
      kws[j] = k;
    }
  }
  out += "step.";
  out += c.prim;
  out += '(';
  for (std::size_t i = 0; i < nk; ++i) {
    if (i) out += ", ";
    out += kws[i]->key;
    out += '=';
    out += kwval(*kws[i], style, nm);
  }
  out += ").apply(";
  if (c.arg.tuple) out += '(';
  for (std::size_t i = 0; i < c.arg.refs.size(); ++i) {
    if (i) out += ", ";
    print_ref(c.arg.refs[i], nm, out);
  }
  if (c.arg.tuple) out += ')';
  out += ')';
}

std::string names_list(const std::vector<std::string>& v, const Renamer& nm) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += nm(v[i]);
  }
  return s + "]";
}

}  // namespace

std::string print_with(const Program& p, const PrintStyle& style) {
  std::string out;
  Renamer nm(style.rename);
  for (std::size_t si = 0; si < p.stmts.size(); ++si) {
    const Statement& st = p.stmts[si];
    if (si) out += '\n';
    if (st.kind == Statement::Kind::Return) {
      out += "return ";
      for (std::size_t i = 0; i < st.returns.size(); ++i) {
        if (i) out += ", ";
        print_ref(st.returns[i], nm, out);
      }
      for (std::size_t i = 0; i < st.targets.size(); ++i) nm.target(st, i);  // none in a parsed program
      nm.define();
      continue;
    }
    for (std::size_t i = 0; i < st.targets.size(); ++i) {
      if (i) out += ", ";
      out += nm.target(st, i);
    }
    out += " = ";
    switch (st.kind) {
      case Statement::Kind::Assign: print_call(st.call, style, nm, out); break;
      case Statement::Kind::FnList: out += names_list(st.fn_names, nm); break;
      case Statement::Kind::Comprehension: {
        const Comprehension& c = st.comp;
        out += '[';
        nm.enter(&c);
        print_call(c.body, style, nm, out);
        nm.enter(nullptr);
        const std::string list = c.list_literal.empty() ? nm(c.list_name) : names_list(c.list_literal, nm);
        const std::string& fn_var = nm.on() && !c.fn_var.empty() ? std::string("_f") : c.fn_var;
        const std::string& stream_var = nm.on() ? std::string("_s") : c.stream_var;
        if (c.zipped || !c.fn_var.empty()) {
          const std::string fns = c.fns_literal.empty() ? nm(c.fns_name) : names_list(c.fns_literal, nm);
          if (c.fns_first || style.canonical || nm.on())
            out += " for " + fn_var + ", " + stream_var + " in zip(" + fns + ", " + list + ")]";
          else
            out += " for " + stream_var + ", " + fn_var + " in zip(" + list + ", " + fns + ")]";
        } else {
          out += " for " + stream_var + " in " + list + "]";
        }
        break;
      }
      case Statement::Kind::Return: break;
    }
    nm.define();
  }
  return out;
}

}  // namespace detail

std::string print_program(const Program& program) {
  std::string s = detail::print_with(program, detail::PrintStyle{});
  if (!s.empty()) s += '\n';
  return s;
}

int program_length(const Program& program) { return static_cast<int>(program.stmts.size()); }

std::string kwval_text(const KwVal& v) {
  switch (v.kind) {
    case KwVal::Kind::Int: return std::to_string(v.integer);
    case KwVal::Kind::Name: return v.name;
    case KwVal::Kind::IntList: {
      std::string s = "[";
      for (std::size_t i = 0; i < v.list.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(v.list[i]);
      }
      return s + "]";
    }
  }
  return {};
}

}  // namespace sf::step
