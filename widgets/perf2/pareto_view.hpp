// The Pareto view of the performance explorer (issue 33 item 7): for the open STeP-25 task, a scatter of cycles
// (across) against on-chip bytes (up, KiB) over the programs timed in this session. The programs the verifier
// passed are solid dots; the non-dominated ones among them (inspect::perf2::pareto_front, both minimised) are
// the Pareto front, drawn larger in their own colour and joined by a line. The baseline is a diamond; programs
// only timed so far (cost model, verification pending) are hollow rings, programs that failed verification
// red triangles, each series in the legend. Clicking a point emits programActivated with its text (the main
// window opens it in the editor). A sentence above the plot names the front's ends.
#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

#include "core/inspect/perf2_pareto.hpp"

class QLabel;
class QChart;
class QChartView;
class QScatterSeries;
class QLineSeries;
class QValueAxis;

namespace sf::widgets::perf2 {

class ParetoView : public QWidget {
  Q_OBJECT
 public:
  explicit ParetoView(QWidget* parent = nullptr);

  // The session's programs (a copy of the explorer's record) and the indices of the verified front.
  void setRecord(const inspect::perf2::SessionRecord& record);
  void setTaskName(const QString& name);

  const std::vector<inspect::perf2::SessionProgram>& programs() const { return programs_; }
  const std::vector<std::size_t>& front() const { return front_; }
  QString sentence() const;
  QString legendText() const;
  QChartView* chartView() const { return view_; }
  // Where program `i` is drawn, in the chart view's viewport coordinates (for tests and clicks).
  QPoint viewportPos(std::size_t i) const;
  // Emits programActivated for the program nearest to `value` (cycles, KiB) among `series`' points.
  void activateNearest(const QScatterSeries* series, const QPointF& value);

  static QColor verifiedColor() { return QColor(0x00, 0x72, 0xb2); }
  static QColor frontColor() { return QColor(0xd5, 0x5e, 0x00); }
  static QColor baselineColor() { return QColor(0x55, 0x55, 0x55); }
  static QColor pendingColor() { return QColor(0x99, 0x99, 0x99); }
  static QColor failedColor() { return QColor(0xcc, 0x22, 0x22); }

  QSize sizeHint() const override { return {520, 380}; }
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void programActivated(const QString& source);

 protected:
  void changeEvent(QEvent* e) override;  // the presentation font reaches the chart
  void resizeEvent(QResizeEvent* e) override;

 private:
  void rebuild();
  void applyFonts();
  void fitTicks();
  QScatterSeries* addScatter(const QString& name, const QColor& fill, const QColor& border, double size);

  QString task_;
  std::vector<inspect::perf2::SessionProgram> programs_;
  std::vector<std::size_t> front_;
  QLabel* sentence_;
  QLabel* legend_;
  QChart* chart_;
  QChartView* view_;
  QValueAxis *axisX_, *axisY_;
  std::pair<double, double> rangeX_{0, 1000}, rangeY_{0, 100};  // the data's padded ranges
  QLineSeries* frontLine_;
  QScatterSeries *pending_, *failed_, *verified_, *frontDots_, *baseline_;
  // For each scatter series, the program index of each of its points (same order).
  std::vector<std::pair<QScatterSeries*, std::vector<std::size_t>>> members_;
};

}  // namespace sf::widgets::perf2
