// Promote to golden from a trace row (Ctrl+G), a run comparison cell or sample (G) and the editor
// (Ctrl+Alt+G) (issue 20 item 2): one action, no dialog, the provenance kept, a program that does not verify
// refused with the reason and the set unchanged. Keys only.
#include <gtest/gtest.h>

#include <QAction>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/store/golden.hpp"
#include "test_support.hpp"
#include "tests/support/run_fixture_programs.hpp"
#include "widgets/editor/agent_docks.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/main_window.hpp"
#include "widgets/campaign/run_comparison_view.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/campaign/trace_pane.hpp"

namespace golden_promote_tests {

namespace lt = sf::learn::testing;

// The golden set file of `path`; fails the test when it cannot be read.
sf::store::GoldenSet readGoldenSet(const QString& path) {
  sf::store::GoldenSet set;
  std::string err;
  bool exists = false;
  EXPECT_TRUE(sf::store::load_golden_file(path.toStdString(), set, err, &exists)) << err;
  EXPECT_TRUE(exists) << path.toStdString();
  return set;
}

// No golden set in the preferences: promotions go to the workspace's golden.json.
void useWorkspaceGoldenSets() {
  sf::widgets::AgentSettings a = sf::widgets::agentSettings(false);
  a.goldenFile.clear();
  sf::widgets::setAgentSettings(a);
}

QString lastMessage(const QSignalSpy& spy) {
  return spy.isEmpty() ? QString() : spy.last().at(0).toString();
}

sf::widgets::TraceRow promoteTraceRow(const std::string& task, const std::string& impl, int iteration,
                                      int sample) {
  sf::widgets::TraceRow row;
  row.role = QStringLiteral("proposer");
  row.task = QString::fromStdString(task);
  row.iteration = iteration;
  row.sample = sample;
  auto d = std::make_shared<sf::widgets::TraceDetail>();
  d->impl = QString::fromStdString(impl);
  row.detail = d;
  return row;
}

}  // namespace golden_promote_tests

TEST(GoldenPromote, CampaignFeedCarriesTheModel) {
  sf::widgets::CampaignFeed feed;
  const std::vector<nlohmann::json> events = {
      {{"v", 1},
       {"seq", 0},
       {"t", 1.0},
       {"type", "campaign_started"},
       {"config", {{"name", "demo"}, {"mode", "adaptive"}, {"backend", {{"model", "gpt-test"}}}}}}};
  const sf::widgets::CampaignUpdate u = feed.consume(events);
  EXPECT_EQ(u.name, QStringLiteral("demo"));
  EXPECT_EQ(u.model, QStringLiteral("gpt-test"));
}

TEST(GoldenPromote, TraceRowWithCtrlGPromotesAndRefusesWithTheReason) {
  using namespace golden_promote_tests;
  useWorkspaceGoldenSets();
  QTemporaryDir tmp;
  const QString ws = tmp.path() + QStringLiteral("/ws");
  sf::widgets::TracePane traces;
  sf::widgets::CampaignUpdate u;
  u.reset = true;
  u.dir = ws;
  u.name = QStringLiteral("demo");
  u.model = QStringLiteral("gpt-test");
  u.traceRows = {promoteTraceRow(lt::kCmpA, sf::test_support::solution_impl(lt::kCmpA), 2, 5),
                 promoteTraceRow(lt::kCmpB, lt::kNeoxWrong, 3, 1)};
  u.traceRows[0].cycles = 100;
  u.traceRows[0].speedup = 1.25;
  traces.apply(u);
  EXPECT_TRUE(traces.view()->actions().contains(traces.promoteAction()));  // the context menu entry
  QSignalSpy status(&traces, &sf::widgets::TracePane::statusMessage);
  traces.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&traces));
  traces.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&traces));
  sf::widgets::test::MouseCounter mouse;
  qApp->installEventFilter(&mouse);
  traces.view()->setFocus();
  traces.view()->setCurrentIndex(traces.proxy()->index(0, 0));
  QTest::keyClick(traces.view(), Qt::Key_G, Qt::ControlModifier);
  ASSERT_EQ(status.count(), 1);
  EXPECT_TRUE(lastMessage(status).startsWith(QStringLiteral("promoted rope/gptj_interleaved to ")))
      << lastMessage(status).toStdString();
  const QString file = ws + QStringLiteral("/golden.json");
  auto set = readGoldenSet(file);
  ASSERT_EQ(set.entries.size(), 1u);
  const sf::store::GoldenEntry& e = set.entries[0];
  EXPECT_EQ(e.task, lt::kCmpA);
  const sf::store::GoldenProvenance want{"demo", ws.toStdString(), lt::kCmpA, 2, 5, "gpt-test", "trace"};
  EXPECT_EQ(e.provenance, want);
  EXPECT_EQ(e.cycles, 100);
  EXPECT_EQ(e.speedup, 1.25);
  // The same row again: already there, nothing added.
  QTest::keyClick(traces.view(), Qt::Key_G, Qt::ControlModifier);
  EXPECT_TRUE(lastMessage(status).contains(QStringLiteral("already in")))
      << lastMessage(status).toStdString();
  EXPECT_EQ(readGoldenSet(file).revision, set.revision);
  // A program that does not verify: refused with the reason, the set unchanged.
  QTest::keyClick(traces.view(), Qt::Key_Down);
  QTest::keyClick(traces.view(), Qt::Key_G, Qt::ControlModifier);
  EXPECT_TRUE(
      lastMessage(status).startsWith(QStringLiteral("Not promoted: refused: does not verify: V-MISMATCH")))
      << lastMessage(status).toStdString();
  EXPECT_EQ(readGoldenSet(file).entries.size(), 1u);
  qApp->removeEventFilter(&mouse);
  EXPECT_EQ(mouse.count, 0);
}

TEST(GoldenPromote, ComparisonCellAndSampleWithGPromoteAndRefuseWithTheReason) {
  using namespace golden_promote_tests;
  useWorkspaceGoldenSets();
  QTemporaryDir tmp;
  const std::filesystem::path root = tmp.path().toStdString();
  lt::write_comparison_fixture(root / "base", root / "cand");
  std::vector<sf::widgets::RunRecordPtr> runs;
  for (const char* name : {"base", "cand"}) {
    std::string err;
    auto r = sf::learn::load_run(root / name, err);
    ASSERT_TRUE(r) << err;
    runs.push_back(std::make_shared<const sf::learn::RunRecord>(std::move(*r)));
  }
  sf::widgets::RunComparisonView view;
  view.resize(1200, 800);
  view.setRuns(runs);
  QSignalSpy status(&view, &sf::widgets::RunComparisonView::statusMessage);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&view));
  EXPECT_TRUE(view.grid()->actions().contains(view.promoteCellAction()));
  EXPECT_TRUE(view.samples()->actions().contains(view.promoteSampleAction()));
  sf::widgets::test::MouseCounter mouse;
  qApp->installEventFilter(&mouse);
  QTableView* grid = view.grid();
  grid->setFocus();
  ASSERT_EQ(grid->currentIndex(), view.model()->index(0, 1));  // A in base: its fastest correct program
  QTest::keyClick(grid, Qt::Key_G);
  EXPECT_TRUE(lastMessage(status).startsWith(QStringLiteral("promoted rope/gptj_interleaved to ")))
      << lastMessage(status).toStdString();
  const QString baseGolden = tmp.path() + QStringLiteral("/base/golden.json");
  auto set = readGoldenSet(baseGolden);
  ASSERT_EQ(set.entries.size(), 1u);
  EXPECT_EQ(set.entries[0].impl, sf::test_support::solution_impl(lt::kCmpA));
  const sf::store::GoldenProvenance want{"base", (root / "base").string(), lt::kCmpA, 0, 1, "", "comparison"};
  EXPECT_EQ(set.entries[0].provenance, want);
  EXPECT_EQ(set.entries[0].cycles, 100);
  // B in cand never verified: its last program is refused with the reason.
  QTest::keyClick(grid, Qt::Key_Down);
  QTest::keyClick(grid, Qt::Key_Right);
  QTest::keyClick(grid, Qt::Key_G);
  EXPECT_TRUE(
      lastMessage(status).startsWith(QStringLiteral("Not promoted: refused: does not verify: V-MISMATCH")))
      << lastMessage(status).toStdString();
  EXPECT_FALSE(QFileInfo::exists(tmp.path() + QStringLiteral("/cand/golden.json")));
  // B in base, opened: G in the sample list promotes the current sample (sample 0 fails, iteration 1's
  // passes).
  QTest::keyClick(grid, Qt::Key_Left);
  QTest::keyClick(grid, Qt::Key_Return);
  ASSERT_EQ(view.samples()->rowCount(), 4);
  view.samples()->setFocus();
  QTest::keyClick(view.samples(), Qt::Key_G);
  EXPECT_TRUE(lastMessage(status).startsWith(QStringLiteral("Not promoted: refused: does not verify")))
      << lastMessage(status).toStdString();
  QTest::keyClick(view.samples(), Qt::Key_J);
  QTest::keyClick(view.samples(), Qt::Key_J);
  QTest::keyClick(view.samples(), Qt::Key_G);
  EXPECT_TRUE(lastMessage(status).startsWith(QStringLiteral("promoted rope/neox_halves to ")))
      << lastMessage(status).toStdString();
  set = readGoldenSet(baseGolden);
  ASSERT_EQ(set.entries.size(), 2u);
  const sf::store::GoldenProvenance wantB{"base",      (root / "base").string(), lt::kCmpB, 1, 0, "",
                                          "comparison"};
  EXPECT_EQ(set.entries[1].provenance, wantB);
  EXPECT_TRUE(
      sf::widgets::RunComparisonView::cheatSheetText().contains(QStringLiteral("G — promote to golden")));
  qApp->removeEventFilter(&mouse);
  EXPECT_EQ(mouse.count, 0);
}

TEST(GoldenPromote, EditorProgramWithCtrlAltG) {
  using namespace golden_promote_tests;
  QTemporaryDir tmp;
  sf::widgets::MainWindow w;  // first: a window resets settings of an unknown layout
  sf::widgets::AgentSettings a = sf::widgets::agentSettings(false);
  a.backend = {{"kind", "builtin"}, {"model", "builtin"}};
  a.sessionDir = tmp.path() + QStringLiteral("/session");
  a.goldenFile = tmp.path() + QStringLiteral("/editor-golden.json");
  sf::widgets::setAgentSettings(a);
  ASSERT_TRUE(w.newFromTask(QString::fromStdString(lt::kCmpB)));
  QSignalSpy promoted(w.agentDocks()->runner(), &sf::widgets::AgentRunner::promoted);
  auto* promote = w.agentDocks()->promoteEditorAction();
  ASSERT_NE(promote, nullptr);
  EXPECT_EQ(promote->shortcut(), QKeySequence(QStringLiteral("Ctrl+Alt+G")));
  auto setImpl = [&](const std::string& impl) {
    QString t = w.editor()->text();
    QString body;
    for (const QString& line : QString::fromStdString(impl).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
      body += QStringLiteral("  ") + line + QLatin1Char('\n');
    t.replace(QStringLiteral("impl: |\n  \n"), QStringLiteral("impl: |\n") + body);
    w.setDocument(t);
  };
  // A wrong program: refused with the reason (status bar and signal), no file written.
  const QString fresh = w.editor()->text();
  setImpl(lt::kNeoxWrong);
  promote->trigger();
  ASSERT_TRUE(QTest::qWaitFor([&] { return promoted.count() == 1; }, 30000));
  EXPECT_FALSE(promoted.last().at(0).toBool());
  const QString refused = promoted.last().at(1).toString();
  EXPECT_TRUE(refused.startsWith(QStringLiteral("Not promoted: refused: does not verify: V-MISMATCH")))
      << refused.toStdString();
  EXPECT_EQ(w.statusBar()->currentMessage(), refused);
  EXPECT_FALSE(QFileInfo::exists(a.goldenFile));
  // The reference program: promoted with provenance "editor".
  w.setDocument(fresh);
  setImpl(sf::test_support::solution_impl(lt::kCmpB));
  promote->trigger();
  ASSERT_TRUE(QTest::qWaitFor([&] { return promoted.count() == 2; }, 30000));
  const QString done = promoted.last().at(1).toString();
  EXPECT_TRUE(promoted.last().at(0).toBool()) << done.toStdString();
  EXPECT_TRUE(done.startsWith(QStringLiteral("promoted rope/neox_halves to "))) << done.toStdString();
  const auto set = readGoldenSet(a.goldenFile);
  ASSERT_EQ(set.entries.size(), 1u);
  EXPECT_EQ(set.entries[0].task, lt::kCmpB);
  EXPECT_EQ(set.entries[0].provenance.source, "editor");
  EXPECT_EQ(set.entries[0].provenance.iteration, -1);
}
