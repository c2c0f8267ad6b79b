#include "core/synth/optimise.hpp"

#include <functional>
#include <map>
#include <set>

#include "core/step/copy_insert.hpp"
#include "core/step/parser.hpp"
#include "core/step/primitives.hpp"
#include "core/step/printer.hpp"
#include "core/verify/checker.hpp"

namespace sf::synth {

using step::Prim;
using step::Program;
using step::Ref;
using step::Statement;

std::optional<PerfKey> program_perf(cost::CostModel& model, const step::TaskDoc& task, const std::string& impl) {
  Diagnostics ds;
  auto r = model.evaluate(task, impl, {}, ds);
  if (!r) return std::nullopt;
  return PerfKey{r->feasible, r->cycles};
}

namespace {

std::string trim_ticks(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '`')) s.pop_back();
  return s;
}

std::optional<std::vector<Prim>> prim_chain(const std::string& text, bool allow_empty) {
  std::vector<Prim> out;
  std::string t = trim_ticks(text);
  if (t.empty()) {
    if (allow_empty) return out;
    return std::nullopt;
  }
  std::size_t pos = 0;
  while (pos <= t.size()) {
    std::size_t e = t.find('>', pos);
    if (e == std::string::npos) e = t.size();
    auto p = step::prim_from_name(trim_ticks(t.substr(pos, e - pos)));
    if (!p || !step::is_chain_prim(*p)) return std::nullopt;
    out.push_back(*p);
    pos = e + 1;
  }
  if (out.empty() || out.size() > 6) return std::nullopt;
  return out;
}

// Replaces every stream reference `from` (a name) by `to`.
void substitute(Ref& r, const std::string& from, const Ref& to) {
  if (r.kind == Ref::Kind::Name && r.name == from) {
    Location l = r.loc;
    r = to;
    r.loc = l;
  }
  for (auto& it : r.items) substitute(it, from, to);
}

void substitute(Program& p, const std::string& from, const Ref& to) {
  for (auto& s : p.stmts) {
    for (auto& r : s.call.arg.refs) substitute(r, from, to);
    for (auto& r : s.comp.body.arg.refs) substitute(r, from, to);
    for (auto& r : s.returns) substitute(r, from, to);
    if (to.kind == Ref::Kind::Name) {
      if (s.comp.list_name == from) s.comp.list_name = to.name;
      for (auto& n : s.comp.list_literal)
        if (n == from) n = to.name;
    }
  }
}

int count_uses(const Ref& r, const std::string& name) {
  int n = (r.kind != Ref::Kind::List && r.name == name) ? 1 : 0;
  for (const auto& it : r.items) n += count_uses(it, name);
  return n;
}

int count_uses(const Program& p, const std::string& name) {
  int n = 0;
  for (const auto& s : p.stmts) {
    for (const auto& r : s.call.arg.refs) n += count_uses(r, name);
    for (const auto& r : s.comp.body.arg.refs) n += count_uses(r, name);
    for (const auto& r : s.returns) n += count_uses(r, name);
    if (s.comp.list_name == name) ++n;
    for (const auto& x : s.comp.list_literal)
      if (x == name) ++n;
  }
  return n;
}

std::optional<Prim> prim_of(const Statement& s) {
  if (s.kind != Statement::Kind::Assign) return std::nullopt;
  return step::prim_from_name(s.call.prim);
}

// A single-output statement applying a chain primitive to one stream (Map may take a tuple).
bool chain_stmt(const Statement& s) {
  auto p = prim_of(s);
  if (!p || !step::is_chain_prim(*p) || s.targets.size() != 1) return false;
  return s.call.arg.refs.size() == 1 || *p == Prim::Map;
}

step::Kwarg kw_int(const std::string& key, std::int64_t v) {
  step::Kwarg k;
  k.key = key;
  k.value.kind = step::KwVal::Kind::Int;
  k.value.integer = v;
  return k;
}
step::Kwarg kw_name(const std::string& key, const std::string& v) {
  step::Kwarg k;
  k.key = key;
  k.value.kind = step::KwVal::Kind::Name;
  k.value.name = v;
  return k;
}
step::Kwarg kw_list(const std::string& key, std::vector<std::int64_t> v) {
  step::Kwarg k;
  k.key = key;
  k.value.kind = step::KwVal::Kind::IntList;
  k.value.list = std::move(v);
  return k;
}

// Every parameterisation of a chain primitive (the search's candidate sets, bounded).
std::vector<std::vector<step::Kwarg>> param_sets(Prim p, const step::TaskDoc& task) {
  std::vector<std::vector<step::Kwarg>> out;
  switch (p) {
    case Prim::Map:
      for (const auto& f : task.fns)
        if (!f.stateful()) out.push_back({kw_name("fn", f.func_name)});
      break;
    case Prim::Accum: case Prim::Scan:
      for (const auto& f : task.fns)
        if (f.stateful())
          for (int b = 1; b <= 3; ++b) out.push_back({kw_name("fn", f.func_name), kw_int("b", b)});
      break;
    case Prim::Bufferize:
      for (int a = 1; a <= 3; ++a) out.push_back({kw_int("a", a)});
      break;
    case Prim::Promote:
      for (int b = 0; b <= 3; ++b) out.push_back({kw_int("b", b)});
      break;
    case Prim::Repeat:
      for (const auto& [name, v] : task.sizes) out.push_back({kw_name("n", name)});
      break;
    case Prim::Flatten:
      for (int lo = 0; lo <= 2; ++lo) out.push_back({kw_list("L", {lo, lo + 1})});
      break;
    case Prim::Streamify:
      out.push_back({});
      break;
    default:
      break;
  }
  return out;
}

struct Candidate {
  Program prog;
  std::string move;
  std::string pattern_id;
};

std::string fresh_name(const Program& p, const step::TaskNames& tn, int& counter) {
  std::set<std::string> used;
  for (const auto& s : p.stmts)
    for (const auto& t : s.targets) used.insert(t);
  std::string s;
  do {
    s = "r" + std::to_string(++counter);
  } while (used.contains(s) || tn.contains(s));
  return s;
}

// The neighbours of a program (deterministic order: rewrite patterns first).
std::vector<Candidate> neighbours(const Program& p, const step::TaskDoc& task,
                                  const std::vector<RewritePattern>& patterns) {
  std::vector<Candidate> out;
  const auto tn = step::task_names(task);
  auto& st = p.stmts;
  // the statement defining each single-target name
  std::map<std::string, std::size_t> def;
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i].kind == Statement::Kind::Assign && st[i].targets.size() == 1) def[st[i].targets[0]] = i;

  // chains of statements s0 -> s1 -> ... (each consuming the previous, single-use intermediates)
  auto chain_from = [&](std::size_t i0, std::size_t len) -> std::optional<std::vector<std::size_t>> {
    std::vector<std::size_t> c{i0};
    if (!chain_stmt(st[i0])) return std::nullopt;
    while (c.size() < len) {
      const std::string& t = st[c.back()].targets[0];
      if (count_uses(p, t) != 1) return std::nullopt;
      std::optional<std::size_t> next;
      for (std::size_t j = c.back() + 1; j < st.size(); ++j) {
        if (chain_stmt(st[j]) && st[j].call.arg.refs.size() == 1 && st[j].call.arg.refs[0].kind == Ref::Kind::Name &&
            st[j].call.arg.refs[0].name == t) {
          next = j;
          break;
        }
      }
      if (!next) return std::nullopt;
      c.push_back(*next);
    }
    return c;
  };
  // replace the chain c by statements (after) fed by the first statement's argument
  auto replace_chain = [&](const std::vector<std::size_t>& c, const std::vector<Prim>& after,
                           const std::vector<std::vector<step::Kwarg>>& params) {
    Program q = p;
    const std::string out_name = st[c.back()].targets[0];
    step::ApplyArg arg = st[c.front()].call.arg;
    if (after.empty()) {
      if (arg.refs.size() != 1) return std::optional<Program>();
      Ref src = arg.refs[0];
      for (auto it = c.rbegin(); it != c.rend(); ++it) q.stmts.erase(q.stmts.begin() + static_cast<std::ptrdiff_t>(*it));
      substitute(q, out_name, src);
      return std::optional<Program>(q);
    }
    int counter = 0;
    std::vector<Statement> ns;
    for (std::size_t k = 0; k < after.size(); ++k) {
      Statement s;
      s.kind = Statement::Kind::Assign;
      s.targets.push_back(k + 1 == after.size() ? out_name : fresh_name(q, tn, counter));
      s.target_locs.resize(1);
      s.call.prim = std::string(step::prim_name(after[k]));
      s.call.kwargs = params[k];
      if (k == 0) {
        s.call.arg = arg;
      } else {
        Ref r;
        r.kind = Ref::Kind::Name;
        r.name = ns.back().targets[0];
        s.call.arg.refs = {r};
      }
      ns.push_back(std::move(s));  // the counter keeps fresh names distinct
    }
    const std::size_t at = c.back();
    for (auto it = c.rbegin(); it != c.rend(); ++it) q.stmts.erase(q.stmts.begin() + static_cast<std::ptrdiff_t>(*it));
    std::size_t ins = at + 1 - c.size();
    q.stmts.insert(q.stmts.begin() + static_cast<std::ptrdiff_t>(ins), ns.begin(), ns.end());
    return std::optional<Program>(q);
  };

  // 1. memory rewrite patterns
  for (const auto& rp : patterns) {
    for (std::size_t i = 0; i < st.size(); ++i) {
      auto c = chain_from(i, rp.before.size());
      if (!c) continue;
      bool ok = true;
      for (std::size_t k = 0; k < c->size() && ok; ++k) ok = prim_of(st[(*c)[k]]) == rp.before[k];
      if (!ok) continue;
      // every parameterisation of the after chain (bounded)
      std::vector<std::vector<std::vector<step::Kwarg>>> sets;
      for (Prim q : rp.after) sets.push_back(param_sets(q, task));
      std::vector<std::vector<step::Kwarg>> cur;
      int made = 0;
      std::function<void(std::size_t)> go = [&](std::size_t k) {
        if (made >= 64) return;
        if (k == sets.size()) {
          if (auto q = replace_chain(*c, rp.after, cur)) {
            out.push_back({std::move(*q), "pattern " + rp.id + " at " + st[i].targets[0], rp.id});
            ++made;
          }
          return;
        }
        for (const auto& ps : sets[k]) {
          cur.push_back(ps);
          go(k + 1);
          cur.pop_back();
        }
      };
      go(0);
    }
  }
  // 2. drop one statement, or a two-statement round trip (Bufferize>Streamify, Promote>Flatten, ...)
  for (std::size_t i = 0; i < st.size(); ++i) {
    for (std::size_t len = 1; len <= 2; ++len) {
      auto c = chain_from(i, len);
      if (!c || st[i].call.arg.refs.size() != 1) continue;
      if (auto q = replace_chain(*c, {}, {}))
        out.push_back({std::move(*q), "drop " + std::to_string(len) + " at " + st[i].targets[0], ""});
    }
  }
  // 3. fuse two Maps into one fn of the task
  for (std::size_t i = 0; i < st.size(); ++i) {
    auto c = chain_from(i, 2);
    if (!c || prim_of(st[(*c)[0]]) != Prim::Map || prim_of(st[(*c)[1]]) != Prim::Map) continue;
    for (auto& ps : param_sets(Prim::Map, task))
      if (auto q = replace_chain(*c, {Prim::Map}, {ps}))
        out.push_back({std::move(*q), "fuse Maps at " + st[i].targets[0] + " into " + ps[0].value.name, ""});
  }
  // 4. another fn for a Map; smaller (or other) integer parameters
  for (std::size_t i = 0; i < st.size(); ++i) {
    const auto& s = st[i];
    auto pr = prim_of(s);
    if (!pr) continue;
    for (std::size_t k = 0; k < s.call.kwargs.size(); ++k) {
      const auto& kw = s.call.kwargs[k];
      if (kw.key == "fn" && *pr == Prim::Map && kw.value.kind == step::KwVal::Kind::Name) {
        for (const auto& f : task.fns) {
          if (f.stateful() || f.func_name == kw.value.name) continue;
          Program q = p;
          q.stmts[i].call.kwargs[k].value.name = f.func_name;
          out.push_back({std::move(q), "Map fn " + f.func_name + " at " + s.targets[0], ""});
        }
      }
      if ((kw.key == "a" || kw.key == "b") && kw.value.kind == step::KwVal::Kind::Int) {
        for (std::int64_t d : {-1, 1}) {
          std::int64_t v = kw.value.integer + d;
          if (v < 0 || v > 4) continue;
          Program q = p;
          q.stmts[i].call.kwargs[k].value.integer = v;
          out.push_back({std::move(q), kw.key + "=" + std::to_string(v) + " at " + s.targets[0], ""});
        }
      }
    }
  }
  // 5. spread a Map over the lanes of a Multihot selector: Partition -> one Map per lane -> Merge
  struct Sel {
    std::string name, lanes;
    std::int64_t n = 0;
  };
  std::vector<Sel> selectors;
  for (const auto& in : task.inputs) {
    if (in.dtype.fields.size() != 1 || !in.dtype.scalar().multihot || in.dtype.scalar().is_buffer()) continue;
    auto v = in.dtype.scalar().lanes.eval(task.sizes);
    if (v) selectors.push_back({in.name, in.dtype.scalar().lanes.str(), *v});
  }
  if (!selectors.empty()) {
    for (std::size_t i = 0; i < st.size(); ++i) {
      const auto& s = st[i];
      if (prim_of(s) != Prim::Map || s.targets.size() != 1 || s.call.kwargs.empty()) continue;
      std::string fn;
      for (const auto& kw : s.call.kwargs)
        if (kw.key == "fn") fn = kw.value.name;
      if (fn.empty()) continue;
      for (const auto& sl : selectors) {
        const std::string& sel = sl.name;
        const std::string& lanes = sl.lanes;
        const std::int64_t nl = sl.n;
        if (nl < 2 || nl > 8 || s.call.arg.refs.size() != 1) continue;
        const step::FnDecl* fd = nullptr;
        for (const auto& f : task.fns)
          if (f.func_name == fn) fd = &f;
        for (const auto& mf : task.fns) {
          if (!mf.stateful() || !fd || !(mf.input == fd->output)) continue;  // Merge combines the lanes' outputs
          int counter = 0;
          Program q = p;
          std::string fl = fresh_name(q, tn, counter);
          std::string tp = fl + "p", tm = fl + "m";
          Statement a;  // fn list
          a.kind = Statement::Kind::FnList;
          a.targets = {fl};
          a.target_locs.resize(1);
          for (std::int64_t e = 0; e < nl; ++e) a.fn_names.push_back(fn), a.fn_name_locs.emplace_back();
          Statement b;  // Partition
          b.kind = Statement::Kind::Assign;
          b.targets = {tp};
          b.target_locs.resize(1);
          b.call.prim = step::prim_name(Prim::Partition);
          b.call.kwargs = {kw_name("N", lanes)};
          Ref sr;
          sr.kind = Ref::Kind::Name;
          sr.name = sel;
          b.call.arg.refs = {s.call.arg.refs[0], sr};
          b.call.arg.tuple = true;
          Statement c;  // comprehension
          c.kind = Statement::Kind::Comprehension;
          c.targets = {tm};
          c.target_locs.resize(1);
          c.comp.body.prim = step::prim_name(Prim::Map);
          c.comp.body.kwargs = {kw_name("fn", "ef")};
          Ref er;
          er.kind = Ref::Kind::Name;
          er.name = "es";
          c.comp.body.arg.refs = {er};
          c.comp.stream_var = "es";
          c.comp.fn_var = "ef";
          c.comp.zipped = true;
          c.comp.fns_first = true;
          c.comp.list_name = tp;
          c.comp.fns_name = fl;
          Statement d;  // Merge
          d.kind = Statement::Kind::Assign;
          d.targets = s.targets;
          d.target_locs.resize(1);
          d.call.prim = step::prim_name(Prim::Merge);
          d.call.kwargs = {kw_name("fn", mf.func_name)};
          Ref mr;
          mr.kind = Ref::Kind::Name;
          mr.name = tm;
          d.call.arg.refs = {mr, sr};
          d.call.arg.tuple = true;
          q.stmts.erase(q.stmts.begin() + static_cast<std::ptrdiff_t>(i));
          q.stmts.insert(q.stmts.begin() + static_cast<std::ptrdiff_t>(i), {a, b, c, d});
          out.push_back({std::move(q), "lanes of " + sel + " for Map at " + s.targets[0] + " (Merge " +
                                           mf.func_name + ")",
                         ""});
        }
      }
    }
  }
  return out;
}

}  // namespace

std::optional<RewritePattern> parse_rewrite_pattern(const std::string& text) {
  std::size_t k = text.find("=>");
  if (k == std::string::npos) return std::nullopt;
  auto b = prim_chain(text.substr(0, k), false);
  auto a = prim_chain(text.substr(k + 2), true);
  if (!b || !a || *a == *b) return std::nullopt;
  RewritePattern r;
  r.before = *b;
  r.after = *a;
  return r;
}

Program strip_copies(const Program& prog) {
  Program q = prog;
  for (std::size_t i = 0; i < q.stmts.size();) {
    auto& s = q.stmts[i];
    if (s.kind == Statement::Kind::Assign && step::is_prim(s.call.prim, Prim::Copy) &&
        s.call.arg.refs.size() == 1) {
      Ref src = s.call.arg.refs[0];
      std::vector<std::string> ts = s.targets;
      q.stmts.erase(q.stmts.begin() + static_cast<std::ptrdiff_t>(i));
      for (const auto& t : ts) substitute(q, t, src);
      continue;
    }
    ++i;
  }
  return q;
}

RewriteResult optimise_program(verify::Verifier& ver, cost::CostModel& model, const step::TaskDoc& task,
                               const std::string& start_impl, const std::vector<RewritePattern>& patterns,
                               const RewriteOptions& opt) {
  RewriteResult res;
  Diagnostics ds;
  auto parsed = step::parse_impl(start_impl, {}, ds);
  if (!parsed) return res;
  const auto tn = step::task_names(task);
  Program cur = strip_copies(*parsed);
  auto render = [&](const Program& p) { return step::print_program(step::insert_copies(p, tn)); };
  std::string cur_impl = render(cur);
  if (!ver.verify(task, cur_impl).pass) {
    // the program as given (it may differ from the re-printed one only in Copies)
    if (!ver.verify(task, start_impl).pass) return res;
    cur_impl = start_impl;
  }
  auto k0 = program_perf(model, task, cur_impl);
  if (!k0) return res;
  res.start = res.best = *k0;
  res.impl = cur_impl;
  res.raw_impl = step::print_program(cur);
  std::set<std::string> tried{res.raw_impl};
  for (;;) {
    std::optional<Candidate> best;
    PerfKey best_key = res.best;
    std::string best_impl;
    for (auto& c : neighbours(cur, task, patterns)) {
      if (res.evaluations >= opt.max_evaluations) break;
      std::string raw = step::print_program(c.prog);
      if (!tried.insert(raw).second) continue;
      std::string impl = render(c.prog);
      if (!verify::check_program(task, impl, {}).ok()) continue;  // static checks: free
      ++res.evaluations;
      if (!ver.verify(task, impl).pass) continue;
      ++res.correct;
      auto k = program_perf(model, task, impl);
      if (!k || !k->better_than(best_key)) continue;
      best_key = *k;
      best_impl = impl;
      best = std::move(c);
    }
    if (!best) break;
    cur = std::move(best->prog);
    res.improved = true;
    res.best = best_key;
    res.impl = best_impl;
    res.raw_impl = step::print_program(cur);
    res.moves.push_back(best->move);
    if (!best->pattern_id.empty()) res.applied.push_back(best->pattern_id);
    if (res.evaluations >= opt.max_evaluations) break;
  }
  return res;
}

}  // namespace sf::synth
