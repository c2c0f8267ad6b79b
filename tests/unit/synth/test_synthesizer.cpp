// The synthesizer on benchmark tasks: determinism, parseable output, fragment learning, truthful adoption.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/bench/catalogue.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/synth/synthesizer.hpp"
#include "core/verify/checker.hpp"
#include "tests/support/catalogue.hpp"

namespace sf::synth {
namespace {

using test_support::catalogue;

using test_support::solution_impl;

TEST(Synthesizer, EveryEmittedProgramParsesAndVerifies) {
  verify::Verifier v;
  Synthesizer s(v);
  int found = 0;
  for (const char* id : {"extra/exclusive_cumsum", "rope/neox_halves", "moe_index/mlp_score_threshold",
                         "moe_index/softmax_top1"}) {
    const auto* t = catalogue().find(id);
    ASSERT_NE(t, nullptr) << id;
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      SynthOptions o;
      o.temperature = seed == 0 ? 0.0 : 1.0;
      o.seed = seed;
      o.max_evaluations = 3000;
      o.time_limit_s = 10.0;
      auto r = s.run(*t, {}, o);
      if (!r.found) {
        EXPECT_TRUE(r.impl.empty());
        continue;
      }
      ++found;
      Diagnostics d;
      EXPECT_TRUE(step::parse_impl(r.impl, {}, d).has_value()) << r.impl;
      EXPECT_TRUE(verify::check_program(*t, r.impl, {}).ok()) << r.impl;
      EXPECT_TRUE(v.verify(*t, r.impl).pass) << r.impl;
    }
  }
  EXPECT_GE(found, 6);
}

// Temperature 0 is deterministic when the evaluation budget (not the wall clock) ends the search: the same
// program and the same statistics, with the same or a fresh verifier.
TEST(Synthesizer, TemperatureZeroIsDeterministic) {
  const auto* t = catalogue().find("moe_index/softmax_top1");
  ASSERT_NE(t, nullptr);
  SynthOptions o;
  o.max_evaluations = 20000;
  o.time_limit_s = 60.0;
  verify::Verifier v1;
  Synthesizer s1(v1);
  auto a = s1.run(*t, {}, o);
  auto b = s1.run(*t, {}, o);
  verify::Verifier v2;
  auto c = Synthesizer(v2).run(*t, {}, o);
  ASSERT_TRUE(a.found);
  EXPECT_TRUE(v1.verify(*t, a.impl).pass);
  EXPECT_EQ(a.impl, b.impl);
  EXPECT_EQ(a.impl, c.impl);
  EXPECT_EQ(a.stats.candidates, b.stats.candidates);
  EXPECT_EQ(a.stats.candidates, c.stats.candidates);
  EXPECT_EQ(a.stats.pruned, c.stats.pruned);
  // a different seed at temperature 0 changes nothing; at temperature > 0 the search differs
  o.seed = 99;
  auto d = s1.run(*t, {}, o);
  EXPECT_EQ(d.impl, a.impl);
  EXPECT_EQ(d.stats.candidates, a.stats.candidates);
}

// The Partition -> per-expert Map -> Merge composite (the selector feeds both Partition and Merge: the
// emitted program gets its Copy from insert_copies).
TEST(Synthesizer, RoutesThroughPartitionMapMerge) {
  verify::Verifier v;
  Synthesizer s(v);
  for (const char* id : {"moe_expert/ffn3_weighted", "moe_expert/residual_binary_route"}) {
    const auto* t = catalogue().find(id);
    ASSERT_NE(t, nullptr) << id;
    SynthOptions o;
    o.time_limit_s = 30.0;
    auto r = s.run(*t, {}, o);
    ASSERT_TRUE(r.found) << id;
    EXPECT_NE(r.impl.find("step.Partition(N=E)"), std::string::npos) << r.impl;
    EXPECT_NE(r.impl.find("step.Merge(fn="), std::string::npos) << r.impl;
    EXPECT_NE(r.impl.find("step.Copy()"), std::string::npos) << r.impl;
    EXPECT_TRUE(verify::check_program(*t, r.impl, {}).ok()) << r.impl;
    EXPECT_TRUE(v.verify(*t, r.impl).pass) << r.impl;
  }
}

// Learning from a demonstration: within the same evaluation budget, outer_k_reduce_scalar is solved with
// the demonstration of outer_k_reduce_buffer (its Promote > Accum > Streamify > Flatten chain becomes a
// cheap macro) and not without it.
TEST(Synthesizer, ADemonstratedFragmentSolvesATaskTheBudgetOtherwiseMisses) {
  const auto* t = catalogue().find("gemm_easy/outer_k_reduce_scalar");
  const auto* demo_task = catalogue().find("gemm_easy/outer_k_reduce_buffer");
  ASSERT_NE(t, nullptr);
  ASSERT_NE(demo_task, nullptr);
  auto g = mine_guidance({{demo_task, solution_impl("gemm_easy/outer_k_reduce_buffer")}});
  bool has_chain = false;
  for (const auto& f : g.fragments) has_chain = has_chain || f.pattern() == "Promote>Accum>Streamify>Flatten";
  ASSERT_TRUE(has_chain);
  SynthOptions o;
  o.max_evaluations = 40000;
  o.time_limit_s = 60.0;  // the evaluation budget, not the clock, ends the search
  o.optimise = false;     // stop at the first correct program: this measures how soon it is found
  verify::Verifier v;
  Synthesizer s(v);
  auto without = s.run(*t, {}, o);
  EXPECT_FALSE(without.found) << without.impl;
  EXPECT_EQ(without.stats.candidates, o.max_evaluations);
  auto with = s.run(*t, g, o);
  ASSERT_TRUE(with.found);
  EXPECT_LT(with.stats.candidates, o.max_evaluations);
  EXPECT_TRUE(v.verify(*t, with.impl).pass) << with.impl;
  Diagnostics d;
  auto prog = step::parse_impl(with.impl, {}, d);
  ASSERT_TRUE(prog);
  EXPECT_TRUE(pattern_occurs(*prog, "Promote>Accum>Streamify>Flatten")) << with.impl;
}

TEST(Synthesizer, MinesChainsFromDemonstrations) {
  const auto* demo_task = catalogue().find("bmm/inner_product");
  ASSERT_NE(demo_task, nullptr);
  auto g = mine_guidance({{demo_task, solution_impl("bmm/inner_product")}});
  EXPECT_EQ(g.statements, 9);  // 9 primitive statements (no Copy)
  EXPECT_EQ(g.prim_counts["Bufferize"], 2);
  ASSERT_FALSE(g.fragments.empty());
  // Bufferize > Repeat > Streamify occurs twice (with a = 1 and a = 2, both relative k - rank = 0 ... -?)
  bool brs = false;
  for (const auto& f : g.fragments) {
    if (f.pattern() == "Bufferize>Repeat>Streamify") brs = true;
  }
  EXPECT_TRUE(brs);  // twice in the demo, with different a= (so two distinct fragments)
}

TEST(Synthesizer, PatternOccursFollowsDataflowThroughCopies) {
  Diagnostics d;
  auto p = step::parse_impl(
      "a = step.Bufferize(a=1).apply(E0)\n"
      "b0, b1 = step.Copy().apply(a)\n"
      "c = step.Repeat(n=M).apply(b0)\n"
      "e = step.Streamify().apply(c)\n"
      "f = step.Streamify().apply(b1)\n"
      "return e, f\n",
      {}, d);
  ASSERT_TRUE(p);
  EXPECT_TRUE(pattern_occurs(*p, "Bufferize>Repeat>Streamify"));
  EXPECT_TRUE(pattern_occurs(*p, "Bufferize>Streamify"));
  EXPECT_FALSE(pattern_occurs(*p, "Repeat>Bufferize"));
  EXPECT_FALSE(pattern_occurs(*p, "Map"));
}

// Memory patterns steer the search (issue 5 gap: not only adoption). outer_k_reduce_scalar is out of reach
// of 40000 evaluations without guidance; the retrieved experience's pattern (primitive names only, no
// parameters) becomes a macro over the search's own parameter sets and solves it. Adoption stays truthful:
// the used pattern is adopted, an unrelated one is not.
TEST(Synthesizer, ARetrievedPatternSteersTheSearchToATaskTheBudgetOtherwiseMisses) {
  const auto* t = catalogue().find("gemm_easy/outer_k_reduce_scalar");
  ASSERT_NE(t, nullptr);
  SynthOptions o;
  o.max_evaluations = 40000;
  o.time_limit_s = 60.0;  // the evaluation budget, not the clock, ends the search
  o.optimise = false;     // stop at the first correct program: this measures how soon it is found
  verify::Verifier v;
  Synthesizer s(v);
  auto without = s.run(*t, {}, o);
  EXPECT_FALSE(without.found) << without.impl;
  // an unrelated pattern alone does not solve it (and is not adopted)
  auto unrelated = s.run(*t, mine_guidance({}, {{"exp-other", "Reshape>Reshape"}}), o);
  EXPECT_FALSE(unrelated.found) << unrelated.impl;
  ASSERT_EQ(unrelated.adoption.size(), 1u);
  EXPECT_FALSE(unrelated.adoption[0].adopted);
  auto g = mine_guidance({}, {{"exp-reduce", "Promote>Accum>Streamify>Flatten"}, {"exp-other", "Reshape>Reshape"}});
  auto with = s.run(*t, g, o);
  ASSERT_TRUE(with.found);
  EXPECT_LT(with.stats.candidates, o.max_evaluations);
  EXPECT_TRUE(v.verify(*t, with.impl).pass) << with.impl;
  Diagnostics d;
  auto prog = step::parse_impl(with.impl, {}, d);
  ASSERT_TRUE(prog);
  ASSERT_EQ(with.adoption.size(), 2u);
  EXPECT_EQ(with.adoption[0].id, "exp-reduce");
  EXPECT_EQ(with.adoption[0].adopted, pattern_occurs(*prog, "Promote>Accum>Streamify>Flatten"));
  EXPECT_TRUE(with.adoption[0].adopted) << with.impl;
  EXPECT_NE(with.adoption[0].rationale.find("Promote>Accum>Streamify>Flatten"), std::string::npos);
  EXPECT_FALSE(with.adoption[1].adopted);
  EXPECT_NE(with.response.find("{id: exp-reduce, adopted: yes"), std::string::npos) << with.response;
  EXPECT_NE(with.response.find("{id: exp-other, adopted: no"), std::string::npos) << with.response;
  // a resident rule's pattern steers the same way (rules are not part of adoption)
  Guidance rg;
  rg.rule_patterns = {"Promote>Accum>Streamify>Flatten"};
  auto by_rule = s.run(*t, rg, o);
  EXPECT_TRUE(by_rule.found);
  EXPECT_TRUE(by_rule.adoption.empty());
  EXPECT_EQ(by_rule.response.find("rules_used"), std::string::npos);  // no rule ids: no rules_used line
  // with rule ids, the rules used are reported truthfully (pattern occurs in the program)
  rg.rule_patterns = {"Reshape>Reshape", "Promote>Accum>Streamify>Flatten"};
  rg.rule_ids = {"rule-x", "rule-r"};
  auto with_ids = s.run(*t, rg, o);
  ASSERT_TRUE(with_ids.found);
  EXPECT_EQ(with_ids.rules_used, (std::vector<std::string>{"rule-r"}));
  EXPECT_NE(with_ids.response.find("rules_used: [rule-r]"), std::string::npos) << with_ids.response;
}

// The budget is spent in the order of the experiences given (resident rules first, then retrieved items by
// rank): the useful pattern ranked first is found sooner than the same pattern ranked behind three others.
TEST(Synthesizer, TheFirstRankedPatternGetsTheBudgetFirst) {
  const auto* t = catalogue().find("gemm_easy/outer_k_reduce_scalar");
  ASSERT_NE(t, nullptr);
  SynthOptions o;
  o.time_limit_s = 0;  // only the evaluation budget
  o.optimise = false;
  verify::Verifier v;
  Synthesizer s(v);
  const MemoryPattern good{"exp-reduce", "Promote>Accum>Streamify>Flatten"};
  std::vector<MemoryPattern> others{{"o1", "Reshape>Reshape"}, {"o2", "Bufferize>Streamify"}, {"o3", "Scan>Map"}};
  std::vector<MemoryPattern> first{good}, last = others;
  first.insert(first.end(), others.begin(), others.end());
  last.push_back(good);
  auto a = s.run(*t, mine_guidance({}, first), o);
  auto b = s.run(*t, mine_guidance({}, last), o);
  ASSERT_TRUE(a.found);
  EXPECT_TRUE(a.adoption[0].adopted);
  EXPECT_FALSE(a.timed_out);
  EXPECT_LT(a.stats.candidates, b.found ? b.stats.candidates : o.max_evaluations + 1);
  // resident rules come before the retrieved items: the same pattern as a rule is found as soon as first
  Guidance rg = mine_guidance({}, others);
  rg.rule_patterns = {good.pattern};
  auto r = s.run(*t, rg, o);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.stats.candidates, a.stats.candidates);
  // deterministic: the same run gives the same program and count
  auto a2 = s.run(*t, mine_guidance({}, first), o);
  EXPECT_EQ(a2.impl, a.impl);
  EXPECT_EQ(a2.stats.candidates, a.stats.candidates);
}

TEST(Synthesizer, ParsesOnlyChainPatterns) {
  auto p = parse_pattern("Bufferize>Repeat>Streamify");
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, (std::vector<step::Prim>{step::Prim::Bufferize, step::Prim::Repeat, step::Prim::Streamify}));
  EXPECT_TRUE(parse_pattern("Map"));
  EXPECT_FALSE(parse_pattern(""));
  EXPECT_FALSE(parse_pattern("Zip>Map"));        // Zip takes a tuple: not a chain link
  EXPECT_FALSE(parse_pattern("Bufferize>Frob"));  // unknown primitive
  EXPECT_FALSE(parse_pattern("Map>Map>Map>Map>Map>Map>Map"));  // longer than 6
}

// Relevance of demonstrations: the same group and shared fn names rank bmm/row_wise (Mul, Sum) first for
// bmm/inner_product; a task sharing nothing is not mined at all.
TEST(Synthesizer, MinesOnlyTheMostRelevantDemonstrations) {
  const auto* t = catalogue().find("bmm/inner_product");
  const auto* near = catalogue().find("bmm/row_wise");
  const auto* far = catalogue().find("norm/layernorm_buffer");
  ASSERT_TRUE(t && near && far);
  // row_wise: Mul, Sum shared (+4), group (+2), 3 inputs... (+1), 1 output (+1), output rank 3 (+1), no
  // Multihot in either (+1) = 10; layernorm_buffer shares no fn and no group: 1 output + no Multihot = 2..3
  EXPECT_EQ(demo_relevance(*near, *t), 10);
  EXPECT_LT(demo_relevance(*far, *t), 4);
  std::vector<Demonstration> demos{{far, solution_impl("norm/layernorm_buffer")},
                                   {near, solution_impl("bmm/row_wise")}};
  auto all = mine_guidance(demos);
  EXPECT_EQ(all.demos_used, 2);
  auto rel = mine_guidance(demos, {}, t);
  EXPECT_EQ(rel.demos_used, 1);
  EXPECT_EQ(rel.prim_counts, mine_guidance({demos[1]}).prim_counts);
}

// As a campaign's correctness prompt asks (provider): stop at the first program, evaluation budget only.
SynthOptions campaign_options() {
  SynthOptions o;
  o.optimise = false;
  o.time_limit_s = 0;
  o.max_evaluations = 20000;
  return o;
}

// The campaign options' first find on rope/gptj_interleaved (temperature 0), where the spread and avoid tests
// start from.
class SynthesizerFirstFind : public ::testing::Test {
 protected:
  void SetUp() override {
    t = catalogue().find("rope/gptj_interleaved");
    ASSERT_NE(t, nullptr);
    first = s.run(*t, {}, o);
    ASSERT_TRUE(first.found);
  }
  const step::TaskDoc* t = nullptr;
  verify::Verifier v;
  Synthesizer s{v};
  SynthOptions o = campaign_options();
  SynthResult first;
};

// Temperature spread (issue 19 item 10): not optimising, a sample at temperature > 0 picks among the correct
// programs the search collects after its first find, deterministically for its seed; the seeds of 8 samples
// give more than one distinct program where several exist. Temperature 0 returns the first one found.
TEST_F(SynthesizerFirstFind, TemperatureSpreadsThePickDeterministically) {
  EXPECT_EQ(first.spread_candidates, 0);  // temperature 0: no spread
  std::set<std::string> programs;
  int spread = 0;
  o.temperature = 1.0;
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    o.seed = seed;
    auto a = s.run(*t, {}, o);
    auto b = s.run(*t, {}, o);
    EXPECT_EQ(a.impl, b.impl) << seed;
    if (!a.found) continue;  // the weight noise can push the first find past the budget
    ++found;
    EXPECT_EQ(a.stats.candidates, b.stats.candidates) << seed;
    EXPECT_LE(a.spread_candidates, spread_pool(1.0));
    EXPECT_TRUE(v.verify(*t, a.impl).pass) << a.impl;
    spread = std::max(spread, a.spread_candidates);
    programs.insert(a.impl);
  }
  EXPECT_GE(found, 4);
  EXPECT_GE(spread, 2);
  EXPECT_GE(programs.size(), 2U);
  EXPECT_EQ(spread_pool(0.0), 1);
  EXPECT_LT(spread_pool(0.4), spread_pool(1.0));
  EXPECT_LT(spread_evaluations(0.4, 1000), spread_evaluations(1.0, 1000));
}

// A program whose canonical key is to be avoided (the prompt's "already tried" list) is never returned.
TEST_F(SynthesizerFirstFind, SkipsProgramsToAvoid) {
  Diagnostics d;
  auto prog = step::parse_impl(first.impl, {}, d);
  ASSERT_TRUE(prog.has_value());
  o.avoid_keys.push_back(step::canonical_key(*prog, &t->sizes));
  auto second = s.run(*t, {}, o);
  EXPECT_GE(second.avoided, 1);
  if (second.found) {
    auto p2 = step::parse_impl(second.impl, {}, d);
    ASSERT_TRUE(p2.has_value());
    EXPECT_NE(step::canonical_key(*p2, &t->sizes), o.avoid_keys.front());
    EXPECT_TRUE(v.verify(*t, second.impl).pass);
  }
}

}  // namespace
}  // namespace sf::synth
