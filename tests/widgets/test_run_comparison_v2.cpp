// Run comparison, issue 34 items 5 and the tolerance leftover, issue 33 item 6: each campaign's own tie
// tolerance in the drill-down grid and heat map, the per-task table and the audit pane; the best-speedup curve
// per run (one colour each, on the chart's axes); the comparison table's Task column and rows at 1366x768 and
// 1920x1080 in the main window.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QChart>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineSeries>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "tests/support/run_fixture_programs.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/comparison_model.hpp"
#include "widgets/campaign/comparison_pane.hpp"
#include "widgets/campaign/run_comparison_view.hpp"
#include "widgets/campaign/run_speedup_chart.hpp"
#include "widgets/main_window.hpp"

namespace {

using namespace sf::widgets;
namespace lt = sf::learn::testing;

// One task, one sample that passes at `speedup`, in a workspace whose config sets `fast_tolerance`.
RunRecordPtr oneWinRun(const std::filesystem::path& dir, double tolerance, double speedup) {
  lt::FixtureLog log;
  lt::start_fixture_log(log, dir, {{"name", "tol"}, {"mode", "adaptive"}, {"n", 1}, {"fast_tolerance", tolerance}},
                        {lt::kCmpA});
  if (!log.ws) return nullptr;
  sf::learn::IterationStarted is;
  is.temperatures = {0.5};
  is.n = 1;
  is.tasks = {lt::kCmpA};
  log.put(is);
  sf::learn::Verdict v;
  v.task = lt::kCmpA;
  v.pass = true;
  v.impl = "return E0\n";
  v.cycles = 97;
  v.speedup = speedup;
  v.feasible = true;
  log.put(v);
  sf::learn::IterationSummary sum;
  sf::learn::TaskResult tr;
  tr.task = lt::kCmpA;
  tr.c = 1;
  tr.c_by_temperature = {1};
  tr.newly_solved = true;
  tr.best_impl = v.impl;
  sum.results = {tr};
  sum.newly_solved = 1;
  log.put(sum);
  std::string err;
  auto r = sf::learn::load_run(dir, err);
  EXPECT_TRUE(r) << err;
  return r ? std::make_shared<const sf::learn::RunRecord>(std::move(*r)) : nullptr;
}

TEST(ComparisonTolerance, ACampaignsOwnToleranceMakesA103WinATie) {
  QTemporaryDir tmp;
  const std::filesystem::path root = tmp.path().toStdString();
  auto loose = oneWinRun(root / "loose", 0.05, 1.03);
  auto strict = oneWinRun(root / "strict", 0.01, 1.03);
  ASSERT_TRUE(loose && strict);
  EXPECT_DOUBLE_EQ(loose->fast_tolerance, 0.05);

  // The drill-down grid and its heat map: each run's own tolerance.
  RunGridModel grid;
  QAbstractItemModelTester tester(&grid, QAbstractItemModelTester::FailureReportingMode::Fatal);
  grid.setRuns({loose, strict});
  grid.setMetric(RunGridModel::Metric::BestSpeedup);
  EXPECT_EQ(grid.index(0, 1).data().toString(), QStringLiteral("✔ tie (1.03×)"));
  EXPECT_EQ(grid.index(0, 2).data().toString(), QStringLiteral("✔ 1.03×"));
  EXPECT_TRUE(grid.index(0, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("no faster program")));
  // The tie is coloured as 1x, the win as the best cell.
  EXPECT_DOUBLE_EQ(grid.index(0, 1).data(RunGridModel::HeatRole).toDouble(), 0.0);
  EXPECT_DOUBLE_EQ(grid.index(0, 2).data(RunGridModel::HeatRole).toDouble(), 1.0);

  // The drill-down's sample list of the cell.
  RunComparisonView view;
  view.setRuns({loose, strict});
  ASSERT_TRUE(view.openCell(view.model()->index(0, 1)));
  ASSERT_EQ(view.samples()->rowCount(), 1);
  EXPECT_EQ(view.samples()->item(0, 6)->text(), QStringLiteral("tie (1.03×)"));

  // The per-task table.
  CampaignSummary a, b;
  a.dir = QStringLiteral("/runs/loose");
  a.name = QStringLiteral("tol");
  a.fastTolerance = 0.05;
  a.tasks = {{QString::fromStdString(lt::kCmpA), true, 1, 1, 1.03}};
  b = a;
  b.dir = QStringLiteral("/runs/strict");
  b.fastTolerance = 0.01;
  ComparisonTaskModel tasks;
  tasks.setCampaigns({a, b});
  EXPECT_EQ(tasks.index(0, 1).data().toString(), QStringLiteral("✔ 1/1 (100%) · no faster program"));
  EXPECT_EQ(tasks.index(0, 2).data().toString(), QStringLiteral("✔ 1/1 (100%) · 1.03×"));
  EXPECT_TRUE(tasks.index(0, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("tie (1.03×)")));
  EXPECT_TRUE(tasks.index(0, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("at least 5%")));
  EXPECT_EQ(tasks.headerData(1, Qt::Horizontal).toString(), QStringLiteral("loose · tol"));  // folder · config

  // The audit pane: the tolerance of the campaign_started event.
  AuditModel audit;
  auto put = [&](sf::learn::EventBody body) {
    sf::learn::Event e;
    e.body = std::move(body);
    audit.applyEvent(e);
  };
  sf::learn::AdoptionRecord rec;
  rec.task = lt::kCmpA;
  rec.round = 1;
  rec.item = "e1";
  rec.adopted = true;
  put(rec);
  sf::learn::Verdict v;
  v.task = lt::kCmpA;
  v.sample_index = 1;
  v.pass = true;
  v.speedup = 1.03;
  v.feasible = true;
  put(v);
  ASSERT_EQ(audit.rowCount(), 1);
  const QModelIndex cell = audit.index(0, AuditModel::SpeedupColumn);
  EXPECT_EQ(cell.data().toString(), QStringLiteral("1.03×"));  // the default 1%
  sf::learn::CampaignStarted started;
  started.config = {{"mode", "sage"}, {"fast_tolerance", 0.05}};
  put(started);
  EXPECT_EQ(cell.data().toString(), QStringLiteral("tie (1.03×)"));
}

// Issue 33 item 6: one best-speedup curve per run, each in its own colour, on the chart's two axes.
TEST(RunSpeedupCurves, TwoRunsTwoColouredSeriesOnTheAxes) {
  QTemporaryDir tmp;
  std::vector<RunRecordPtr> runs;
  for (auto& r : lt::load_comparison_pair(tmp.path().toStdString()))
    runs.push_back(std::make_shared<const sf::learn::RunRecord>(std::move(r)));
  ASSERT_EQ(runs.size(), 2u);
  RunSpeedupChart chart;
  EXPECT_FALSE(chart.emptyText().isEmpty());
  chart.setRuns(runs);
  const auto series = chart.runSeries();
  ASSERT_EQ(series.size(), 2);
  EXPECT_EQ(series[0]->name(), QStringLiteral("base"));
  EXPECT_EQ(series[1]->name(), QStringLiteral("cand"));
  EXPECT_NE(series[0]->pen().color(), series[1]->pen().color());
  EXPECT_NE(series[0]->pen().color(), chart.baselineSeries()->pen().color());
  for (QLineSeries* s : series) {
    const auto axes = s->attachedAxes();
    EXPECT_EQ(axes.size(), 2);
    EXPECT_TRUE(axes.contains(chart.xAxis()));
    EXPECT_TRUE(axes.contains(chart.yAxis()));
    EXPECT_EQ(chart.chart()->axes(Qt::Horizontal, s), QList<QAbstractAxis*>{chart.xAxis()});
  }
  EXPECT_EQ(chart.xAxis()->alignment(), Qt::AlignBottom);
  EXPECT_EQ(chart.yAxis()->alignment(), Qt::AlignLeft);
  // base as a step curve: 1.2x from sample 2, 1.15x from sample 7 to the last (8).
  const QList<QPointF> base = {{2, 1.2}, {7, 1.2}, {7, 1.15}, {8, 1.15}};
  EXPECT_EQ(series[0]->points(), base);
  // The legend names each run (and the baseline).
  EXPECT_TRUE(chart.chart()->legend()->isVisible());
  EXPECT_EQ(chart.chart()->legend()->markers(series[1]).size(), 1);
  EXPECT_TRUE(chart.emptyText().isEmpty());
  EXPECT_GE(chart.yAxis()->max(), 1.5);
  EXPECT_LE(chart.yAxis()->min(), 1.0);
}

// 26 tasks in two runs (the longest id well wider than the default column).
QVector<CampaignSummary> twentySixTasks() {
  QVector<CampaignSummary> out;
  for (const char* dir : {"/runs/demo-a", "/runs/demo-b"}) {
    CampaignSummary s;
    s.dir = QString::fromLatin1(dir);
    s.name = QStringLiteral("demo");
    for (int i = 0; i < 26; ++i)
      s.tasks.push_back({i == 13 ? QStringLiteral("moe_index/expert_choice_top3_with_a_long_name")
                                 : QStringLiteral("group_%1/task_%2").arg(i % 5).arg(i),
                         i % 3 == 0, 4, i % 3 == 0 ? 2 : 0, std::nullopt});
    s.taskCount = 26;
    out << s;
  }
  return out;
}

// Rows of `v` whose whole height is on screen (not scrolled away, not clipped by the dock's scroll area).
int rowsFullyShown(QTableView* v) {
  const QRect shown = v->viewport()->visibleRegion().boundingRect();
  int n = 0;
  for (int r = 0; r < v->model()->rowCount(); ++r) {
    const int y = v->rowViewportPosition(r);
    if (y >= shown.top() && y + v->rowHeight(r) <= shown.bottom() + 1) ++n;
  }
  return n;
}

// Issue 34 item 5: the Task column is as wide as its longest task id; the table takes the dock's height, which
// Compare makes most of the window's, so at 1920x1080 all 26 rows show and at 1366x768 as many as fit.
TEST(ComparisonTableGeometry, TaskColumnFitsAndRowsFillTheDock) {
  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
    SCOPED_TRACE(size.width());
    MainWindow w;
    w.resize(size);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ComparisonPane* pane = w.campaignDocks()->comparisonPane();
    pane->setCampaigns(twentySixTasks());
    w.campaignDocks()->showComparison();
    pane->tabs()->setCurrentIndex(ComparisonPane::TasksTab);
    // The dock grows in steps (its scroll area drops its scroll bar after the layout settles).
    for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
    QTableView* table = pane->taskTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->model()->rowCount(), 26);

    const QFontMetrics fm(table->font());
    EXPECT_GE(table->columnWidth(0), fm.horizontalAdvance(QStringLiteral("moe_index/expert_choice_top3_with_a_long_name")));

    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("ComparisonDock"));
    ASSERT_TRUE(dock);
    EXPECT_GE(dock->height(), w.height() / 2);
    // Nothing of the table is cut by the dock: the pane fits, and the table takes the height below the tabs.
    EXPECT_EQ(table->viewport()->visibleRegion().boundingRect(), table->viewport()->rect());
    const int tableBottom = table->mapTo(dock, QPoint(0, table->height())).y();
    EXPECT_GE(tableBottom, dock->height() - 16);
    const int fits = table->viewport()->height() / table->rowHeight(0);
    EXPECT_GE(rowsFullyShown(table), std::min(26, fits));
    if (size.height() >= 1080) {
      EXPECT_EQ(rowsFullyShown(table), 26);
    } else {
      EXPECT_GE(rowsFullyShown(table), 10);
    }
  }
}

}  // namespace
