// Optimisation under the cost model: the rewrite hill-climb of an optimisation round, memory rewrite
// patterns, the provider's optimisation prompt, and the search returning its fastest correct program.
#include <gtest/gtest.h>

#include <string>

#include "core/agent/guardian.hpp"
#include "core/agent/prompt_builder.hpp"
#include "core/agent/response_parser.hpp"
#include "core/bench/catalogue.hpp"
#include "core/cost/cost_model.hpp"
#include "core/step/parser.hpp"
#include "core/synth/optimise.hpp"
#include "core/synth/provider.hpp"
#include "core/synth/synthesizer.hpp"
#include "core/verify/verifier.hpp"
#include "tests/support/catalogue.hpp"

namespace sf::synth {
namespace {

using test_support::catalogue;

using test_support::solution_impl;

// exclusive_cumsum's reference solution with a Bufferize -> Streamify round trip on its output: correct,
// and slower (the round trip costs a row of cycles).
const char* kSlowCumsum =
    "T1, T2 = step.Copy().apply(E0)\n"
    "T3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
    "T4 = step.Map(fn=fn_minus).apply((T3, T2))\n"
    "B = step.Bufferize(a=1).apply(T4)\n"
    "S = step.Streamify().apply(B)\n"
    "return S\n";

std::int64_t cycles_of(cost::CostModel& m, const step::TaskDoc& t, const std::string& impl) {
  auto k = program_perf(m, t, impl);
  EXPECT_TRUE(k.has_value()) << impl;
  return k ? k->cycles : -1;
}

TEST(Optimise, DropsARoundTripFromASlowCorrectProgram) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  verify::Verifier v;
  cost::CostModel m;
  ASSERT_TRUE(v.verify(*t, kSlowCumsum).pass);
  const auto slow = cycles_of(m, *t, kSlowCumsum);
  const auto ref = cycles_of(m, *t, solution_impl("extra/exclusive_cumsum"));
  ASSERT_GT(slow, ref);
  auto r = optimise_program(v, m, *t, kSlowCumsum, {}, {});
  ASSERT_TRUE(r.improved);
  EXPECT_EQ(r.start.cycles, slow);
  EXPECT_LE(r.best.cycles, ref) << r.impl;
  EXPECT_EQ(cycles_of(m, *t, r.impl), r.best.cycles);
  EXPECT_TRUE(v.verify(*t, r.impl).pass) << r.impl;
  EXPECT_EQ(r.impl.find("Bufferize"), std::string::npos) << r.impl;
  EXPECT_FALSE(r.moves.empty());
  // deterministic
  auto r2 = optimise_program(v, m, *t, kSlowCumsum, {}, {});
  EXPECT_EQ(r2.impl, r.impl);
  EXPECT_EQ(r2.evaluations, r.evaluations);
}

TEST(Optimise, NeverReturnsASlowerOrWrongProgram) {
  verify::Verifier v;
  cost::CostModel m;
  for (const char* id : {"extra/exclusive_cumsum", "rope/neox_halves", "moe_expert/ffn3_weighted",
                         "gemm_easy/batched_matvec"}) {
    const auto* t = catalogue().find(id);
    ASSERT_NE(t, nullptr) << id;
    const std::string start = solution_impl(id);
    RewriteOptions ro;
    ro.max_evaluations = 80;
    auto r = optimise_program(v, m, *t, start, {}, ro);
    ASSERT_FALSE(r.impl.empty()) << id;
    EXPECT_LE(r.best.cycles, r.start.cycles) << id;
    EXPECT_EQ(r.improved, r.best.cycles < r.start.cycles) << id;
    EXPECT_LE(r.evaluations, ro.max_evaluations);
    EXPECT_TRUE(v.verify(*t, r.impl).pass) << id << "\n" << r.impl;
  }
  // a start that is not correct gives nothing
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  auto bad = optimise_program(v, m, *t, "T3 = step.Scan(fn=fn_add, b=1).apply(E0)\nreturn T3\n", {}, {});
  EXPECT_TRUE(bad.impl.empty());
  EXPECT_FALSE(bad.improved);
}

TEST(Optimise, ParsesRewritePatterns) {
  auto a = parse_rewrite_pattern("Map>Map=>Map");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->before.size(), 2u);
  EXPECT_EQ(a->after.size(), 1u);
  auto b = parse_rewrite_pattern("Bufferize>Streamify=>");
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->after.empty());
  EXPECT_FALSE(parse_rewrite_pattern("Map>Map"));       // no rewrite
  EXPECT_FALSE(parse_rewrite_pattern("Zip>Map=>Map"));  // not a chain primitive
  EXPECT_FALSE(parse_rewrite_pattern("Map=>Map"));      // changes nothing
  EXPECT_FALSE(parse_rewrite_pattern("=>Map"));
}

// A slow->fast memory pattern is tried before the generic rewrites: with a budget of one program it finds
// the faster program, the generic moves alone do not; it is reported adopted only when it was applied.
TEST(Optimise, AMemoryRewritePatternIsTriedFirstAndReported) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  verify::Verifier v;
  cost::CostModel m;
  RewriteOptions ro;
  ro.max_evaluations = 1;
  auto without = optimise_program(v, m, *t, kSlowCumsum, {}, ro);
  EXPECT_FALSE(without.improved) << without.impl;
  auto rp = parse_rewrite_pattern("Bufferize>Streamify=>");
  ASSERT_TRUE(rp);
  rp->id = "exp-roundtrip";
  auto with = optimise_program(v, m, *t, kSlowCumsum, {*rp}, ro);
  ASSERT_TRUE(with.improved);
  EXPECT_LT(with.best.cycles, with.start.cycles);
  ASSERT_EQ(with.applied.size(), 1u);
  EXPECT_EQ(with.applied[0], "exp-roundtrip");
  // through the synthesizer: an optimisation round with the experience in memory
  Synthesizer s(v, &m);
  SynthOptions o;
  o.max_evaluations = 200;  // the search itself finds nothing this small
  o.rewrite_evaluations = 1;
  o.previous_impl = kSlowCumsum;
  Guidance g;
  g.memory = {{"exp-roundtrip", "Bufferize>Streamify=>"}, {"exp-fuse", "Map>Map=>Map"}};
  auto r = s.run(*t, g, o);
  ASSERT_TRUE(r.found);
  ASSERT_TRUE(r.cycles);
  EXPECT_LT(*r.cycles, with.start.cycles);
  ASSERT_EQ(r.adoption.size(), 2u);
  EXPECT_TRUE(r.adoption[0].adopted) << r.adoption[0].rationale;
  EXPECT_FALSE(r.adoption[1].adopted) << r.adoption[1].rationale;
}

// The proposer's optimisation prompt (core/agent/prompt_builder: "## Previous attempt" with a correct
// program and its Performance block): the answer is a faster verified program.
TEST(Optimise, AnOptimisationPromptGetsAFasterProgram) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  agent::PromptInput in;
  in.manual_text = "(manual)";
  in.task_text = t->raw_text_without_impl;
  in.previous_attempt = kSlowCumsum;
  in.performance_feedback = "cycles: 4168 (speedup 0.992x)";
  in.baseline_cycles = 4133;
  auto msgs = agent::build_messages(in);
  auto pc = parse_prompt(msgs);
  EXPECT_EQ(pc.previous_impl, kSlowCumsum);
  // a repair round is not an optimisation round
  agent::PromptInput repair = in;
  repair.performance_feedback.reset();
  repair.previous_diagnostics = "3:1 T-RANK ...";
  EXPECT_TRUE(parse_prompt(agent::build_messages(repair)).previous_impl.empty());

  llm::ChatRequest req;
  req.messages = msgs;
  auto res = synth_chat(req, llm::CancelToken());
  ASSERT_TRUE(res.ok()) << res.error.message;
  auto parsed = agent::parse_response(res.response->text, {});
  ASSERT_TRUE(parsed.impl) << res.response->text;
  auto guarded = agent::copy_rewrite(*t, *parsed.impl);
  ASSERT_TRUE(guarded);
  verify::Verifier v;
  EXPECT_TRUE(v.verify(*t, *guarded).pass) << *guarded;
  cost::CostModel m;
  EXPECT_LT(cycles_of(m, *t, *guarded), cycles_of(m, *t, kSlowCumsum)) << *guarded;
}

// The search goes on after its first correct program and returns the fastest one it verified; the same
// options give the same program.
TEST(Optimise, TheSearchReturnsItsFastestCorrectProgram) {
  verify::Verifier v;
  cost::CostModel m;
  Synthesizer s(v, &m);
  int faster = 0;
  for (const char* id : {"extra/exclusive_cumsum", "rope/neox_halves", "moe_index/softmax_top1"}) {
    const auto* t = catalogue().find(id);
    ASSERT_NE(t, nullptr) << id;
    SynthOptions o;
    o.max_evaluations = 20000;
    o.time_limit_s = 60.0;
    o.optimise = false;
    auto first = s.run(*t, {}, o);
    o.optimise = true;
    auto best = s.run(*t, {}, o);
    ASSERT_TRUE(first.found) << id;
    ASSERT_TRUE(best.found) << id;
    ASSERT_TRUE(first.cycles && best.cycles) << id;
    EXPECT_LE(*best.cycles, *first.cycles) << id;
    EXPECT_EQ(cycles_of(m, *t, best.impl), *best.cycles) << id;
    EXPECT_TRUE(v.verify(*t, best.impl).pass) << id << "\n" << best.impl;
    EXPECT_GE(best.correct_programs, first.correct_programs) << id;
    faster += *best.cycles < *first.cycles ? 1 : 0;
    auto again = s.run(*t, {}, o);
    EXPECT_EQ(again.impl, best.impl) << id;
    EXPECT_EQ(again.stats.candidates, best.stats.candidates) << id;
  }
  EXPECT_GE(faster, 1);
}

}  // namespace
}  // namespace sf::synth
