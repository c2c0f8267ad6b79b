// The timeline of a STeP-25 program (issue 33 item 4): one row per node (busy, stalled on input, blocked on
// output over the cycles, from the cost model's bounded interval list) and one row per HBM channel below
// (when the channel takes a request: hbm_interval cycles per request; the answer's latency is pipelined and
// not drawn). Channel rows share the height left below the node rows (thin rows, labelled in groups when a
// label does not fit). The wheel zooms around the pointer, dragging pans, a double click shows all cycles again. Clicking a node
// row emits its source line; selectLine() highlights a line's rows. When the model stopped recording
// intervals (Report::timeline_truncated) a banner says the timeline is summarised. Drawing merges intervals
// narrower than a pixel, so a long program never freezes the window.
#pragma once

#include <QWidget>

#include "widgets/perf2/perf2_types.hpp"

namespace sf::widgets::perf2 {

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(QWidget* parent = nullptr);
  void setOutcome(const Outcome& o);
  void selectLine(int line);
  void resetZoom();
  // Zooms by `factor` (> 1 = in) around cycle `at`.
  void zoom(double factor, double at);

  int rowCount() const;
  int nodeRows() const { return static_cast<int>(outcome_.report.nodes.size()); }
  int channelRows() const { return channels_; }
  int rowAt(int y) const;
  QRect rowRect(int row) const;
  int channelRowHeight() const;  // kRowHeight when there is room, down to kMinChannelHeight
  double viewBegin() const { return t0_; }
  double viewEnd() const { return t1_; }
  bool summarised() const { return outcome_.report.timeline_truncated; }
  int selectedRow() const { return selected_; }
  int drawnRects() const { return drawn_; }  // rectangles the last paint drew (after merging)

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  static constexpr int kRowHeight = 18, kAxisHeight = 40, kMinChannelHeight = 3;
  // The colour of an HBM channel's busy intervals (distinct from a node's busy).
  static QColor channelColor();

 Q_SIGNALS:
  void lineActivated(int line);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;

 private:
  int labelWidth() const;
  int bannerHeight() const;
  int footerHeight() const;
  int rowsBottom() const;
  double cycleAt(double x) const;

  Outcome outcome_;
  int channels_ = 0;
  double t0_ = 0, t1_ = 1;
  int selected_ = -1;
  int drawn_ = 0;
  double dragX_ = -1, dragT0_ = 0, dragT1_ = 0;
};

}  // namespace sf::widgets::perf2
