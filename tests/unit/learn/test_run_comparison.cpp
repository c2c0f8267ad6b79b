// Run comparison drill-down (issue 20 item 1): the per-task numbers of a fixture workspace pair, the
// "only differing" rule, deltas, samples with their calls, representative programs and the output
// comparison of a program against the reference.
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "core/bench/catalogue.hpp"
#include "core/learn/episode_lineage.hpp"
#include "core/learn/launcher.hpp"
#include "core/synth/provider.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/verify/verifier.hpp"
#include "tests/support/run_fixture_programs.hpp"
#include "tests/support/files.hpp"
#include "tests/support/opt2_config.hpp"

namespace sf::learn {
namespace {

namespace fs = std::filesystem;
using namespace sf::learn::testing;

struct RunPair {
  fs::path root;
  RunRecord base, cand;
  RunPair() {
    root = test_support::scratch_dir("sf_runcmp");
    write_comparison_fixture(root / "base", root / "cand");
    std::string err;
    auto b = load_run(root / "base", err);
    EXPECT_TRUE(b) << err;
    auto c = load_run(root / "cand", err);
    EXPECT_TRUE(c) << err;
    if (b) base = std::move(*b);
    if (c) cand = std::move(*c);
  }
  ~RunPair() { fs::remove_all(root); }
};

TEST(RunComparison, GridNumbersOfAFixturePair) {
  RunPair p;
  EXPECT_EQ(p.base.name, "base");
  EXPECT_EQ(p.base.mode, "adaptive");
  const auto base = task_run_stats(p.base.state);
  const auto cand = task_run_stats(p.cand.state);
  ASSERT_EQ(base.size(), 3u);
  ASSERT_EQ(cand.size(), 3u);
  // base A: fail, pass (1.2x) -> c = 1 of n = 2.
  EXPECT_EQ(base[0].task, kCmpA);
  EXPECT_TRUE(base[0].attempted);
  EXPECT_TRUE(base[0].solved);
  EXPECT_EQ(base[0].samples, 2);
  EXPECT_EQ(base[0].successes, 1);
  EXPECT_DOUBLE_EQ(base[0].pass1, 0.5);
  EXPECT_EQ(base[0].samples_to_first_correct, 2);
  EXPECT_EQ(base[0].tokens, 300);
  EXPECT_NEAR(base[0].cost_usd, 0.02, 1e-12);
  EXPECT_EQ(base[0].best_cycles, 100);
  EXPECT_DOUBLE_EQ(*base[0].best_speedup, 1.2);
  // base B: two failures in iteration 0, two passes in iteration 1 -> best c = 2, first correct at sample 3.
  EXPECT_DOUBLE_EQ(base[1].pass1, 1.0);
  EXPECT_EQ(base[1].samples, 4);
  EXPECT_EQ(base[1].successes, 2);
  EXPECT_EQ(base[1].samples_to_first_correct, 3);
  EXPECT_EQ(base[1].tokens, 600);
  EXPECT_DOUBLE_EQ(*base[1].best_speedup, 1.1);
  // cand B: never correct.
  EXPECT_FALSE(cand[1].solved);
  EXPECT_TRUE(cand[1].attempted);
  EXPECT_DOUBLE_EQ(cand[1].pass1, 0.0);
  EXPECT_FALSE(cand[1].samples_to_first_correct);
  EXPECT_FALSE(cand[1].best_speedup);
  // No cost-model numbers for C.
  EXPECT_FALSE(base[2].best_cycles);
  // A task the run never sampled.
  const auto none = task_run_stats(p.base.state, "rope/absent");
  EXPECT_FALSE(none.attempted);
  EXPECT_EQ(none.samples, 0);
  // The report counts the same way.
  const auto r = report_json(p.base.state);
  EXPECT_DOUBLE_EQ(r["pass_at_1"].get<double>(), (0.5 + 1.0 + 1.0) / 3.0);
}

TEST(RunComparison, OnlyDifferingTasksAndDeltas) {
  RunPair p;
  const auto base = task_run_stats(p.base.state);
  const auto cand = task_run_stats(p.cand.state);
  EXPECT_TRUE(task_differs({&base[0], &cand[0]}));   // pass@1 0.5 vs 1
  EXPECT_TRUE(task_differs({&base[1], &cand[1]}));   // solved vs not
  EXPECT_FALSE(task_differs({&base[2], &cand[2]}));  // the same
  EXPECT_TRUE(task_differs({&base[2], nullptr}));    // absent from one run
  EXPECT_FALSE(task_differs({&base[2]}));
  const auto d = task_run_delta(base[0], cand[0]);
  EXPECT_DOUBLE_EQ(d.pass1, 0.5);
  EXPECT_EQ(d.tokens, 0);
  EXPECT_EQ(d.samples_to_first_correct, -1);
  EXPECT_NEAR(*d.best_speedup, 0.3, 1e-12);
  const auto dB = task_run_delta(base[1], cand[1]);
  EXPECT_DOUBLE_EQ(dB.pass1, -1.0);
  EXPECT_FALSE(dB.samples_to_first_correct);  // cand has none
  EXPECT_FALSE(dB.best_speedup);
}

TEST(RunComparison, SamplesWithTheirCallsAndRepresentativePrograms) {
  RunPair p;
  const auto samples = task_samples(p.base, kCmpB);
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_EQ(samples[0].verdict.iteration, 0);
  EXPECT_FALSE(samples[0].verdict.pass);
  EXPECT_EQ(samples[2].verdict.iteration, 1);
  EXPECT_TRUE(samples[2].verdict.pass);
  ASSERT_EQ(samples[0].calls.size(), 1u);
  EXPECT_EQ(samples[0].calls[0]["role"], "proposer");
  EXPECT_EQ(samples[0].calls[0]["impl"], kNeoxWrong);
  auto a = representative_program(p.cand.state, kCmpA);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->impl, kGptjRenamed);
  EXPECT_EQ(a->why, "fastest correct");
  auto b = representative_program(p.cand.state, kCmpB);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->impl, kNeoxWrong);
  EXPECT_EQ(b->why, "last sample (fails: verify V-MISMATCH)");
  auto c = representative_program(p.base.state, kCmpC);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->why, "first correct");
  EXPECT_FALSE(representative_program(p.base.state, "rope/absent"));
}

TEST(RunComparison, OutputsAgainstTheReference) {
  const auto* task = test_support::catalogue().find(kCmpB);
  ASSERT_NE(task, nullptr);
  verify::Verifier v;
  const auto wrong = verify::compare_outputs(v.verify(*task, kNeoxWrong));
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].name, "S0");
  EXPECT_FALSE(wrong[0].ok());
  EXPECT_EQ(wrong[0].values, 560);
  EXPECT_EQ(wrong[0].mismatches, 479);
  EXPECT_NEAR(wrong[0].max_abs, 4.66696954, 1e-6);
  EXPECT_EQ(wrong[0].first_mismatch, "[0, 0] element 0 (seed 42, sizes)");
  EXPECT_EQ(wrong[0].first_mismatch_code, "V-MISMATCH");
  const auto right = verify::compare_outputs(v.verify(*task, test_support::solution_impl(kCmpB)));
  ASSERT_EQ(right.size(), 1u);
  EXPECT_TRUE(right[0].ok());
  EXPECT_GT(right[0].values, 560);  // every input set
  EXPECT_LT(right[0].max_abs, 1e-5);
  EXPECT_EQ(right[0].first_mismatch, "");
}

// The memory-off baseline a sage demo draws: a sibling with the same config but memory.enabled false.
// The best-speedup curve (issue 33 item 6): after each verified sample, the median of the tasks' best speedups,
// one point where it changes and one at the run's last sample.
TEST(RunComparison, BestSpeedupCurvePerRun) {
  RunPair p;
  EXPECT_DOUBLE_EQ(p.base.fast_tolerance, kDefaultFastTolerance);  // the config has no fast_tolerance
  // base, in sample order: A fail, A pass 1.2x (2), C twice (no cost model), B twice failing; iteration 1: B
  // passes at 1.1x (7), then again at the same cycles (no new best); 8 samples.
  const std::vector<SpeedupCurvePoint> base = {{2, 0, 1.2, 1}, {7, 1, 1.15, 2}, {8, 1, 1.15, 2}};
  EXPECT_EQ(best_speedup_curve(p.base.state), base);
  // cand: A passes at 1.5x at once; B never passes.
  const std::vector<SpeedupCurvePoint> cand = {{1, 0, 1.5, 1}, {8, 1, 1.5, 1}};
  EXPECT_EQ(best_speedup_curve(p.cand.state), cand);
  EXPECT_EQ(run_verdicts(p.base.state).size(), 8u);
  EXPECT_TRUE(best_speedup_curve(CampaignState{}).empty());
}

// A STeP-25 optimisation campaign's curve is its report's: per proposal of each task, the median best speedup.
TEST(RunComparison, BestSpeedupCurveOfAStep25OptimisationCampaign) {
  CampaignConfig c = test_support::opt2_config("opt2-curve", {"gemm/small"}, 3);
  sf::synth::register_builtin_provider();
  const fs::path dir = test_support::scratch_dir("sf_runcmp_opt2");
  std::string err;
  auto ws = store::Workspace::create(dir, config_to_json(c), err);
  ASSERT_TRUE(ws) << err;
  Launch l = launch_campaign(*ws, bench::resource_dir());
  ASSERT_TRUE(l.ok()) << l.error;
  ASSERT_EQ(l.engine->run().status, RunStatus::Finished);
  auto run = load_run(dir, err);
  ASSERT_TRUE(run) << err;
  ASSERT_TRUE(run->state.is_opt2());
  const auto curve = best_speedup_curve(run->state);
  ASSERT_EQ(curve.size(), 3u);  // one point per proposal
  const auto& task = run->state.opt2.runs.at(0).out;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    EXPECT_EQ(curve[i].proposals, static_cast<std::int64_t>(i + 1));
    EXPECT_DOUBLE_EQ(curve[i].median_best, task.curve.at(i));  // one task: its own best speedup
    EXPECT_EQ(curve[i].tasks, 1);
    if (i > 0) EXPECT_GE(curve[i].median_best, curve[i - 1].median_best);  // a best never goes down
  }
  fs::remove_all(dir);
}

TEST(RunComparison, TheMemoryOffBaselineIsTheSiblingWithMemoryOff) {
  const fs::path root = test_support::scratch_dir("sf_baseline");
  const nlohmann::json sage = {{"name", "sage"}, {"mode", "sage"}, {"seed", 1}, {"tasks", {"rope"}},
                               {"memory", {{"enabled", true}, {"credit", "atu"}}}};
  auto write = [&](const std::string& name, nlohmann::json config) {
    fs::create_directories(root / name);
    std::ofstream(root / name / "campaign.json")
        << nlohmann::json{{"format", "stepforge-campaign"}, {"version", 1}, {"config", config}}.dump();
  };
  write("a-sage", sage);
  nlohmann::json uniform = sage;
  uniform["memory"]["credit"] = "uniform";  // memory on: not a baseline
  write("b-uniform", uniform);
  nlohmann::json other_seed = sage;
  other_seed["seed"] = 2;
  other_seed["memory"] = {{"enabled", false}};
  write("c-other-seed", other_seed);  // memory off, but another campaign
  EXPECT_FALSE(memory_off_baseline(root / "a-sage"));
  nlohmann::json off = sage;
  off["name"] = "sage memory off";
  off["memory"]["enabled"] = false;
  write("d-off", off);
  fs::create_directories(root / "e-not-a-workspace");
  auto found = memory_off_baseline(root / "a-sage");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->filename(), "d-off");
  EXPECT_FALSE(memory_off_baseline(root / "d-off"));  // memory off itself: no baseline of its own
  EXPECT_FALSE(memory_off_baseline(root / "missing"));
  EXPECT_TRUE(is_memory_off_baseline(sage, off));
  EXPECT_FALSE(is_memory_off_baseline(off, sage));
  nlohmann::json adaptive = sage;
  adaptive["mode"] = "adaptive";
  EXPECT_FALSE(is_memory_off_baseline(adaptive, off));
  fs::remove_all(root);
}

TEST(EpisodeLineage, RoundsProgramsVerdictsAdoptedItemsAndDiffs) {
  const fs::path dir = test_support::scratch_dir("sf_lineage", false);
  write_sage_fixture(dir, kCmpB, kNeoxWrong, test_support::solution_impl(kCmpB));
  std::string err;
  auto l = load_episode_lineage(dir, 0, err);
  ASSERT_TRUE(l) << err;
  EXPECT_EQ(l->episode, 0);
  EXPECT_EQ(l->task, kCmpB);
  EXPECT_TRUE(l->finished);
  EXPECT_TRUE(l->solved);
  EXPECT_EQ(l->first_correct_round, 2);
  ASSERT_EQ(l->steps.size(), 3u);
  const auto& r0 = l->steps[0];
  EXPECT_EQ(r0.round, 0);
  EXPECT_FALSE(r0.pass);
  EXPECT_EQ(r0.code, "V-MISMATCH");
  EXPECT_EQ(r0.impl, kNeoxWrong);
  EXPECT_EQ(r0.previous_impl, "");
  EXPECT_EQ(r0.diff.inserted, 3);  // from nothing
  EXPECT_EQ(r0.retrieved, (std::vector<std::string>{"mem-1", "mem-2"}));
  EXPECT_EQ(r0.adopted, (std::vector<std::string>{"mem-1"}));
  EXPECT_EQ(r0.diagnostics, "V-MISMATCH 3:10 output S0 differs");
  const auto& r1 = l->steps[1];  // no program: the chain keeps round 0's as the previous one
  EXPECT_EQ(r1.impl, "");
  EXPECT_EQ(r1.code, "no-program");
  const auto& r2 = l->steps[2];
  EXPECT_TRUE(r2.pass);
  EXPECT_EQ(r2.previous_impl, kNeoxWrong);
  EXPECT_EQ(r2.cycles, 500);
  EXPECT_DOUBLE_EQ(*r2.speedup, 1.25);
  EXPECT_EQ(r2.adopted, (std::vector<std::string>{"mem-2"}));
  EXPECT_EQ(r2.diff.deleted, 2);  // the wrong Zip line and Map line go
  EXPECT_EQ(r2.diff.inserted, 3);  // the scan, zip and map of the reference come
  // The open episode 1 has no rounds yet; unknown episodes and other modes are refused with the reason.
  auto open = load_episode_lineage(dir, 1, err);
  ASSERT_TRUE(open) << err;
  EXPECT_FALSE(open->finished);
  EXPECT_TRUE(open->steps.empty());
  EXPECT_FALSE(load_episode_lineage(dir, 7, err));
  EXPECT_EQ(err, "no episode 7 (the log has 2)");
  RunPair p;
  EXPECT_FALSE(episode_lineage(p.base.state, 0, err));
  EXPECT_EQ(err, "not a sage campaign: episode lineage needs mode sage");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sf::learn
