// Run comparison speedup curves (issue 33 item 6): per run, the median over tasks of each task's best speedup
// (learn::best_speedup_curve, the report's median_speedup rule) against the samples verified so far, one colour
// per run (the run's hue in the Curves tab) with a legend naming the run by its workspace and config. A dashed
// grey line marks the baseline (1×).
#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/campaign/run_comparison_view.hpp"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace sf::widgets {

class RunSpeedupChart : public QWidget {
  Q_OBJECT
 public:
  explicit RunSpeedupChart(QWidget* parent = nullptr);
  void setRuns(const std::vector<RunRecordPtr>& runs);

  // One series per run that has a speedup (in run order), not counting the baseline line.
  QVector<QLineSeries*> runSeries() const { return series_; }
  QLineSeries* baselineSeries() const { return baseline_; }
  QValueAxis* xAxis() const { return x_; }
  QValueAxis* yAxis() const { return y_; }
  QChart* chart() const { return chart_; }
  QChartView* chartView() const { return view_; }
  // Why there is no curve (no run, or no run with a timed correct program); empty when there are curves.
  QString emptyText() const;

 private:
  QChart* chart_;
  QChartView* view_;
  QLabel* empty_;
  QValueAxis* x_ = nullptr;
  QValueAxis* y_ = nullptr;
  QLineSeries* baseline_ = nullptr;
  QVector<QLineSeries*> series_;
};

}  // namespace sf::widgets
