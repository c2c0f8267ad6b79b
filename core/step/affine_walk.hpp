// Internal: visits every stream use site of a program in program order (step-dialect §6), shared by the
// affine checker, stream_uses and the guardian Copy rewrite so that all three agree on "the k-th use".
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "core/step/ast.hpp"

namespace sf::step::detail {

template <class RefT, class StrT>
struct UseSite {
  const std::string& name;   // the stream, stream-list or list name used
  bool index = false;        // L[i]
  std::int64_t idx = 0;
  Location loc;
  int stmt = 0;
  bool in_return = false;
  bool in_loop_body = false;  // a ref inside a comprehension body other than its stream variable
  bool comp_list = false;     // the iterable of a comprehension (list name or one entry of a literal list)
  RefT* ref = nullptr;        // the ref to rename (apply args, return, list literals)
  StrT* str = nullptr;        // the string to rename (comprehension iterables)
};

// ProgramT is Program or const Program. on_use(UseSite) for every use, on_def(int stmt, StatementT&) after
// the uses of each statement.
template <class ProgramT, class OnUse, class OnDef>
void walk_uses(ProgramT& prog, OnUse&& on_use, OnDef&& on_def) {
  constexpr bool is_const = std::is_const_v<ProgramT>;
  using RefT = std::conditional_t<is_const, const Ref, Ref>;
  using StrT = std::conditional_t<is_const, const std::string, std::string>;
  using Site = UseSite<RefT, StrT>;
  int si = 0;
  auto visit_ref = [&](auto& self, RefT& r, bool in_return, bool in_body, const std::string* skip) -> void {
    switch (r.kind) {
      case Ref::Kind::Name: {
        if (skip && r.name == *skip) return;
        Site s{r.name};
        s.loc = r.loc, s.stmt = si, s.in_return = in_return, s.in_loop_body = in_body, s.ref = &r;
        on_use(s);
        return;
      }
      case Ref::Kind::Index: {
        Site s{r.name};
        s.index = true, s.idx = r.index, s.loc = r.loc, s.stmt = si, s.in_return = in_return;
        s.in_loop_body = in_body, s.ref = &r;
        on_use(s);
        return;
      }
      case Ref::Kind::List:
        for (auto& item : r.items) self(self, item, in_return, in_body, skip);
        return;
    }
  };
  for (auto& st : prog.stmts) {
    switch (st.kind) {
      case Statement::Kind::Assign:
        for (auto& r : st.call.arg.refs) visit_ref(visit_ref, r, false, false, nullptr);
        break;
      case Statement::Kind::Comprehension: {
        auto& c = st.comp;
        if (!c.list_name.empty()) {
          Site s{c.list_name};
          s.loc = c.list_loc, s.stmt = si, s.comp_list = true, s.str = &c.list_name;
          on_use(s);
        }
        for (std::size_t i = 0; i < c.list_literal.size(); ++i) {
          Site s{c.list_literal[i]};
          s.loc = i < c.list_literal_locs.size() ? c.list_literal_locs[i] : c.list_loc;
          s.stmt = si, s.comp_list = true, s.str = &c.list_literal[i];
          on_use(s);
        }
        for (auto& r : c.body.arg.refs) visit_ref(visit_ref, r, false, true, &c.stream_var);
        break;
      }
      case Statement::Kind::Return:
        for (auto& r : st.returns) visit_ref(visit_ref, r, true, false, nullptr);
        break;
      case Statement::Kind::FnList: break;
    }
    on_def(si, st);
    ++si;
  }
}

}  // namespace sf::step::detail
