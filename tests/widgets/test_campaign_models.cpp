// Campaign models without an engine: CampaignFeed (events -> updates), the trace model with 100,000 calls under
// QAbstractItemModelTester, its filter proxy, the comparison models, the learning curves and the new-campaign
// dialog.
#include <gtest/gtest.h>

#include <QTabWidget>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>

#include "core/store/content_store.hpp"
#include "widgets/campaign/campaign_dialog.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/campaign/comparison_model.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "widgets/campaign/trace_pane.hpp"

using namespace sf::widgets;
using nlohmann::json;

namespace {

json started() {
  return {{"v", 1}, {"seq", 0}, {"t", 100.0}, {"type", "campaign_started"},
          {"config", {{"name", "unit"}, {"mode", "adaptive"}}},
          {"tasks", json::array({{{"id", "a/x"}, {"group", "a"}, {"tag", "Once-C"}},
                                 {{"id", "b/y"}, {"group", "b"}, {"tag", "Reuse-CS"}}})}};
}

json iterStart(int it, int seq, std::vector<std::string> tasks, int temps, int n, double t) {
  json ts = json::array();
  for (int i = 0; i < temps; ++i) ts.push_back(0.5);
  return {{"v", 1}, {"seq", seq}, {"t", t}, {"type", "iteration_started"}, {"iteration", it}, {"step", 0},
          {"steps", 0}, {"demos", json::array()}, {"temperatures", ts}, {"tasks", tasks}, {"n", n}};
}

json call(int seq, int it, const std::string& task, int sample, const std::string& role, int in, int out) {
  return {{"v", 1}, {"seq", seq}, {"t", 101.0}, {"type", "llm_call"}, {"iteration", it}, {"task", task},
          {"temperature_index", 0}, {"sample_index", sample},
          {"trace", {{"role", role}, {"usage", {{"input_tokens", in}, {"output_tokens", out}}}, {"latency_s", 0.25},
                     {"cost_usd", 0.001}, {"response", "answer " + task}, {"impl", "E1 = step.Copy().apply(E0)"},
                     {"prompt", json::array({{{"role", "user"}, {"content", "solve " + task}}})},
                     {"guardian_diff", role == "guardian" ? "- a\n+ b" : ""}}}};
}

json verdict(int seq, int it, const std::string& task, int sample, bool pass, double t) {
  return {{"v", 1}, {"seq", seq}, {"t", t}, {"type", "verdict"}, {"iteration", it}, {"task", task},
          {"temperature_index", 0}, {"temperature", 0.5}, {"sample_index", sample}, {"seed", 1}, {"pass", pass},
          {"stage", pass ? "" : "verify"}, {"code", pass ? "" : "V-MISMATCH"}, {"canonical_key", ""},
          {"program_length", 1}, {"impl", ""}, {"error", ""}, {"usage", json::object()}};
}

json summary(int it, int seq, double p1, double pn, std::int64_t tokens) {
  return {{"v", 1}, {"seq", seq}, {"t", 110.0}, {"type", "iteration_summary"}, {"iteration", it}, {"step", 0},
          {"results", json::array({{{"task", "a/x"}, {"c", 1}, {"newly_solved", it == 0}}})}, {"newly_solved", 1},
          {"wall_s", 1.0},
          {"metrics", {{"tokens", {{"total", tokens}}}, {"cost_usd", 0.002},
                       {"cumulative", {{"pass_at_1", p1}, {"pass_at_n", pn}, {"solved", 1}, {"tasks", 2},
                                       {"by_tag", {{"Once-C", {{"pass_at_1", 0.5}, {"pass_at_n", 1.0}}}}}}}}}};
}

TraceRow row(int i) {
  TraceRow r;
  r.seq = i;
  r.role = (i % 2) ? QStringLiteral("guardian") : QStringLiteral("proposer");
  r.task = QStringLiteral("group%1/task%2").arg(i % 7).arg(i % 13);
  r.iteration = i / 1000;
  r.sample = i % 64;
  r.verdict = (i % 3 == 0) ? QStringLiteral("pass") : (i % 3 == 1) ? QStringLiteral("fail: verify V-MISMATCH") : QString();
  r.tokens = i;
  auto d = std::make_shared<TraceDetail>();
  if (i % 1000 == 7) d->response = QStringLiteral("needle in a haystack");
  r.detail = d;
  return r;
}

}  // namespace

TEST(CampaignFeed, CallsGetTheVerdictOfTheirSampleAcrossBatches) {
  CampaignFeed f;
  std::vector<json> b1{started(), iterStart(0, 1, {"a/x", "b/y"}, 1, 2, 100.0), call(2, 0, "a/x", 0, "proposer", 10, 5),
                       call(3, 0, "a/x", 0, "guardian", 0, 0)};
  CampaignUpdate u1 = f.consume(b1);
  ASSERT_EQ(u1.traceRows.size(), 2);
  EXPECT_EQ(u1.traceRows[0].role, QStringLiteral("proposer"));
  EXPECT_EQ(u1.traceRows[0].tokens, 15);
  EXPECT_TRUE(u1.traceRows[0].verdict.isEmpty());
  EXPECT_EQ(u1.total, 4);  // 2 tasks x 1 temperature x n = 2
  EXPECT_EQ(u1.taskCount, 2);
  EXPECT_EQ(u1.name, QStringLiteral("unit"));
  // The verdict arrives in the next batch: both earlier rows are updated, the new call gets it in place.
  std::vector<json> b2{verdict(4, 0, "a/x", 0, true, 102.0), call(5, 0, "b/y", 0, "proposer", 1, 1),
                       verdict(6, 0, "b/y", 0, false, 104.0)};
  CampaignUpdate u2 = f.consume(b2);
  ASSERT_EQ(u2.verdictUpdates.size(), 2);
  EXPECT_EQ(u2.verdictUpdates[0].row, 0);
  EXPECT_EQ(u2.verdictUpdates[1].row, 1);
  EXPECT_EQ(u2.verdictUpdates[0].verdict, QStringLiteral("pass"));
  ASSERT_EQ(u2.traceRows.size(), 1);
  EXPECT_EQ(u2.traceRows[0].verdict, QStringLiteral("fail: verify V-MISMATCH"));
  EXPECT_EQ(u2.done, 2);
  // 2 of 4 samples in 4 s (t 100 -> 104): 4 s more.
  EXPECT_DOUBLE_EQ(u2.etaSeconds, 4.0);
  EXPECT_EQ(u2.tokens, 17);
  ASSERT_EQ(u2.taskStatus.size(), 2);
  EXPECT_EQ(u2.taskStatus[0].task, QStringLiteral("a/x"));
  EXPECT_EQ(u2.taskStatus[0].samples, 1);
  EXPECT_EQ(u2.taskStatus[0].successes, 1);
  EXPECT_FALSE(u2.taskStatus[0].solved);  // solved comes from the iteration summary

  CampaignUpdate u3 = f.consume({summary(0, 7, 0.25, 0.5, 17)});
  ASSERT_EQ(u3.newPoints.size(), 1);
  EXPECT_EQ(u3.newPoints[0].x, 0);
  EXPECT_DOUBLE_EQ(u3.newPoints[0].pass1, 0.25);
  EXPECT_DOUBLE_EQ(u3.newPoints[0].passN, 0.5);
  EXPECT_EQ(u3.newPoints[0].tokens, 17);
  EXPECT_DOUBLE_EQ(u3.newPoints[0].byTag.at("Once-C").second, 1.0);
  EXPECT_TRUE(u3.taskStatus[0].solved);
  EXPECT_EQ(u3.solved, 1);
  EXPECT_FALSE(u3.finished);
  CampaignUpdate u4 = f.consume({{{"v", 1}, {"seq", 8}, {"type", "campaign_finished"}, {"reason", "all-solved"}}});
  EXPECT_TRUE(u4.finished);
  EXPECT_EQ(u4.finishReason, QStringLiteral("all-solved"));
}

TEST(CampaignFeed, MalformedEventsAreSkippedNotFatal) {
  CampaignFeed f;
  json bad = call(1, 0, "a/x", 0, "proposer", 1, 1);
  bad["iteration"] = "zero";  // wrong type
  CampaignUpdate u = f.consume({started(), bad, json::array({1, 2}), {{"type", "memory_thing"}, {"x", 1}}});
  EXPECT_EQ(f.malformed(), 2);
  EXPECT_TRUE(u.traceRows.isEmpty());
  EXPECT_EQ(u.events, 2);  // started + the unknown type
}

TEST(CampaignFeed, SageEpisodesGiveExecutionRateCurves) {
  CampaignFeed f;
  json s = started();
  s["config"]["mode"] = "sage";
  auto ep = [](int e, const std::string& task, bool solved) {
    return json{{"v", 1}, {"seq", 10 + e}, {"type", "episode_finished"}, {"episode", e}, {"task", task},
                {"score", solved ? 1.0 : 0.0}, {"rounds", 2}, {"first_correct_round", solved ? 1 : -1},
                {"solved", solved}};
  };
  CampaignUpdate u = f.consume({s, ep(0, "a/x", false), ep(1, "b/y", true), ep(2, "a/x", true)});
  EXPECT_TRUE(u.sage);
  ASSERT_EQ(u.newPoints.size(), 3);
  EXPECT_DOUBLE_EQ(u.newPoints[0].pass1, 0.0);        // ER 0/1
  EXPECT_DOUBLE_EQ(u.newPoints[1].pass1, 0.5);        // 1/2
  EXPECT_NEAR(u.newPoints[2].pass1, 2.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(u.newPoints[1].passN, 0.5);        // 1 of 2 tasks solved
  EXPECT_DOUBLE_EQ(u.newPoints[2].passN, 1.0);
  EXPECT_DOUBLE_EQ(u.newPoints[2].byTag.at("Once-C").first, 0.5);  // a/x: 1 of 2 episodes
  EXPECT_EQ(u.solved, 2);
}

TEST(TraceModel, HundredThousandCallsAppendInBatchesQuickly) {
  // The live path: 100 batches of 1000 calls into the model and its filter proxy (no tester attached: the
  // tester walks the whole model after every change).
  TraceModel m;
  TraceFilterProxy proxy;
  proxy.setSourceModel(&m);
  proxy.setRoleFilter(QStringLiteral("guardian"));
  QElapsedTimer timer;
  timer.start();
  int i = 0;
  for (int b = 0; b < 100; ++b) {
    QVector<TraceRow> batch;
    for (int k = 0; k < 1000; ++k) batch.push_back(row(i++));
    m.append(batch);
  }
  EXPECT_LT(timer.elapsed(), 5000);  // ~50 ms per batch at most even on 2 busy cores
  EXPECT_EQ(proxy.rowCount(), 50000);
}

TEST(TraceModel, HundredThousandCallsInBatchesWithFilters) {
  TraceModel m;
  TraceFilterProxy proxy;
  proxy.setSourceModel(&m);
  QAbstractItemModelTester t1(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  int i = 0;
  // The source model under the tester while the batches arrive (the tester walks every row after each
  // change, so the batches are large here; the 1000-row batches are timed above).
  for (int b = 0; b < 10; ++b) {
    QVector<TraceRow> batch;
    for (int k = 0; k < 10000; ++k) batch.push_back(row(i++));
    m.append(batch);
  }
  ASSERT_EQ(m.rowCount(), 100000);
  EXPECT_EQ(proxy.rowCount(), 100000);
  EXPECT_EQ(m.roles(), (QStringList{QStringLiteral("proposer"), QStringLiteral("guardian")}));
  // A filter change removes up to 50,000 separate row ranges from the proxy; instead of a tester walk after
  // each of them, the small filtered states are checked by a fresh tester.
  auto check = [&proxy] {
    if (proxy.rowCount() <= 2000) QAbstractItemModelTester t(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  };

  proxy.setRoleFilter(QStringLiteral("guardian"));
  check();
  EXPECT_EQ(proxy.rowCount(), 50000);
  proxy.setVerdictFilter(TraceFilterProxy::VerdictFilter::Pass);  // odd i with i % 3 == 0: i = 3, 9, 15, ...
  check();
  EXPECT_EQ(proxy.rowCount(), 16667);
  proxy.setRoleFilter({});
  EXPECT_EQ(proxy.rowCount(), 33334);  // i % 3 == 0 over 0..99999
  proxy.setVerdictFilter(TraceFilterProxy::VerdictFilter::Pending);
  EXPECT_EQ(proxy.rowCount(), 33333);
  proxy.setVerdictFilter(TraceFilterProxy::VerdictFilter::Any);
  proxy.setTaskFilter(QStringLiteral("group3/task5"));  // i % 7 == 3 and i % 13 == 5: i ≡ 31 (mod 91)
  check();
  int expected = 0;
  for (int k = 0; k < 100000; ++k) expected += (k % 91 == 31);
  EXPECT_EQ(proxy.rowCount(), expected);
  proxy.setTaskFilter({});
  proxy.setSearchText(QStringLiteral("needle"));
  EXPECT_EQ(proxy.rowCount(), 0);  // only task, role, verdict, error by default
  proxy.setSearchResponses(true);
  check();
  EXPECT_EQ(proxy.rowCount(), 100);
  EXPECT_EQ(proxy.mapToSource(proxy.index(0, 0)).row(), 7);
  proxy.setSearchResponses(false);
  proxy.setSearchText(QStringLiteral("MISMATCH"));
  EXPECT_EQ(proxy.rowCount(), 33333);

  // A verdict for a pending row moves it between filters (both models under testers again).
  proxy.setSearchText({});
  proxy.setVerdictFilter(TraceFilterProxy::VerdictFilter::Pending);
  m.applyVerdicts({{2, QStringLiteral("pass")}});
  EXPECT_EQ(proxy.rowCount(), 33332);
  EXPECT_EQ(m.index(2, TraceModel::VerdictColumn).data().toString(), QStringLiteral("pass"));
  m.clear();
  EXPECT_EQ(proxy.rowCount(), 0);
}

TEST(TracePane, DetailShowsPromptResponseProgramDiffAndVerdict) {
  TracePane pane;
  CampaignFeed f;
  CampaignUpdate u = f.consume({started(), iterStart(0, 1, {"a/x"}, 1, 1, 100.0), call(2, 0, "a/x", 0, "guardian", 3, 4),
                                verdict(3, 0, "a/x", 0, false, 101.0)});
  u.reset = true;
  pane.apply(u);
  ASSERT_EQ(pane.model()->rowCount(), 1);
  pane.showRow(0);
  EXPECT_EQ(pane.detailText(QStringLiteral("response")), QStringLiteral("answer a/x"));
  EXPECT_EQ(pane.detailText(QStringLiteral("impl")), QStringLiteral("E1 = step.Copy().apply(E0)"));
  EXPECT_EQ(pane.detailText(QStringLiteral("diff")), QStringLiteral("- a\n+ b"));
  EXPECT_TRUE(pane.detailText(QStringLiteral("prompt")).contains(QStringLiteral("solve a/x")));
  EXPECT_TRUE(pane.detailText(QStringLiteral("verdict")).startsWith(QStringLiteral("fail: verify V-MISMATCH")));
}

TEST(TracePane, ReasoningIsItsOwnTabOnlyWhenThereIsSomeWithTheFinishReasonAndRulesUsed) {
  TracePane pane;
  CampaignFeed f;
  json cut = call(2, 0, "a/x", 0, "proposer", 3, 4);
  cut["trace"]["finish_reason"] = "length";
  cut["trace"]["reasoning"] = "first zip, then map";
  cut["trace"]["rules_used"] = json::array({"mem-1", "mem-4"});
  CampaignUpdate u = f.consume({started(), iterStart(0, 1, {"a/x"}, 1, 2, 100.0), cut,
                                call(3, 0, "a/x", 1, "proposer", 3, 4)});
  u.reset = true;
  pane.apply(u);
  ASSERT_EQ(pane.model()->rowCount(), 2);
  auto* tabs = pane.findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  const int last = tabs->count() - 1;
  EXPECT_EQ(tabs->tabText(last), QStringLiteral("Reasoning"));
  pane.showRow(0);
  EXPECT_EQ(pane.detailText(QStringLiteral("reasoning")), QStringLiteral("first zip, then map"));
  EXPECT_TRUE(tabs->isTabVisible(last));
  EXPECT_TRUE(pane.detailText(QStringLiteral("verdict")).contains(QStringLiteral("finish reason length")));
  EXPECT_TRUE(pane.detailText(QStringLiteral("verdict")).contains(QStringLiteral("resident rules used: mem-1, mem-4")));
  pane.showRow(1);  // no reasoning: the tab is collapsed away
  EXPECT_FALSE(tabs->isTabVisible(last));
  EXPECT_TRUE(pane.detailText(QStringLiteral("reasoning")).isEmpty());
}

TEST(TraceModel, VerdictsAreShortWordsWithTheCodeInATooltip) {
  TraceModel m;
  CampaignFeed f;
  json nop = verdict(3, 0, "a/x", 0, false, 101.0);
  nop["stage"] = "search";
  nop["code"] = "no-program";
  json old = verdict(5, 0, "a/x", 1, false, 102.0);  // an older log: the builtin's answer was a parse failure
  old["stage"] = "parse";
  old["code"] = "P-NO-IMPL";
  CampaignUpdate u = f.consume({started(), iterStart(0, 1, {"a/x"}, 2, 1, 100.0), call(2, 0, "a/x", 0, "proposer", 3, 4),
                                nop, call(4, 0, "a/x", 1, "proposer", 3, 4), old,
                                call(6, 0, "a/x", 2, "proposer", 3, 4), verdict(7, 0, "a/x", 2, false, 103.0)});
  m.apply(u);
  ASSERT_EQ(m.rowCount(), 3);
  auto cell = [&](int row, int role) { return m.index(row, TraceModel::VerdictColumn).data(role).toString(); };
  EXPECT_EQ(cell(0, Qt::DisplayRole), QStringLiteral("no program"));
  EXPECT_EQ(cell(0, Qt::ToolTipRole), QStringLiteral("fail: search no-program"));
  EXPECT_EQ(cell(1, Qt::DisplayRole), QStringLiteral("no impl"));
  EXPECT_EQ(cell(1, Qt::ToolTipRole), QStringLiteral("fail: parse P-NO-IMPL"));
  EXPECT_EQ(cell(2, Qt::DisplayRole), QStringLiteral("fail"));  // "verify" is no stage of ours
  EXPECT_EQ(m.index(0, 0).data(TraceModel::VerdictRole).toString(), QStringLiteral("fail: search no-program"));
}

// A workspace's log names prompt parts in blobs/ (issue 17 item 7): the detail still shows the whole prompt, an
// old event with the prompt inline too, and a lost blob is explained with its file.
TEST(TracePane, DetailReassemblesAPromptStoredAsParts) {
  QTemporaryDir dir;
  const std::filesystem::path ws = dir.path().toStdString();
  sf::store::ContentStore blobs(ws / "blobs");
  const std::string manual = "The STeP manual.\n" + std::string(3000, 'm');
  const std::string user = "## Task\n\n" + std::string(400, 't') + "\n\n## Answer format\n\nOne block.\n";
  const json prompt = json::array({{{"role", "system"}, {"content", manual}}, {{"role", "user"}, {"content", user}}});
  std::string err;
  auto parts = sf::store::store_prompt(prompt, blobs, err);
  ASSERT_TRUE(parts) << err;
  json stored = call(2, 0, "a/x", 0, "proposer", 3, 4), old = call(3, 0, "a/x", 1, "proposer", 3, 4);
  stored["trace"]["prompt"] = *parts;
  old["trace"]["prompt"] = prompt;
  CampaignFeed f;
  f.setWorkspace(ws);
  CampaignUpdate u = f.consume({started(), iterStart(0, 1, {"a/x"}, 1, 2, 100.0), stored, old});
  u.reset = true;
  TracePane pane;
  pane.apply(u);
  ASSERT_EQ(pane.model()->rowCount(), 2);
  const QString expected = QStringLiteral("[system]\n%1\n\n[user]\n%2")
                               .arg(QString::fromStdString(manual), QString::fromStdString(user));
  pane.showRow(0);
  EXPECT_EQ(pane.detailText(QStringLiteral("prompt")), expected);
  pane.showRow(1);
  EXPECT_EQ(pane.detailText(QStringLiteral("prompt")), expected);
  const std::string lost = (*parts)[0]["parts"][0]["blob"];
  std::filesystem::remove(ws / "blobs" / lost);
  pane.showRow(0);
  const QString shown = pane.detailText(QStringLiteral("prompt"));
  EXPECT_TRUE(shown.contains(QStringLiteral("cannot be shown"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QString::fromStdString((ws / "blobs" / lost).string()))) << shown.toStdString();
}

TEST(ComparisonModels, SideBySideTasksTokensAndCost) {
  CampaignSummary a, b;
  a.name = QStringLiteral("single");
  a.mode = QStringLiteral("single");
  a.tasks = {{QStringLiteral("t1"), true, 4, 1}, {QStringLiteral("t2"), false, 4, 0}};
  a.tokens = 100;
  a.cost = 0.5;
  a.solved = 1;
  a.taskCount = 2;
  a.curve = {CurvePoint{0, 100, 0.5, 0.125, 0.5, 1, 2, {}}};
  b.name = QStringLiteral("adaptive");
  b.mode = QStringLiteral("adaptive");
  b.tasks = {{QStringLiteral("t2"), true, 8, 2}, {QStringLiteral("t3"), true, 2, 2}};
  b.solved = 2;
  b.taskCount = 2;
  ComparisonSummaryModel sm;
  ComparisonTaskModel tm;
  QAbstractItemModelTester t1(&sm, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(&tm, QAbstractItemModelTester::FailureReportingMode::Fatal);
  sm.setCampaigns({a, b});
  tm.setCampaigns({a, b});
  ASSERT_EQ(sm.rowCount(), 2);
  EXPECT_EQ(sm.index(0, ComparisonSummaryModel::SolvedColumn).data().toString(), QStringLiteral("1/2"));
  EXPECT_EQ(sm.index(0, ComparisonSummaryModel::Pass1Column).data().toString(), QStringLiteral("0.125"));
  EXPECT_EQ(sm.index(0, ComparisonSummaryModel::CostColumn).data().toString(), QStringLiteral("$0.5000"));
  EXPECT_EQ(sm.index(1, ComparisonSummaryModel::Pass1Column).data().toString(), QStringLiteral("–"));
  ASSERT_EQ(tm.rowCount(), 3);  // t1, t2, t3
  ASSERT_EQ(tm.columnCount(), 3);
  EXPECT_EQ(tm.headerData(2, Qt::Horizontal).toString(), QStringLiteral("adaptive"));
  EXPECT_DOUBLE_EQ(tm.index(1, 2).data(ComparisonTaskModel::RateRole).toDouble(), 0.25);  // t2 in adaptive: 2/8
  EXPECT_FALSE(tm.index(1, 1).data(ComparisonTaskModel::SolvedRole).toBool());
  EXPECT_EQ(tm.index(2, 1).data().toString(), QStringLiteral("–"));  // t3 not in single
  EXPECT_EQ(tm.index(0, 1).data().toString(), QStringLiteral("✔ 1/4 (25%)"));
}

TEST(LearningCurves, OverlaysTagsAndExport) {
  LearningCurves c;
  c.resize(800, 500);
  CampaignUpdate u;
  u.reset = true;
  u.name = QStringLiteral("live");
  u.newPoints = {CurvePoint{0, 10, 0, 0.25, 0.5, 1, 2, {{"Once-C", {0.5, 1.0}}}},
                 CurvePoint{1, 30, 0, 0.5, 1.0, 2, 2, {{"Once-C", {1.0, 1.0}}}}};
  c.apply(u);
  CampaignSummary other;
  other.name = QStringLiteral("other");
  other.curve = {CurvePoint{0, 5, 0, 0.1, 0.2, 0, 2, {}}};
  c.setOverlays({other});
  auto p = c.plotted();
  ASSERT_EQ(p.size(), 4);  // 2 campaigns x (pass@1, pass@n)
  EXPECT_EQ(p[0].second, (QList<QPointF>{{0, 0.25}, {1, 0.5}}));
  c.setXAxis(LearningCurves::XAxis::Tokens);
  c.setMetric(LearningCurves::Metric::PassN);
  p = c.plotted();
  ASSERT_EQ(p.size(), 2);
  EXPECT_EQ(p[0].second, (QList<QPointF>{{10, 0.5}, {30, 1.0}}));
  EXPECT_EQ(c.tags(), QStringList{QStringLiteral("Once-C")});
  c.setTag(QStringLiteral("Once-C"));
  c.setMetric(LearningCurves::Metric::Pass1);
  p = c.plotted();
  EXPECT_EQ(p[0].second, (QList<QPointF>{{10, 0.5}, {30, 1.0}}));
  EXPECT_TRUE(p[1].second.isEmpty());  // the overlay has no Once-C breakdown

  QTemporaryDir dir;
  const QString png = dir.filePath(QStringLiteral("c.png")), svg = dir.filePath(QStringLiteral("c.svg"));
  ASSERT_TRUE(c.exportPng(png, {640, 400}));
  ASSERT_TRUE(c.exportSvg(svg, {640, 400}));
  QImage img(png);
  ASSERT_EQ(img.size(), QSize(640, 400));
  QSet<QRgb> colours;
  for (int y = 0; y < img.height(); y += 4)
    for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
  EXPECT_GT(colours.size(), 5);
  QFile f(svg);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray s = f.readAll();
  EXPECT_TRUE(s.contains("<svg"));
  EXPECT_GT(s.count("<path") + s.count("<polyline"), 4);  // axes, grid and the curves are vector paths
  EXPECT_TRUE(s.contains("live"));                          // the legend text is in the SVG
  if (qEnvironmentVariableIsSet("SF_KEEP_SVG")) {
    QFile::copy(svg, qEnvironmentVariable("SF_KEEP_SVG"));
    QFile::copy(png, qEnvironmentVariable("SF_KEEP_SVG") + QStringLiteral(".png"));
  }
}

TEST(CampaignDialog, BuildsAValidatedConfigWithTheKeyVariableNameOnly) {
  EXPECT_TRUE(CampaignDialog::availableModes().contains(QStringLiteral("adaptive")));
  EXPECT_TRUE(CampaignDialog::availableModes().contains(QStringLiteral("single")));
  QTemporaryDir tmp;
  CampaignDialog d;
  d.setField(QStringLiteral("kind"), QStringLiteral("openai"));
  d.setField(QStringLiteral("model"), QStringLiteral("gpt-4o"));
  d.setField(QStringLiteral("key_env"), QStringLiteral("MY_KEY_VAR"));
  d.setField(QStringLiteral("mode"), QStringLiteral("agent"));
  d.setField(QStringLiteral("n"), QStringLiteral("16"));
  d.setField(QStringLiteral("temperatures"), QStringLiteral("0.3, 0.9"));
  d.setField(QStringLiteral("tasks"), QStringLiteral("rope, bmm/row_wise"));
  d.setField(QStringLiteral("budget.tokens"), QStringLiteral("50000"));
  d.setField(QStringLiteral("dir"), tmp.filePath(QStringLiteral("ws")));
  QString err;
  json c = d.config(&err);
  EXPECT_TRUE(err.isEmpty()) << err.toStdString();
  EXPECT_EQ(d.validationError(), QString());
  EXPECT_EQ(c["backend"]["key_env"], "MY_KEY_VAR");
  EXPECT_EQ(c["backend"]["model"], "gpt-4o");
  EXPECT_EQ(c["mode"], "agent");
  EXPECT_EQ(c["n"], 16);
  EXPECT_EQ(c["temperatures"], json::array({0.3, 0.9}));
  EXPECT_EQ(c["tasks"], json::array({"rope", "bmm/row_wise"}));
  EXPECT_EQ(c["budget"]["tokens"], 50000);
  d.setField(QStringLiteral("temperatures"), QStringLiteral("0.3, hot"));
  EXPECT_TRUE(d.validationError().contains(QStringLiteral("hot")));
  d.setField(QStringLiteral("temperatures"), QStringLiteral("0.3"));
  d.setField(QStringLiteral("tasks"), QStringLiteral("no_such_group_or_task"));
  d.setField(QStringLiteral("tasks"), QString());
  // A folder that already holds a campaign is refused.
  QDir().mkpath(tmp.filePath(QStringLiteral("ws")));
  QFile f(tmp.filePath(QStringLiteral("ws/campaign.json")));
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{}");
  f.close();
  EXPECT_TRUE(d.validationError().contains(QStringLiteral("already holds a campaign")));
}
