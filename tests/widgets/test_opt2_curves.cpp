// The learning curves of a STeP-25 optimisation campaign: a workspace written by the campaign of
// resources/configs/optimise-sage.json (run in-process, as `campaign run` runs it: builtin backend, ~4 s), opened
// in the workbench, shows per proposal the median and geomean best speedup on the speedup axis and Fast_1 /
// 1.5 / 2 on the fraction axis, each in its own colour, named in the legend, over an x axis of proposals.
#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <fstream>
#include <QFile>
#include <QLineSeries>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/launcher.hpp"
#include "core/learn/sweep.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/provider.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/main_window.hpp"

using namespace sf::widgets;

namespace {

// Runs the optimise-sage campaign into `dir`; "" when it finished, else why not.
std::string opt2CurvesRunOptimiseSage(const QString& dir) {
  QFile f(QStringLiteral(SF_SOURCE_DIR "/resources/configs/optimise-sage.json"));
  if (!f.open(QIODevice::ReadOnly)) return "cannot read optimise-sage.json";
  std::string err;
  auto cfg = sf::learn::config_from_json(nlohmann::json::parse(f.readAll().toStdString()), err);
  if (!cfg) return err;
  sf::synth::register_builtin_provider();
  auto ws = sf::store::Workspace::create(dir.toStdString(), sf::learn::config_to_json(*cfg), err);
  if (!ws) return err;
  sf::learn::Launch l = sf::learn::launch_campaign(*ws, sf::bench::resource_dir());
  if (!l.ok()) return l.error;
  const auto r = l.engine->run();
  return r.status == sf::learn::RunStatus::Finished ? std::string() : "not finished: " + r.error;
}

}  // namespace

TEST(Opt2Curves, AnOptimiseSageWorkspaceShowsSpeedupAndFastCurves) {
  QTemporaryDir tmp;
  ASSERT_TRUE(tmp.isValid());
  // The campaign is the one cell of a sweep folder (variant sage, seed 1).
  const std::filesystem::path root = tmp.path().toStdString();
  const QString cell = QString::fromStdString(sf::learn::sweep_cell_dir(root, "sage", 1).string());
  const std::string ran = opt2CurvesRunOptimiseSage(cell);
  ASSERT_EQ(ran, "");
  std::ofstream(root / "sweep.json") << nlohmann::json{
      {"format", "stepforge-sweep"}, {"version", 1}, {"config", nlohmann::json::object()}, {"seeds", {1}},
      {"variants", {{{"name", "sage"}, {"overrides", nlohmann::json::array()}}}}}.dump();
  {
    // A sweep of optimisation campaigns draws no ER / pass@1 band: the message says where its curves are.
    LearningCurves sweep;
    QString err;
    EXPECT_FALSE(sweep.openSweep(tmp.path(), &err));
    EXPECT_TRUE(err.contains(QStringLiteral("optimisation"))) << err.toStdString();
  }

  MainWindow w;
  w.campaignDocks()->openWorkspace(cell);
  LearningCurves* curves = w.campaignDocks()->curves();
  ASSERT_NE(curves, nullptr);
  QElapsedTimer t;
  t.start();
  while (curves->currentPoints().size() < 13 * 32 && t.elapsed() < 30000) QTest::qWait(50);
  ASSERT_EQ(curves->currentPoints().size(), 13 * 32);  // one point per proposal: 13 tasks x 32
  EXPECT_EQ(curves->currentPoints().back().x, 13 * 32);

  // Every series is an opt2 metric with more than one point, in its own colour, on its axis, in the legend.
  QStringList metrics;
  QSet<QRgb> colours;
  int lines = 0;
  for (QAbstractSeries* s : curves->chartView()->chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(s);
    if (!line || line->metaObject() != &QLineSeries::staticMetaObject) continue;
    ++lines;
    SCOPED_TRACE(line->name().toStdString());
    EXPECT_GT(line->count(), 1);
    EXPECT_FALSE(colours.contains(line->pen().color().rgb())) << "colour shared";
    colours.insert(line->pen().color().rgb());
    EXPECT_TRUE(curves->legendText().contains(line->pen().color().name()));
    const bool speedup = line->name().contains(QStringLiteral("speedup"));
    QAbstractAxis* vertical = nullptr;
    QAbstractAxis* horizontal = nullptr;
    for (QAbstractAxis* a : line->attachedAxes()) (a->orientation() == Qt::Vertical ? vertical : horizontal) = a;
    ASSERT_TRUE(vertical && horizontal);
    EXPECT_EQ(horizontal->titleText(), QStringLiteral("proposals"));
    EXPECT_EQ(vertical->objectName(), speedup ? QStringLiteral("SpeedupAxis") : QStringLiteral("FractionAxis"));
    if (speedup) {
      EXPECT_EQ(vertical->property("fullTitle").toString(), QStringLiteral("best speedup (×)"));
    } else {
      auto* v = qobject_cast<QValueAxis*>(vertical);
      ASSERT_TRUE(v);
      EXPECT_EQ(v->min(), 0.0);
      EXPECT_EQ(v->max(), 1.0);
    }
    metrics << line->name().section(QStringLiteral(" — "), 1);
  }
  EXPECT_EQ(lines, 5);
  EXPECT_EQ(metrics, (QStringList{QStringLiteral("median best speedup"), QStringLiteral("geomean best speedup"),
                                  QStringLiteral("Fast_1.0"), QStringLiteral("Fast_1.5"), QStringLiteral("Fast_2.0")}));
  // The campaign found faster programs: the last median best speedup is above 1, Fast_1 above 0.
  const CurvePoint& last = curves->currentPoints().back();
  ASSERT_TRUE(last.medianSpeedup && last.fast1 && last.fast2 && last.geomeanSpeedup);
  EXPECT_GT(*last.medianSpeedup, 1.0);
  EXPECT_GT(*last.fast1, 0.0);
  EXPECT_TRUE(curves->legendText().contains(QStringLiteral("correct+faster"))) << curves->legendText().toStdString();

  // The "speedups" choice keeps the two speedup series only.
  curves->setMetric(LearningCurves::Metric::Pass1);
  const auto only = curves->plottedSeries();
  ASSERT_EQ(only.size(), 2);
  EXPECT_EQ(only[0].kind, LearningCurves::Kind::Median);
  EXPECT_EQ(only[1].kind, LearningCurves::Kind::Geomean);
}
