// STeP-25 optimisation campaigns with the fallible optimiser (core/synth/opt2_campaign): the judge's four
// verdicts, a failed round never replaces the best, memory: distilled rules, truthful adoption, k slots.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/step2/perf/task_perf.hpp"
#include "core/synth/opt2_answer.hpp"
#include "core/synth/opt2_campaign.hpp"
#include "core/synth/provider.hpp"

namespace sf::synth::opt2 {
namespace campaign_test {

const std::string kRes = std::string(SF_SOURCE_DIR) + "/resources";

std::string impl_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str(), out;
  auto p = text.find("impl: |\n");
  if (p == std::string::npos) return out;
  std::istringstream body(text.substr(p + 8));
  for (std::string line; std::getline(body, line);) {
    if (line.rfind("  ", 0) != 0) break;
    out += line.substr(2) + "\n";
  }
  return out;
}

Opt2Task load(const std::string& id) {
  Diagnostics d;
  auto t = step::load_task_file(kRes + "/benchmark_v2/" + id + ".yaml", d);
  EXPECT_TRUE(t) << id;
  std::string err;
  auto chip = step2::perf::chip_for(*t, "", kRes, err);
  EXPECT_TRUE(chip) << err;
  return {*t, impl_of(kRes + "/solutions_v2/" + id + ".yaml"), *chip};
}

TEST(Opt2Campaign, JudgeGivesEachVerdict) {
  auto t = load("gemm/small");
  auto base = judge(t, t.baseline_impl, 0, 0.01);
  EXPECT_EQ(base.verdict, Verdict::Slower);  // nothing to be faster than
  EXPECT_GT(base.cycles, 0);
  EXPECT_EQ(base.busiest.size(), 3u);
  EXPECT_NE(base.perf_text.find("% of peak"), std::string::npos);

  auto opt = judge(t, impl_of(kRes + "/solutions_v2/gemm/small.known_opt_1.yaml"), base.cycles, 0.01);
  EXPECT_EQ(opt.verdict, Verdict::Faster) << opt.detail;
  EXPECT_LT(opt.cycles, base.cycles);

  auto same = judge(t, t.baseline_impl, base.cycles, 0.01);
  EXPECT_EQ(same.verdict, Verdict::Slower);  // a tie is no win

  std::string broken = t.baseline_impl;
  broken.replace(broken.find("tile=[128, 128]"), 15, "tile=[128, 100]");
  auto bad = judge(t, broken, base.cycles, 0.01);
  EXPECT_EQ(bad.verdict, Verdict::Incorrect);
  EXPECT_EQ(bad.detail.rfind("check ", 0), 0u) << bad.detail;

  // A wrong result that checks and times: B read with the stride of A gives wrong values.
  std::string wrong = t.baseline_impl;
  wrong.replace(wrong.find("apply(B)"), 8, "apply(A)");
  auto w = judge(t, wrong, base.cycles, 0.01);
  EXPECT_EQ(w.verdict, Verdict::Incorrect);
  EXPECT_EQ(w.detail.rfind("values", 0), 0u) << w.detail;
}

TEST(Opt2Campaign, FailedRoundsNeverReplaceTheBestAndMemoryIsTruthful) {
  std::vector<Opt2Task> tasks{load("gemm/small"), load("gemm/swish_scaling"), load("gemm/rect")};
  Opt2Config cfg;
  cfg.budget = 8;
  cfg.seed = 3;
  cfg.memory = true;
  cfg.credit = Credit::Atu;
  RuleBank bank;
  auto res = run_campaign(tasks, cfg, bank);
  ASSERT_EQ(res.tasks.size(), 3u);
  int wins = 0;
  for (const auto& o : res.tasks) {
    ASSERT_EQ(o.curve.size(), 8u);
    double prev = 1;
    std::int64_t best = o.baseline_cycles;
    for (std::size_t r = 0; r < o.rounds.size(); ++r) {
      const auto& rec = o.rounds[r];
      EXPECT_GE(o.curve[r], prev);
      if (rec.verdict != Verdict::Faster) {
        EXPECT_EQ(o.curve[r], prev) << o.id << " round " << r;
      }
      if (rec.verdict == Verdict::Faster) {
        EXPECT_LT(rec.cycles, best);
        best = rec.cycles;
        ++wins;
      }
      for (const auto& a : rec.adopted)
        EXPECT_NE(std::find(rec.retrieved.begin(), rec.retrieved.end(), a), rec.retrieved.end());
      EXPECT_LE(rec.retrieved.size(), 3u);
      prev = o.curve[r];
    }
    EXPECT_EQ(o.best_cycles, best);
  }
  EXPECT_GT(wins, 0);
  EXPECT_GE(bank.rules.size(), 1u);
  for (const auto& r : bank.rules) EXPECT_NE(r.statement.find("paid"), std::string::npos);
  EXPECT_GE(res.median_speedup, 1.0);

  // Deterministic given the seed.
  RuleBank bank2;
  auto again = run_campaign(tasks, cfg, bank2);
  for (std::size_t i = 0; i < res.tasks.size(); ++i) EXPECT_EQ(again.tasks[i].best_cycles, res.tasks[i].best_cycles);
}

TEST(Opt2Campaign, PromptShowsProgramReportCardAndRules) {
  auto t = load("gemm/small");
  auto j = judge(t, t.baseline_impl, 0, 0.01);
  BankRule r;
  r.rule = *parse_rule_move("par_dispatch 16", "r1");
  r.statement = "On a pmu_read-bound gemm program, par_dispatch=16 paid 1.20x";
  r.best_speedup = 1.2;
  auto p = round_prompt(t, t.baseline_impl, j, {&r}, "CARD");
  EXPECT_NE(p.find("## Operator card\n\nCARD"), std::string::npos);
  EXPECT_NE(p.find("  a = step.OffChipLoad"), std::string::npos);
  EXPECT_NE(p.find("cycles "), std::string::npos);
  EXPECT_NE(p.find("[r1]"), std::string::npos);
  EXPECT_NE(p.find("title: GEMM 256 x 256 x 256"), std::string::npos);  // the task as agents see it
  EXPECT_EQ(p.find("Baseline"), std::string::npos);                       // no solution file comments
}

}  // namespace campaign_test
}  // namespace sf::synth::opt2

namespace sf::synth::opt2 {
namespace answer_test {

// One v2 optimisation round end to end through the builtin backend's seam: round_prompt -> synth_chat (the
// provider answers with the fallible optimiser) -> read_answer -> judge.
TEST(Opt2Answer, BuiltinRoundEndToEnd) {
  auto t = campaign_test::load("gemm/small");
  auto base = judge(t, t.baseline_impl, 0, 0.01);
  BankRule r;
  r.rule = *parse_rule_move("par_dispatch 16", "r7");
  r.statement = "par_dispatch=16 paid";
  auto prompt = round_prompt(t, t.baseline_impl, base, {&r}, "card");
  int judged = 0, adopted = 0;
  for (int s = 0; s < 8; ++s) {
    llm::ChatRequest req;
    req.messages = {{"user", prompt}};
    req.seed = 5;
    req.sample_index = s;
    llm::CancelToken cancel;
    auto out = synth_chat(req, cancel);
    ASSERT_TRUE(out.ok()) << out.error.message;
    auto a = read_answer(out.response->text);
    ASSERT_FALSE(a.impl.empty()) << out.response->text;
    for (const auto& id : a.adopted) {
      EXPECT_EQ(id, "r7");
      // The answer says which move came from r7 (a second, sampled move may change par_dispatch again).
      EXPECT_NE(out.response->text.find("par_dispatch=16 on every off-chip load and store (from r7)"),
                std::string::npos);
      ++adopted;
    }
    auto j = judge(t, a.impl, base.cycles, 0.01);
    EXPECT_FALSE(j.detail == "no answer");
    ++judged;
  }
  EXPECT_EQ(judged, 8);
  EXPECT_GT(adopted, 0);
}

TEST(Opt2Answer, ReadAnswerIsDefensive) {
  auto a = read_answer("text\n```yaml\nimpl: |\n  x = step.A().apply(y)\n```\nadopted: [m1, \"m2\"]\n");
  EXPECT_EQ(a.impl, "x = step.A().apply(y)\n");
  EXPECT_EQ(a.adopted, (std::vector<std::string>{"m1", "m2"}));
  EXPECT_TRUE(read_answer("").impl.empty());
  EXPECT_TRUE(read_answer("```yaml\nno impl\n```\nadopted: [").adopted.empty());
}

}  // namespace answer_test
}  // namespace sf::synth::opt2
