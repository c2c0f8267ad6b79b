// Run comparison drill-down (issue 20 items 1, 4): the grid of a fixture workspace pair under the model
// tester, "only differing", baseline deltas, a drill-down and program diffs (renamed streams, outputs vs the
// reference) driven by key events only.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "test_support.hpp"
#include "tests/support/run_fixture_programs.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "widgets/campaign/episode_lineage_view.hpp"
#include "widgets/editor/program_diff_view.hpp"
#include "widgets/campaign/trace_pane.hpp"
#include "widgets/campaign/run_comparison_view.hpp"

namespace {

using sf::widgets::RunComparisonView;
using sf::widgets::RunGridModel;
using sf::widgets::RunRecordPtr;
namespace lt = sf::learn::testing;

std::vector<RunRecordPtr> loadComparisonPair(const QTemporaryDir& tmp) {
  std::vector<RunRecordPtr> runs;
  for (auto& r : lt::load_comparison_pair(tmp.path().toStdString()))
    runs.push_back(std::make_shared<const sf::learn::RunRecord>(std::move(r)));
  return runs;
}

QString cellText(const RunGridModel* m, int row, int col) { return m->index(row, col).data().toString(); }

}  // namespace

TEST(RunComparisonGrid, NumbersOnlyDifferingAndBaselineDeltas) {
  QTemporaryDir tmp;
  RunGridModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRuns(loadComparisonPair(tmp));
  ASSERT_EQ(model.rowCount(), 3);
  ASSERT_EQ(model.columnCount(), 3);
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("base"));
  EXPECT_EQ(model.task(0), lt::kCmpA);
  // pass@1 (the default metric)
  EXPECT_DOUBLE_EQ(model.index(0, 1).data(RunGridModel::ValueRole).toDouble(), 0.5);
  EXPECT_DOUBLE_EQ(model.index(0, 2).data(RunGridModel::ValueRole).toDouble(), 1.0);
  EXPECT_EQ(cellText(&model, 0, 1), QStringLiteral("✔ 0.50"));
  EXPECT_EQ(cellText(&model, 1, 2), QStringLiteral("✘ 0.00"));
  // Heat: the best pass@1 is green (1), the worst red (0).
  EXPECT_DOUBLE_EQ(model.index(0, 2).data(RunGridModel::HeatRole).toDouble(), 1.0);
  EXPECT_DOUBLE_EQ(model.index(1, 2).data(RunGridModel::HeatRole).toDouble(), 0.0);
  model.setMetric(RunGridModel::Metric::SamplesToFirstCorrect);
  EXPECT_EQ(model.index(1, 1).data(RunGridModel::ValueRole).toInt(), 3);
  EXPECT_FALSE(model.index(1, 2).data(RunGridModel::ValueRole).isValid());  // never correct
  EXPECT_DOUBLE_EQ(model.index(0, 2).data(RunGridModel::HeatRole).toDouble(), 1.0);  // fewer is better
  model.setMetric(RunGridModel::Metric::Tokens);
  EXPECT_EQ(model.index(1, 1).data(RunGridModel::ValueRole).toInt(), 600);
  model.setMetric(RunGridModel::Metric::Cost);
  EXPECT_NEAR(model.index(0, 1).data(RunGridModel::ValueRole).toDouble(), 0.02, 1e-12);
  model.setMetric(RunGridModel::Metric::BestSpeedup);
  EXPECT_EQ(cellText(&model, 0, 2), QStringLiteral("✔ 1.50×"));
  EXPECT_FALSE(model.index(2, 1).data(RunGridModel::ValueRole).isValid());  // no cost model for C
  model.setMetric(RunGridModel::Metric::Status);
  EXPECT_EQ(cellText(&model, 1, 1), QStringLiteral("✔"));
  EXPECT_EQ(cellText(&model, 1, 2), QStringLiteral("✘"));
  // Deltas against the baseline "base".
  model.setMetric(RunGridModel::Metric::Pass1);
  model.setBaseline(0);
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("base (baseline)"));
  EXPECT_FALSE(model.index(0, 1).data(RunGridModel::DeltaRole).isValid());
  EXPECT_DOUBLE_EQ(model.index(0, 2).data(RunGridModel::DeltaRole).toDouble(), 0.5);
  EXPECT_EQ(cellText(&model, 0, 2), QStringLiteral("✔ 1.00 (+0.50)"));
  EXPECT_EQ(cellText(&model, 1, 2), QStringLiteral("✘ 0.00 (−1.00)"));
  // Only the tasks that differ: A (pass@1) and B (solved), not C.
  model.setOnlyDiffering(true);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.task(0), lt::kCmpA);
  EXPECT_EQ(model.task(1), lt::kCmpB);
  EXPECT_EQ(model.rowOfTask(lt::kCmpC), -1);
  model.setOnlyDiffering(false);
  EXPECT_EQ(model.rowCount(), 3);
}

TEST(RunComparisonGrid, DiffOfRenamedStreamsIsIdenticalInCanonicalForm) {
  sf::widgets::ProgramDiffView view;
  view.setTexts(QString::fromStdString(sf::test_support::solution_impl(lt::kCmpA)),
                QString::fromStdString(lt::kGptjRenamed));
  EXPECT_FALSE(view.stats().identical());  // P, Z renamed to Pos, Zipped
  view.setCanonical(true);
  EXPECT_TRUE(view.stats().identical()) << view.summaryText().toStdString();
  view.setTexts(QString::fromStdString(sf::test_support::solution_impl(lt::kCmpB)),
                QString::fromStdString(lt::kNeoxWrong));
  EXPECT_FALSE(view.stats().identical());  // a real change survives the canonical form
}

TEST(RunComparisonGrid, DrillDownAndDiffWithKeyEventsOnly) {
  QTemporaryDir tmp;
  RunComparisonView view;
  view.resize(1200, 800);
  view.setRuns(loadComparisonPair(tmp));
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  sf::widgets::test::MouseCounter mouse;
  qApp->installEventFilter(&mouse);
  QTableView* grid = view.grid();
  grid->setFocus();
  ASSERT_EQ(grid->currentIndex(), view.model()->index(0, 1));  // A in base
  // Enter: base's samples of A (fail, pass), with the proposer call.
  QTest::keyClick(grid, Qt::Key_Return);
  EXPECT_EQ(view.detailTabs()->currentIndex(), 0);
  ASSERT_EQ(view.samples()->rowCount(), 2);
  EXPECT_EQ(view.samples()->item(0, 4)->text(), QStringLiteral("fail: verify V-MISMATCH"));
  EXPECT_TRUE(view.callsText()->toPlainText().contains(QStringLiteral("write rope/gptj_interleaved")));
  QTest::keyClick(grid, Qt::Key_J);  // the passing sample: its program and outputs
  EXPECT_EQ(view.samples()->currentRow(), 1);
  EXPECT_TRUE(view.programText()->toPlainText().contains(QStringLiteral("fn_gptjrope")));
  EXPECT_TRUE(view.sampleOutputs()->text().contains(QStringLiteral("(verifies)")));
  QTest::keyClick(grid, Qt::Key_K);
  EXPECT_EQ(view.samples()->currentRow(), 0);
  // Space marks A/base, Right, D: the renamed-streams program of cand against base's.
  QTest::keyClick(grid, Qt::Key_Space);
  EXPECT_TRUE(view.marked().isValid());
  QTest::keyClick(grid, Qt::Key_Right);
  QTest::keyClick(grid, Qt::Key_D);
  EXPECT_EQ(view.detailTabs()->currentIndex(), 1);
  EXPECT_EQ(view.diffView()->comparedNew(), QString::fromStdString(lt::kGptjRenamed));
  EXPECT_FALSE(view.diffView()->stats().identical());
  QTest::keyClick(grid, Qt::Key_C);  // canonical form: the renames vanish
  EXPECT_TRUE(view.diffView()->canonical());
  EXPECT_TRUE(view.diffView()->stats().identical());
  QTest::keyClick(grid, Qt::Key_C);
  // B: base becomes the baseline (Left back to base), F: only differing; Down to B, D diffs against the baseline.
  QTest::keyClick(grid, Qt::Key_Left);
  QTest::keyClick(grid, Qt::Key_B);
  EXPECT_EQ(view.model()->baseline(), 0);
  QTest::keyClick(grid, Qt::Key_Space);  // clear the mark
  EXPECT_FALSE(view.marked().isValid());
  QTest::keyClick(grid, Qt::Key_F);
  EXPECT_TRUE(view.model()->onlyDiffering());
  EXPECT_EQ(view.model()->rowCount(), 2);
  QTest::keyClick(grid, Qt::Key_Down);
  QTest::keyClick(grid, Qt::Key_Right);
  EXPECT_EQ(view.model()->task(grid->currentIndex().row()), lt::kCmpB);
  QTest::keyClick(grid, Qt::Key_D);
  EXPECT_EQ(view.diffView()->comparedNew(), QString::fromStdString(lt::kNeoxWrong));
  EXPECT_TRUE(view.leftOutputs()->text().contains(QStringLiteral("(verifies)")));
  EXPECT_TRUE(view.rightOutputs()->text().contains(QStringLiteral("479 of 560 values differ")))
      << view.rightOutputs()->text().toStdString();
  EXPECT_TRUE(view.rightOutputs()->text().contains(QStringLiteral("first mismatch [0, 0] element 0 (seed 42, sizes)")));
  if (const QByteArray shots = qgetenv("SF_SCREENSHOT_DIR"); !shots.isEmpty())
    view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/run_comparison.png"));
  QTest::keyClick(grid, Qt::Key_N);  // next change
  EXPECT_GE(view.diffView()->currentHunk(), 0);
  // M cycles the metric, Shift+M back.
  QTest::keyClick(grid, Qt::Key_M);
  EXPECT_EQ(view.model()->metric(), RunGridModel::Metric::SamplesToFirstCorrect);
  QTest::keyClick(grid, Qt::Key_M, Qt::ShiftModifier);
  EXPECT_EQ(view.model()->metric(), RunGridModel::Metric::Pass1);
  // ? shows the cheat sheet, which lists every key.
  QTest::keyClick(grid, Qt::Key_Question, Qt::ShiftModifier);
  ASSERT_NE(view.cheatSheet(), nullptr);
  EXPECT_TRUE(view.cheatSheet()->isVisible());
  for (const char* key : {"Enter —", "J / K —", "Space —", "D —", "C —", "N / P —", "F —", "B —", "M / Shift+M —",
                          "Esc —", "? / F1 —"})
    EXPECT_TRUE(RunComparisonView::cheatSheetText().contains(QString::fromUtf8(key))) << key;
  qApp->removeEventFilter(&mouse);
  EXPECT_EQ(mouse.count, 0);
}

TEST(EpisodeLineageView, ChainFromTheAuditPaneAndTheTracePaneWithKeysOnly) {
  QTemporaryDir tmp;
  const QString dir = tmp.path() + QStringLiteral("/sage");
  lt::write_sage_fixture(dir.toStdString(), lt::kCmpB, lt::kNeoxWrong,
                         sf::test_support::solution_impl(lt::kCmpB));
  sf::widgets::test::MouseCounter mouse;
  qApp->installEventFilter(&mouse);
  // Audit pane: L on a record of episode 0 opens its lineage.
  sf::widgets::AuditPane pane;
  pane.resize(900, 600);
  ASSERT_TRUE(pane.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  pane.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&pane));
  QTest::keyClick(pane.table(), Qt::Key_L);
  auto* v = pane.findChild<sf::widgets::EpisodeLineageView*>();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->lineage().episode, 0);
  ASSERT_EQ(v->steps()->count(), 3);
  EXPECT_EQ(v->steps()->item(0)->text(),
            QStringLiteral("Round 0 → program → fail: numeric V-MISMATCH → adopted mem-1 (+3 −0)"));
  EXPECT_EQ(v->steps()->item(1)->text(), QStringLiteral("Round 1 → no program → fail: llm no-program → adopted – (+0 −3)"));
  EXPECT_TRUE(v->stepText()->text().contains(QStringLiteral("Retrieved: mem-1, mem-2 · adopted: mem-1")));
  // J twice: round 2's diff is round 0's program (round 1 had none) against the passing one.
  QTest::keyClick(v->steps(), Qt::Key_J);
  QTest::keyClick(v->steps(), Qt::Key_J);
  EXPECT_EQ(v->steps()->currentRow(), 2);
  EXPECT_EQ(v->diffView()->comparedOld(), QString::fromStdString(lt::kNeoxWrong));
  EXPECT_TRUE(v->diffView()->comparedNew().contains(QStringLiteral("fn_neoxrope")));
  EXPECT_TRUE(v->stepText()->text().contains(QStringLiteral("pass · 500 cycles · 1.25×")));
  QTest::keyClick(v->steps(), Qt::Key_K);
  EXPECT_EQ(v->steps()->currentRow(), 1);
  QTest::keyClick(v->steps(), Qt::Key_Question, Qt::ShiftModifier);
  ASSERT_NE(v->cheatSheet(), nullptr);
  EXPECT_TRUE(v->cheatSheet()->isVisible());
  EXPECT_TRUE(sf::widgets::AuditPane::cheatSheetText().contains(QStringLiteral("L / Ctrl+L")));
  // Trace pane: Ctrl+L asks for the lineage of the selected call's episode.
  sf::widgets::TracePane traces;
  sf::widgets::CampaignUpdate u;
  u.reset = true;
  sf::widgets::TraceRow row;
  row.role = QStringLiteral("proposer");
  row.task = QString::fromStdString(lt::kCmpB);
  row.iteration = 0;
  row.sample = 2;
  u.traceRows = {row};
  traces.apply(u);
  traces.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&traces));
  traces.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&traces));
  traces.view()->setFocus();
  traces.view()->setCurrentIndex(traces.proxy()->index(0, 0));
  int asked = -1;
  QObject::connect(&traces, &sf::widgets::TracePane::lineageRequested, &traces, [&](int ep) { asked = ep; });
  QTest::keyClick(traces.view(), Qt::Key_L, Qt::ControlModifier);
  EXPECT_EQ(asked, 0);
  qApp->removeEventFilter(&mouse);
  EXPECT_EQ(mouse.count, 0);
  // A campaign that is not sage has no lineage: the reason comes back.
  QString error;
  const std::filesystem::path root = tmp.path().toStdString();
  lt::write_comparison_fixture(root / "base", root / "cand");
  EXPECT_EQ(sf::widgets::showEpisodeLineage(nullptr, tmp.path() + QStringLiteral("/base"), 0, &error), nullptr);
  EXPECT_EQ(error, QStringLiteral("not a sage campaign: episode lineage needs mode sage"));
}
