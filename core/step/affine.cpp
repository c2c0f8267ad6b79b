#include "core/step/affine.hpp"

#include <algorithm>

#include "core/step/affine_values.hpp"
#include "core/step/affine_walk.hpp"

namespace sf::step {

namespace detail {

ValueTable collect_values(const Program& program, const TaskNames& names) {
  ValueTable t;
  // The value each name holds now: (name view, index into t.values) searched from the back, a later entry
  // shadowing an earlier one; kNone marks a name that no longer holds a stream value (a fn list).
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::pair<std::string_view, std::size_t>> current;
  std::size_t names_count = names.inputs.size();
  for (const auto& st : program.stmts) names_count += st.targets.size();
  current.reserve(names_count);
  auto holds = [&](std::string_view n) {
    for (auto it = current.rbegin(); it != current.rend(); ++it)
      if (it->first == n) return it->second;
    return kNone;
  };
  for (const auto& in : names.inputs) {
    ValueInfo v;
    v.kind = ValueInfo::Kind::Input;
    v.name = in;
    current.emplace_back(in, t.values.size());
    t.values.push_back(std::move(v));
  }
  walk_uses(
      program,
      [&](const UseSite<const Ref, const std::string>& s) {
        const std::size_t at = holds(s.name);
        if (at == kNone) return;  // not a stream value (reported by the name check)
        ValueInfo& v = t.values[at];
        UseRec u{s.loc, s.stmt};
        if (s.index) {
          if (v.kind == ValueInfo::Kind::List) v.elems[s.idx].push_back(u);
          else v.uses.push_back(u);  // indexing a stream is a type error; still one use
          return;
        }
        if (s.in_return && v.kind == ValueInfo::Kind::List) t.returned_lists.emplace_back(v.name, s.loc);
        v.uses.push_back(u);
      },
      [&](int si, const Statement& st) {
        if (st.kind == Statement::Kind::FnList) {
          for (const auto& n : st.targets) current.emplace_back(n, kNone);
          return;
        }
        const bool list = defines_stream_list(st);
        for (std::size_t i = 0; i < st.targets.size(); ++i) {
          ValueInfo v;
          v.kind = list ? ValueInfo::Kind::List : ValueInfo::Kind::Stream;
          v.name = st.targets[i];
          v.def = i < st.target_locs.size() ? st.target_locs[i] : st.loc;
          v.def_stmt = si;
          current.emplace_back(st.targets[i], t.values.size());
          t.values.push_back(std::move(v));
        }
      });
  return t;
}

}  // namespace detail

namespace {

using detail::UseRec;
using detail::ValueInfo;

std::string ln(int line) { return "line " + std::to_string(line) + ": "; }

constexpr const char* kDeadTail = " is never used. Every stream must be consumed by exactly one primitive or returned.";

std::string copy_base(const std::string& name) {
  std::string b;
  for (char c : name) {
    if (c == '[') b += '_';
    else if (c != ']') b += c;
  }
  return b;
}

void multi(Diagnostics& d, const std::string& x, bool input, const Location& def, const UseRec& first,
           const UseRec& second) {
  const std::string base = copy_base(x);
  std::string msg = ln(second.loc.line);
  if (input)
    msg += "task input '" + x + "' is used again; it was already used on line " + std::to_string(first.loc.line) +
           ". Each stream is used exactly once: write `" + base + "_0, " + base + "_1 = step.Copy().apply(" + x +
           ")` at the start of the program";
  else
    msg += "stream '" + x + "' (defined on line " + std::to_string(def.line) + ") is used again; it was already used on line " +
           std::to_string(first.loc.line) + ". Each stream is used exactly once: write `" + base + "_0, " + base +
           "_1 = step.Copy().apply(" + x + ")` after line " + std::to_string(def.line);
  msg += " and give each use its own copy (k uses need k\u22121 Copies).";
  d.push_back(make_error("A-MULTI", msg, second.loc));
}

// Body of a comprehension: the stream variable exactly once, no other stream.
void check_loop(const Statement& st, const std::map<std::string, int, std::less<>>& streams, Diagnostics& d) {
  const Comprehension& c = st.comp;
  int count = 0;
  Location bad;
  auto visit = [&](auto& self, const Ref& r) -> void {
    if (r.kind == Ref::Kind::List) {
      for (const auto& i : r.items) self(self, i);
      return;
    }
    if (r.kind == Ref::Kind::Name && r.name == c.stream_var) {
      if (++count == 2 && !bad.known()) bad = r.loc;
      return;
    }
    if ((r.kind == Ref::Kind::Index || streams.count(r.name)) && !bad.known()) bad = r.loc;
  };
  for (const auto& r : c.body.arg.refs) visit(visit, r);
  if (count == 0 && !bad.known()) bad = c.body.arg.loc.known() ? c.body.arg.loc : c.body.loc;
  if (!bad.known()) return;
  d.push_back(make_error("A-LOOP",
                         ln(bad.line) + "in a list comprehension the stream variable '" + c.stream_var +
                             "' must be used exactly once and no other stream may appear (it would be consumed "
                             "once per iteration).",
                         bad));
}

}  // namespace

void check_affine(const Program& program, const TaskNames& names, Diagnostics& diags, const SizeBinding* sizes) {
  const detail::ValueTable t = detail::collect_values(program, names);

  // Return placement (O-RETURN) and the location for unused inputs.
  int first_return = -1;
  for (std::size_t i = 0; i < program.stmts.size(); ++i)
    if (program.stmts[i].kind == Statement::Kind::Return) {
      first_return = static_cast<int>(i);
      break;
    }
  const Location end_loc{std::max(program.last_line, 1), 1};
  const Location input_dead_loc = first_return >= 0 ? program.stmts[first_return].loc : end_loc;
  if (first_return < 0) {
    diags.push_back(make_error("O-RETURN", "the program must end with exactly one return statement", end_loc));
  } else if (first_return + 1 < static_cast<int>(program.stmts.size())) {
    diags.push_back(make_error("O-RETURN", "the program must end with exactly one return statement",
                               program.stmts[first_return + 1].loc));
  }
  for (const auto& [name, loc] : t.returned_lists)
    diags.push_back(make_error("O-LIST", "a stream list cannot be returned; Merge it first", loc));

  // Comprehension bodies (the names known before each one are collected only when there is one).
  if (std::any_of(program.stmts.begin(), program.stmts.end(),
                  [](const Statement& st) { return st.kind == Statement::Kind::Comprehension; })) {
    std::map<std::string, int, std::less<>> known;
    for (const auto& in : names.inputs) known[in] = 0;
    for (const auto& st : program.stmts) {
      if (st.kind == Statement::Kind::Comprehension) check_loop(st, known, diags);
      if (st.kind != Statement::Kind::FnList)
        for (const auto& n : st.targets) known[n] = 0;
    }
  }

  const auto lengths = stream_list_lengths(program, sizes);
  for (const ValueInfo& v : t.values) {
    switch (v.kind) {
      case ValueInfo::Kind::Input:
        if (v.uses.empty())
          diags.push_back(make_error("A-DEAD", ln(input_dead_loc.line) + "task input '" + v.name + "'" + kDeadTail,
                                     input_dead_loc));
        else if (v.uses.size() > 1)
          multi(diags, v.name, true, v.def, v.uses[0], v.uses[1]);
        break;
      case ValueInfo::Kind::Stream:
        if (v.uses.empty())
          diags.push_back(make_error("A-DEAD", ln(v.def.line) + "stream '" + v.name + "'" + kDeadTail, v.def));
        else if (v.uses.size() > 1)
          multi(diags, v.name, false, v.def, v.uses[0], v.uses[1]);
        break;
      case ValueInfo::Kind::List: {
        if (v.uses.empty() && v.elems.empty()) {
          diags.push_back(make_error("A-DEAD", ln(v.def.line) + "stream list '" + v.name + "'" + kDeadTail, v.def));
          break;
        }
        if (v.uses.size() > 1) {
          diags.push_back(make_error("A-MULTI",
                                     ln(v.uses[1].loc.line) + "stream list '" + v.name + "' (defined on line " +
                                         std::to_string(v.def.line) + ") is used again; it was already used on line " +
                                         std::to_string(v.uses[0].loc.line) +
                                         ". A stream list is used exactly once: as a whole (a comprehension or "
                                         "Merge) or element by element.",
                                     v.uses[1].loc));
        }
        if (!v.uses.empty() && !v.elems.empty()) {
          // The first element-wise use in program order.
          std::int64_t idx = v.elems.begin()->first;
          Location eloc = v.elems.begin()->second.front().loc;
          for (const auto& [i, us] : v.elems) {
            const Location& l = us.front().loc;
            if (l.line < eloc.line || (l.line == eloc.line && l.column < eloc.column)) eloc = l, idx = i;
          }
          const Location& wloc = v.uses.front().loc;
          const bool elem_later = eloc.line > wloc.line || (eloc.line == wloc.line && eloc.column > wloc.column);
          const Location at = elem_later ? eloc : wloc;
          diags.push_back(make_error("A-LIST",
                                     ln(at.line) + "stream list '" + v.name + "' is used both as a whole (line " +
                                         std::to_string(wloc.line) + ") and element-wise (" + v.name + "[" +
                                         std::to_string(idx) + "]).",
                                     at));
          break;
        }
        for (const auto& [i, us] : v.elems)
          if (us.size() > 1) multi(diags, v.name + "[" + std::to_string(i) + "]", false, v.def, us[0], us[1]);
        if (v.uses.empty()) {
          if (auto it = lengths.find(v.name); it != lengths.end())
            for (std::int64_t i = 0, reported = 0; i < it->second && reported < 20; ++i)
              if (!v.elems.count(i) && ++reported)
                diags.push_back(make_error(
                    "A-DEAD", ln(v.def.line) + "stream '" + v.name + "[" + std::to_string(i) + "]'" + kDeadTail, v.def));
        }
        break;
      }
    }
  }
}

std::vector<StreamUses> stream_uses(const Program& program, const TaskNames& names) {
  const detail::ValueTable t = detail::collect_values(program, names);
  std::vector<StreamUses> out;
  auto locs = [](const std::vector<UseRec>& us) {
    std::vector<Location> l;
    for (const auto& u : us) l.push_back(u.loc);
    return l;
  };
  for (const ValueInfo& v : t.values) {
    if (v.kind != ValueInfo::Kind::List) {
      out.push_back({v.name, v.def, locs(v.uses)});
      continue;
    }
    for (const auto& [i, us] : v.elems) out.push_back({v.name + "[" + std::to_string(i) + "]", v.def, locs(us)});
  }
  return out;
}

}  // namespace sf::step
