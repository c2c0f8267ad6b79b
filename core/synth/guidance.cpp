#include "core/synth/guidance.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>

#include "core/step/primitives.hpp"
#include "core/verify/checker.hpp"

namespace sf::synth {

using step::Prim;

namespace {

bool single_name_arg(const step::Statement& s) {
  return s.kind == step::Statement::Kind::Assign && s.targets.size() == 1 && !s.call.arg.tuple &&
         s.call.arg.refs.size() == 1 && s.call.arg.refs[0].kind == step::Ref::Kind::Name;
}

// next[i] = the statement consuming statement i's single target as its single argument (-1 if none).
// With look_through_copy, `a, b = Copy(x)` forwards each of a and b to x's producer.
std::vector<std::vector<int>> consumers(const step::Program& prog, bool look_through_copy) {
  std::map<std::string, int> producer;
  std::vector<std::vector<int>> next(prog.stmts.size());
  for (std::size_t j = 0; j < prog.stmts.size(); ++j) {
    const auto& s = prog.stmts[j];
    if (s.kind != step::Statement::Kind::Assign) continue;
    if (look_through_copy && step::is_prim(s.call.prim, Prim::Copy) && s.targets.size() == 2 &&
        s.call.arg.refs.size() == 1) {
      auto it = producer.find(s.call.arg.refs[0].name);
      if (it != producer.end()) {
        producer[s.targets[0]] = it->second;
        producer[s.targets[1]] = it->second;
      }
      continue;
    }
    if (single_name_arg(s)) {
      auto it = producer.find(s.call.arg.refs[0].name);
      if (it != producer.end()) next[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(j));
    }
    if (s.targets.size() == 1) producer[s.targets[0]] = static_cast<int>(j);
  }
  return next;
}

}  // namespace

std::string Fragment::pattern() const {
  std::string s;
  for (const auto& st : steps) {
    if (!s.empty()) s.push_back('>');
    s.append(step::prim_name(st.prim));
  }
  return s;
}

std::vector<Fragment> program_chains(const step::Program& prog, const step::TypedProgram& typed) {
  std::vector<Fragment> out;
  auto next = consumers(prog, false);
  auto step_of = [&](std::size_t j, FragStep& fs) {
    const auto& s = prog.stmts[j];
    const auto& ts = typed.stmts[j];
    if (!single_name_arg(s) || !step::is_chain_prim(ts.call.prim) || ts.inputs.empty()) return false;
    int r = ts.inputs[0].rank();
    fs.prim = ts.call.prim;
    fs.k = ts.call.prim == Prim::Bufferize ? ts.call.a : ts.call.b;
    fs.k_rel = fs.k - r;
    if (!ts.call.L.empty()) {
      fs.lo = ts.call.L.front();
      fs.hi = ts.call.L.back();
      fs.lo_rel = fs.lo - r;
    }
    fs.S = ts.call.S;
    return true;
  };
  for (std::size_t i = 0; i < prog.stmts.size(); ++i) {
    Fragment f;
    std::size_t j = i;
    for (;;) {
      FragStep fs;
      if (!step_of(j, fs)) break;
      f.steps.push_back(fs);
      if (f.steps.size() >= 2) {
        Fragment g = f;
        g.count = 1;
        out.push_back(g);
      }
      if (f.steps.size() == 4 || next[j].size() != 1) break;
      j = static_cast<std::size_t>(next[j][0]);
    }
  }
  return out;
}

int demo_relevance(const step::TaskDoc& demo, const step::TaskDoc& target) {
  int score = 0;
  std::set<std::string> names;
  for (const auto& f : target.fns) names.insert(f.display_name);
  std::set<std::string> shared;
  for (const auto& f : demo.fns) {
    if (names.contains(f.display_name)) shared.insert(f.display_name);
  }
  score += 2 * static_cast<int>(shared.size());
  if (!demo.group.empty() && demo.group == target.group) score += 2;
  if (demo.inputs.size() == target.inputs.size()) ++score;
  if (demo.outputs.size() == target.outputs.size()) ++score;
  if (!demo.outputs.empty() && !target.outputs.empty() &&
      demo.outputs[0].dims.size() == target.outputs[0].dims.size())
    ++score;
  auto multihot = [](const step::TaskDoc& t) {
    auto has = [](const step::DType& d) {
      return std::any_of(d.fields.begin(), d.fields.end(), [](const auto& f) { return f.multihot; });
    };
    return std::any_of(t.inputs.begin(), t.inputs.end(), [&](const auto& i) { return has(i.dtype); }) ||
           std::any_of(t.fns.begin(), t.fns.end(), [&](const auto& f) { return has(f.output); });
  };
  if (multihot(demo) == multihot(target)) ++score;
  return score;
}

std::optional<std::vector<Prim>> parse_pattern(const std::string& pattern) {
  std::vector<Prim> out;
  std::stringstream ss(pattern);
  for (std::string part; std::getline(ss, part, '>');) {
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    auto p = step::prim_from_name(part);
    if (!p || !step::is_chain_prim(*p) || out.size() >= 6) return std::nullopt;
    out.push_back(*p);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

Guidance mine_guidance(const std::vector<Demonstration>& demos, std::vector<MemoryPattern> memory,
                       const step::TaskDoc* target) {
  Guidance g;
  g.memory = std::move(memory);
  std::vector<const Demonstration*> chosen;
  for (const auto& d : demos) {
    if (d.task) chosen.push_back(&d);
  }
  if (target != nullptr) {
    std::vector<std::pair<int, const Demonstration*>> scored;
    for (const auto* d : chosen) {
      int s = demo_relevance(*d->task, *target);
      if (s >= 3) scored.emplace_back(s, d);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    chosen.clear();
    for (const auto& [s, d] : scored) {
      if (chosen.size() < kRelevantDemos) chosen.push_back(d);
    }
  }
  for (const auto* dp : chosen) {
    const auto& d = *dp;
    auto cr = verify::check_program(*d.task, d.impl, {});
    if (!cr.ok()) continue;
    ++g.demos_used;
    const auto& typed = *cr.typed;
    for (const auto& ts : typed.stmts) {
      if (ts.stmt == nullptr || ts.stmt->kind != step::Statement::Kind::Assign) continue;
      if (ts.call.prim == Prim::Copy) continue;
      std::string p(step::prim_name(ts.call.prim));
      ++g.prim_counts[p];
      ++g.statements;
      if (ts.call.prim == Prim::Bufferize) ++g.param_counts[p + "(a=" + std::to_string(ts.call.a) + ")"];
      if (ts.call.prim == Prim::Accum || ts.call.prim == Prim::Scan || ts.call.prim == Prim::Promote) {
        ++g.param_counts[p + "(b=" + std::to_string(ts.call.b) + ")"];
      }
    }
    for (auto& f : program_chains(*cr.program, typed)) {
      auto it = std::find_if(g.fragments.begin(), g.fragments.end(),
                             [&](const Fragment& h) { return h.steps == f.steps; });
      if (it == g.fragments.end()) {
        g.fragments.push_back(f);
      } else {
        ++it->count;
      }
    }
  }
  std::stable_sort(g.fragments.begin(), g.fragments.end(), [](const Fragment& a, const Fragment& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.steps.size() > b.steps.size();
  });
  return g;
}

bool pattern_occurs(const step::Program& prog, const std::string& pattern) {
  std::vector<std::string> want;
  std::stringstream ss(pattern);
  for (std::string part; std::getline(ss, part, '>');) want.push_back(part);
  if (want.empty()) return false;
  auto next = consumers(prog, true);
  std::function<bool(std::size_t, std::size_t)> match = [&](std::size_t j, std::size_t m) {
    const auto& st = prog.stmts[j];
    if (st.kind != step::Statement::Kind::Assign || st.call.prim != want[m]) return false;
    if (m + 1 == want.size()) return true;
    for (int k : next[j]) {
      if (match(static_cast<std::size_t>(k), m + 1)) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < prog.stmts.size(); ++i) {
    if (match(i, 0)) return true;
  }
  return false;
}

}  // namespace sf::synth
