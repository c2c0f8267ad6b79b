// The cost model's numbers in the campaign views: optional verdict fields (cycles, speedup, feasible) in the
// trace pane and per-task best speedups in run comparison, the summaries' fast_1 / fast_1_5 /
// median_speedup in the learning curves, and suspicious speedups (> 10×) in the audit pane. Every field is
// optional: older logs without them, and fields of another type, must still fold.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>

#include "widgets/audit/audit_model.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/campaign/comparison_model.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "test_support.hpp"
#include "core/learn/config.hpp"
#include "core/store/workspace.hpp"
#include <QAreaSeries>

using namespace sf::widgets;
using nlohmann::json;

namespace {

json env(int seq, const std::string& type, json fields) {
  json e = {{"v", 1}, {"seq", seq}, {"t", 100.0 + seq}, {"type", type}};
  e.update(fields);
  return e;
}

json perf_started() {
  return env(0, "campaign_started",
             {{"config", {{"name", "perf"}, {"mode", "adaptive"}}},
              {"tasks", json::array({{{"id", "a/x"}, {"tag", "Once-C"}}, {{"id", "b/y"}, {"tag", "Reuse-C"}}})}});
}

json call(int seq, int it, const std::string& task, int sample) {
  return env(seq, "llm_call",
             {{"iteration", it}, {"task", task}, {"temperature_index", 0}, {"sample_index", sample},
              {"trace", {{"role", "proposer"}, {"usage", {{"input_tokens", 10}, {"output_tokens", 5}}}}}});
}

json verdict(int seq, int it, const std::string& task, int sample, bool pass, json extra = json::object()) {
  json e = env(seq, "verdict",
               {{"iteration", it}, {"task", task}, {"temperature_index", 0}, {"sample_index", sample},
                {"pass", pass}, {"stage", pass ? "" : "verify"}, {"code", pass ? "" : "V-MISMATCH"}});
  e.update(extra);
  return e;
}

json summary(int seq, int it, double p1, json perf) {
  json cu = {{"pass_at_1", p1}, {"pass_at_n", p1}, {"solved", 1}, {"tasks", 2},
             {"by_tag", {{"Once-C", {{"pass_at_1", p1}, {"pass_at_n", p1}}}}}};
  cu.update(perf);
  return env(seq, "iteration_summary",
             {{"iteration", it}, {"results", json::array()},
              {"metrics", {{"tokens", {{"total", 100 * (it + 1)}}}, {"cost_usd", 0.0}, {"cumulative", cu}}}});
}

}  // namespace

TEST(CampaignPerf, TraceRowsCarryCyclesAndSpeedupOfPassVerdicts) {
  CampaignFeed feed;
  TraceModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  // Batch 1: calls only; batch 2: their verdicts (updates of earlier rows).
  auto u1 = feed.consume({perf_started(), call(1, 0, "a/x", 0), call(2, 0, "a/x", 1), call(3, 0, "b/y", 0),
                          call(4, 0, "b/y", 1)});
  u1.reset = true;
  m.apply(u1);
  ASSERT_EQ(m.rowCount(), 4);
  EXPECT_FALSE(m.index(0, TraceModel::CyclesColumn).data().isValid());  // pending
  auto u2 = feed.consume({
      verdict(5, 0, "a/x", 0, true, {{"cycles", 1234}, {"speedup", 1.5}, {"feasible", true}}),
      verdict(6, 0, "a/x", 1, true),                                          // an older log: no fields
      verdict(7, 0, "b/y", 0, true, {{"cycles", "many"}, {"speedup", nullptr}}),  // wrong type / null: ignored
      verdict(8, 0, "b/y", 1, true, {{"cycles", 900}, {"speedup", 12.5}, {"feasible", true}}),
  });
  EXPECT_EQ(feed.malformed(), 0);
  m.apply(u2);
  EXPECT_EQ(m.index(0, TraceModel::CyclesColumn).data().toLongLong(), 1234);
  EXPECT_EQ(m.index(0, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("1.50×"));
  EXPECT_EQ(m.index(0, 0).data(TraceModel::SpeedupRole).toDouble(), 1.5);
  EXPECT_FALSE(m.index(1, TraceModel::CyclesColumn).data().isValid());
  EXPECT_FALSE(m.index(1, TraceModel::SpeedupColumn).data().isValid());
  EXPECT_FALSE(m.index(2, TraceModel::CyclesColumn).data().isValid());
  EXPECT_EQ(m.index(3, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("12.50×"));
  EXPECT_TRUE(m.index(3, TraceModel::SpeedupColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("uspicious")));
  EXPECT_FALSE(m.index(0, TraceModel::SpeedupColumn).data(Qt::ToolTipRole).isValid());
  EXPECT_EQ(m.headerData(TraceModel::CyclesColumn, Qt::Horizontal).toString(), QStringLiteral("Cycles"));

  // The verdict in the same batch as its call; an infeasible pass has no speedup; a fail never has numbers.
  CampaignFeed f2;
  auto u = f2.consume({perf_started(), call(1, 0, "a/x", 0), call(2, 0, "a/x", 1), call(3, 0, "a/x", 2),
                       verdict(4, 0, "a/x", 0, true, {{"cycles", 50}, {"speedup", 3.0}, {"feasible", false}}),
                       verdict(5, 0, "a/x", 1, false, {{"cycles", 10}, {"speedup", 2.0}}),
                       verdict(6, 0, "a/x", 2, true, {{"cycles", 40}, {"speedup", 2.0}})});
  ASSERT_EQ(u.traceRows.size(), 3);
  EXPECT_EQ(u.traceRows[0].cycles, 50);
  EXPECT_EQ(u.traceRows[0].speedup, -1);
  EXPECT_EQ(u.traceRows[1].cycles, -1);
  EXPECT_EQ(u.traceRows[1].speedup, -1);
  EXPECT_EQ(u.traceRows[2].speedup, 2.0);
  // Best speedup per task: the feasible passing ones only.
  ASSERT_FALSE(u.taskStatus.isEmpty());
  EXPECT_EQ(u.taskStatus[0].task, QStringLiteral("a/x"));
  ASSERT_TRUE(u.taskStatus[0].bestSpeedup.has_value());
  EXPECT_EQ(*u.taskStatus[0].bestSpeedup, 2.0);
  EXPECT_FALSE(u.taskStatus[1].bestSpeedup.has_value());
}

TEST(CampaignPerf, LearningCurvesPlotFastAndMedianSpeedupWhenPresent) {
  CampaignFeed feed;
  auto u = feed.consume({perf_started(), summary(1, 0, 0.5, {{"fast_1", 0.5}, {"fast_1_5", 0.0}, {"median_speedup", 1.2}}),
                         summary(2, 1, 1.0, {{"fast_1", 1.0}, {"fast_1_5", 0.5}, {"median_speedup", nullptr}})});
  ASSERT_EQ(u.newPoints.size(), 2);
  EXPECT_EQ(u.newPoints[0].fast1, 0.5);
  EXPECT_EQ(u.newPoints[1].fast15, 0.5);
  EXPECT_EQ(u.newPoints[0].medianSpeedup, 1.2);
  EXPECT_FALSE(u.newPoints[1].medianSpeedup.has_value());  // null: no solved task yet
  u.reset = true;
  LearningCurves c;
  c.setMetric(LearningCurves::Metric::Pass1);
  c.apply(u);
  auto series = c.plotted();
  QStringList names;
  for (const auto& s : series) names << s.first;
  ASSERT_EQ(series.size(), 4) << names.join(QStringLiteral(", ")).toStdString();
  EXPECT_TRUE(series[1].first.endsWith(QStringLiteral("Fast_1.0")));
  EXPECT_EQ(series[1].second, QList<QPointF>({QPointF(0, 0.5), QPointF(1, 1.0)}));
  EXPECT_TRUE(series[2].first.endsWith(QStringLiteral("Fast_1.5")));
  EXPECT_EQ(series[2].second, QList<QPointF>({QPointF(0, 0.0), QPointF(1, 0.5)}));
  EXPECT_TRUE(series[3].first.endsWith(QStringLiteral("median speedup")));
  EXPECT_EQ(series[3].second, QList<QPointF>({QPointF(0, 1.2)}));
  // The median speedup goes on its own axis.
  int axes = 0;
  for (auto* a : c.chartView()->chart()->axes()) (void)a, ++axes;
  EXPECT_EQ(axes, 3);
  c.setShowPerformance(false);
  EXPECT_EQ(c.plotted().size(), 1);
  c.setShowPerformance(true);
  c.setTag(QStringLiteral("Once-C"));  // no per-tag performance metrics in the logs
  EXPECT_EQ(c.plotted().size(), 1);

  // An older log: no performance series at all.
  CampaignFeed old;
  auto uo = old.consume({perf_started(), summary(1, 0, 0.5, json::object())});
  EXPECT_FALSE(uo.newPoints[0].fast1.has_value());
  uo.reset = true;
  LearningCurves c2;
  c2.apply(uo);
  EXPECT_EQ(c2.plotted().size(), 2);  // pass@1 and pass@n only
}

TEST(CampaignPerf, ComparisonShowsPerTaskBestSpeedups) {
  CampaignSummary a, b;
  a.name = QStringLiteral("A");
  b.name = QStringLiteral("B");
  TaskStatusRow t;
  t.task = QStringLiteral("a/x");
  t.solved = true;
  t.samples = 4;
  t.successes = 2;
  t.bestSpeedup = 2.5;
  a.tasks = {t};
  t.bestSpeedup.reset();
  b.tasks = {t};
  ComparisonTaskModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setCampaigns({a, b});
  EXPECT_EQ(m.index(0, 1).data().toString(), QStringLiteral("✔ 2/4 (50%) · 2.50×"));
  EXPECT_EQ(m.index(0, 1).data(ComparisonTaskModel::BestSpeedupRole).toDouble(), 2.5);
  EXPECT_EQ(m.index(0, 2).data().toString(), QStringLiteral("✔ 2/4 (50%)"));
  EXPECT_EQ(m.index(0, 2).data(ComparisonTaskModel::BestSpeedupRole).toDouble(), -1.0);

  // From a written log, through summarizeWorkspace (a real workspace: campaign.json, then the events).
  QTemporaryDir dir;
  {
    std::string werr;
    sf::learn::CampaignConfig cfg;
    cfg.name = "perf";
    ASSERT_TRUE(sf::store::Workspace::create(dir.path().toStdString(), sf::learn::config_to_json(cfg), werr)) << werr;
    std::ofstream out((dir.path() + QStringLiteral("/events.jsonl")).toStdString(), std::ios::app);
    for (const auto& e : {perf_started(), verdict(1, 0, "a/x", 0, true, {{"cycles", 10}, {"speedup", 1.25}}),
                          verdict(2, 0, "a/x", 1, true, {{"cycles", 8}, {"speedup", 1.75}}),
                          verdict(3, 0, "a/x", 2, false)})
      out << e.dump() << "\n";
  }
  CampaignSummary s = summarizeWorkspace(dir.path());
  ASSERT_TRUE(s.error.isEmpty()) << s.error.toStdString();
  ASSERT_FALSE(s.tasks.isEmpty());
  ASSERT_TRUE(s.tasks[0].bestSpeedup.has_value());
  EXPECT_EQ(*s.tasks[0].bestSpeedup, 1.75);
}

TEST(CampaignPerf, AuditMarksSuspiciousSpeedups) {
  auto adoption = [](int seq, int episode, const std::string& task, int round, const std::string& item) {
    return env(seq, "adoption_record",
               {{"episode", episode}, {"task", task}, {"round", round}, {"item", item}, {"rank", 1},
                {"relevance", 1.0}, {"score", 1.0}, {"utility", 0.1}, {"adopted", true}, {"rationale", "r"},
                {"reasked", false}, {"before", ""}, {"after", "x"}});
  };
  const std::vector<json> events = {
      env(0, "episode_started", {{"episode", 0}, {"task", "a/x"}, {"max_rounds", 3}}),
      adoption(1, 0, "a/x", 0, "mem-1"),
      verdict(2, 0, "a/x", 0, true, {{"cycles", 10}, {"speedup", 12.0}, {"feasible", true}}),
      adoption(3, 0, "a/x", 1, "mem-2"),
      verdict(4, 0, "a/x", 1, true, {{"cycles", 100}, {"speedup", 1.2}}),
      adoption(5, 1, "b/y", 0, "mem-1"),
      verdict(6, 1, "b/y", 0, true),  // no speedup (older log)
  };
  // Live: events applied one by one.
  AuditModel live;
  QAbstractItemModelTester tester(&live, QAbstractItemModelTester::FailureReportingMode::Fatal);
  for (const auto& e : events) live.applyEvent(e);
  ASSERT_EQ(live.rowCount(), 3);
  auto check = [](const AuditModel& m) {
    EXPECT_TRUE(m.index(0, 0).data(AuditModel::SuspiciousRole).toBool());
    EXPECT_TRUE(m.index(0, AuditModel::SpeedupColumn).data().toString().contains(QStringLiteral("12.00×")));
    EXPECT_TRUE(m.index(0, AuditModel::SpeedupColumn).data().toString().contains(QStringLiteral("⚠")));
    EXPECT_TRUE(m.index(0, AuditModel::SpeedupColumn).data(Qt::ToolTipRole).isValid());
    EXPECT_FALSE(m.index(1, 0).data(AuditModel::SuspiciousRole).toBool());
    EXPECT_EQ(m.index(1, AuditModel::SpeedupColumn).data().toString(), QStringLiteral("1.20×"));
    EXPECT_EQ(m.index(2, 0).data(AuditModel::SpeedupRole).toDouble(), -1.0);
    EXPECT_TRUE(m.index(2, AuditModel::SpeedupColumn).data().toString().isEmpty());
  };
  check(live);
  // Opened from the workspace: the same.
  QTemporaryDir dir;
  {
    std::ofstream out((dir.path() + QStringLiteral("/events.jsonl")).toStdString());
    for (const auto& e : events) out << e.dump() << "\n";
  }
  AuditModel opened;
  QString err;
  ASSERT_TRUE(opened.openSnapshot(*sf::widgets::test::snapshotOf(dir.path()), &err)) << err.toStdString();
  ASSERT_EQ(opened.rowCount(), 3);
  check(opened);
}

// A sweep folder (issue 19 item 6): each variant's mean pass@1 over its seeds with a min–max band; a seed that
// stopped early keeps its last value; a cell not run yet is left out.
TEST(CampaignPerf, LearningCurvesOpenASweepWithMeanAndBand) {
  QTemporaryDir dir;
  const std::string root = dir.path().toStdString();
  const json sweep = {{"format", "stepforge-sweep"},
                      {"version", 1},
                      {"config", json::object()},
                      {"seeds", {1, 2}},
                      {"variants",
                       {{{"name", "v0"}, {"overrides", json::array()}},
                        {{"name", "v1"}, {"overrides", {"memory.enabled=false"}}}}}};
  std::ofstream(root + "/sweep.json") << sweep.dump();
  auto cell = [&](const std::string& variant, int seed, const std::vector<json>& events) {
    const std::filesystem::path d = std::filesystem::path(root) / "cells" / variant / ("seed-" + std::to_string(seed));
    std::string werr;
    ASSERT_TRUE(sf::store::Workspace::create(d, sf::learn::config_to_json(sf::learn::CampaignConfig{}), werr))
        << werr;
    std::ofstream out(d / "events.jsonl", std::ios::trunc);
    for (const auto& e : events) out << e.dump() << "\n";
  };
  cell("v0", 1, {perf_started(), summary(1, 0, 0.5, json::object()), summary(2, 1, 1.0, json::object())});
  cell("v0", 2, {perf_started(), summary(1, 0, 0.0, json::object())});  // stopped after iteration 0
  cell("v1", 1, {perf_started(), summary(1, 0, 0.25, json::object())});  // seed 2 not run yet
  LearningCurves c;
  QString err;
  ASSERT_TRUE(c.openSweep(dir.path(), &err)) << err.toStdString();
  const auto& bands = c.sweepBands();
  ASSERT_EQ(bands.size(), 2);
  EXPECT_EQ(bands[0].label, QStringLiteral("v0"));
  EXPECT_EQ(bands[0].seeds, 2);
  EXPECT_EQ(bands[0].mean, QList<QPointF>({QPointF(0, 0.25), QPointF(1, 0.5)}));
  EXPECT_EQ(bands[0].lo, QList<QPointF>({QPointF(0, 0.0), QPointF(1, 0.0)}));
  EXPECT_EQ(bands[0].hi, QList<QPointF>({QPointF(0, 0.5), QPointF(1, 1.0)}));
  EXPECT_EQ(bands[1].label, QStringLiteral("v1 memory.enabled=false"));
  EXPECT_EQ(bands[1].seeds, 1);
  EXPECT_EQ(bands[1].mean, QList<QPointF>({QPointF(0, 0.25)}));
  const auto lines = c.plotted();
  ASSERT_EQ(lines.size(), 2);
  EXPECT_EQ(lines[1].first, QStringLiteral("v1 memory.enabled=false — mean pass@1 (1 seed(s))"));
  int areas = 0;
  for (auto* s : c.chartView()->chart()->series()) areas += qobject_cast<QAreaSeries*>(s) ? 1 : 0;
  EXPECT_EQ(areas, 2);
  if (const QString shots = qEnvironmentVariable("SF_SCREENSHOT_DIR"); !shots.isEmpty())
    c.exportPng(shots + QStringLiteral("/sweep_curves.png"));
  // Not a sweep folder: a clear error, the sweep shown stays.
  QTemporaryDir other;
  EXPECT_FALSE(c.openSweep(other.path(), &err));
  EXPECT_TRUE(err.contains(QStringLiteral("not a sweep folder"))) << err.toStdString();
  EXPECT_EQ(c.sweepBands().size(), 2);
  c.clearSweep();
  EXPECT_TRUE(c.plotted().isEmpty());
}

// The tie tolerance in the views (issue 34 item 3, issue 36 item 2): a one-cycle win is a tie, not "1.00×".
TEST(CampaignPerf, TiesAreShownAsTiesNotAsSpeedups) {
  CampaignFeed feed;
  TraceModel m;
  auto u = feed.consume({perf_started(), call(1, 0, "a/x", 0), call(2, 0, "a/x", 1), call(3, 0, "b/y", 0),
                         verdict(4, 0, "a/x", 0, true, {{"cycles", 10727}, {"speedup", 10728.0 / 10727.0}, {"feasible", true}}),
                         verdict(5, 0, "a/x", 1, true, {{"cycles", 12000}, {"speedup", 0.8}, {"feasible", true}}),
                         verdict(6, 0, "b/y", 0, true, {{"cycles", 500}, {"speedup", 1.02}, {"feasible", true}})});
  u.reset = true;
  EXPECT_DOUBLE_EQ(u.fastTolerance, 0.01);  // the default, from a config without fast_tolerance
  m.apply(u);
  EXPECT_EQ(m.index(0, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("tie (1.00×)"));
  EXPECT_EQ(m.index(1, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("0.80× (slower)"));
  EXPECT_EQ(m.index(2, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("1.02×"));

  // A campaign with fast_tolerance 0: the one-cycle win is a (tiny) speedup.
  CampaignFeed exact;
  json started = perf_started();
  started["config"]["fast_tolerance"] = 0.0;
  auto ue = exact.consume({started, call(1, 0, "a/x", 0),
                           verdict(2, 0, "a/x", 0, true, {{"cycles", 10727}, {"speedup", 10728.0 / 10727.0}, {"feasible", true}})});
  ue.reset = true;
  TraceModel me;
  me.apply(ue);
  EXPECT_EQ(me.index(0, TraceModel::SpeedupColumn).data().toString(), QStringLiteral("1.00×"));

  // Run comparison: a task whose best is a tie has no faster program.
  ComparisonTaskModel cm;
  cm.setCampaigns({feed.summary()});
  ASSERT_EQ(cm.rowCount(), 2);
  int checked = 0;
  for (int r = 0; r < cm.rowCount(); ++r) {
    const QString task = cm.index(r, 0).data().toString(), text = cm.index(r, 1).data().toString();
    if (task == QStringLiteral("a/x")) {
      EXPECT_TRUE(text.endsWith(QStringLiteral("2/2 (100%) · no faster program"))) << text.toStdString();
      ++checked;
    } else if (task == QStringLiteral("b/y")) {
      EXPECT_TRUE(text.endsWith(QStringLiteral("1/1 (100%) · 1.02×"))) << text.toStdString();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}
