// Learning curves (issue 8 item 8): pass@1 and pass@n per iteration or per cumulative tokens, for all tasks or
// one difficulty tag; the current campaign plus any number of overlaid campaigns (run comparison). Sage runs
// plot ER (solved episodes / episodes) and the fraction of tasks solved over episodes. A STeP-25 optimisation
// campaign (dialect step-v2) plots, per proposal, the median and geometric-mean best speedup (right axis) and
// Fast_1, Fast_1.5, Fast_2 (fraction of the tasks started so far). Exports PNG and SVG.
#pragma once

#include <QWidget>

#include "widgets/campaign/campaign_types.hpp"
#include "widgets/campaign/replay_types.hpp"

class QCheckBox;
class QLabel;
class QPen;
class QComboBox;
class QChart;
class QChartView;
class QPainter;

namespace sf::widgets {

class LearningCurves : public QWidget {
  Q_OBJECT
 public:
  enum class XAxis { Iteration, Tokens };
  enum class Metric { Pass1, PassN, Both };

  explicit LearningCurves(QWidget* parent = nullptr);

  // The live campaign (series 0): cleared by a reset update, extended by new points.
  void apply(const CampaignUpdate& u);
  void clearCurrent();
  // Overlaid campaigns (run comparison), drawn after the current one.
  void setOverlays(const QVector<CampaignSummary>& campaigns);
  // Only the given campaigns (no live series), e.g. in the comparison pane.
  void setCampaigns(const QVector<CampaignSummary>& campaigns);

  // A sweep folder (`stepforge-cli campaign sweep … --out DIR`, docs/learn.md "Sweeps"): per variant, the
  // mean over its seeds of pass@1 (sage: ER) per iteration / episode, drawn with a band from the lowest to the
  // highest seed (min–max over seeds; a finished campaign keeps its last value). Replaces the campaigns
  // shown until clearSweep(). False with a message when DIR is not a sweep folder or no cell has a point.
  bool openSweep(const QString& dir, QString* error = nullptr);
  void clearSweep();
  struct SweepBand {
    QString label;  // "v1 memory.enabled=false"
    int seeds = 0;  // cells with a curve
    bool sage = false;
    QList<QPointF> mean, lo, hi;  // x = iteration / episode
  };
  const QVector<SweepBand>& sweepBands() const { return sweep_; }

  // The second row of controls (the Speedups switch, Open sweep, export): the presentation layout hides it,
  // so the chart keeps its room at 1366×768.
  void setToolsVisible(bool on);
  void setXAxis(XAxis x);
  void setMetric(Metric m);
  void setTag(const QString& tag);  // "" = all tasks
  // Fast_1.0, Fast_1.5 (fraction of tasks, dotted) and the median speedup (right axis) of every campaign whose
  // summaries have them (all tasks only: the logs have no per-tag performance metrics). On by default.
  void setShowPerformance(bool on);
  bool showPerformance() const { return showPerf_; }
  QStringList tags() const;

  const QVector<CurvePoint>& currentPoints() const { return current_.points; }
  // The plotted series (name + points), in drawing order (for tests and export).
  QVector<QPair<QString, QList<QPointF>>> plotted() const;
  // What a series shows: its line style (solid, dashed, dotted, dash-dot-dot, dash-dot) and, for a single
  // campaign, its colour; Median goes on the right (speedup) axis, every other kind on the left (fraction).
  // Fast2 and Geomean: STeP-25 optimisation campaigns only (Geomean on the speedup axis too).
  enum class Kind { Pass1 = 0, PassN, Fast1, Fast15, Median, Fast2, Geomean };
  struct Plotted {
    QString name;    // "campaign — metric" (as plotted() names it)
    QString run;     // the campaign (or sweep variant)
    QString metric;  // "pass@1", "Fast_1.0", …
    QList<QPointF> points;
    int run_index = 0;
    Kind kind = Kind::Pass1;
  };
  QVector<Plotted> plottedSeries() const;
  // The pen of a series: one colour per kind for a single campaign; several campaigns get one hue each, in a
  // distinct shade per kind. No two series of a chart share a colour.
  static QPen penFor(int run, int runs, Kind k);
  // The legend below the chart (rich text, wrapped to the pane's width).
  QString legendText() const;
  QLabel* legendLabel() const { return legend_; }

  // Key moments of a replay reached so far (ReplayControls): marked on the current campaign's first curve.
  void setMoments(const QVector<ReplayMoment>& moments);
  // Where the markers are (x as plotted, y on the first curve), in moment order.
  QList<QPointF> momentPoints() const;

  bool exportPng(const QString& path, QSize size = {1000, 640}) const;
  bool exportSvg(const QString& path, QSize size = {1000, 640}) const;
  QChartView* chartView() const { return view_; }

 protected:
  void changeEvent(QEvent* e) override;  // the widget's font (e.g. the presentation layout's) → the chart's
  bool eventFilter(QObject* o, QEvent* e) override;  // the chart view's resizes → tick spacing, legend

 private:
  struct Series {
    QString label;
    bool sage = false;
    QVector<CurvePoint> points;
    bool opt2 = false;  // per proposal: speedups and Fast_p (learn::CurveFigures::opt2)
  };
  bool opt2Shown() const;  // the chart shows a STeP-25 optimisation campaign (x = proposals)
  void rebuild();
  void render(QPainter& p, QSize size) const;
  void updateTagCombo();
  void applyFonts();
  void fitToSize();  // ticks no closer than their labels need; the legend beside the plot when it needs room
  QList<QPointF> points(const Series& s, bool passN) const;
  enum class PerfMetric { Fast1, Fast15, Median, Fast2, Geomean };
  QList<QPointF> perfPoints(const Series& s, PerfMetric m) const;

  QVector<SweepBand> sweep_;
  Series current_;
  QVector<ReplayMoment> moments_;
  bool showCurrent_ = true;
  QVector<Series> overlays_;
  XAxis x_ = XAxis::Iteration;
  Metric metric_ = Metric::Both;
  QString tag_;
  bool showPerf_ = true;
  QComboBox *xCombo_, *metricCombo_, *tagCombo_;
  QCheckBox* perfCheck_;
  QLabel* legend_ = nullptr;
  QWidget* tools_ = nullptr;
  QChart* chart_;
  QChartView* view_;
};

}  // namespace sf::widgets
