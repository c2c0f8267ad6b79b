#include "core/step/printer.hpp"

#include <algorithm>

#include "core/step/printer_detail.hpp"

namespace sf::step {

namespace detail {

namespace {

void print_ref(const Ref& r, std::string& out) {
  switch (r.kind) {
    case Ref::Kind::Name: out += r.name; return;
    case Ref::Kind::Index: out += r.name + "[" + std::to_string(r.index) + "]"; return;
    case Ref::Kind::List:
      out += '[';
      for (std::size_t i = 0; i < r.items.size(); ++i) {
        if (i) out += ", ";
        print_ref(r.items[i], out);
      }
      out += ']';
      return;
  }
}

int kw_rank(const std::string& k) {
  static constexpr std::string_view order[] = {"fn", "a", "b", "n", "L", "S", "N"};
  for (int i = 0; i < 7; ++i)
    if (order[i] == k) return i;
  return 7;
}

std::string kwval(const Kwarg& k, const PrintStyle& style) {
  const KwVal& v = k.value;
  switch (v.kind) {
    case KwVal::Kind::Int: return std::to_string(v.integer);
    case KwVal::Kind::Name:
      if (style.canonical && style.sizes && k.key == "N") {
        std::string n = v.name;
        if (auto it = style.sizes->find(n); it != style.sizes->end()) return std::to_string(it->second);
        constexpr std::string_view suffix = "_value";
        if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
          if (auto it = style.sizes->find(n.substr(0, n.size() - suffix.size())); it != style.sizes->end())
            return std::to_string(it->second);
      }
      return v.name;
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

void print_call(const PrimCall& c, const PrintStyle& style, std::string& out) {
  std::vector<const Kwarg*> kws;
  for (const auto& k : c.kwargs) kws.push_back(&k);
  if (style.canonical)
    std::stable_sort(kws.begin(), kws.end(), [](const Kwarg* a, const Kwarg* b) { return kw_rank(a->key) < kw_rank(b->key); });
  out += "step." + c.prim + "(";
  for (std::size_t i = 0; i < kws.size(); ++i) {
    if (i) out += ", ";
    out += kws[i]->key + "=" + kwval(*kws[i], style);
  }
  out += ").apply(";
  if (c.arg.tuple) out += '(';
  for (std::size_t i = 0; i < c.arg.refs.size(); ++i) {
    if (i) out += ", ";
    print_ref(c.arg.refs[i], out);
  }
  if (c.arg.tuple) out += ')';
  out += ')';
}

std::string names_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += v[i];
  }
  return s + "]";
}

}  // namespace

std::string print_with(const Program& p, const PrintStyle& style) {
  std::string out;
  for (std::size_t si = 0; si < p.stmts.size(); ++si) {
    const Statement& st = p.stmts[si];
    if (si) out += '\n';
    if (st.kind == Statement::Kind::Return) {
      out += "return ";
      for (std::size_t i = 0; i < st.returns.size(); ++i) {
        if (i) out += ", ";
        print_ref(st.returns[i], out);
      }
      continue;
    }
    for (std::size_t i = 0; i < st.targets.size(); ++i) {
      if (i) out += ", ";
      out += st.targets[i];
    }
    out += " = ";
    switch (st.kind) {
      case Statement::Kind::Assign: print_call(st.call, style, out); break;
      case Statement::Kind::FnList: out += names_list(st.fn_names); break;
      case Statement::Kind::Comprehension: {
        const Comprehension& c = st.comp;
        out += '[';
        print_call(c.body, style, out);
        const std::string list = c.list_literal.empty() ? c.list_name : names_list(c.list_literal);
        if (c.zipped || !c.fn_var.empty()) {
          const std::string fns = c.fns_literal.empty() ? c.fns_name : names_list(c.fns_literal);
          if (c.fns_first || style.canonical)
            out += " for " + c.fn_var + ", " + c.stream_var + " in zip(" + fns + ", " + list + ")]";
          else
            out += " for " + c.stream_var + ", " + c.fn_var + " in zip(" + list + ", " + fns + ")]";
        } else {
          out += " for " + c.stream_var + " in " + list + "]";
        }
        break;
      }
      case Statement::Kind::Return: break;
    }
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

}  // namespace sf::step
