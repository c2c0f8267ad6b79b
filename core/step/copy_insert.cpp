#include "core/step/copy_insert.hpp"

#include <map>
#include <set>

#include "core/step/affine_values.hpp"
#include "core/step/affine_walk.hpp"
#include "core/step/lexer.hpp"
#include "core/step/primitives.hpp"

namespace sf::step {

namespace {

void collect_names(const Program& p, std::set<std::string, std::less<>>& out) {
  auto ref = [&](auto& self, const Ref& r) -> void {
    if (!r.name.empty()) out.insert(r.name);
    for (const auto& i : r.items) self(self, i);
  };
  auto call = [&](const PrimCall& c) {
    for (const auto& k : c.kwargs)
      if (k.value.kind == KwVal::Kind::Name) out.insert(k.value.name);
    for (const auto& r : c.arg.refs) ref(ref, r);
  };
  for (const auto& st : p.stmts) {
    out.insert(st.targets.begin(), st.targets.end());
    out.insert(st.fn_names.begin(), st.fn_names.end());
    call(st.call);
    call(st.comp.body);
    for (const auto* s : {&st.comp.stream_var, &st.comp.fn_var, &st.comp.list_name, &st.comp.fns_name})
      if (!s->empty()) out.insert(*s);
    out.insert(st.comp.list_literal.begin(), st.comp.list_literal.end());
    out.insert(st.comp.fns_literal.begin(), st.comp.fns_literal.end());
    for (const auto& r : st.returns) ref(ref, r);
  }
}

}  // namespace

Program insert_copies(const Program& program, const TaskNames& names) {
  using detail::ValueInfo;
  const detail::ValueTable t = detail::collect_values(program, names);

  std::set<std::string, std::less<>> taken;
  collect_names(program, taken);
  auto fresh = [&](const std::string& want) {
    std::string n = want;
    for (int k = 2; taken.count(n) || names.contains(n) || is_reserved_word(n); ++k) n = want + "_" + std::to_string(k);
    taken.insert(n);
    return n;
  };

  struct Chain {
    Ref source;                 // what the first Copy consumes (x or L[i])
    std::vector<Statement> stmts;
    std::vector<std::string> use_names;  // new name for use 0..k-1
  };
  // Insertion point: statement index after which to insert (-1: at the start). Ordered by value order.
  std::map<int, std::vector<Chain>> inserts;
  // Renames by (value key, use index). Key: the value's index in t.values and the element index (-1: stream).
  std::map<std::pair<std::size_t, std::int64_t>, std::vector<std::string>> renames;

  auto make_chain = [&](const std::string& base, const Ref& src, std::size_t k, const Statement* def) {
    Chain ch;
    ch.source = src;
    Ref prev = src;
    for (std::size_t j = 0; j + 1 < k; ++j) {
      std::string c = fresh(base + "_" + std::to_string(j));
      std::string r = fresh(base + "_r" + std::to_string(j + 1));
      Statement st;
      st.kind = Statement::Kind::Assign;
      st.loc = def ? def->loc : (program.stmts.empty() ? Location{} : program.stmts.front().loc);
      st.end_line = def ? def->end_line : st.loc.line;
      st.targets = {c, r};
      st.target_locs = {st.loc, st.loc};
      st.call.prim = prim_name(Prim::Copy);
      st.call.loc = st.call.prim_loc = st.loc;
      st.call.arg.refs = {prev};
      st.call.arg.loc = prev.loc = st.loc;
      st.call.arg.refs[0].loc = st.loc;
      ch.stmts.push_back(std::move(st));
      ch.use_names.push_back(c);
      prev = Ref{};
      prev.kind = Ref::Kind::Name;
      prev.name = r;
    }
    ch.use_names.push_back(prev.name);
    return ch;
  };

  for (std::size_t vi = 0; vi < t.values.size(); ++vi) {
    const ValueInfo& v = t.values[vi];
    const Statement* def = v.def_stmt >= 0 ? &program.stmts[static_cast<std::size_t>(v.def_stmt)] : nullptr;
    if (v.kind != ValueInfo::Kind::List) {
      if (v.uses.size() < 2) continue;
      Ref src;
      src.kind = Ref::Kind::Name;
      src.name = v.name;
      Chain ch = make_chain(v.name, src, v.uses.size(), def);
      renames[{vi, -1}] = ch.use_names;
      inserts[v.def_stmt].push_back(std::move(ch));
      continue;
    }
    for (const auto& [i, us] : v.elems) {
      if (us.size() < 2) continue;
      Ref src;
      src.kind = Ref::Kind::Index;
      src.name = v.name;
      src.index = i;
      Chain ch = make_chain(v.name + "_" + std::to_string(i), src, us.size(), def);
      renames[{vi, i}] = ch.use_names;
      inserts[v.def_stmt].push_back(std::move(ch));
    }
  }
  if (renames.empty()) return program;

  // Rename the uses, walking exactly as collect_values does (same binding of names to values).
  Program out = program;
  std::map<std::string, std::size_t, std::less<>> current;
  std::size_t next_value = 0;
  for (const auto& in : names.inputs) current[in] = next_value++;
  std::map<std::pair<std::size_t, std::int64_t>, std::size_t> seen;
  detail::walk_uses(
      out,
      [&](const detail::UseSite<Ref, std::string>& s) {
        auto it = current.find(s.name);
        if (it == current.end()) return;
        const ValueInfo& v = t.values[it->second];
        std::int64_t e = (s.index && v.kind == ValueInfo::Kind::List) ? s.idx : -1;
        if (v.kind == ValueInfo::Kind::List && e < 0) return;  // whole-list use
        auto r = renames.find({it->second, e});
        if (r == renames.end()) return;
        std::size_t k = seen[{it->second, e}]++;
        if (k >= r->second.size()) return;
        const std::string& nn = r->second[k];
        if (s.ref) {
          s.ref->kind = Ref::Kind::Name;
          s.ref->name = nn;
          s.ref->index = 0;
        } else if (s.str) {
          *s.str = nn;
        }
      },
      [&](int, const Statement& st) {
        if (st.kind == Statement::Kind::FnList) {
          for (const auto& n : st.targets) current.erase(n);
          return;
        }
        for (const auto& n : st.targets) current[n] = next_value++;
      });

  std::vector<Statement> stmts;
  stmts.reserve(out.stmts.size());
  auto emit = [&](int after) {
    if (auto it = inserts.find(after); it != inserts.end())
      for (auto& ch : it->second)
        for (auto& st : ch.stmts) stmts.push_back(std::move(st));
  };
  emit(-1);
  for (std::size_t i = 0; i < out.stmts.size(); ++i) {
    stmts.push_back(std::move(out.stmts[i]));
    emit(static_cast<int>(i));
  }
  out.stmts = std::move(stmts);
  return out;
}

}  // namespace sf::step
