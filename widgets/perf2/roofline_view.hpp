// The roofline of a STeP-25 program against the chip (issue 33 item 3), log-log: the compute roof
// (compute_budget FLOP/cycle), the memory roof (HBM bytes/cycle · intensity), the program's point, the
// baseline's point and every program timed in the session, with labelled axes (units) and a legend. A
// sentence above the plot says what bounds the program and its % of peak.
#pragma once

#include <QPointF>
#include <QWidget>

#include <optional>
#include <vector>

#include "core/inspect/perf2_explain.hpp"
#include "widgets/perf2/perf2_types.hpp"

class QLabel;

namespace sf::widgets::perf2 {

class RooflinePlot : public QWidget {
  Q_OBJECT
 public:
  explicit RooflinePlot(QWidget* parent = nullptr);
  void setRoofs(const Roofs& r);
  void setProgram(std::optional<inspect::perf2::RooflinePoint> p);
  void setBaseline(std::optional<inspect::perf2::RooflinePoint> p);
  void addHistory(const inspect::perf2::RooflinePoint& p);
  void clearHistory();

  std::optional<inspect::perf2::RooflinePoint> program() const { return program_; }
  const std::vector<inspect::perf2::RooflinePoint>& history() const { return history_; }
  // Where a point is drawn (widget coordinates), for tests.
  QPointF toPixel(const inspect::perf2::RooflinePoint& p) const;

  static QColor programColor() { return QColor(0xd5, 0x5e, 0x00); }
  static QColor baselineColor() { return QColor(0x55, 0x55, 0x55); }
  static QColor historyColor() { return QColor(0x56, 0xb4, 0xe9); }
  static QColor computeRoofColor() { return QColor(0x00, 0x9e, 0x73); }
  static QColor memoryRoofColor() { return QColor(0x00, 0x72, 0xb2); }

  QSize sizeHint() const override { return {520, 340}; }
  QSize minimumSizeHint() const override { return {240, 140}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  QRectF plotRect() const;
  void ranges(double& x0, double& x1, double& y0, double& y1) const;

  Roofs roofs_;
  std::optional<inspect::perf2::RooflinePoint> program_, baseline_;
  std::vector<inspect::perf2::RooflinePoint> history_;
};

class RooflineView : public QWidget {
  Q_OBJECT
 public:
  explicit RooflineView(QWidget* parent = nullptr);
  void setRoofs(const Roofs& r);
  // The program's timing (a failed one keeps the last point); the baseline's (may be empty).
  void setOutcome(const Outcome& o);
  void setBaseline(const Outcome& o);
  RooflinePlot* plot() const { return plot_; }
  QString sentence() const;

 private:
  Roofs roofs_;
  QLabel* sentence_;
  RooflinePlot* plot_;
};

}  // namespace sf::widgets::perf2
