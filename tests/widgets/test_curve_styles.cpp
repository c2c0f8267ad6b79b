// The learning curves' series as a reader tells them apart (issue 34 item 2): no two series of a chart share a
// colour, no two of a campaign share a line style, the median speedup is on the right (speedup) axis and every
// fraction on the left one, and the legend (a wrapped label) names every series in the presentation font.
#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QSet>
#include <QTest>
#include <QValueAxis>

#include "widgets/campaign/learning_curves.hpp"

using namespace sf::widgets;

namespace {

QVector<CurvePoint> curveWithSpeedups(double scale) {
  QVector<CurvePoint> c;
  for (int i = 0; i < 4; ++i) {
    CurvePoint p;
    p.x = i;
    p.tokens = 100 * (i + 1);
    p.pass1 = 0.2 * i * scale;
    p.passN = 0.25 * i * scale;
    p.fast1 = 0.1 * i * scale;
    p.fast15 = 0.05 * i * scale;
    p.medianSpeedup = 1.0 + 0.4 * i * scale;
    c << p;
  }
  return c;
}

struct Drawn {
  QString name;
  QColor colour;
  Qt::PenStyle style;
  Qt::Alignment axis;  // the vertical axis the series is attached to
  QString axisTitle;
};

QVector<Drawn> drawn(const LearningCurves& c) {
  QVector<Drawn> out;
  for (QAbstractSeries* s : c.chartView()->chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(s);
    if (!line || line->metaObject() != &QLineSeries::staticMetaObject) continue;  // lines only (not scatter/area)
    Drawn d{line->name(), line->pen().color(), line->pen().style(), {}, {}};
    int vertical = 0;
    for (QAbstractAxis* a : line->attachedAxes())
      if (a->orientation() == Qt::Vertical) {
        ++vertical;
        d.axis = a->alignment();
        d.axisTitle = a->titleText();
      }
    EXPECT_EQ(vertical, 1) << d.name.toStdString();
    out << d;
  }
  return out;
}

void expectDistinctAndOnTheirAxes(const LearningCurves& c, int series) {
  const QVector<Drawn> d = drawn(c);
  ASSERT_EQ(d.size(), series);
  QSet<QRgb> colours;
  for (const auto& s : d) {
    SCOPED_TRACE(s.name.toStdString());
    EXPECT_TRUE(!colours.contains(s.colour.rgb())) << "colour " << s.colour.name().toStdString() << " shared";
    colours.insert(s.colour.rgb());
    EXPECT_NE(s.colour, QColor(Qt::black)) << "drawn black";
    const bool speedup = s.name.endsWith(QStringLiteral("median speedup"));
    EXPECT_EQ(s.axis, speedup ? Qt::AlignRight : Qt::AlignLeft);
    EXPECT_TRUE(s.axisTitle.contains(speedup ? QStringLiteral("speedup") : QStringLiteral("fraction")))
        << s.axisTitle.toStdString();
    // The legend names it, in its colour.
    EXPECT_TRUE(c.legendText().contains(s.colour.name())) << c.legendText().toStdString();
  }
  // Within one campaign every series has its own line style.
  for (int i = 0; i < d.size(); ++i)
    for (int j = i + 1; j < d.size(); ++j) {
      const QString ri = d[i].name.section(QStringLiteral(" — "), 0, 0), rj = d[j].name.section(QStringLiteral(" — "), 0, 0);
      if (ri == rj) EXPECT_NE(d[i].style, d[j].style) << d[i].name.toStdString() << " / " << d[j].name.toStdString();
    }
}

}  // namespace

TEST(CurveStyles, OneCampaignFiveSeriesDistinctColoursStylesAndAxes) {
  LearningCurves c;
  c.resize(700, 500);
  c.show();
  CampaignUpdate u;
  u.reset = true;
  u.name = QStringLiteral("demo");
  u.newPoints = curveWithSpeedups(1.0);
  c.apply(u);
  expectDistinctAndOnTheirAxes(c, 5);  // pass@1, pass@n, Fast_1.0, Fast_1.5, median speedup
  // The speedup axis starts at 0 and reaches past the largest median.
  QValueAxis* right = nullptr;
  for (QAbstractAxis* a : c.chartView()->chart()->axes(Qt::Vertical))
    if (a->alignment() == Qt::AlignRight) right = qobject_cast<QValueAxis*>(a);
  ASSERT_TRUE(right);
  EXPECT_EQ(right->min(), 0.0);
  EXPECT_GE(right->max(), 1.0 + 0.4 * 3);
}

TEST(CurveStyles, ComparedCampaignsEachHaveTheirOwnColours) {
  LearningCurves c;
  c.resize(900, 600);
  c.show();
  QVector<CampaignSummary> runs;
  for (int i = 0; i < 3; ++i) {
    CampaignSummary s;
    s.name = QStringLiteral("run%1").arg(i);
    s.curve = curveWithSpeedups(1.0 - 0.2 * i);
    runs << s;
  }
  c.setCampaigns(runs);
  expectDistinctAndOnTheirAxes(c, 15);
  // A campaign's pass@1 is its hue: three campaigns, three different ones.
  QSet<QRgb> pass1;
  for (const auto& d : drawn(c))
    if (d.name.endsWith(QStringLiteral("pass@1"))) pass1.insert(d.colour.rgb());
  EXPECT_EQ(pass1.size(), 3);
}

TEST(CurveStyles, RunsOfOneConfigAreNamedByTheirWorkspace) {
  LearningCurves c;
  QVector<CampaignSummary> runs;
  for (const char* dir : {"/tmp/runs/demo-a", "/tmp/runs/demo-b"}) {
    CampaignSummary s;
    s.name = QStringLiteral("demo");
    s.dir = QString::fromLatin1(dir);
    s.curve = curveWithSpeedups(1.0);
    runs << s;
  }
  c.setCampaigns(runs);
  c.setShowPerformance(false);
  const auto p = c.plotted();
  ASSERT_EQ(p.size(), 4);
  EXPECT_EQ(p[0].first, QStringLiteral("demo-a · demo — pass@1"));
  EXPECT_EQ(p[2].first, QStringLiteral("demo-b · demo — pass@1"));
}

TEST(CurveStyles, TheLegendWrapsInThePresentationFont) {
  LearningCurves c;
  QFont big = c.font();
  big.setPointSizeF(std::max(14.0, big.pointSizeF() * 1.6));
  c.setFont(big);
  c.resize(420, 700);  // the right dock's width at 1366×768
  c.show();
  CampaignUpdate u;
  u.reset = true;
  u.name = QStringLiteral("demo");
  u.newPoints = curveWithSpeedups(1.0);
  c.apply(u);
  QTest::qWait(20);
  QLabel* legend = c.legendLabel();
  ASSERT_TRUE(legend && legend->isVisible());
  EXPECT_TRUE(legend->wordWrap());
  EXPECT_LE(legend->width(), c.width());
  EXPECT_GE(legend->height() + 1, legend->heightForWidth(legend->width()));  // every entry shown, none cut
  for (const QString& m : {QStringLiteral("pass@1"), QStringLiteral("pass@n"), QStringLiteral("Fast_1.0"),
                           QStringLiteral("Fast_1.5"), QStringLiteral("median")})
    EXPECT_TRUE(legend->text().contains(m)) << m.toStdString();
  EXPECT_FALSE(c.chartView()->chart()->legend()->isVisible());  // not the chart's own (it would be cut)
}
