// The cost model in the workbench: the engine's optional per-unit timeline (hand-worked Map chain, bucket
// totals equal to the unit totals, bounded buckets), the Performance pane after Verify (totals, unit table
// with the bottleneck, timeline, click-through to the editor, a failing program shows why and no numbers),
// the status bar, the chip profile preference, and the dataflow graph's cost overlay.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QGraphicsItem>
#include <QDockWidget>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <numeric>

#include "core/bench/catalogue.hpp"
#include "core/cost/cost_model.hpp"
#include "core/cost/engine.hpp"
#include "test_support.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/engine/engine_jobs.hpp"
#include "widgets/inspect/graph_view.hpp"
#include "widgets/main_window.hpp"
#include "widgets/editor/performance_pane.hpp"
#include "widgets/settings_dialog.hpp"
#include "widgets/editor/step_editor.hpp"

using namespace sf;
using namespace sf::widgets;

namespace {

// The toy task of docs/cost-model.md example 1 (E0 fp32 [N=4]).
step::TaskDoc mapChainTask() {
  const std::string text =
      "dialect: step-v1\nid: toy/cost\ngroup: toy\ntitle: t\ndescription: d\nsizes: {N: 4}\ninputs:\n"
      "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\nfns:\n"
      "  - {func_name: fn_neg, name: Neg, input_dtype: fp32, output_dtype: fp32, body: \"return -in0\\n\"}\n"
      "outputs:\n  - {name: S0, dtype: fp32, dims: [N]}\nreference: |\n  return E0\n";
  Diagnostics d;
  auto t = step::load_task_text(text, "toy.yaml", d);
  EXPECT_TRUE(t.has_value());
  return t ? *t : step::TaskDoc{};
}

std::optional<cost::CostReport> evalText(const step::TaskDoc& task, const std::string& impl, int buckets) {
  auto cr = verify::check_program(task, impl, {});
  EXPECT_TRUE(cr.ok());
  if (!cr.ok()) return std::nullopt;
  cost::CostModel m;
  Diagnostics d;
  cost::EvalOptions o;
  o.timeline_buckets = buckets;
  return buckets > 0 ? m.evaluate(task, *cr.program, *cr.typed, d, o) : m.evaluate(task, *cr.program, *cr.typed, d);
}

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

// Verifies the window's document and returns the snapshot.
VerifySnapshot verifyNow(MainWindow& w) {
  QSignalSpy verified(&w, &MainWindow::verified);
  w.verifyProgram();
  EXPECT_TRUE(verified.wait(120000));
  return verified.isEmpty() ? VerifySnapshot{} : verified.at(0).at(0).value<VerifySnapshot>();
}

}  // namespace

TEST(CostTimeline, MapChainBucketsMatchTheHandWorkedExample) {
  auto t = mapChainTask();
  const std::string impl = "A = step.Map(fn=fn_neg).apply(E0)\nB = step.Map(fn=fn_neg).apply(A)\nreturn B\n";
  auto plain = evalText(t, impl, 0);
  auto r = evalText(t, impl, 64);
  ASSERT_TRUE(plain && r);
  EXPECT_EQ(plain->timeline_bucket_cycles, 0);  // not recorded unless asked
  EXPECT_TRUE(plain->units[0].timeline_busy.empty());
  EXPECT_EQ(r->cycles, 42);  // the timeline changes nothing
  ASSERT_EQ(r->timeline_bucket_cycles, 1);  // 42 cycles fit 64 buckets of one cycle
  const cost::UnitReport* a = nullptr;
  for (const auto& u : r->units)
    if (u.primitive == "Map" && u.name == "A") a = &u;
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->timeline_busy.size(), 42u);
  // Map A receives element e at 18 + e and is busy 1 cycle: cycles 18..21. It waited for input 0..18.
  for (int c = 0; c < 42; ++c) EXPECT_EQ(a->timeline_busy[static_cast<std::size_t>(c)], c >= 18 && c <= 21 ? 1 : 0) << c;
  EXPECT_EQ(sum(std::vector<std::int64_t>(a->timeline_stalled.begin(), a->timeline_stalled.begin() + 18)), 18);
  for (std::size_t i = 0; i < r->units.size(); ++i) {
    EXPECT_EQ(r->units[i].busy, plain->units[i].busy);
    EXPECT_EQ(r->units[i].stall_in, plain->units[i].stall_in);
  }
}

TEST(CostTimeline, BucketsStayBoundedAndSumToTheUnitTotals) {
  bench::Catalogue cat = [] {
    Diagnostics d;
    return bench::Catalogue::load(bench::resource_dir(), d);
  }();
  const QString file = QStringLiteral(SF_SOURCE_DIR "/resources/solutions/norm/rmsnorm_streaming.yaml");
  QFile f(file);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  Diagnostics d;
  auto p = inspect::load_and_check(f.readAll().toStdString(), file.toStdString(), &cat, d);
  ASSERT_TRUE(p && p->result.ok());
  cost::CostModel m;
  for (int buckets : {7, 120}) {
    cost::EvalOptions o;
    o.timeline_buckets = buckets;
    Diagnostics dd;
    auto r = m.evaluate(p->task, *p->result.program, *p->result.typed, dd, o);
    ASSERT_TRUE(r);
    const std::int64_t w = r->timeline_bucket_cycles;
    ASSERT_GT(w, 0);
    for (const auto& u : r->units) {
      const auto n = static_cast<std::int64_t>(u.timeline_busy.size());
      EXPECT_LE(n, buckets);
      EXPECT_GT(n, buckets / 2);
      EXPECT_GE(n * w, r->cycles);
      EXPECT_LT((n - 1) * w, r->cycles);
      EXPECT_EQ(sum(u.timeline_busy), u.busy) << u.primitive << " " << u.name;
      EXPECT_EQ(sum(u.timeline_stalled), u.stall_in + u.blocked_out) << u.primitive << " " << u.name;
      for (std::size_t b = 0; b < u.timeline_busy.size(); ++b)
        EXPECT_LE(u.timeline_busy[b] + u.timeline_stalled[b], w);  // a unit is one thing at a time
    }
  }
}

TEST(PerformancePane, ShowsTheReportAfterVerifyAndJumpsToTheUnitsLine) {
  QSettings().remove(QLatin1String(kChipKey));
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.setDocument(test::demoWith());
  auto s = verifyNow(w);
  ASSERT_TRUE(s.pass);
  ASSERT_TRUE(s.perf && s.perf->ok && s.perf->report);
  const cost::CostReport& r = *s.perf->report;
  EXPECT_EQ(s.perf->chip, QStringLiteral("default"));
  ASSERT_TRUE(s.perf->baselineCycles.has_value());
  ASSERT_TRUE(s.perf->speedup.has_value());
  EXPECT_NEAR(*s.perf->speedup, double(*s.perf->baselineCycles) / double(r.cycles), 1e-9);

  PerformancePane* pane = w.performancePane();
  ASSERT_NE(pane, nullptr);
  EXPECT_TRUE(pane->messageText().isEmpty());
  const QString totals = pane->totalsText();
  EXPECT_TRUE(totals.contains(QString::number(r.cycles))) << totals.toStdString();
  EXPECT_TRUE(totals.contains(formatSpeedup(*s.perf->speedup))) << totals.toStdString();
  EXPECT_TRUE(totals.contains(QString::number(r.onchip_bytes)));
  EXPECT_TRUE(totals.contains(QString::number(r.flops)));
  EXPECT_TRUE(totals.contains(QStringLiteral("feasible")));

  PerfUnitsModel* m = pane->unitsModel();
  QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_EQ(m->rowCount(), static_cast<int>(r.units.size()));
  ASSERT_GE(r.bottleneck, 0);
  // Every unit tied for the most busy cycles is marked (issue 34 item 6: ties are not silent).
  const std::int64_t most = r.units[static_cast<std::size_t>(r.bottleneck)].busy;
  int marked = 0, tied = 0;
  for (int i = 0; i < m->rowCount(); ++i) {
    const bool b = m->index(i, 0).data(PerfUnitsModel::BottleneckRole).toBool();
    marked += b;
    tied += r.units[static_cast<std::size_t>(i)].busy == most;
    EXPECT_EQ(b, r.units[static_cast<std::size_t>(i)].busy == most);
    EXPECT_EQ(m->index(i, PerfUnitsModel::Busy).data().toString(), QString::number(r.units[static_cast<std::size_t>(i)].busy));
  }
  EXPECT_EQ(marked, tied);
  EXPECT_TRUE(m->index(r.bottleneck, 0).data(PerfUnitsModel::BottleneckRole).toBool());
  if (tied > 1) EXPECT_TRUE(pane->boundText().contains(QStringLiteral(" tie"))) << pane->boundText().toStdString();
  EXPECT_EQ(m->index(r.bottleneck, PerfUnitsModel::Busy).data(Qt::BackgroundRole).value<QColor>(),
            PerfUnitsModel::bottleneckColor());

  // Click-through: the row of the Accum (statement "E7 = step.Accum…") puts the cursor on its line.
  const int accumLine = test::lineOf(w.editor()->text(), QStringLiteral("E7 = step.Accum"));
  int row = -1;
  for (int i = 0; i < m->rowCount(); ++i)
    if (m->index(i, PerfUnitsModel::Primitive).data().toString() == QStringLiteral("Accum")) row = i;
  ASSERT_GE(row, 0);
  EXPECT_EQ(m->index(row, 0).data(PerfUnitsModel::LineRole).toInt(), accumLine);
  QSignalSpy jumped(pane, &PerformancePane::lineActivated);
  QTableView* view = pane->unitsView();
  emit view->clicked(m->index(row, PerfUnitsModel::Stream));
  ASSERT_EQ(jumped.size(), 1);
  int line = -1, col = -1;
  w.editor()->getCursorPosition(&line, &col);
  EXPECT_EQ(line + 1, accumLine);
  // The timeline: one row per unit; a click on a row emits the same jump.
  PerfTimeline* tl = pane->timeline();
  EXPECT_EQ(tl->unitAt(tl->rowRect(row).center().y()), row);
  QSignalSpy clicked(tl, &PerfTimeline::unitClicked);
  // Status bar: cycles and speedup.
  EXPECT_TRUE(w.statusPerfText().contains(QString::number(r.cycles))) << w.statusPerfText().toStdString();
  EXPECT_TRUE(w.statusPerfText().contains(formatSpeedup(*s.perf->speedup)));

  // Render the pane (the dock raised) and check the timeline draws busy (green) pixels on the bottleneck row.
  if (auto* d = w.findChild<QDockWidget*>(QStringLiteral("PerformanceDock"))) d->raise();
  QApplication::processEvents();
  const QImage img = tl->grab().toImage();
  ASSERT_FALSE(img.isNull());
  const QRect br = tl->rowRect(r.bottleneck);
  int green = 0;
  for (int x = PerfTimeline::kLabelWidth; x < img.width(); ++x)
    for (int y = br.top(); y < br.bottom(); ++y)
      if (QColor(img.pixel(x, y)) == PerfTimeline::busyColor()) ++green;
  EXPECT_GT(green, 20);
  if (qEnvironmentVariableIsSet("SF_SCREENSHOT_DIR")) {
    w.saveScreenshot(qEnvironmentVariable("SF_SCREENSHOT_DIR") + QStringLiteral("/perf_window.png"));
    pane->grab().save(qEnvironmentVariable("SF_SCREENSHOT_DIR") + QStringLiteral("/perf_pane.png"));
  }
  QTest::mouseClick(tl, Qt::LeftButton, {}, tl->rowRect(row).center());
  EXPECT_EQ(clicked.size(), 1);
  EXPECT_EQ(jumped.size(), 2);

  // Editing the program marks the report stale.
  w.editor()->setCursorPosition(0, 0);
  w.editor()->insert(QStringLiteral("# edit\n"));
  EXPECT_TRUE(pane->messageText().contains(QStringLiteral("changed"))) << pane->messageText().toStdString();
}

TEST(PerformancePane, AProgramThatDoesNotVerifyShowsWhyAndNoNumbers) {
  MainWindow w;
  // fn_mul instead of fn_add in the reduction: statically fine, numerically wrong.
  w.setDocument(test::demoWith(QStringLiteral("step.Accum(fn=fn_add"), QStringLiteral("step.Accum(fn=fn_mul")));
  auto s = verifyNow(w);
  ASSERT_FALSE(s.pass);
  ASSERT_TRUE(s.perf);
  EXPECT_FALSE(s.perf->ok);
  PerformancePane* pane = w.performancePane();
  EXPECT_TRUE(pane->messageText().contains(QStringLiteral("does not verify"))) << pane->messageText().toStdString();
  EXPECT_TRUE(pane->messageText().contains(s.code)) << pane->messageText().toStdString();
  EXPECT_TRUE(pane->totalsText().isEmpty());
  EXPECT_EQ(pane->unitsModel()->rowCount(), 0);
  EXPECT_TRUE(w.statusPerfText().isEmpty());
  EXPECT_EQ(w.graphView()->costReport(), nullptr);

  // A document with a static error: the same, with the diagnostic.
  w.setDocument(test::demoWith(QStringLiteral("E6 = step.Map(fn=fn_mul).apply(E5)"),
                               QStringLiteral("E6 = step.Map(fn=fn_nope).apply(E5)")));
  auto s2 = verifyNow(w);
  ASSERT_FALSE(s2.pass);
  EXPECT_FALSE(pane->messageText().isEmpty());
  EXPECT_EQ(pane->unitsModel()->rowCount(), 0);
}

TEST(PerformancePane, ChipProfileFromThePreferencesIsUsed) {
  QSettings().remove(QLatin1String(kChipKey));
  EXPECT_EQ(chipSetting(), QStringLiteral("default"));
  const QStringList chips = chipProfiles();
  ASSERT_TRUE(chips.contains(QStringLiteral("default")));
  ASSERT_TRUE(chips.contains(QStringLiteral("edge")));
  EXPECT_EQ(chips.first(), QStringLiteral("default"));
  // The STeP-25 machines are the v2 cost model's (each v2 task names its own): not offered for v1 programs.
  for (const char* v2 : {"accelopt-step", "accelopt-step-capped", "step-hdl"})
    EXPECT_FALSE(chips.contains(QLatin1String(v2))) << v2;
  {
    SettingsDialog dlg;
    ASSERT_NE(dlg.chipBox(), nullptr);
    EXPECT_EQ(dlg.chipBox()->currentData().toString(), QStringLiteral("default"));
    dlg.chipBox()->setCurrentIndex(dlg.chipBox()->findData(QStringLiteral("edge")));
    dlg.reject();  // Cancel changes nothing
  }
  EXPECT_EQ(chipSetting(), QStringLiteral("default"));
  MainWindow w;
  w.setDocument(test::demoWith());
  auto def = verifyNow(w);
  ASSERT_TRUE(def.perf && def.perf->ok);
  {
    SettingsDialog dlg;
    dlg.chipBox()->setCurrentIndex(dlg.chipBox()->findData(QStringLiteral("edge")));
    dlg.accept();
  }
  EXPECT_EQ(chipSetting(), QStringLiteral("edge"));
  auto edge = verifyNow(w);
  ASSERT_TRUE(edge.perf && edge.perf->ok);
  EXPECT_EQ(edge.perf->chip, QStringLiteral("edge"));
  EXPECT_EQ(edge.perf->report->chip, "edge");
  EXPECT_GT(edge.perf->report->cycles, def.perf->report->cycles);  // half the bandwidth, fewer channels
  EXPECT_TRUE(w.performancePane()->totalsText().contains(QStringLiteral("edge")));
  // An unknown stored value falls back to the default.
  QSettings().setValue(QLatin1String(kChipKey), QStringLiteral("no-such-chip"));
  EXPECT_EQ(chipSetting(), QStringLiteral("default"));
  QSettings().remove(QLatin1String(kChipKey));
}

TEST(GraphCostOverlay, NodesColouredByBusyShareAndEdgesLabelledWithTokens) {
  QSettings().remove(QLatin1String(kChipKey));
  MainWindow w;
  w.resize(1200, 800);
  w.setDocument(test::demoWith());
  auto s = verifyNow(w);
  ASSERT_TRUE(s.perf && s.perf->ok);
  // The check of the same text may arrive after the verification: wait until the graph is there.
  GraphView* g = w.graphView();
  for (int i = 0; i < 100 && g->graph().nodes.empty(); ++i) QTest::qWait(50);
  ASSERT_FALSE(g->graph().nodes.empty());
  ASSERT_EQ(g->costReport(), s.perf->report.get());
  const cost::CostReport& r = *s.perf->report;
  const inspect::GraphCostOverlay& o = g->costOverlay();
  double total = 0, best = -1;
  int bestNode = -1;
  for (std::size_t n = 0; n < g->graph().nodes.size(); ++n) {
    if (o.node_share[n] < 0) continue;
    total += o.node_share[n];
    QGraphicsItem* item = g->nodeItem(static_cast<int>(n));
    EXPECT_NEAR(item->data(GraphView::ShareKey).toDouble(), o.node_share[n], 1e-12);
    if (o.node_share[n] > best) best = o.node_share[n], bestNode = static_cast<int>(n);
  }
  EXPECT_NEAR(total, 1.0, 1e-9);  // every unit belongs to exactly one node
  const auto& bu = r.units[static_cast<std::size_t>(r.bottleneck)];
  const inspect::GraphNode& bn = g->graph().nodes[static_cast<std::size_t>(bestNode)];
  if (bu.primitive == "Load") EXPECT_EQ(bn.title, bu.name);
  else EXPECT_TRUE(bu.line >= bn.line && bu.line <= std::max(bn.line, bn.end_line));
  EXPECT_EQ(GraphView::shareColor(best, o.max_share), QColor(QStringLiteral("#f97316")));
  // Edge tokens: the input E0's edge carries what its Load sent; labels show it.
  int labelled = 0;
  for (std::size_t e = 0; e < g->graph().edges.size(); ++e) {
    const inspect::GraphEdge& ge = g->graph().edges[e];
    if (o.edge_tokens[e] < 0) continue;
    ++labelled;
    EXPECT_EQ(g->edgeLabelItem(static_cast<int>(e))->data(GraphView::TokensKey).toLongLong(), o.edge_tokens[e]);
    if (g->graph().nodes[static_cast<std::size_t>(ge.from)].title == "E0") {
      for (const auto& u : r.units) {
        if (u.primitive == "Load" && u.name == "E0") {
          EXPECT_EQ(o.edge_tokens[e], u.tokens_out);
        }
      }
    }
  }
  EXPECT_EQ(labelled, static_cast<int>(g->graph().edges.size()));  // a straight pipeline: every edge known
  // Editing the program drops the overlay at the next check.
  QSignalSpy checked(w.editor(), &StepEditor::checked);
  w.editor()->setCursorPosition(0, 0);
  w.editor()->insert(QStringLiteral("# edit\n"));
  w.check();
  ASSERT_TRUE(checked.wait(30000));
  EXPECT_EQ(g->costReport(), nullptr);
}
