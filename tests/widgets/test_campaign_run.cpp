// Campaigns through EngineBridge and the main window: pause / resume / cancel of a live run; the end-to-end
// run (offscreen window, a task loaded and verified, a tiny builtin campaign, a non-blank PNG); a demo replay
// and a followed workspace end with the same curves and task statuses as the live run.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/run_comparison_view.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/main_window.hpp"
#include "widgets/editor/task_browser.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "widgets/campaign/trace_pane.hpp"

using namespace sf::widgets;

namespace {

// Three easy tasks, n = 2, adaptive with the offline synthesizer: two iterations in ~15 s on 2 busy cores.
QByteArray tinyConfig(const char* tasks = R"(["gemm_easy/batched_matvec","rope/neox_halves","bmm/inner_product"])") {
  return QByteArray(R"({"version":1,"name":"tiny","mode":"adaptive",
    "backend":{"kind":"builtin","model":"builtin","builtin_provider":"synth"},
    "n":2,"temperature0":0.5,"temperatures":[0.4,1.0],"m":2,"selection":"mixed","tasks":)") +
         tasks + R"(,"seed":42,"in_flight":2,"verify_threads":1})";
}

// Waits until `spy` (campaignStateChanged) has recorded `want`; false on timeout or on a failure state.
bool waitForState(QSignalSpy& spy, CampaignRunState want, int timeoutMs, QString* message = nullptr) {
  QElapsedTimer t;
  t.start();
  int seen = 0;
  while (t.elapsed() < timeoutMs) {
    for (; seen < spy.size(); ++seen) {
      auto s = spy.at(seen).at(0).value<CampaignRunState>();
      if (message) *message = spy.at(seen).at(1).toString();
      if (s == want) return true;
      if (s == CampaignRunState::Failed && want != CampaignRunState::Failed) return false;
    }
    spy.wait(500);
  }
  return false;
}

struct Collected {
  QVector<CurvePoint> points;
  QVector<TaskStatusRow> status;
  qint64 rows = 0;
  bool reset = false;
};

QMetaObject::Connection collect(EngineBridge& b, Collected& c) {
  return QObject::connect(&b, &EngineBridge::campaignUpdated, &b, [&c](const CampaignUpdate& u) {
    if (u.reset) c = Collected{{}, {}, 0, true};
    c.points += u.newPoints;
    c.status = u.taskStatus;
    c.rows += u.traceRows.size();
  });
}

}  // namespace

TEST(CampaignBridge, PauseResumeAndCancelALiveRun) {
  QTemporaryDir tmp;
  const QString dir = tmp.filePath(QStringLiteral("ws"));
  EngineBridge b;
  QSignalSpy states(&b, &EngineBridge::campaignStateChanged);
  QSignalSpy updates(&b, &EngineBridge::campaignUpdated);
  QElapsedTimer t;
  t.start();
  b.startCampaign(tinyConfig("[]"), dir);  // the 26 benchmark tasks: far longer than this test
  EXPECT_LT(t.elapsed(), 200);             // never waits on the engine
  QString msg;
  ASSERT_TRUE(waitForState(states, CampaignRunState::Running, 60000, &msg)) << msg.toStdString();
  EXPECT_TRUE(QFile::exists(dir + QStringLiteral("/campaign.json")));
  ASSERT_TRUE(updates.wait(10000));
  b.pauseCampaign();
  ASSERT_TRUE(waitForState(states, CampaignRunState::Paused, 10000));
  EXPECT_EQ(b.campaignState(), CampaignRunState::Paused);
  b.resumeCampaign();
  ASSERT_TRUE(waitForState(states, CampaignRunState::Running, 10000));
  t.restart();
  b.cancelCampaign();
  EXPECT_LT(t.elapsed(), 200);
  ASSERT_TRUE(waitForState(states, CampaignRunState::Cancelled, 120000));
  // The log is intact and unfinished: `campaign resume` (or Campaign → Continue) can pick it up.
  CampaignSummary s = summarizeWorkspace(dir);
  EXPECT_TRUE(s.error.isEmpty()) << s.error.toStdString();
  EXPECT_FALSE(s.finished);
  EXPECT_EQ(s.taskCount, 26);
}

TEST(CampaignBridge, BadConfigAndBadWorkspaceFailWithAMessage) {
  QTemporaryDir tmp;
  EngineBridge b;
  QSignalSpy states(&b, &EngineBridge::campaignStateChanged);
  b.startCampaign(QByteArray(R"({"n": -3})"), tmp.filePath(QStringLiteral("ws")));
  QString msg;
  ASSERT_TRUE(waitForState(states, CampaignRunState::Failed, 10000, &msg));
  EXPECT_TRUE(msg.contains(QStringLiteral("n"))) << msg.toStdString();
  EXPECT_FALSE(QFile::exists(tmp.filePath(QStringLiteral("ws/campaign.json"))));
  states.clear();
  b.openWorkspace(tmp.filePath(QStringLiteral("nothing here")));
  ASSERT_TRUE(waitForState(states, CampaignRunState::Failed, 10000, &msg));
  EXPECT_TRUE(msg.contains(QStringLiteral("not a campaign workspace"))) << msg.toStdString();
}

TEST(CampaignEndToEnd, VerifyThenTinyCampaignThenScreenshotReplayAndFollow) {
  QTemporaryDir tmp;
  const QString dir = tmp.filePath(QStringLiteral("tiny"));
  MainWindow w;
  w.resize(1400, 860);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));

  // A task, verified.
  QSignalSpy verified(&w, &MainWindow::verified);
  w.setDocument(MainWindow::demoDocument());
  w.verifyProgram();
  ASSERT_TRUE(verified.wait(60000));
  EXPECT_TRUE(verified.at(0).at(0).value<VerifySnapshot>().pass);

  // A tiny builtin campaign, live.
  CampaignDocks* cd = w.campaignDocks();
  ASSERT_NE(cd, nullptr);
  Collected live;
  auto liveConn = collect(*w.bridge(), live);
  QSignalSpy opened(&w, &MainWindow::workspaceOpened);
  QSignalSpy states(w.bridge(), &EngineBridge::campaignStateChanged);
  cd->startCampaign(tinyConfig(), dir);
  ASSERT_EQ(opened.size(), 1);
  EXPECT_EQ(opened.at(0).at(0).toString(), dir);
  EXPECT_EQ(w.workspaceDir(), dir);
  QString msg;
  ASSERT_TRUE(waitForState(states, CampaignRunState::Finished, 300000, &msg)) << msg.toStdString();
  QTest::qWait(50);

  // The live models equal the fold of the file the engine wrote.
  CampaignSummary file = summarizeWorkspace(dir);
  ASSERT_TRUE(file.error.isEmpty()) << file.error.toStdString();
  ASSERT_TRUE(file.finished);
  ASSERT_FALSE(live.points.isEmpty());
  EXPECT_EQ(live.points, file.curve);
  EXPECT_EQ(cd->curves()->currentPoints(), file.curve);
  EXPECT_EQ(live.status, file.tasks);
  EXPECT_EQ(cd->tracePane()->model()->rowCount(), live.rows);
  EXPECT_GE(live.rows, 6);  // at least one proposer call per sample of iteration 0 (3 tasks x n = 2)
  // pass@1 and pass@n, plus Fast_1.0 / Fast_1.5 / median speedup when the engine's summaries carry them.
  auto perfSeries = [](const QVector<CurvePoint>& c) {
    bool f1 = false, f15 = false, med = false;
    for (const auto& p : c) f1 |= p.fast1.has_value(), f15 |= p.fast15.has_value(), med |= p.medianSpeedup.has_value();
    return int(f1) + int(f15) + int(med);
  };
  EXPECT_EQ(cd->curves()->plotted().size(), 2 + perfSeries(file.curve));
  EXPECT_EQ(cd->curves()->plotted()[0].second.size(), file.curve.size());
  // Every call has a verdict once the campaign is over.
  for (int r = 0; r < cd->tracePane()->model()->rowCount(); ++r)
    ASSERT_FALSE(cd->tracePane()->model()->row(r).verdict.isEmpty()) << r;
  // Cost numbers only on PASS rows (when the engine writes them), and a speedup only with cycles.
  for (int r = 0; r < cd->tracePane()->model()->rowCount(); ++r) {
    const TraceRow& tr = cd->tracePane()->model()->row(r);
    if (tr.cycles >= 0 || tr.speedup >= 0) {
      EXPECT_EQ(tr.verdict, QStringLiteral("pass")) << r;
    }
    if (tr.speedup >= 0) {
      EXPECT_GT(tr.cycles, 0) << r;
    }
  }
  // The task browser shows the campaign's status.
  TaskBrowserModel* tm = w.taskBrowser()->model();
  ASSERT_TRUE(tm->hasStatus());
  for (const auto& t : file.tasks) {
    const QModelIndex i = tm->indexOfTask(t.task);
    ASSERT_TRUE(i.isValid()) << t.task.toStdString();
    EXPECT_EQ(i.data(TaskBrowserModel::SolvedRole).toBool(), t.solved);
    EXPECT_DOUBLE_EQ(i.data(TaskBrowserModel::RateRole).toDouble(), t.rate());
  }
  EXPECT_TRUE(cd->statusText().contains(QStringLiteral("finished"))) << cd->statusText().toStdString();

  // A screenshot of the window, not blank.
  const QString png = tmp.filePath(QStringLiteral("window.png"));
  ASSERT_TRUE(w.saveScreenshot(png));
  QImage img(png);
  ASSERT_FALSE(img.isNull());
  QSet<QRgb> colours;
  for (int y = 0; y < img.height(); y += 3)
    for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
  EXPECT_GT(colours.size(), 50);

  // Demo mode: the replay ends with the same curves and statuses; the events flow to listeners.
  QObject::disconnect(liveConn);
  Collected replay;
  auto replayConn = collect(*w.bridge(), replay);
  qint64 replayedEvents = 0;
  QObject::connect(w.bridge(), &EngineBridge::campaignEvents, &w,
                   [&](const EventBatch& b) { replayedEvents += static_cast<qint64>(b->size()); });
  states.clear();
  cd->startDemo(dir, 0);
  EXPECT_TRUE(cd->presenting());
  EXPECT_GT(w.font().pointSizeF(), QFont().pointSizeF());
  ASSERT_TRUE(waitForState(states, CampaignRunState::Finished, 60000, &msg)) << msg.toStdString();
  QTest::qWait(50);
  EXPECT_TRUE(replay.reset);
  EXPECT_EQ(replay.points, live.points);
  EXPECT_EQ(replay.status, live.status);
  EXPECT_EQ(replay.rows, live.rows);
  EXPECT_EQ(cd->curves()->currentPoints(), live.points);
  QFile log(dir + QStringLiteral("/events.jsonl"));
  ASSERT_TRUE(log.open(QIODevice::ReadOnly));
  EXPECT_EQ(replayedEvents, log.readAll().count('\n'));
  cd->setPresentation(false);
  EXPECT_FALSE(cd->presenting());

  // Opening the finished workspace (the follow path) gives the same again.
  QObject::disconnect(replayConn);
  Collected followed;
  collect(*w.bridge(), followed);
  states.clear();
  cd->openWorkspace(dir);
  ASSERT_TRUE(waitForState(states, CampaignRunState::Finished, 60000, &msg)) << msg.toStdString();
  QTest::qWait(50);
  EXPECT_EQ(followed.points, live.points);
  EXPECT_EQ(followed.rows, live.rows);

  // Run comparison of the workspace with itself: both columns agree.
  QSignalSpy cmp(w.bridge(), &EngineBridge::comparisonReady);
  cd->compareWorkspaces({dir, dir});
  ASSERT_TRUE(cmp.wait(60000));
  auto summaries = cmp.at(0).at(0).value<QVector<CampaignSummary>>();
  ASSERT_EQ(summaries.size(), 2);
  EXPECT_EQ(summaries[0].curve, live.points);
  EXPECT_EQ(cd->comparisonCurves()->plotted().size(), 2 * (2 + perfSeries(live.points)));
  // The drill-down grid has both runs, every task of the campaign, and no task that differs.
  ASSERT_TRUE(summaries[0].run);
  auto* grid = cd->comparisonGrid()->model();
  EXPECT_EQ(grid->runCount(), 2);
  EXPECT_EQ(grid->rowCount(), summaries[0].taskCount);
  grid->setOnlyDiffering(true);
  EXPECT_EQ(grid->rowCount(), 0);
}

TEST(CampaignFollow, ALogWrittenByAnotherProcessIsFollowedAsItGrows) {
  QTemporaryDir tmp;
  const QString dir = tmp.path();
  QFile cfg(dir + QStringLiteral("/campaign.json"));
  ASSERT_TRUE(cfg.open(QIODevice::WriteOnly));
  cfg.write(R"({"format":"stepforge-campaign","version":1,"config":{"name":"grow","mode":"adaptive"}})");
  cfg.close();
  QFile log(dir + QStringLiteral("/events.jsonl"));
  ASSERT_TRUE(log.open(QIODevice::WriteOnly));
  log.write(R"({"v":1,"seq":0,"t":1,"type":"campaign_started","config":{"name":"grow","mode":"adaptive"},"tasks":[{"id":"a/x","group":"a","tag":"Once-C"}]})"
            "\n");
  log.flush();
  EngineBridge b;
  Collected c;
  collect(b, c);
  QSignalSpy states(&b, &EngineBridge::campaignStateChanged);
  b.openWorkspace(dir);
  ASSERT_TRUE(waitForState(states, CampaignRunState::Following, 10000));
  QTest::qWait(300);
  EXPECT_TRUE(c.reset);
  ASSERT_EQ(c.status.size(), 1);
  // Another process appends: a summary, then half a line, then the rest and the end of the campaign.
  log.write(R"({"v":1,"seq":1,"t":2,"type":"iteration_started","iteration":0,"step":0,"steps":0,"demos":[],"temperatures":[0.5],"tasks":["a/x"],"n":1})"
            "\n");
  log.write(R"({"v":1,"seq":2,"t":3,"type":"iteration_summary","iteration":0,"step":0,"results":[{"task":"a/x","c":1,"newly_solved":true}],"newly_solved":1,"wall_s":1,"metrics":{"cumulative":{"pass_at_1":1.0,"pass_at_n":1.0,"solved":1,"tasks":1},"tokens":{"total":0},"cost_usd":0}})"
            "\n");
  log.write(R"({"v":1,"seq":3,"t":4,"type":"campaign_fin)");
  log.flush();
  QElapsedTimer t;
  t.start();
  while (c.points.isEmpty() && t.elapsed() < 10000) QTest::qWait(50);
  ASSERT_EQ(c.points.size(), 1);
  EXPECT_DOUBLE_EQ(c.points[0].passN, 1.0);
  EXPECT_TRUE(c.status[0].solved);
  EXPECT_EQ(b.campaignState(), CampaignRunState::Following);  // the half line is not read yet
  log.write(R"(ished","reason":"all-solved","iterations":1,"tasks":1,"solved":1})"
            "\n");
  log.flush();
  ASSERT_TRUE(waitForState(states, CampaignRunState::Finished, 10000));
}
