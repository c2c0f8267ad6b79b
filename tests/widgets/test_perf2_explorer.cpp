// The STeP-25 performance explorer (issue 33): the what-if source edits and the report's words (Qt-free,
// core/inspect/perf2_*), and the views driven by a timing function. Until the v2 checker and cost model are
// in the tree, the timing function here is a stand-in written for these tests: it reads the GEMM program's
// tile sizes, par_dispatch and compute_bw and gives cycles by a fixed formula that puts the baseline at
// 16,938 and the known optimisation (m256 k128 n256, pd 16) under 9,500, so the walk of the issue can be
// driven through the real widgets. Every number the views show comes from the Report it builds.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/inspect/perf2_explain.hpp"
#include "core/inspect/perf2_whatif.hpp"
#include "widgets/main_window.hpp"
#include "widgets/perf2/cost_view.hpp"
#include "widgets/perf2/diff_view.hpp"
#include "widgets/perf2/perf_explorer.hpp"
#include "widgets/perf2/roofline_view.hpp"
#include "widgets/perf2/timeline_view.hpp"
#include "widgets/perf2/whatif_panel.hpp"
#include "widgets/screenshot_panes.hpp"

using namespace sf;
namespace ex = sf::inspect::perf2;
namespace p2 = sf::widgets::perf2;
using step2::perf::Activity;
using step2::perf::Limit;

namespace {

const std::string kGemm =
    "a = step.OffChipLoad(tile=[128,128], stride=[K/128, 0, 1], shape=[M/128, N/128, K/128], par_dispatch=4).apply(A)\n"
    "b = step.OffChipLoad(tile=[128,128], stride=[0, 1, N/128], shape=[M/128, N/128, K/128], par_dispatch=4).apply(B)\n"
    "c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))\n"
    "C = step.OffChipStore(par_dispatch=4).apply(c)\n";

const std::map<std::string, std::int64_t> kSizes = {{"M", 256}, {"K", 256}, {"N", 256}};

std::int64_t intKwarg(const std::string& src, int line, const char* key, std::int64_t dflt) {
  const auto t = ex::kwarg_text(src, line, key);
  return t ? std::stoll(*t) : dflt;
}

// The stand-in timing function (see the file comment).
p2::Outcome standIn(const std::string& src) {
  p2::Outcome o;
  o.source = src;
  std::int64_t tm = 0, tk = 0, tn = 0;
  for (const auto& a : ex::tile_axes(src, kSizes)) {
    if (a.symbol == "M") tm = a.tile;
    if (a.symbol == "K") tk = a.tile;
    if (a.symbol == "N") tn = a.tile;
  }
  int line = 0;
  std::size_t pos = 0;
  while (pos < src.size()) {
    ++line;
    const auto nl = src.find('\n', pos);
    const std::string text = src.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? src.size() : nl + 1;
    if (text.empty()) continue;
    const auto st = text.find("step.");
    if (st == std::string::npos) {
      o.error = "P-SYNTAX expected `targets = step.Op(...).apply(...)`";
      o.error_line = line;
      return o;
    }
    step2::Node n;
    const std::string op = text.substr(st + 5, text.find('(', st) - st - 5);
    n.op = op == "OffChipLoad" ? step2::Op::OffChipLoad
           : op == "OffChipStore" ? step2::Op::OffChipStore
                                  : step2::Op::BinaryMapAccum;
    n.loc.line = line;
    n.target = text.substr(0, text.find(' '));
    n.kw.par_dispatch = static_cast<int>(intKwarg(src, line, "par_dispatch", 0));
    n.kw.compute_bw = intKwarg(src, line, "compute_bw", 0);
    n.kw.write_back_mu = static_cast<int>(intKwarg(src, line, "write_back_mu", 0));
    o.graph.nodes.push_back(n);
    step2::perf::NodeReport r;
    r.node = static_cast<int>(o.graph.nodes.size()) - 1;
    r.line = line;
    r.op = op;
    r.compute_bw = n.kw.compute_bw;
    o.report.nodes.push_back(r);
  }
  if (o.graph.nodes.size() != 4 || tm <= 0 || tk <= 0 || tn <= 0) {
    o.error = "T2-ARG the stand-in times the four-statement GEMM only";
    return o;
  }
  const std::int64_t pd = std::min<std::int64_t>(o.graph.nodes[0].kw.par_dispatch, o.graph.nodes[1].kw.par_dispatch);
  const std::int64_t bw = std::max<std::int64_t>(1, o.graph.nodes[2].kw.compute_bw);
  const std::int64_t steps = (256 / tm) * (256 / tn) * (256 / tk);
  const std::int64_t compute = 2 * tm * tk * tn / bw, load = (tm * tk + tk * tn) * 4 / (16 * std::max<std::int64_t>(1, pd));
  auto& rep = o.report;
  rep.cycles = steps * std::max(compute, load) + 554;
  rep.flops = 2 * 256 * 256 * 256;
  rep.offchip_read_bytes = steps * (tm * tk + tk * tn) * 4;
  rep.offchip_write_bytes = 256 * 256 * 4;
  rep.onchip_bytes = (tm * tk + tk * tn + 2 * tm * tn) * 4;
  rep.peak_cycles = 8192;
  rep.pct_of_peak = 100.0 * 8192 / static_cast<double>(rep.cycles);
  rep.compute_bw_total = bw;
  rep.feasible = bw <= 4096;
  rep.nodes[0].busy = rep.nodes[1].busy = steps * load;
  rep.nodes[0].limit = rep.nodes[1].limit = Limit::HbmRequests;
  rep.nodes[2].busy = steps * compute;
  rep.nodes[2].limit = Limit::Compute;
  rep.nodes[2].flops = rep.flops;
  rep.nodes[3].busy = 256 * 256 * 4 / 64;
  rep.nodes[3].limit = Limit::WriteBack;
  for (int i = 0; i < 4; ++i) rep.timeline.push_back({i, Activity::Busy, 10 * i, 10 * i + rep.nodes[static_cast<std::size_t>(i)].busy});
  rep.timeline.push_back({4, Activity::Busy, 0, 300});  // HBM channel 0
  o.ok = true;
  return o;
}

// Waits until the explorer delivered a timing of `source`.
bool waitTimed(p2::Explorer& e, const std::string& source) {
  for (int i = 0; i < 300 && e.lastGood().source != source; ++i) QTest::qWait(10);
  return e.lastGood().source == source;
}

bool explorerIdle(p2::Explorer& e) {
  for (int i = 0; i < 300 && e.retimer()->busy(); ++i) QTest::qWait(10);
  QCoreApplication::processEvents();
  return !e.retimer()->busy();
}

}  // namespace

// ------------------------------------------------------------------------------------------ Qt-free core

TEST(Perf2WhatIf, SetKwargReplacesOrInsertsOnTheLine) {
  std::string err;
  auto t = ex::set_kwarg(kGemm, 4, "par_dispatch", "16", &err);
  ASSERT_TRUE(t);
  EXPECT_NE(t->find("C = step.OffChipStore(par_dispatch=16).apply(c)"), std::string::npos);
  EXPECT_EQ(ex::kwarg_text(*t, 1, "par_dispatch"), "4");  // other lines untouched
  t = ex::set_kwarg(kGemm, 3, "compute_bw", "2048", &err);
  ASSERT_TRUE(t);
  EXPECT_EQ(ex::kwarg_text(*t, 3, "compute_bw"), "2048");
  EXPECT_EQ(ex::kwarg_text(*t, 3, "rank"), "1");
  t = ex::set_kwarg("x = step.Broadcast().apply(y)\n", 1, "n", "2", &err);
  ASSERT_TRUE(t);
  EXPECT_EQ(*t, "x = step.Broadcast(n=2).apply(y)\n");
  t = ex::set_kwarg("x = step.Broadcast(n=3).apply(y)  # compute_bw=1\n", 1, "compute_bw", "5", &err);
  ASSERT_TRUE(t);
  EXPECT_EQ(*t, "x = step.Broadcast(n=3, compute_bw=5).apply(y)  # compute_bw=1\n");
  EXPECT_FALSE(ex::set_kwarg(kGemm, 9, "n", "1", &err));
  EXPECT_NE(err.find("line 9"), std::string::npos);
  EXPECT_EQ(ex::kwarg_text(kGemm, 1, "tile"), "[128,128]");
}

TEST(Perf2WhatIf, TileAxesAndSetTileKeepTheLoadsConsistent) {
  const auto axes = ex::tile_axes(kGemm, kSizes);
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0].symbol, "K");  // first use: A's stride
  EXPECT_EQ(axes[0].tile, 128);
  EXPECT_EQ(axes[1].symbol, "M");
  EXPECT_EQ(axes[2].symbol, "N");
  EXPECT_EQ(axes[1].choices, (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
  std::string err;
  auto t = ex::set_tile(kGemm, "M", 256, &err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(ex::kwarg_text(*t, 1, "tile"), "[256, 128]");  // A [M, K]: rows along M
  EXPECT_EQ(ex::kwarg_text(*t, 1, "shape"), "[M/256, N/128, K/128]");
  EXPECT_EQ(ex::kwarg_text(*t, 2, "tile"), "[128,128]");  // B [K, N] has no M axis
  EXPECT_EQ(ex::kwarg_text(*t, 2, "shape"), "[M/256, N/128, K/128]");
  t = ex::set_tile(*t, "N", 256, &err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(ex::kwarg_text(*t, 2, "tile"), "[128, 256]");  // B's columns are N
  EXPECT_EQ(ex::kwarg_text(*t, 2, "stride"), "[0, 1, N/256]");
  EXPECT_EQ(ex::kwarg_text(*t, 1, "tile"), "[256, 128]");
  EXPECT_FALSE(ex::set_tile(kGemm, "Q", 2, &err));
  EXPECT_FALSE(ex::set_tile(kGemm, "M", 0, &err));
  // A symbol divided by two numbers is not a tile axis.
  EXPECT_TRUE(ex::tile_axes("x = step.OffChipLoad(shape=[M/2, M/4]).apply(A)\n", {}).empty());
}

TEST(Perf2Explain, TiesAreNamedAndTheSentenceSaysTheBoundAndPeak) {
  auto o = standIn(kGemm);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_EQ(o.report.cycles, 16938);
  const auto b = ex::bottlenecks(o.report);
  ASSERT_EQ(b, (std::vector<int>{0, 1}));  // both loads tie
  const std::string s = ex::bound_sentence(o.report);
  EXPECT_NE(s.find("Bound by HBM requests"), std::string::npos) << s;
  EXPECT_NE(s.find("line 1) and OffChipLoad (line 2) tie"), std::string::npos) << s;
  EXPECT_NE(s.find("48.4 % of peak"), std::string::npos) << s;
  const std::string w = ex::node_words(o.report.nodes[2], o.report.cycles);
  EXPECT_NE(w.find("compute_bw 4,096 FLOP/cycle"), std::string::npos) << w;
  EXPECT_NE(w.find("cycles"), std::string::npos);
  EXPECT_EQ(ex::group_digits(1310720), "1,310,720");
  EXPECT_EQ(ex::group_digits(-5), "-5");
}

// ------------------------------------------------------------------------------------------ widgets

TEST(Perf2Explorer, ASliderChangeRetimesTheProgramAndUpdatesTheNumbers) {
  p2::Explorer e(standIn);
  e.setSizes(kSizes);
  e.setBaseline(kGemm);
  e.setProgram(kGemm);
  ASSERT_TRUE(waitTimed(e, kGemm));
  auto* w = e.whatIfPanel();
  EXPECT_TRUE(w->cyclesText().startsWith(QStringLiteral("16,938 cycles"))) << w->cyclesText().toStdString();
  EXPECT_TRUE(e.costView()->sentence().contains(QStringLiteral("16,938 cycles")));
  w->selectLine(1);
  ASSERT_TRUE(w->parDispatchBox()->isEnabled());
  EXPECT_EQ(w->parDispatchBox()->value(), 4);
  w->parDispatchBox()->setValue(8);  // a load's par_dispatch alone does not help (the other load is slower)
  w->selectLine(2);
  w->parDispatchBox()->setValue(8);
  ASSERT_TRUE(explorerIdle(e));
  EXPECT_LT(e.lastGood().report.cycles, 16938);
  EXPECT_EQ(ex::kwarg_text(e.lastGood().source, 2, "par_dispatch"), "8");
  EXPECT_TRUE(w->cyclesText().startsWith(QString::fromStdString(ex::group_digits(e.lastGood().report.cycles)) +
                                         QStringLiteral(" cycles")));
  EXPECT_TRUE(w->cyclesText().contains(QStringLiteral("baseline 16,938")));
  EXPECT_TRUE(e.costView()->sentence().contains(QString::fromStdString(ex::group_digits(e.lastGood().report.cycles))));
  // The compute node's compute_bw is bounded by the budget left by the others (all of it here).
  w->selectLine(3);
  EXPECT_TRUE(w->computeBwBox()->isEnabled());
  EXPECT_FALSE(w->parDispatchBox()->isEnabled());
  EXPECT_EQ(w->computeBwBox()->maximum(), 4096);
}

TEST(Perf2Explorer, ClickingANodeSelectsItsLineAndALineSelectsItsNode) {
  p2::Explorer e(standIn);
  e.setProgram(kGemm);
  ASSERT_TRUE(waitTimed(e, kGemm));
  QSignalSpy lines(&e, &p2::Explorer::lineActivated);
  auto* tl = e.timelineView();
  tl->resize(700, 300);
  tl->show();
  QTest::mouseClick(tl, Qt::LeftButton, {}, tl->rowRect(2).center());
  ASSERT_EQ(lines.count(), 1);
  EXPECT_EQ(lines.at(0).at(0).toInt(), 3);
  EXPECT_EQ(tl->selectedRow(), 2);
  // The cost view and the what-if panel followed.
  EXPECT_TRUE(e.costView()->table()->selectionModel()->isRowSelected(2, {}));
  EXPECT_TRUE(e.whatIfPanel()->operatorBox()->currentText().startsWith(QStringLiteral("line 3")));
  // The cost table's row click too.
  auto* tv = e.costView()->table();
  e.costView()->resize(900, 400);
  e.costView()->show();
  QCoreApplication::processEvents();
  QTest::mouseClick(tv->viewport(), Qt::LeftButton, {}, tv->visualRect(e.costView()->model()->index(3, 1)).center());
  ASSERT_EQ(lines.count(), 2);
  EXPECT_EQ(lines.at(1).at(0).toInt(), 4);
  // The editor's way back.
  e.selectLine(1);
  EXPECT_EQ(tl->selectedRow(), 0);
  EXPECT_EQ(tl->channelRows(), 1);
  EXPECT_EQ(tl->rowCount(), 5);
}

TEST(Perf2Explorer, ABrokenEditShowsWhyAndKeepsTheLastGoodNumbers) {
  p2::Explorer e(standIn);
  e.setProgram(kGemm);
  ASSERT_TRUE(waitTimed(e, kGemm));
  const QString before = e.costView()->sentence();
  const auto point = e.rooflineView()->plot()->program();
  e.retimer()->request(kGemm + "c = oops\n");
  ASSERT_TRUE(explorerIdle(e));
  EXPECT_TRUE(e.whatIfPanel()->errorText().contains(QStringLiteral("line 5: P-SYNTAX"))) << e.whatIfPanel()->errorText().toStdString();
  EXPECT_TRUE(e.whatIfPanel()->errorText().contains(QStringLiteral("last good")));
  EXPECT_TRUE(e.whatIfPanel()->cyclesText().startsWith(QStringLiteral("16,938 cycles")));
  EXPECT_EQ(e.costView()->sentence(), before);
  EXPECT_EQ(e.lastGood().source, kGemm);
  ASSERT_TRUE(e.rooflineView()->plot()->program());
  EXPECT_EQ(e.rooflineView()->plot()->program()->flop_per_cycle, point->flop_per_cycle);
  EXPECT_FALSE(e.whatIfPanel()->applyButton()->isEnabled());
}

// The walk: raise the tile sizes and par_dispatch with the what-if controls, watch the cycles fall
// under 9,500, apply, compare with the baseline; the roofline point moves up.
TEST(Perf2Explorer, TheGemmWalkFromTheBaselineToUnder9500Cycles) {
  p2::Explorer e(standIn);
  e.setSizes(kSizes);
  e.setBaseline(kGemm);
  ASSERT_TRUE(e.baseline().ok);
  e.setProgram(kGemm);
  ASSERT_TRUE(waitTimed(e, kGemm));
  auto* w = e.whatIfPanel();
  const auto before = *e.rooflineView()->plot()->program();
  ASSERT_TRUE(w->tileBox(QStringLiteral("M")));
  ASSERT_TRUE(w->tileBox(QStringLiteral("N")));
  EXPECT_EQ(w->tileBox(QStringLiteral("M"))->findText(QStringLiteral("4")), -1);  // tiny tiles are not offered
  w->tileBox(QStringLiteral("M"))->setCurrentText(QStringLiteral("256"));
  w->tileBox(QStringLiteral("N"))->setCurrentText(QStringLiteral("256"));
  for (int line : {1, 2, 4}) {
    w->selectLine(line);
    w->parDispatchBox()->setValue(16);
  }
  ASSERT_TRUE(explorerIdle(e));
  const auto& good = e.lastGood();
  EXPECT_LT(good.report.cycles, 9500);
  EXPECT_EQ(ex::kwarg_text(good.source, 1, "tile"), "[256, 128]");
  EXPECT_EQ(ex::kwarg_text(good.source, 2, "tile"), "[128, 256]");
  const auto after = *e.rooflineView()->plot()->program();
  EXPECT_GT(after.flop_per_cycle, before.flop_per_cycle);
  EXPECT_GT(after.intensity, before.intensity);
  EXPECT_LT(e.rooflineView()->plot()->toPixel(after).y(), e.rooflineView()->plot()->toPixel(before).y());
  EXPECT_GE(e.rooflineView()->plot()->history().size(), 2u);
  // Apply: the proposal text goes to the editor.
  ASSERT_TRUE(w->applyButton()->isEnabled());
  QSignalSpy apply(&e, &p2::Explorer::applyRequested);
  QTest::mouseClick(w->applyButton(), Qt::LeftButton);
  ASSERT_EQ(apply.count(), 1);
  EXPECT_EQ(apply.at(0).at(0).toString().toStdString(), good.source);
  // The comparison with the baseline.
  auto* d = e.diffView();
  EXPECT_TRUE(d->summary().contains(QStringLiteral("baseline's 16,938"))) << d->summary().toStdString();
  ASSERT_EQ(d->totals()->rowCount(), 6);
  EXPECT_EQ(d->totals()->item(0, 1)->text(), QStringLiteral("16,938"));
  EXPECT_TRUE(d->totals()->item(0, 3)->text().startsWith(QLatin1Char('-')));
  ASSERT_EQ(d->nodes()->rowCount(), 4);
  EXPECT_TRUE(d->nodes()->item(0, 3)->text().startsWith(QLatin1Char('-')));
}

TEST(Perf2Timeline, ASummarisedTimelineSaysSoAndDrawsABoundedNumberOfRects) {
  p2::Outcome o = standIn(kGemm);
  ASSERT_TRUE(o.ok);
  o.report.timeline.clear();
  for (std::int64_t i = 0; i < 200000; ++i)
    o.report.timeline.push_back({static_cast<int>(i % 4), Activity::Busy, i / 4 * 2, i / 4 * 2 + 1});
  o.report.cycles = 100000;
  o.report.timeline_truncated = true;
  p2::TimelineView tl;
  tl.setOutcome(o);
  tl.resize(800, 300);
  EXPECT_TRUE(tl.summarised());
  const auto t0 = std::chrono::steady_clock::now();
  tl.grab();
  EXPECT_LE(tl.drawnRects(), 4 * 800);  // merged below a pixel
  EXPECT_GT(tl.drawnRects(), 0);
  (void)t0;
  // Zoom in around cycle 50,000 and pan back to the start.
  tl.zoom(10.0, 50000);
  EXPECT_NEAR(tl.viewEnd() - tl.viewBegin(), 10000, 1);
  EXPECT_LE(tl.viewBegin(), 50000);
  EXPECT_GE(tl.viewEnd(), 50000);
  tl.resetZoom();
  EXPECT_EQ(tl.viewBegin(), 0);
  EXPECT_EQ(tl.viewEnd(), 100000);
}

TEST(Perf2Retimer, TheNewestRequestSupersedesOlderOnes) {
  std::atomic<int> calls{0};
  p2::Retimer r([&](const std::string& s) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return standIn(s);
  });
  QSignalSpy spy(&r, &p2::Retimer::retimed);
  for (int pd : {5, 6, 7, 8, 9}) r.request(*ex::set_kwarg(kGemm, 4, "par_dispatch", std::to_string(pd)));
  for (int i = 0; i < 200 && r.busy(); ++i) QTest::qWait(10);
  ASSERT_FALSE(r.busy());
  ASSERT_EQ(spy.count(), 1);  // only the newest is delivered
  EXPECT_EQ(spy.at(0).at(0).toULongLong(), 5u);
  EXPECT_LE(calls.load(), 5);
  const auto o = spy.at(0).at(1).value<p2::Outcome>();
  EXPECT_EQ(ex::kwarg_text(o.source, 4, "par_dispatch"), "9");
}

// Issue 33 item 8: the What-if dock fits at 1366x768 in the default and the presentation font (fields under
// their labels when narrow, a short write_back_mu caption with the words in its tooltip): no sideways scroll.
TEST(Perf2WhatIf, FitsItsDockAt1366x768InBothFonts) {
  for (const bool presentation : {false, true}) {
    SCOPED_TRACE(presentation ? "presentation font" : "default font");
    widgets::MainWindow w;
    if (presentation) w.setFont(widgets::presentationFont(w.font()));
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QString err;
    ASSERT_TRUE(widgets::openTask(w, QStringLiteral("gemm/small"), &err)) << err.toStdString();
    ASSERT_TRUE(widgets::showScreenshotPane(w, QStringLiteral("whatif"), &err)) << err.toStdString();
    auto* d = w.perf2Docks();
    ASSERT_TRUE(d);
    d->refresh();
    for (int i = 0; i < 500 && d->explorer()->retimer()->busy(); ++i) QTest::qWait(10);
    QTest::qWait(50);
    p2::WhatIfPanel* panel = d->explorer()->whatIfPanel();
    ASSERT_TRUE(panel->isVisible());
    EXPECT_FALSE(panel->cyclesText().isEmpty());
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("WhatIfDock"));
    ASSERT_TRUE(dock && dock->isVisible());
    auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
    ASSERT_TRUE(scroll);
    EXPECT_EQ(scroll->horizontalScrollBar()->maximum(), 0)
        << "panel needs " << panel->minimumSizeHint().width() << " px of " << scroll->viewport()->width();
    EXPECT_LE(panel->minimumSizeHint().width(), scroll->viewport()->width());
    EXPECT_EQ(panel->writeBackBox()->text(), QStringLiteral("write_back_mu"));
    EXPECT_TRUE(panel->writeBackBox()->toolTip().contains(QStringLiteral("memory unit")));
  }
}
