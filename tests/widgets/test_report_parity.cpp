// One log, two readers (issue 14 item 2): the CLI's `campaign report` (learn::load_campaign_state +
// learn::report_json) and the GUI's campaign models (CampaignFeed, through summarizeWorkspace) read the same
// events.jsonl and must give the same numbers: every curve point, the totals, every task's status.
#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/engine_setup.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/provider.hpp"
#include "widgets/campaign/campaign_feed.hpp"

using namespace sf;
using namespace sf::widgets;
using nlohmann::json;

namespace {

// Runs a builtin campaign to its end in `dir` and returns the CLI report of its log.
json runAndReport(const json& config, const std::filesystem::path& dir) {
  synth::register_builtin_provider();
  std::string err;
  auto cfg = learn::config_from_json(config, err);
  EXPECT_TRUE(cfg) << err;
  if (!cfg) return {};
  auto ws = store::Workspace::create(dir, learn::config_to_json(*cfg), err);
  EXPECT_TRUE(ws) << err;
  if (!ws) return {};
  auto setup = learn::prepare_campaign(*cfg, ws->dir(), bench::resource_dir(), err);
  EXPECT_TRUE(setup) << err;
  if (!setup) return {};
  {
    learn::CampaignEngine engine(*cfg, std::move(setup->deps), ws.get(), nullptr);
    engine.start();
    const auto r = engine.wait();
    EXPECT_EQ(r.status, learn::RunStatus::Finished) << r.error;
  }
  ws.reset();
  learn::CampaignState st;
  EXPECT_TRUE(learn::load_campaign_state(dir, st, err)) << err;
  return learn::report_json(st);
}

double num(const json& j, const char* key) { return j.at(key).get<double>(); }

// The totals and the task statuses the GUI shows against the report's.
void expectSameTotals(const CampaignSummary& gui, const json& report) {
  EXPECT_EQ(gui.tokens, report.at("tokens").at("total").get<qint64>());
  EXPECT_DOUBLE_EQ(gui.cost, num(report, "cost_usd"));
  EXPECT_EQ(gui.taskCount, report.at("tasks_total").get<int>());
  EXPECT_EQ(gui.solved, report.at("tasks_solved").get<int>());
  EXPECT_TRUE(gui.finished);
  EXPECT_EQ(gui.finishReason.toStdString(), report.at("finished").get<std::string>());
  std::map<std::string, bool> solved;
  for (const auto& t : report.at("tasks")) solved[t.at("id").get<std::string>()] = t.at("solved").get<bool>();
  ASSERT_EQ(static_cast<std::size_t>(gui.tasks.size()), solved.size());
  for (const auto& t : gui.tasks) EXPECT_EQ(t.solved, solved.at(t.task.toStdString())) << t.task.toStdString();
}

void expectSamePoint(const CurvePoint& p, const json& c) {
  EXPECT_EQ(p.x, c.at("x").get<int>());
  EXPECT_EQ(p.tokens, c.at("tokens").get<qint64>());
  EXPECT_DOUBLE_EQ(p.cost, num(c, "cost_usd"));
  EXPECT_DOUBLE_EQ(p.pass1, num(c, "pass_at_1"));
  EXPECT_DOUBLE_EQ(p.passN, num(c, "pass_at_n"));
  EXPECT_EQ(p.solved, c.at("solved").get<int>());
  EXPECT_EQ(p.tasks, c.at("tasks").get<int>());
  ASSERT_EQ(p.byTag.size(), c.at("by_tag").size());
  for (const auto& [tag, v] : p.byTag) {
    EXPECT_DOUBLE_EQ(v.first, num(c.at("by_tag").at(tag), "pass_at_1")) << tag;
    EXPECT_DOUBLE_EQ(v.second, num(c.at("by_tag").at(tag), "pass_at_n")) << tag;
  }
}

// Runs `config` in a fresh workspace, reads it both ways and checks the totals; `report` is null on failure.
struct BothReadings {
  QTemporaryDir tmp;
  json report;
  CampaignSummary gui;
};
void readBothWays(const char* config, BothReadings& r) {
  const std::filesystem::path dir = r.tmp.path().toStdString() + "/workspace";
  r.report = runAndReport(json::parse(config), dir);
  ASSERT_TRUE(r.report.is_object());
  r.gui = summarizeWorkspace(QString::fromStdString(dir.string()));
  ASSERT_TRUE(r.gui.error.isEmpty()) << r.gui.error.toStdString();
  expectSameTotals(r.gui, r.report);
}

TEST(ReportParity, AdaptiveCampaignReadsTheSameInTheCliReportAndTheGui) {
  BothReadings both;
  readBothWays(R"({"version":1,"name":"parity","mode":"adaptive",
    "backend":{"kind":"builtin","model":"builtin","builtin_provider":"synth"},
    "n":2,"temperature0":0.5,"temperatures":[1.0],"m":2,"selection":"mixed",
    "tasks":["gemm_easy/batched_matvec","rope/neox_halves","norm/rmsnorm_streaming"],
    "seed":42,"in_flight":2,"verify_threads":1})",
               both);
  if (HasFatalFailure()) return;
  const json& report = both.report;
  const CampaignSummary& gui = both.gui;
  // One curve point per finished iteration, each the report's cumulative figures of that iteration.
  const json& curve = report.at("curve");
  ASSERT_GE(curve.size(), 2u);
  ASSERT_EQ(static_cast<std::size_t>(gui.curve.size()), curve.size());
  for (int i = 0; i < gui.curve.size(); ++i) {
    SCOPED_TRACE("iteration point " + std::to_string(i));
    expectSamePoint(gui.curve[i], curve[i]);
    const json& it = report.at("iterations")[i];
    EXPECT_EQ(gui.curve[i].x, it.at("iteration").get<int>());
    EXPECT_DOUBLE_EQ(gui.curve[i].pass1, num(it.at("cumulative"), "pass_at_1"));
    EXPECT_DOUBLE_EQ(gui.curve[i].passN, num(it.at("cumulative"), "pass_at_n"));
  }
  EXPECT_DOUBLE_EQ(gui.curve.back().pass1, num(report, "pass_at_1"));
  EXPECT_DOUBLE_EQ(gui.curve.back().passN, num(report, "pass_at_n"));
}

TEST(ReportParity, SageCampaignReadsTheSameInTheCliReportAndTheGui) {
  BothReadings both;
  readBothWays(R"({"version":1,"name":"parity-sage","mode":"sage",
    "backend":{"kind":"builtin","model":"builtin","builtin_provider":"synth"},
    "temperature0":0.5,"tasks":["gemm_easy/batched_matvec","rope/neox_halves","norm/rmsnorm_streaming"],
    "order":"given","seed":42,"in_flight":1,"verify_threads":1,
    "memory":{"enabled":true,"episodes":2,"rounds":2,"k":5,"k_ado":2,"k_op":2,"credit":"atu",
              "ranking":"utility","ugc":"on"}})",
               both);
  if (HasFatalFailure()) return;
  const json& report = both.report;
  const CampaignSummary& gui = both.gui;
  // One curve point per finished episode: ER and the tasks solved so far, by the one rule in core.
  const json& curve = report.at("curve");
  ASSERT_EQ(curve.size(), report.at("episodes").size());
  ASSERT_EQ(static_cast<std::size_t>(gui.curve.size()), curve.size());
  for (int i = 0; i < gui.curve.size(); ++i) {
    SCOPED_TRACE("episode point " + std::to_string(i));
    expectSamePoint(gui.curve[i], curve[i]);
  }
  // Every task ran all its episodes, so the curve's last ER is the report's.
  EXPECT_DOUBLE_EQ(gui.curve.back().pass1, num(report, "er"));
}

}  // namespace
