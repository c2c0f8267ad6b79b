// The Performance pane (docs/gui.md "Performance"): the cost model's report for the program in the editor,
// computed off the GUI thread by the Verify job after a PASS (EngineWorker::perfOf, under the chip profile
// of the preferences): totals (cycles, µs, speedup against the task's baseline, off-chip and on-chip bytes,
// FLOPs, utilisation, feasibility with its violations), the per-unit table with the bottleneck highlighted,
// and a timeline of every unit's busy and stalled cycles. A unit row (or timeline row) with a statement
// line emits lineActivated(line). A program that did not verify shows why, and no numbers.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

#include "widgets/engine/engine_types.hpp"

class QLabel;
class QTableView;
class QScrollArea;

namespace sf::widgets {

// One row per unit of a cost report (loads, statements, stores), cycles and tokens with their units in the
// headers and each unit's utilisation (busy / total cycles). Every unit tied for the most busy cycles is a
// bottleneck row: bold with a highlighted background (issue 34 item 6).
class PerfUnitsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Line, Primitive, Stream, Busy, StallIn, BlockedOut, TokensIn, TokensOut, Utilisation, ColumnCount };
  enum Role { LineRole = Qt::UserRole + 1, BottleneckRole, SortRole };
  explicit PerfUnitsModel(QObject* parent = nullptr);

  void setReport(std::shared_ptr<const cost::CostReport> r);
  const cost::CostReport* report() const { return report_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  static QColor bottleneckColor();
  const std::vector<int>& bottlenecks() const { return ties_; }

 private:
  std::shared_ptr<const cost::CostReport> report_;
  std::vector<int> ties_;
};

// Per unit one row: per bucket of report.timeline_bucket_cycles cycles a stacked bar, busy (green) from the
// bottom and stalled (amber) above it, as a share of the bucket. The bottleneck row is outlined.
class PerfTimeline : public QWidget {
  Q_OBJECT
 public:
  explicit PerfTimeline(QWidget* parent = nullptr);
  void setReport(std::shared_ptr<const cost::CostReport> r);
  // The unit drawn at widget position y (-1 when none).
  int unitAt(int y) const;
  QRect rowRect(int unit) const;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

  static QColor busyColor();
  static QColor stalledColor();
  static constexpr int kRowHeight = 18, kLabelWidth = 170, kAxisHeight = 44;  // ticks + legend

 Q_SIGNALS:
  void unitClicked(int unit);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  std::shared_ptr<const cost::CostReport> report_;
};

class PerformancePane : public QWidget {
  Q_OBJECT
 public:
  explicit PerformancePane(QWidget* parent = nullptr);

  void setSnapshot(const PerfSnapshot& s);
  void clear();
  // The program in the editor changed after the report was made: say so (the numbers stay until the next
  // Verify).
  void setStale(bool stale);

  const PerfSnapshot& snapshot() const { return snapshot_; }
  PerfUnitsModel* unitsModel() const { return units_; }
  QTableView* unitsView() const { return view_; }
  PerfTimeline* timeline() const { return timeline_; }
  QString messageText() const;  // the "why" / stale line ("" when hidden)
  QString totalsText() const;   // the totals as plain text ("" when there is no report)
  QString boundText() const;    // the sentence saying what bounds the program ("" when there is no report)
  QString legendText() const;   // the legend under the table

 Q_SIGNALS:
  // A unit with a statement line was activated (table row or timeline row): jump to `line` (file, 1-based).
  void lineActivated(int line);

 private:
  void activateUnit(int unit);

  PerfSnapshot snapshot_;
  QLabel* message_;
  QLabel* totals_;
  QLabel* bound_;
  QLabel* legend_;
  PerfUnitsModel* units_;
  QTableView* view_;
  PerfTimeline* timeline_;
  QScrollArea* timelineScroll_;
  bool stale_ = false;
};

// "12 345" style integer and "2.35×" speedup texts shared with the status bar.
QString formatCount(qint64 v);
QString formatSpeedup(double s);

}  // namespace sf::widgets
