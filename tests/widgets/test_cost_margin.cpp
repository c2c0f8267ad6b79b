// The cost-annotated source in the editor's margin and the timeline's HBM channel rows (issue 33 items 2 and
// 4), on the real engine: K1 (GEMM 256³, the gemm/small baseline) open in the editor beside the explorer.
// The margin's numbers are the cost model's per-node report (one line hand-worked: the BinaryMapAccum runs
// 2·2·2 = 8 calls, each reading two 64 KiB tiles from PMUs at 64 B/cycle = 2,048 cycles against 2·128³ / 4096 =
// 1,024 of compute, so it is busy 16,384 of 16,938 cycles (96.7 %), limited by PMU reads; it holds one
// 128x128 fp32 tile (64 KiB) on chip, compute_bw 4096), its bar has the
// node's limit colour, the hover is the node's report in words with units, a program that stops checking
// leaves the numbers stale and a document that is not STeP-25 removes the margin.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QHelpEvent>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <set>

#include "core/inspect/perf2_explain.hpp"
#include "core/inspect/perf2_time.hpp"
#include "test_support.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/main_window.hpp"
#include "widgets/screenshot_panes.hpp"
#include "widgets/perf2/cost_margin.hpp"
#include "widgets/perf2/perf2_docks.hpp"
#include "widgets/perf2/perf_explorer.hpp"
#include "widgets/perf2/timeline_view.hpp"

using namespace sf;
namespace p2 = sf::widgets::perf2;
using step2::perf::Limit;

namespace {

QString k1Text() {
  QFile f(QStringLiteral(SF_TEST_DATA_DIR "/step25/K1_gemm.yaml"));
  EXPECT_TRUE(f.open(QIODevice::ReadOnly));
  return QString::fromUtf8(f.readAll());
}

// Waits until the explorer has timed the editor's program (good or not).
bool settle(p2::Perf2Docks& d) {
  d.refresh();
  for (int i = 0; i < 500 && d.explorer()->retimer()->busy(); ++i) QTest::qWait(10);
  QCoreApplication::processEvents();
  return !d.explorer()->retimer()->busy();
}

struct Bench {
  QMainWindow window;
  widgets::StepEditor* editor = new widgets::StepEditor;
  p2::Perf2Docks* docks;
  Bench() : docks((window.setCentralWidget(editor), new p2::Perf2Docks(&window, editor))) {
    window.resize(1366, 768);
    window.show();
  }
};

}  // namespace

TEST(CostMargin, AbbreviationsAndBars) {
  EXPECT_EQ(p2::abbrevCount(999), QStringLiteral("999"));
  EXPECT_EQ(p2::abbrevCount(8192), QStringLiteral("8.2k"));
  EXPECT_EQ(p2::abbrevCount(16384), QStringLiteral("16.4k"));
  EXPECT_EQ(p2::abbrevCount(164000), QStringLiteral("164k"));
  EXPECT_EQ(p2::abbrevCount(999999), QStringLiteral("1.0M"));
  EXPECT_EQ(p2::abbrevCount(1234567), QStringLiteral("1.2M"));
  EXPECT_EQ(p2::abbrevBytes(0), QStringLiteral("0"));
  EXPECT_EQ(p2::abbrevBytes(65536), QStringLiteral("64K"));
  EXPECT_EQ(p2::abbrevBytes(524288), QStringLiteral("512K"));
  EXPECT_EQ(p2::abbrevBytes(1310720), QStringLiteral("1.3M"));
  EXPECT_EQ(p2::abbrevBytes(1000), QStringLiteral("1000"));
  EXPECT_EQ(p2::abbrevBytes(1048575), QStringLiteral("1.0M"));
  EXPECT_EQ(p2::shareBar(1.0), QStringLiteral("███"));
  EXPECT_EQ(p2::shareBar(0.0), QStringLiteral("   "));
  EXPECT_EQ(p2::shareBar(0.001), QStringLiteral("▏  "));  // any work shows
  EXPECT_EQ(p2::shareBar(0.5), QStringLiteral("█▌ "));
}

TEST(CostMargin, K1NumbersColoursHoverStaleAndClear) {
  Bench b;
  const QString text = k1Text();
  b.editor->setText(text);
  ASSERT_TRUE(settle(*b.docks));
  const auto& good = b.docks->explorer()->lastGood();
  ASSERT_TRUE(good.ok) << good.error;
  ASSERT_EQ(good.report.cycles, 16938);
  p2::CostMargin* m = b.docks->costMargin();
  ASSERT_TRUE(m->shown());
  EXPECT_FALSE(m->stale());
  // The hand-worked line.
  const int accLine = widgets::test::lineOf(text, QStringLiteral("c = step.BinaryMapAccum")) - 1;
  EXPECT_EQ(m->fullMarginText(accLine), QStringLiteral("██▉ 16.4k cyc  97% · 0/64K B · bw 4096"));
  // Every statement against the cost model's own per-node report (the same program timed again).
  Diagnostics diags;
  auto task = step::load_task_text(text.toStdString(), "", diags);
  ASSERT_TRUE(task && task->impl);
  const auto t = inspect::perf2::time_program(*task, *task->impl, step2::perf::accelopt_step());
  ASSERT_TRUE(t.ok);
  std::set<Limit> limits;
  for (const auto& n : t.report.nodes) {
    if (n.implicit || n.line < 1) continue;
    const int el = task->impl_line_starts[static_cast<std::size_t>(n.line) - 1].line - 1;
    SCOPED_TRACE(n.op);
    EXPECT_TRUE(m->fullMarginText(el).endsWith(p2::costMarginText(n, t.report.cycles)));
    EXPECT_TRUE(m->fullMarginText(el).contains(p2::abbrevBytes(n.offchip_bytes) + QLatin1Char('/')));
    EXPECT_TRUE(m->marginText(el).endsWith(m->compact() ? p2::compactCostMarginText(n, t.report.cycles)
                                                        : p2::costMarginText(n, t.report.cycles)));
    EXPECT_EQ(m->limitAt(el), n.limit);
    EXPECT_EQ(m->barColorAt(el), p2::limitColor(n.limit));
    limits.insert(n.limit);
    const QString hover = m->hoverText(el);
    for (const char* unit : {"cycles", "bytes"}) EXPECT_TRUE(hover.contains(QLatin1String(unit))) << hover.toStdString();
  }
  EXPECT_GE(limits.size(), 2u);  // the loads and the matmul are limited by different things: the colours differ
  EXPECT_EQ(m->limitAt(accLine), Limit::PmuRead);
  EXPECT_TRUE(m->hoverText(accLine).contains(QStringLiteral("FLOP/cycle")));
  EXPECT_TRUE(m->marginText(0).isEmpty());  // "dialect: step-v2" is no statement
  // Readable at 1366x768: the margin (compact here) leaves most of the editor to the text.
  EXPECT_GT(m->marginWidth(), 60);
  EXPECT_LE(m->marginWidth(), 0.3 * b.editor->viewport()->width());
  // Hovering the margin shows the report in words (a real tooltip event on the viewport).
  const int pos = static_cast<int>(b.editor->positionFromLineIndex(accLine, 0));
  const int y = static_cast<int>(b.editor->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, static_cast<long>(pos))) +
                b.editor->textHeight(accLine) / 2;
  const int x = b.editor->marginWidth(0) + b.editor->marginWidth(1) + m->marginWidth() / 2;
  EXPECT_EQ(m->lineAtMargin(QPoint(x, y)), accLine);
  EXPECT_EQ(m->lineAtMargin(QPoint(b.editor->marginWidth(0) / 2, y)), -1);  // the line numbers are not ours
  QHelpEvent he(QEvent::ToolTip, QPoint(x, y), b.editor->viewport()->mapToGlobal(QPoint(x, y)));
  QApplication::sendEvent(b.editor->viewport(), &he);
  EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("busy 16,384 cycles"))) << QToolTip::text().toStdString();
  QToolTip::hideText();
  // Clicking the margin puts the cursor on the statement (which selects its node in the explorer).
  b.editor->setCursorPosition(0, 0);
  Q_EMIT b.editor->marginClicked(p2::CostMargin::kMargin, accLine, Qt::NoModifier);
  int cl = -1, cc = -1;
  b.editor->getCursorPosition(&cl, &cc);
  EXPECT_EQ(cl, accLine);
  // A tile that does not divide: the numbers stay, marked stale, and the hover says why.
  const QString before = m->marginText(accLine);
  QString broken = text;
  broken.replace(QStringLiteral("OffChipLoad(tile=[128, 128], stride=[K/128"), QStringLiteral("OffChipLoad(tile=[96, 128], stride=[K/128"));
  b.editor->setText(broken);
  ASSERT_TRUE(settle(*b.docks));
  EXPECT_TRUE(m->stale());
  EXPECT_EQ(m->marginText(accLine), before);
  EXPECT_NE(m->barColorAt(accLine), p2::limitColor(Limit::PmuRead));
  EXPECT_TRUE(m->hoverText(accLine).startsWith(QStringLiteral("Stale: "))) << m->hoverText(accLine).toStdString();
  // Fixed again: fresh numbers.
  b.editor->setText(text);
  ASSERT_TRUE(settle(*b.docks));
  EXPECT_FALSE(m->stale());
  EXPECT_EQ(m->barColorAt(accLine), p2::limitColor(Limit::PmuRead));
  // Not a STeP-25 document: no margin at all.
  b.editor->setText(QStringLiteral("id: x\ntitle: a v1 task\n"));
  b.docks->refresh();
  EXPECT_FALSE(m->shown());
  EXPECT_EQ(m->marginWidth(), 0);
  EXPECT_TRUE(m->marginText(accLine).isEmpty());
}

TEST(CostMargin, EveryLimitHasItsOwnColour) {
  QMainWindow w;
  auto* ed = new QsciScintilla;
  w.setCentralWidget(ed);
  ed->setText(QStringLiteral("a\nb\nc\nd\ne\n"));
  p2::CostMargin m(ed);
  p2::Outcome o;
  o.ok = true;
  o.report.cycles = 1000;
  const Limit ls[] = {Limit::PmuRead, Limit::Compute, Limit::WriteBack, Limit::HbmRequests, Limit::Waiting};
  for (int i = 0; i < 5; ++i) {
    step2::perf::NodeReport n;
    n.line = i + 1;
    n.op = "UnaryMap";
    n.busy = 100 * (i + 1);
    n.limit = ls[i];
    o.report.nodes.push_back(n);
  }
  m.setOutcome(o, {0, 1, 2, 3, 4});
  std::set<QRgb> colours;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(m.barColorAt(i), p2::limitColor(ls[i]));
    colours.insert(m.barColorAt(i).rgb());
  }
  EXPECT_EQ(colours.size(), 5u);
  EXPECT_EQ(m.marginText(4), QStringLiteral("█▌    500 cyc  50% · 0/0 B"));
}

TEST(Perf2Timeline, K1HasOneRowPerHbmChannelBelowTheNodes) {
  Bench b;
  b.editor->setText(k1Text());
  ASSERT_TRUE(settle(*b.docks));
  auto* tl = b.docks->explorer()->timelineView();
  const int nodes = tl->nodeRows();
  ASSERT_GE(nodes, 4);
  EXPECT_EQ(tl->channelRows(), 32);  // accelopt-step: hbm_channels 32
  EXPECT_EQ(tl->rowCount(), nodes + 32);
  tl->resize(900, 420);
  QApplication::processEvents();
  (void)tl->grab();
  EXPECT_GT(tl->drawnRects(), nodes + 32 - 1);  // every channel row has intervals on K1
  EXPECT_GE(tl->channelRowHeight(), p2::TimelineView::kMinChannelHeight);
  // Rows are found by y, channel rows below the node rows, and zoom applies to all of them.
  EXPECT_EQ(tl->rowAt(tl->rowRect(nodes + 5).center().y()), nodes + 5);
  EXPECT_EQ(tl->rowAt(tl->rowRect(1).center().y()), 1);
  QSignalSpy spy(tl, &p2::TimelineView::lineActivated);
  QTest::mouseClick(tl, Qt::LeftButton, {}, tl->rowRect(nodes + 3).center());
  EXPECT_EQ(spy.count(), 0);  // a channel has no statement
  QTest::mouseClick(tl, Qt::LeftButton, {}, tl->rowRect(2).center());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.front().front().toInt(), 3);  // impl line 3: the BinaryMapAccum
  const int wide = tl->drawnRects();
  tl->zoom(50.0, 100.0);
  (void)tl->grab();
  EXPECT_LT(tl->viewEnd() - tl->viewBegin(), 400.0);
  EXPECT_NE(tl->drawnRects(), wide);  // zoomed in, fewer intervals merge within a pixel
  EXPECT_GT(tl->drawnRects(), 0);
}

// Issue 33 item 8: at 1366x768 the editor beside the docks is narrow, so the margin shows the compact form (bar,
// cycles, share; the rest in the hover) and leaves at least 70 % of the editor to the code; an editor wide
// enough shows the full form again, and narrowing it goes back (the margin follows resizes).
TEST(CostMargin, CompactWhenTheEditorIsNarrowFullWhenWide) {
  widgets::MainWindow w;
  w.resize(1366, 768);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QString err;
  ASSERT_TRUE(widgets::openTask(w, QStringLiteral("gemm/small"), &err)) << err.toStdString();
  ASSERT_TRUE(widgets::showScreenshotPane(w, QStringLiteral("editor"), &err)) << err.toStdString();
  p2::Perf2Docks* d = w.perf2Docks();
  ASSERT_TRUE(d);
  ASSERT_TRUE(settle(*d));
  QApplication::processEvents();
  p2::CostMargin* m = d->costMargin();
  ASSERT_TRUE(m->shown());
  const QString text = w.editor()->text();
  const int accLine = widgets::test::lineOf(text, QStringLiteral("c = step.BinaryMapAccum")) - 1;
  ASSERT_GE(accLine, 0);
  const int viewport = w.editor()->viewport()->width();
  SCOPED_TRACE("editor viewport " + std::to_string(viewport) + " px, margin " + std::to_string(m->marginWidth()) + " px");
  EXPECT_TRUE(m->compact());
  EXPECT_LE(m->marginWidth(), 0.3 * viewport);
  EXPECT_GT(m->marginWidth(), 40);
  EXPECT_EQ(m->marginText(accLine), QStringLiteral("██▉ 16.4k  97%"));  // cycles and share stay
  EXPECT_EQ(m->fullMarginText(accLine), QStringLiteral("██▉ 16.4k cyc  97% · 0/64K B · bw 4096"));
  EXPECT_TRUE(m->hoverText(accLine).contains(QStringLiteral("busy 16,384 cycles")));  // the rest, with units
  // A wide editor: the full form, and it still takes at most 30 %; narrowed again: compact again.
  Bench b;
  b.window.resize(2400, 900);
  b.editor->setText(k1Text());
  ASSERT_TRUE(settle(*b.docks));
  QApplication::processEvents();
  p2::CostMargin* wide = b.docks->costMargin();
  const int line = widgets::test::lineOf(k1Text(), QStringLiteral("c = step.BinaryMapAccum")) - 1;
  EXPECT_FALSE(wide->compact()) << b.editor->viewport()->width();
  EXPECT_EQ(wide->marginText(line), QStringLiteral("██▉ 16.4k cyc  97% · 0/64K B · bw 4096"));
  EXPECT_LE(wide->marginWidth(), 0.3 * b.editor->viewport()->width());
  b.window.resize(900, 768);
  QApplication::processEvents();
  EXPECT_TRUE(wide->compact()) << b.editor->viewport()->width();
  EXPECT_EQ(wide->marginText(line), QStringLiteral("██▉ 16.4k  97%"));
}
