// The Pareto view of the STeP-25 explorer (issue 33 item 7): the series a session record is drawn as (the
// verified front, dominated verified programs, pending and failed ones, the baseline), a click on a point
// emits that program, the explorer verifies what it times so the front is over verified programs only, and in
// the main window (`--task gemm/small`, pane `pareto`) the view fits at 1366x768 and a click opens the program.
#include <gtest/gtest.h>

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include "core/inspect/perf2_pareto.hpp"
#include "core/inspect/perf2_time.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/main_window.hpp"
#include "widgets/perf2/pareto_view.hpp"
#include "widgets/perf2/perf2_docks.hpp"
#include "widgets/perf2/perf2_engine.hpp"
#include "widgets/perf2/perf_explorer.hpp"
#include "widgets/perf2/whatif_panel.hpp"
#include "widgets/screenshot_panes.hpp"

using namespace sf;
namespace ex = sf::inspect::perf2;
namespace p2 = sf::widgets::perf2;

namespace {

ex::SessionRecord handRecord() {
  ex::SessionRecord r;
  r.add_timed("base\n", 16938, 256 * 1024, true, "baseline");  // 0: verified, front (between 1 and 3)
  r.add_timed("fast\n", 8745, 768 * 1024);                      // 1: verified, front (fastest)
  r.add_timed("mid\n", 12000, 800 * 1024);                      // 2: verified, dominated by 1
  r.add_timed("small\n", 30000, 96 * 1024);                     // 3: verified, front (smallest)
  r.add_timed("pending\n", 5000, 10 * 1024);                    // 4: not verified: never on the front
  r.add_timed("broken\n", 4000, 400 * 1024);                    // 5: failed verification
  for (const char* s : {"base\n", "fast\n", "mid\n", "small\n"}) r.set_verified(s, true);
  r.set_verified("broken\n", false);
  return r;
}

QScatterSeries* seriesNamed(p2::ParetoView& v, const QString& name) {
  for (auto* s : v.chartView()->chart()->series())
    if (s->name() == name) return qobject_cast<QScatterSeries*>(s);
  return nullptr;
}

bool paretoWaitIdle(p2::Explorer& e) {
  for (int i = 0; i < 1000 && (e.retimer()->busy() || e.verifying()); ++i) QTest::qWait(10);
  QCoreApplication::processEvents();
  return !e.retimer()->busy() && !e.verifying();
}

}  // namespace

TEST(ParetoView, SeriesOfAHandWorkedRecord) {
  p2::ParetoView v;
  v.setTaskName(QStringLiteral("gemm/small"));
  v.setRecord(handRecord());
  EXPECT_EQ(v.front(), (std::vector<std::size_t>{1, 0, 3}));  // by cycles; 4 and 5 are not verified
  ASSERT_TRUE(seriesNamed(v, QStringLiteral("Pareto front")));
  EXPECT_EQ(seriesNamed(v, QStringLiteral("Pareto front"))->count(), 3);
  EXPECT_EQ(seriesNamed(v, QStringLiteral("dominated"))->count(), 1);
  EXPECT_EQ(seriesNamed(v, QStringLiteral("not verified yet"))->count(), 1);
  EXPECT_EQ(seriesNamed(v, QStringLiteral("failed"))->count(), 1);
  EXPECT_EQ(seriesNamed(v, QStringLiteral("baseline"))->count(), 1);
  // Every series has its own colour, and the legend names each one.
  QStringList colours;
  for (auto* s : v.chartView()->chart()->series())
    if (auto* sc = qobject_cast<QScatterSeries*>(s)) colours << (sc->color() == Qt::transparent ? sc->borderColor() : sc->color()).name();
  colours.removeDuplicates();
  EXPECT_EQ(colours.size(), 5);
  for (const char* n : {"Pareto&nbsp;front", "dominated", "baseline", "not&nbsp;verified&nbsp;yet", "failed"})
    EXPECT_TRUE(v.legendText().contains(QLatin1String(n))) << n;
  EXPECT_TRUE(v.sentence().contains(QStringLiteral("gemm/small: 6 timed, 4 verified, 3 on the front")))
      << v.sentence().toStdString();
  EXPECT_TRUE(v.sentence().contains(QStringLiteral(": 8,745 cycles (768 KiB on chip) to 30,000 cycles (96 KiB)."))) << v.sentence().toStdString();
  EXPECT_TRUE(v.sentence().contains(QStringLiteral("1 failed verification")));
  // Axes carry their units and hold every point.
  auto axes = v.chartView()->chart()->axes();
  ASSERT_EQ(axes.size(), 2);
  auto* x = qobject_cast<QValueAxis*>(v.chartView()->chart()->axes(Qt::Horizontal).front());
  auto* y = qobject_cast<QValueAxis*>(v.chartView()->chart()->axes(Qt::Vertical).front());
  EXPECT_EQ(x->titleText(), QStringLiteral("cycles"));
  EXPECT_TRUE(y->titleText().contains(QStringLiteral("KiB")));
  EXPECT_LE(x->min(), 4000);
  EXPECT_GE(x->max(), 30000);
  EXPECT_GE(y->max(), 800);
}

TEST(ParetoView, ClickingAPointEmitsItsProgram) {
  p2::ParetoView v;
  v.resize(520, 420);
  v.setRecord(handRecord());
  v.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
  QSignalSpy spy(&v, &p2::ParetoView::programActivated);
  for (std::size_t i : {std::size_t{3}, std::size_t{2}, std::size_t{4}}) {
    const QPoint at = v.viewportPos(i);
    ASSERT_TRUE(v.chartView()->viewport()->rect().contains(at)) << i;
    QTest::mouseClick(v.chartView()->viewport(), Qt::LeftButton, {}, at);
    ASSERT_FALSE(spy.isEmpty()) << "no click delivered for point " << i;
    EXPECT_EQ(spy.takeLast().at(0).toString().toStdString(), v.programs()[i].source);
  }
  // A click on empty plot area opens nothing.
  QTest::mouseClick(v.chartView()->viewport(), Qt::LeftButton, {}, v.chartView()->viewport()->rect().topRight() + QPoint(-3, 3));
  EXPECT_TRUE(spy.isEmpty());
}

// The explorer times and verifies the K1 GEMM baseline and two what-if variants: every one passes the
// verifier, and the view's front is the front of those verified programs.
TEST(ParetoView, TheExplorerFrontsTheProgramsItVerified) {
  Diagnostics d;
  auto t = step::load_task_file(std::string(SF_TEST_DATA_DIR) + "/step25/K1_gemm.yaml", d);
  ASSERT_TRUE(t && t->impl);
  auto task = std::make_shared<const step::TaskDoc>(std::move(*t));
  const auto chip = step2::perf::accelopt_step();
  p2::Explorer e(p2::engineTimer(task, chip, 16938));
  e.setVerifier(p2::engineVerifier([task] { return task; }));
  e.setRoofs(p2::roofsOf(chip));
  e.setSizes(ex::size_values(*task));
  e.setBaseline(*task->impl);
  e.setProgram(*task->impl);
  ASSERT_TRUE(paretoWaitIdle(e));
  auto* w = e.whatIfPanel();
  for (const char* size : {"256", "64"}) {
    w->tileBox(QStringLiteral("M"))->setCurrentText(QLatin1String(size));
    ASSERT_TRUE(paretoWaitIdle(e));
  }
  const auto& rec = e.programs();
  ASSERT_EQ(rec.programs().size(), 3u);  // the baseline (also the editor's program) and two proposals
  EXPECT_TRUE(rec.programs()[0].baseline);
  std::vector<ex::ParetoInput> pts;
  for (const auto& p : rec.programs()) {
    EXPECT_EQ(p.verified, ex::Verification::Pass) << p.source;
    pts.push_back({p.cycles, p.onchip_bytes});
  }
  EXPECT_EQ(e.paretoView()->front(), ex::pareto_front(pts));
  EXPECT_FALSE(e.paretoView()->front().empty());
  EXPECT_EQ(e.paretoView()->programs().size(), 3u);
}

// In the main window: `--task gemm/small` opens the v2 task with its baseline, the pane `pareto` fills the view
// (what-if variants, timed and verified), the dock fits at 1366x768 with its sentence and legend whole, and a
// click on a front point puts that program in the editor.
TEST(ParetoView, InTheMainWindowItFitsAt1366x768AndAClickOpensTheProgram) {
  widgets::MainWindow w;
  w.resize(1366, 768);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QString err;
  EXPECT_FALSE(widgets::openTask(w, QStringLiteral("../no_such_dir/gemm/small"), &err));  // no file, not an id
  EXPECT_FALSE(widgets::openTask(w, QStringLiteral("gemm/no_such_task"), &err));
  ASSERT_TRUE(widgets::openTask(w, QStringLiteral("gemm/small"), &err)) << err.toStdString();
  EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("impl: |\n  a = step.OffChipLoad(")));
  EXPECT_TRUE(widgets::screenshotPaneNames().contains(QStringLiteral("pareto")));
  ASSERT_TRUE(widgets::showScreenshotPane(w, QStringLiteral("pareto"), &err)) << err.toStdString();
  QApplication::processEvents();
  auto* d = w.perf2Docks();
  ASSERT_TRUE(d && d->active());
  p2::ParetoView* v = d->explorer()->paretoView();
  EXPECT_GE(v->programs().size(), 5u);
  ASSERT_GE(v->front().size(), 2u) << v->sentence().toStdString();
  EXPECT_EQ(w.size(), QSize(1366, 768));
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("ParetoDock"));
  ASSERT_TRUE(dock && dock->isVisible());
  EXPECT_GE(v->width(), v->minimumSizeHint().width());
  EXPECT_GE(v->height(), v->minimumSizeHint().height());
  EXPECT_TRUE(v->rect().contains(v->chartView()->geometry()));
  for (QLabel* l : v->findChildren<QLabel*>())
    EXPECT_GE(l->height(), l->heightForWidth(l->width()) - 1) << l->objectName().toStdString();
  // The plot area keeps room for the points.
  const QRectF plot = v->chartView()->chart()->plotArea();
  EXPECT_GE(plot.width(), 150);
  EXPECT_GE(plot.height(), 100);
  // A click on the fastest front point opens it (the impl block of the editor becomes that program).
  const std::size_t fastest = v->front().front();
  const std::string source = v->programs()[fastest].source;
  QTest::mouseClick(v->chartView()->viewport(), Qt::LeftButton, {}, v->viewportPos(fastest));
  const QString firstLine = QString::fromStdString(source.substr(0, source.find('\n')));
  EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("  ") + firstLine)) << firstLine.toStdString();
}
