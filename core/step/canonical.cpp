// Canonical form (step-dialect §9): rename, then print in the canonical style.
#include <map>

#include "core/common/sha256.hpp"
#include "core/step/names.hpp"
#include "core/step/printer.hpp"
#include "core/step/printer_detail.hpp"

namespace sf::step {

namespace {

using NameMap = std::map<std::string, std::string, std::less<>>;

void rename(std::string& n, const NameMap& m) {
  if (auto it = m.find(n); it != m.end()) n = it->second;
}

void rename_ref(Ref& r, const NameMap& m) {
  if (r.kind != Ref::Kind::List) rename(r.name, m);
  for (auto& i : r.items) rename_ref(i, m);
}

void rename_call(PrimCall& c, const NameMap& m) {
  for (auto& k : c.kwargs)
    if (k.value.kind == KwVal::Kind::Name) rename(k.value.name, m);
  for (auto& r : c.arg.refs) rename_ref(r, m);
}

}  // namespace

Program detail::canonical_program(const Program& program) {
  Program p = program;
  NameMap m;
  int v = 0, l = 0;
  for (auto& st : p.stmts) {
    switch (st.kind) {
      case Statement::Kind::Assign: rename_call(st.call, m); break;
      case Statement::Kind::FnList:
        for (auto& f : st.fn_names) rename(f, m);
        break;
      case Statement::Kind::Return:
        for (auto& r : st.returns) rename_ref(r, m);
        break;
      case Statement::Kind::Comprehension: {
        Comprehension& c = st.comp;
        rename(c.list_name, m);
        for (auto& n : c.list_literal) rename(n, m);
        rename(c.fns_name, m);
        for (auto& n : c.fns_literal) rename(n, m);
        NameMap local = m;
        if (!c.fn_var.empty()) local[c.fn_var] = "_f";
        local[c.stream_var] = "_s";
        rename_call(c.body, local);
        if (!c.fn_var.empty()) c.fn_var = "_f";
        c.stream_var = "_s";
        if (c.zipped || !c.fn_var.empty()) c.fns_first = true;
        break;
      }
    }
    const bool fnlist = st.kind == Statement::Kind::FnList;
    for (auto& t : st.targets) {
      std::string nn = fnlist ? "_l" + std::to_string(++l) : "_v" + std::to_string(++v);
      m[t] = nn;
      t = nn;
    }
  }
  return p;
}

std::string canonical_text(const Program& program, const SizeBinding* sizes) {
  detail::PrintStyle style{true, sizes};
  style.rename = true;  // the same text as print_with(canonical_program(program), ...) without the copy
  return detail::print_with(program, style);
}

std::string canonical_key(const Program& program, const SizeBinding* sizes) {
  const std::string text = canonical_text(program, sizes);
  std::string out;
  sha256_hex_to(text, out);  // empty on a libcrypto failure
  return out;
}

}  // namespace sf::step
