// Cost in campaigns (docs/learn.md "Cost"): the chip / objective config keys, the verdict's cycles, speedup and
// feasibility (absent in old logs), the fastest program per task and the speed metrics folded from verdicts,
// demonstrations that prefer the faster program, the baseline in the proposer prompt, and the distiller's
// slow→fast experience.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <mutex>
#include <sstream>

#include "core/agent/distiller.hpp"
#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/filter.hpp"
#include "core/llm/builtin_backend.hpp"
#include "learn_test_util.hpp"

using namespace sf::learn;
using sf::learn::testing::kA;
using sf::learn::testing::kB;
using nlohmann::json;

namespace {


std::mutex g_cost_mu;
std::vector<std::string> g_cost_prompts;

// Solves kA always and kB never; records every user message.
sf::llm::ChatResult model(const sf::llm::ChatRequest& req, const sf::llm::CancelToken&) {
  const std::string& user = req.messages.back().content;
  {
    std::lock_guard lock(g_cost_mu);
    g_cost_prompts.push_back(user);
  }
  const std::string id = sf::learn::testing::prompt_task_id(user);
  sf::llm::ChatResponse r;
  r.text = id == kA ? sf::learn::testing::solution_answer(id) : "no idea";
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 5;
  return sf::llm::ChatResult::success(r);
}

CampaignConfig cost_config() {
  CampaignConfig c;
  c.mode = Mode::Agent;
  c.n = 2;
  c.tasks = {kA, kB};
  c.backend.kind = sf::llm::BackendKind::Builtin;
  c.backend.builtin_provider = "cost-fake";
  c.backend.model = "fake";
  c.in_flight = 2;
  return c;
}

using sf::learn::testing::tasks_for;

struct CostCollect : EventSink {
  std::vector<Event> events;
  void on_event(const Event& e) override { events.push_back(e); }
};

struct CostRun {
  RunResult result;
  json report;
  std::vector<Event> events;
};

CostRun run(const CampaignConfig& cfg) {
  {
    std::lock_guard lock(g_cost_mu);
    g_cost_prompts.clear();
  }
  sf::llm::BuiltinBackend backend(model, "cost-fake");
  EngineDeps deps;
  deps.backend = &backend;
  deps.manual_text = "manual";
  deps.tasks = tasks_for(cfg);
  CostCollect sink;
  CampaignEngine engine(cfg, std::move(deps), nullptr, &sink);
  CostRun r;
  r.result = engine.run();
  if (engine.state().started) r.report = report_json(engine.state());
  r.events = sink.events;
  return r;
}

Verdict pass(const std::string& task, std::int64_t cycles, std::optional<double> speedup, bool feasible = true,
             std::string impl = "x") {
  Verdict v;
  v.task = task;
  v.pass = true;
  v.impl = std::move(impl);
  v.cycles = cycles;
  v.speedup = feasible ? speedup : std::nullopt;
  v.feasible = feasible;
  return v;
}

}  // namespace

TEST(CostCampaign, ConfigChipAndObjective) {
  CampaignConfig base;
  base.backend.model = "m";
  EXPECT_EQ(base.chip, "default");
  EXPECT_EQ(base.objective, Objective::Correctness);
  json j = config_to_json(base);
  EXPECT_EQ(j["chip"], "default");
  EXPECT_EQ(j["objective"], "correctness");
  std::string err;
  auto back = config_from_json(j, err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->objective, Objective::Correctness);

  // Without either key: correctness; naming a chip makes performance the default; an explicit objective wins.
  json k = j;
  k.erase("chip");
  k.erase("objective");
  EXPECT_EQ(config_from_json(k, err)->objective, Objective::Correctness);
  k["chip"] = "edge";
  auto perf = config_from_json(k, err);
  ASSERT_TRUE(perf) << err;
  EXPECT_EQ(perf->chip, "edge");
  EXPECT_EQ(perf->objective, Objective::Performance);
  k["objective"] = "correctness";
  EXPECT_EQ(config_from_json(k, err)->objective, Objective::Correctness);
  EXPECT_EQ(config_from_json(config_to_json(*perf), err)->objective, Objective::Performance);

  // Strict parsing.
  k["objective"] = "speed";
  EXPECT_FALSE(config_from_json(k, err));
  EXPECT_NE(err.find("config key 'objective'"), std::string::npos) << err;
  k["objective"] = 1;
  EXPECT_FALSE(config_from_json(k, err));
  k["objective"] = "performance";
  k["chip"] = 3;
  EXPECT_FALSE(config_from_json(k, err));
  EXPECT_NE(err.find("config key 'chip'"), std::string::npos) << err;
  k["chip"] = "no-such-chip";
  EXPECT_FALSE(config_from_json(k, err));
  EXPECT_NE(err.find("config key 'chip'"), std::string::npos) << err;
  EXPECT_NE(err.find("no-such-chip"), std::string::npos) << err;

  // --set overrides.
  json o = j;
  ASSERT_TRUE(apply_override(o, "chip=edge", err)) << err;
  ASSERT_TRUE(apply_override(o, "objective=performance", err)) << err;
  auto ov = config_from_json(o, err);
  ASSERT_TRUE(ov) << err;
  EXPECT_EQ(ov->chip, "edge");
  EXPECT_EQ(ov->objective, Objective::Performance);
}

TEST(CostCampaign, VerdictCostFieldsRoundTripAndOldLogsLoadUnchanged) {
  Event e;
  Verdict v = pass(kA, 1234, 1.5);
  e.body = v;
  json j = to_json(e);
  EXPECT_EQ(j["cycles"], 1234);
  EXPECT_DOUBLE_EQ(j["speedup"].get<double>(), 1.5);
  EXPECT_EQ(j["feasible"], true);
  std::string err;
  auto back = event_from_json(j, err);
  ASSERT_TRUE(back) << err;
  const auto& bv = std::get<Verdict>(back->body);
  EXPECT_EQ(bv.cycles, 1234);
  EXPECT_EQ(bv.speedup, 1.5);
  EXPECT_EQ(bv.feasible, true);
  // Infeasible: no speedup key.
  e.body = pass(kA, 99, 2.0, false);
  j = to_json(e);
  EXPECT_FALSE(j.contains("speedup"));
  EXPECT_EQ(j["feasible"], false);
  // An old verdict (no cost fields) loads and serializes back to the same JSON.
  json old = to_json(e);
  old.erase("cycles");
  old.erase("speedup");
  old.erase("feasible");
  auto ob = event_from_json(old, err);
  ASSERT_TRUE(ob) << err;
  EXPECT_FALSE(std::get<Verdict>(ob->body).cycles);
  EXPECT_FALSE(std::get<Verdict>(ob->body).feasible);
  EXPECT_EQ(to_json(*ob), old);
}

TEST(CostCampaign, FastestProgramAndSpeedMetrics) {
  std::map<std::string, FastestProgram> m;
  EXPECT_FALSE(offer_fastest(m, pass(kA, 10, 2.0, false)));  // infeasible
  Verdict fail = pass(kA, 10, 2.0);
  fail.pass = false;
  EXPECT_FALSE(offer_fastest(m, fail));
  Verdict untimed = pass(kA, 10, 2.0);
  untimed.cycles.reset();
  EXPECT_FALSE(offer_fastest(m, untimed));
  EXPECT_TRUE(m.empty());
  EXPECT_TRUE(offer_fastest(m, pass(kA, 100, 1.2, true, "bbbb")));
  EXPECT_FALSE(offer_fastest(m, pass(kA, 120, 1.0)));          // slower
  EXPECT_TRUE(offer_fastest(m, pass(kA, 100, 1.2, true, "zz")));   // same cycles, shorter
  EXPECT_TRUE(offer_fastest(m, pass(kA, 100, 1.2, true, "aa")));   // same length, smaller text
  EXPECT_FALSE(offer_fastest(m, pass(kA, 100, 1.2, true, "ab")));
  EXPECT_EQ(m[kA].impl, "aa");
  EXPECT_TRUE(offer_fastest(m, pass(kB, 10, 12.0)));
  EXPECT_TRUE(m[kB].suspicious());
  EXPECT_FALSE(m[kA].suspicious());

  std::vector<TaskInfo> tasks = {{kA, "rope", "t"}, {kB, "rope", "t"}, {"c", "g", "t"}, {"d", "g", "t"}};
  m["c"] = {50, std::nullopt, "p", 0};  // no baseline: in no metric
  json s = speed_metrics(tasks, m);
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 2.0 / 4);
  EXPECT_DOUBLE_EQ(s["fast_1_5"].get<double>(), 1.0 / 4);
  EXPECT_DOUBLE_EQ(s["median_speedup"].get<double>(), (1.2 + 12.0) / 2);
  m["d"] = {50, 1.0, "p", 0};
  s = speed_metrics(tasks, m);
  EXPECT_DOUBLE_EQ(s["median_speedup"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 2.0 / 4);  // speedup 1.0 is not faster
  s = speed_metrics(tasks, {});
  EXPECT_TRUE(s["median_speedup"].is_null());
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 0.0);
}

// The tie tolerance (issue 36 item 2): faster only at ≥ p · (1 + tolerance); ties and slower programs are told
// as such, never as "1.00×".
TEST(CostCampaign, TheTieToleranceDecidesWhatCountsAsFaster) {
  EXPECT_FALSE(sf::faster_than(1.0));
  EXPECT_FALSE(sf::faster_than(1.009));
  EXPECT_TRUE(sf::faster_than(101.0 / 100.0));  // exactly 1% faster counts
  EXPECT_TRUE(sf::faster_than(1.0001, 0.0));
  EXPECT_FALSE(sf::faster_than(1.0, 0.0));
  EXPECT_FALSE(sf::faster_than(1.5, 0.01, 1.5));
  EXPECT_TRUE(sf::faster_than(1.515, 0.01, 1.5));
  EXPECT_FALSE(sf::faster_than(std::nan(""), 0.01));
  EXPECT_FALSE(sf::faster_than(-2.0, 0.01));
  EXPECT_EQ(sf::classify_speedup(1.004), sf::SpeedupClass::Tie);
  EXPECT_EQ(sf::classify_speedup(0.995), sf::SpeedupClass::Tie);
  EXPECT_EQ(sf::classify_speedup(0.98), sf::SpeedupClass::Slower);
  EXPECT_EQ(sf::classify_speedup(std::nullopt), sf::SpeedupClass::None);
  EXPECT_EQ(sf::speedup_text(1.25), "1.25×");
  EXPECT_EQ(sf::speedup_text(1.004), "tie (1.00×)");
  EXPECT_EQ(sf::speedup_text(0.8, 0.01, 2, true), "0.80x (slower)");
  EXPECT_EQ(sf::best_speedup_text(1.004), "no faster program");
  EXPECT_EQ(sf::best_speedup_text(0.5), "no faster program");
  EXPECT_EQ(sf::best_speedup_text(2.0), "2.00×");
  EXPECT_EQ(sf::best_speedup_text(std::nullopt), "");

  // Fast_1 and Fast_1.5 under the default tolerance and a configured one; the median is the plain number.
  std::map<std::string, FastestProgram> m;
  m["a"] = {100, 1.004, "p", 0};  // a one-cycle win: a tie
  m["b"] = {100, 1.02, "p", 0};
  m["c"] = {100, 1.51, "p", 0};   // within 1% of 1.5: counts for Fast_1 only
  std::vector<TaskInfo> tasks = {{"a", "g", "t"}, {"b", "g", "t"}, {"c", "g", "t"}, {"d", "g", "t"}};
  json s = speed_metrics(tasks, m);
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 2.0 / 4);
  EXPECT_DOUBLE_EQ(s["fast_1_5"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(s["median_speedup"].get<double>(), 1.02);
  s = speed_metrics(tasks, m, 0.0);
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 3.0 / 4);
  EXPECT_DOUBLE_EQ(s["fast_1_5"].get<double>(), 1.0 / 4);
  s = speed_metrics(tasks, m, 0.05);
  EXPECT_DOUBLE_EQ(s["fast_1"].get<double>(), 1.0 / 4);

  // The config key: default 0.01, written only when changed, range-checked; readers of a log default too.
  std::string err;
  auto cfg = config_from_json(json{{"backend", {{"kind", "builtin"}, {"model", "builtin"}}}}, err);
  ASSERT_TRUE(cfg) << err;
  EXPECT_DOUBLE_EQ(cfg->fast_tolerance, 0.01);
  EXPECT_FALSE(config_to_json(*cfg).contains("fast_tolerance"));
  cfg = config_from_json(json{{"backend", {{"kind", "builtin"}, {"model", "builtin"}}}, {"fast_tolerance", 0.05}}, err);
  ASSERT_TRUE(cfg) << err;
  EXPECT_DOUBLE_EQ(config_to_json(*cfg)["fast_tolerance"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(fast_tolerance_of(config_to_json(*cfg)), 0.05);
  EXPECT_FALSE(config_from_json(json{{"backend", {{"kind", "builtin"}, {"model", "builtin"}}}, {"fast_tolerance", -1}}, err));
  EXPECT_NE(err.find("fast_tolerance"), std::string::npos) << err;
  EXPECT_DOUBLE_EQ(fast_tolerance_of(json{{"fast_tolerance", "x"}}), 0.01);
  EXPECT_DOUBLE_EQ(fast_tolerance_of(json(nullptr)), 0.01);
}

TEST(CostCampaign, FilterPrefersTheFasterFeasibleProgram) {
  // Three canonical groups: short but slow, long but fast, fastest but infeasible.
  std::vector<CorrectSample> c = {{0, "k0", 2, "short", 500, true},
                                  {1, "k1", 5, "long", 300, true},
                                  {2, "k2", 1, "tiny", 100, false}};
  auto f = filter_task(c, 7);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->best.text, "long");
  // Equal cycles: the shorter program.
  c[0].cycles = 300;
  EXPECT_EQ(filter_task(c, 7)->best.text, "short");
  // Without cycles (a log written before the cost model): the shortest, as before.
  for (auto& s : c) s.cycles.reset();
  EXPECT_EQ(filter_task(c, 7)->best.text, "tiny");
}

TEST(CostCampaign, EveryPassGetsItsCostAndTheReportAgreesWithAReplay) {
  CampaignConfig cfg = cost_config();
  CostRun r = run(cfg);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  int passes = 0;
  CampaignState replay;
  std::string err;
  for (const auto& e : r.events) {
    // Through JSON, as `campaign report` reads events.jsonl.
    auto back = event_from_json(to_json(e), err);
    ASSERT_TRUE(back) << err;
    ASSERT_TRUE(replay.apply(*back, err)) << err;
    const auto* v = std::get_if<Verdict>(&e.body);
    if (!v) continue;
    if (v->pass) {
      ++passes;
      ASSERT_TRUE(v->cycles);
      EXPECT_GT(*v->cycles, 0);
      EXPECT_EQ(v->feasible, true);
      ASSERT_TRUE(v->speedup);
      EXPECT_DOUBLE_EQ(*v->speedup, 1.0);  // the reference solution itself
    } else {
      EXPECT_FALSE(v->cycles);
      EXPECT_FALSE(v->speedup);
      EXPECT_FALSE(v->feasible);
    }
  }
  EXPECT_EQ(passes, 2);
  const json& rep = r.report;
  EXPECT_DOUBLE_EQ(rep["fast_1"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(rep["fast_1_5"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(rep["median_speedup"].get<double>(), 1.0);
  ASSERT_TRUE(rep["tasks"][0].contains("fastest"));
  EXPECT_DOUBLE_EQ(rep["tasks"][0]["fastest"]["speedup"].get<double>(), 1.0);
  EXPECT_EQ(rep["tasks"][0]["fastest"]["suspicious"], false);
  EXPECT_NE(rep["tasks"][0]["fastest"]["impl"].get<std::string>().find("step.Zip()"), std::string::npos);
  EXPECT_FALSE(rep["tasks"][1].contains("fastest"));
  // The iteration summary carries the speed metrics next to pass@1.
  const json& cu = rep["iterations"][0]["cumulative"];
  EXPECT_DOUBLE_EQ(cu["median_speedup"].get<double>(), 1.0);
  EXPECT_TRUE(cu.contains("fast_1"));
  EXPECT_TRUE(rep["iterations"][0]["sampled"].contains("fast_1_5"));
  json a = report_json(replay), b = rep;
  a.erase("wall_s");
  b.erase("wall_s");
  EXPECT_EQ(a, b);
  EXPECT_NE(report_csv(replay).find(",fast_1,fast_1_5,median_speedup\n"), std::string::npos);
  // Objective correctness: the prompt does not mention the baseline.
  std::lock_guard lock(g_cost_mu);
  ASSERT_FALSE(g_cost_prompts.empty());
  for (const auto& p : g_cost_prompts) EXPECT_EQ(p.find("The reference solution takes"), std::string::npos);
}

TEST(CostCampaign, PerformanceObjectiveShowsTheBaselineInTheProposerPrompt) {
  CampaignConfig cfg = cost_config();
  cfg.objective = Objective::Performance;
  CostRun r = run(cfg);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  std::int64_t cycles = 0;
  for (const auto& e : r.events)
    if (const auto* v = std::get_if<Verdict>(&e.body); v && v->pass) cycles = *v->cycles;
  ASSERT_GT(cycles, 0);
  std::lock_guard lock(g_cost_mu);
  int with_a = 0;
  for (const auto& p : g_cost_prompts) {
    EXPECT_NE(p.find("The reference solution takes "), std::string::npos);
    if (p.find("id: " + kA) != std::string::npos) {
      ++with_a;
      EXPECT_NE(p.find("The reference solution takes " + std::to_string(cycles) + " cycles"), std::string::npos);
    }
  }
  EXPECT_EQ(with_a, 2);
}

TEST(CostCampaign, AnUnknownChipFailsBeforeTheCampaignStarts) {
  CampaignConfig cfg = cost_config();
  cfg.chip = "no-such-chip";
  CostRun r = run(cfg);
  EXPECT_EQ(r.result.status, RunStatus::Failed);
  EXPECT_NE(r.result.error.find("config key 'chip'"), std::string::npos) << r.result.error;
  EXPECT_TRUE(r.events.empty());
  cfg.mode = Mode::Sage;
  r = run(cfg);
  EXPECT_EQ(r.result.status, RunStatus::Failed);
  EXPECT_TRUE(r.events.empty());
}

TEST(CostCampaign, DistillerRecordsTheSlowToFastExperience) {
  sf::agent::Episode ep;
  ep.task_id = kA;
  ep.attempts = {{"Y = step.Map(fn=f).apply(E0)\nreturn Y", "diag", false, std::nullopt, false},
                 {"A = step.Map(fn=f).apply(E0)\nY = step.Map(fn=g).apply(A)\nreturn Y", "", true, 900, true},
                 {"Y = step.Zip().apply((E0, E1))\nreturn Y", "", true, 50, false},  // infeasible
                 {"Y = step.Map(fn=h).apply(E0)\nreturn Y", "", true, 300, true}};
  auto x = sf::agent::speedup_experience(ep);
  ASSERT_TRUE(x);
  EXPECT_NE(x->rule.find("900 -> 300 cycles (3.00x)"), std::string::npos) << x->rule;
  EXPECT_NE(x->rule.find("[Map x2] to [Map]"), std::string::npos) << x->rule;
  EXPECT_NE(x->rule.find("2 lines removed, 1 added"), std::string::npos) << x->rule;
  EXPECT_NE(x->evidence.find("before (900 cycles)"), std::string::npos);
  EXPECT_NE(x->evidence.find("after (300 cycles)"), std::string::npos);
  EXPECT_EQ(x->code_example, ep.attempts[3].impl);
  EXPECT_EQ(x->id.rfind("exp-", 0), 0u);
  EXPECT_EQ(x->id.size(), 14u);
  // Not faster: nothing.
  ep.attempts[3].cycles = 900;
  EXPECT_FALSE(sf::agent::speedup_experience(ep));
  ep.attempts.resize(2);
  EXPECT_FALSE(sf::agent::speedup_experience(ep));
}
