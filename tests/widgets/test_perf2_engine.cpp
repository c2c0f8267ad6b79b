// The performance explorer on the real STeP-25 engine (issue 33): the v2 checker and cost model time the
// calibration program K1 (the gemm/small baseline, 16,938 cycles), and the walk is done with the
// what-if controls only: raise the tile sizes along M and N to 256 and par_dispatch to 16, watch the cycles
// fall under 9,500, apply, compare with the baseline. Also prints how long one re-timing of K1 takes (the
// target is under 50 ms; not asserted, see bench output).
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include <chrono>
#include <cstdio>

#include "core/inspect/perf2_explain.hpp"
#include "core/inspect/perf2_time.hpp"
#include "core/inspect/perf2_whatif.hpp"
#include "test_support.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/main_window.hpp"
#include "widgets/perf2/cost_view.hpp"
#include "widgets/perf2/diff_view.hpp"
#include "widgets/perf2/perf2_docks.hpp"
#include "widgets/screenshot_panes.hpp"
#include "widgets/perf2/perf2_engine.hpp"
#include "widgets/perf2/perf_explorer.hpp"
#include "widgets/perf2/roofline_view.hpp"
#include "widgets/perf2/timeline_view.hpp"
#include "widgets/perf2/whatif_panel.hpp"

using namespace sf;
namespace ex = sf::inspect::perf2;
namespace p2 = sf::widgets::perf2;

namespace {

std::shared_ptr<const step::TaskDoc> k1() {
  Diagnostics d;
  auto t = step::load_task_file(std::string(SF_TEST_DATA_DIR) + "/step25/K1_gemm.yaml", d);
  EXPECT_TRUE(t.has_value()) << (d.empty() ? std::string() : d.front().message);
  return t ? std::make_shared<const step::TaskDoc>(std::move(*t)) : nullptr;
}

bool waitIdle(p2::Explorer& e) {
  for (int i = 0; i < 500 && e.retimer()->busy(); ++i) QTest::qWait(10);
  QCoreApplication::processEvents();
  return !e.retimer()->busy();
}

}  // namespace

TEST(Perf2Engine, K1IsTimedAt16938CyclesAndABrokenProgramSaysWhere) {
  const auto task = k1();
  ASSERT_TRUE(task && task->impl);
  const auto chip = step2::perf::accelopt_step();
  auto t = ex::time_program(*task, *task->impl, chip);
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_EQ(t.report.cycles, 16938);
  EXPECT_EQ(t.report.offchip_read_bytes + t.report.offchip_write_bytes, 1310720);
  EXPECT_FALSE(t.report.timeline.empty());
  EXPECT_FALSE(ex::bottlenecks(t.report).empty());
  // Median of a few re-timings (what one what-if step costs).
  std::vector<double> ms;
  for (int i = 0; i < 7; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto again = ex::time_program(*task, *task->impl, chip);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ASSERT_EQ(again.report.cycles, 16938);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("[perf2] re-timing K1 (check + cost model + timeline): median %.2f ms (target < 50 ms)\n", ms[3]);
  // A tile that does not divide its tensor: not timed, the error names the line.
  std::string err;
  auto bad = ex::set_kwarg(*task->impl, 1, "tile", "[96, 128]", &err);
  ASSERT_TRUE(bad);
  auto b = ex::time_program(*task, *bad, chip);
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.error_line, 1) << b.error;
  EXPECT_FALSE(b.error.empty());
}

TEST(Perf2Engine, TheGemmWalkWithTheWhatIfControls) {
  const auto task = k1();
  ASSERT_TRUE(task && task->impl);
  const auto chip = step2::perf::accelopt_step();
  p2::Explorer e(p2::engineTimer(task, chip, 16938));
  e.setRoofs(p2::roofsOf(chip));
  e.setSizes(ex::size_values(*task));
  e.setBaseline(*task->impl);
  ASSERT_TRUE(e.baseline().ok) << e.baseline().error;
  ASSERT_EQ(e.baseline().report.cycles, 16938);
  e.setProgram(*task->impl);
  ASSERT_TRUE(waitIdle(e));
  ASSERT_EQ(e.lastGood().report.cycles, 16938);
  const auto before = *e.rooflineView()->plot()->program();
  auto* w = e.whatIfPanel();
  ASSERT_TRUE(w->tileBox(QStringLiteral("M")));
  ASSERT_TRUE(w->tileBox(QStringLiteral("N")));
  w->tileBox(QStringLiteral("M"))->setCurrentText(QStringLiteral("256"));
  w->tileBox(QStringLiteral("N"))->setCurrentText(QStringLiteral("256"));
  for (int line : {1, 2, 4}) {
    w->selectLine(line);
    ASSERT_TRUE(w->parDispatchBox()->isEnabled()) << line;
    w->parDispatchBox()->setValue(16);
  }
  ASSERT_TRUE(waitIdle(e));
  const auto& good = e.lastGood();
  ASSERT_TRUE(good.ok);
  EXPECT_TRUE(w->errorText().isEmpty()) << w->errorText().toStdString();
  std::printf("[perf2] gemm/small walk: 16,938 -> %lld cycles\n", static_cast<long long>(good.report.cycles));
  EXPECT_LT(good.report.cycles, 9500);
  EXPECT_TRUE(w->cyclesText().contains(QStringLiteral("baseline 16,938")));
  const auto after = *e.rooflineView()->plot()->program();
  EXPECT_GT(after.flop_per_cycle, before.flop_per_cycle);
  ASSERT_TRUE(w->applyButton()->isEnabled());
  QSignalSpy apply(&e, &p2::Explorer::applyRequested);
  QTest::mouseClick(w->applyButton(), Qt::LeftButton);
  ASSERT_EQ(apply.count(), 1);
  // The applied text checks and times the same.
  auto again = ex::time_program(*task, apply.at(0).at(0).toString().toStdString(), chip);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.report.cycles, good.report.cycles);
  auto* d = e.diffView();
  EXPECT_TRUE(d->summary().contains(QStringLiteral("baseline's 16,938"))) << d->summary().toStdString();
  EXPECT_TRUE(d->totals()->item(0, 3)->text().startsWith(QLatin1Char('-')));
}

// Every view of the explorer on the GEMM baseline after the walk, in a main window at 1366×768 and
// 1920×1080: the window keeps the size it was given, every dock is at least its minimum width, and the
// sentence labels are not cut. With SF_SCREENSHOT_DIR set, writes perf2_<view>_<W>x<H>.png there
// (the pictures of docs/gui-performance.md come from scripts/perf2-screenshots.sh: the real main window).
TEST(Perf2Screens, EveryViewFitsAt1366x768And1920x1080) {
  const auto task = k1();
  ASSERT_TRUE(task && task->impl);
  const auto chip = step2::perf::accelopt_step();
  p2::Explorer e(p2::engineTimer(task, chip, 16938));
  e.setRoofs(p2::roofsOf(chip));
  e.setSizes(ex::size_values(*task));
  e.setBaseline(*task->impl);
  e.setProgram(*task->impl);
  ASSERT_TRUE(waitIdle(e));
  auto* w = e.whatIfPanel();
  w->tileBox(QStringLiteral("M"))->setCurrentText(QStringLiteral("256"));
  w->tileBox(QStringLiteral("N"))->setCurrentText(QStringLiteral("256"));
  for (int line : {1, 2, 4}) {
    w->selectLine(line);
    w->parDispatchBox()->setValue(16);
  }
  ASSERT_TRUE(waitIdle(e));
  w->selectLine(3);
  QMainWindow mw;
  auto* editor = new QPlainTextEdit;
  editor->setPlainText(QString::fromStdString(e.lastGood().source));
  editor->setLineWrapMode(QPlainTextEdit::NoWrap);
  mw.setCentralWidget(editor);
  const auto docks = e.installDocks(&mw);
  ASSERT_EQ(docks.size(), 6u);
  const QString dir = qEnvironmentVariable("SF_SCREENSHOT_DIR");
  const char* names[] = {"cost", "roofline", "timeline", "whatif", "diff", "pareto"};
  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
    mw.resize(size);
    mw.show();
    mw.resizeDocks({docks.front()}, {size.width() * 62 / 100}, Qt::Horizontal);
    for (std::size_t i = 0; i < docks.size(); ++i) {
      docks[i]->raise();
      QApplication::processEvents();
      EXPECT_EQ(mw.size(), size);
      EXPECT_GE(docks[i]->width(), docks[i]->minimumWidth()) << names[i];
      EXPECT_GE(docks[i]->width(), size.width() / 2) << names[i];
      if (!dir.isEmpty())
        mw.grab().save(QStringLiteral("%1/perf2_%2_%3x%4.png").arg(dir, QLatin1String(names[i])).arg(size.width()).arg(size.height()));
    }
  }
  // The sentences wrap instead of being cut: each label is as tall as its text needs at its width.
  for (QLabel* l : mw.findChildren<QLabel*>()) {
    if (!l->isVisible() || !l->wordWrap() || l->text().isEmpty()) continue;
    EXPECT_GE(l->height(), l->heightForWidth(l->width()) - 1) << l->objectName().toStdString();
  }
}

// The explorer in the main window: a gemm/small document with its impl shows the docks, is timed against its
// baseline, a node click moves the editor to its statement, and Apply replaces the impl as one undo step.
TEST(Perf2MainWindow, AStep25DocumentIsTimedAndApplyIsOneUndoStep) {
  QFile f(QStringLiteral(SF_SOURCE_DIR "/resources/benchmark_v2/gemm/small.yaml"));
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  QString text = QString::fromUtf8(f.readAll());
  ASSERT_FALSE(text.isEmpty());
  const QString impl = QStringLiteral(
      "impl: |\n"
      "  a = step.OffChipLoad(tile=[128, 128], stride=[K/128, 0, 1], shape=[M/128, N/128, K/128], par_dispatch=4).apply(A)\n"
      "  b = step.OffChipLoad(tile=[128, 128], stride=[0, 1, N/128], shape=[M/128, N/128, K/128], par_dispatch=4).apply(B)\n"
      "  c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))\n"
      "  C = step.OffChipStore(par_dispatch=4).apply(c)\n");
  if (!text.endsWith(QLatin1Char('\n'))) text += QLatin1Char('\n');
  text += impl;
  widgets::MainWindow w;
  w.resize(1366, 768);
  w.setDocument(text);
  auto* d = w.perf2Docks();
  ASSERT_NE(d, nullptr);
  d->refresh();
  ASSERT_TRUE(d->active());
  auto& e = *d->explorer();
  using namespace sf::widgets;
  ASSERT_TRUE(waitIdle(e));
  ASSERT_TRUE(e.lastGood().ok) << e.lastGood().error;
  EXPECT_EQ(e.lastGood().report.cycles, 16938);
  ASSERT_TRUE(e.baseline().ok);  // resources/solutions_v2/gemm/small.yaml
  EXPECT_EQ(e.baseline().report.cycles, 16938);
  EXPECT_FALSE(d->docks().front()->isHidden());
  // A node click (impl line 3) moves the editor to the file line of the statement.
  const int fileLine = test::lineOf(text, QStringLiteral("c = step.BinaryMapAccum"));
  Q_EMIT e.costView()->lineActivated(3);
  int line = -1, col = -1;
  w.editor()->getCursorPosition(&line, &col);
  EXPECT_EQ(line + 1, fileLine);
  // What-if, then Apply: the editor's impl is the proposal, and one undo restores the document.
  e.whatIfPanel()->selectLine(4);
  e.whatIfPanel()->parDispatchBox()->setValue(16);
  ASSERT_TRUE(waitIdle(e));
  ASSERT_TRUE(e.whatIfPanel()->applyButton()->isEnabled());
  QTest::mouseClick(e.whatIfPanel()->applyButton(), Qt::LeftButton);
  EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("  C = step.OffChipStore(par_dispatch=16).apply(c)\n")))
      << w.editor()->text().toStdString();
  EXPECT_TRUE(w.editor()->text().startsWith(text.left(text.indexOf(QStringLiteral("impl: |")))));
  w.editor()->undo();
  EXPECT_EQ(w.editor()->text(), text);
  // The screenshot registry raises an explorer pane.
  QString err;
  EXPECT_TRUE(widgets::showScreenshotPane(w, QStringLiteral("roofline"), &err)) << err.toStdString();
  EXPECT_TRUE(widgets::screenshotPaneNames().contains(QStringLiteral("whatif")));
}
