#include "widgets/perf2/timeline_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "core/inspect/perf2_explain.hpp"

namespace sf::widgets::perf2 {

using step2::perf::Activity;

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("Perf2TimelineView"));
  setAccessibleName(tr("Node timeline"));
  setMinimumHeight(90);
}

int TimelineView::rowCount() const { return nodeRows() + channels_; }

int TimelineView::labelWidth() const {
  return std::clamp(fontMetrics().horizontalAdvance(QStringLiteral("99 BinaryMapAccum")) + 12, 120, 260);
}

// The axis and the legend (the channels' entry on a line of its own).
int TimelineView::footerHeight() const { return kAxisHeight + (channels_ > 0 ? fontMetrics().height() + 4 : 0); }

int TimelineView::bannerHeight() const { return summarised() ? fontMetrics().height() + 8 : 0; }

QSize TimelineView::sizeHint() const {
  return {640, bannerHeight() + footerHeight() + nodeRows() * kRowHeight + channels_ * std::min(kRowHeight, 8) + 4};
}
QSize TimelineView::minimumSizeHint() const { return {labelWidth() + 120, 90}; }

void TimelineView::setOutcome(const Outcome& o) {
  if (!o.ok) return;  // a broken program keeps the last timeline
  const bool sameLength = outcome_.ok && outcome_.report.cycles == o.report.cycles;
  outcome_ = o;
  int maxRow = -1;
  for (const auto& iv : o.report.timeline) maxRow = std::max(maxRow, iv.row);
  channels_ = std::max(o.report.timeline_channels, maxRow + 1 - nodeRows());
  if (!sameLength) resetZoom();
  updateGeometry();
  update();
}

void TimelineView::resetZoom() {
  t0_ = 0;
  t1_ = std::max<double>(1.0, static_cast<double>(outcome_.report.cycles));
  update();
}

void TimelineView::zoom(double factor, double at) {
  const double total = std::max<double>(1.0, static_cast<double>(outcome_.report.cycles));
  double span = std::clamp((t1_ - t0_) / factor, 8.0, total);
  const double f = (at - t0_) / std::max(1e-9, t1_ - t0_);
  t0_ = std::clamp(at - f * span, 0.0, total - span);
  t1_ = t0_ + span;
  update();
}

int TimelineView::channelRowHeight() const {
  if (channels_ <= 0) return kRowHeight;
  const int room = height() - bannerHeight() - footerHeight() - 4 - nodeRows() * kRowHeight;
  return std::clamp(room / channels_, static_cast<int>(kMinChannelHeight), static_cast<int>(kRowHeight));
}

QRect TimelineView::rowRect(int row) const {
  const int top = bannerHeight();
  if (row < nodeRows()) return {0, top + row * kRowHeight, width(), kRowHeight};
  const int ch = channelRowHeight();
  return {0, top + nodeRows() * kRowHeight + (row - nodeRows()) * ch, width(), ch};
}

int TimelineView::rowsBottom() const { return rowRect(rowCount() - 1).bottom() + 1; }

int TimelineView::rowAt(int y) const {
  const int top = bannerHeight();
  if (y < top || rowCount() == 0) return -1;
  const int r = (y - top) / kRowHeight;
  if (r < nodeRows()) return r;
  const int c = (y - top - nodeRows() * kRowHeight) / channelRowHeight();
  return c < channels_ ? nodeRows() + c : -1;
}

QColor TimelineView::channelColor() { return QColor(0x00, 0x72, 0xb2); }

double TimelineView::cycleAt(double x) const {
  const double w = std::max(1, width() - labelWidth() - 8);
  return t0_ + (x - labelWidth()) / w * (t1_ - t0_);
}

void TimelineView::selectLine(int line) {
  selected_ = -1;
  for (int i = 0; i < nodeRows(); ++i)
    if (outcome_.report.nodes[static_cast<std::size_t>(i)].line == line) {
      selected_ = i;
      break;
    }
  update();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps != 0) zoom(std::pow(1.25, steps), cycleAt(e->position().x()));
  e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
  dragX_ = e->position().x();
  dragT0_ = t0_;
  dragT1_ = t1_;
  const int r = rowAt(static_cast<int>(e->position().y()));
  if (r >= 0 && r < nodeRows()) {
    selected_ = r;
    update();
    const int line = outcome_.report.nodes[static_cast<std::size_t>(r)].line;
    if (line > 0) Q_EMIT lineActivated(line);
  }
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton) || dragX_ < 0) return;
  const double w = std::max(1, width() - labelWidth() - 8);
  const double total = std::max<double>(1.0, static_cast<double>(outcome_.report.cycles));
  const double span = dragT1_ - dragT0_;
  const double dt = (dragX_ - e->position().x()) / w * span;
  t0_ = std::clamp(dragT0_ + dt, 0.0, total - span);
  t1_ = t0_ + span;
  update();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*) { resetZoom(); }

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QColor text = palette().text().color();
  drawn_ = 0;
  if (!outcome_.ok) {
    p.setPen(text);
    p.drawText(rect(), Qt::AlignCenter, tr("No timing yet"));
    return;
  }
  const auto& rep = outcome_.report;
  const int lw = labelWidth();
  const double plotW = std::max(1, width() - lw - 8);
  if (summarised()) {
    const QRect b(0, 0, width(), bannerHeight());
    p.fillRect(b, QColor(0xfd, 0xe6, 0x8a));
    p.setPen(Qt::black);
    p.drawText(b.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Summarised: the model kept only the first %1 intervals; later cycles are not drawn (the "
                  "numbers are exact).")
                   .arg(QString::fromStdString(inspect::perf2::group_digits(static_cast<std::int64_t>(rep.timeline.size())))));
  }
  // Row labels and backgrounds. Channel rows too thin for a label get one every few rows and a group label.
  const QFontMetrics lfm = p.fontMetrics();
  const int chH = channelRowHeight();
  const int every = chH >= lfm.height() ? 1 : (lfm.height() + chH - 1) / chH;
  for (int r = 0; r < rowCount(); ++r) {  // backgrounds first: a label may be taller than a channel row
    const QRect row = rowRect(r);
    if (r == selected_) p.fillRect(row, palette().highlight().color().lighter(170));
    else if (r % 2) p.fillRect(row, palette().alternateBase());
  }
  for (int r = 0; r < rowCount(); ++r) {
    const QRect row = rowRect(r);
    QString label;
    if (r < nodeRows()) {
      const auto& n = rep.nodes[static_cast<std::size_t>(r)];
      label = (n.line > 0 ? QString::number(n.line) : QStringLiteral("-")) + QLatin1Char(' ') +
              QString::fromStdString(n.op);
    } else if (every == 1) {
      label = tr("HBM channel %1").arg(r - nodeRows());
    } else if ((r - nodeRows()) % every == 0) {
      p.setPen(text);
      p.drawText(QRect(4, row.top(), lw - 8, lfm.height()), Qt::AlignTop | Qt::AlignRight,
                 QString::number(r - nodeRows()));
      continue;
    }
    p.setPen(text);
    p.drawText(QRect(4, row.top(), lw - 8, row.height()), Qt::AlignVCenter | Qt::AlignLeft,
               lfm.elidedText(label, Qt::ElideRight, lw - 8));
  }
  if (channels_ > 0) {
    const int top = rowRect(nodeRows()).top();
    p.setPen(text);
    p.drawLine(0, top, width(), top);
    if (every > 1)
      p.drawText(QRect(4, top, lw - 8, channels_ * chH), Qt::AlignVCenter | Qt::AlignLeft,
                 tr("HBM channels"));
  }
  // Intervals, merged per row and activity when less than a pixel apart (one pending span per slot).
  const int rows = rowCount();
  struct Span {
    double from = -1e18, to = -1e18;
  };
  std::vector<Span> pending(static_cast<std::size_t>(rows) * 3);
  const double scale = plotW / std::max(1e-9, t1_ - t0_);
  p.setClipRect(QRect(lw, 0, static_cast<int>(plotW) + 1, height()));
  auto flush = [&](std::size_t slot) {
    Span& sp = pending[slot];
    if (sp.to <= sp.from) return;
    const int row = static_cast<int>(slot / 3);
    const auto what = static_cast<Activity>(slot % 3);
    const QRect rr = rowRect(row);
    // Busy fills the row; stalls (lower half) and blocks (upper half) are thinner, so all three stay visible.
    const double h = rr.height() - 4;
    double top = rr.top() + 2, hh = h;
    if (what == Activity::StallIn) top += h * 0.5, hh = h * 0.5;
    if (what == Activity::BlockedOut) hh = h * 0.5;
    if (row >= nodeRows()) top = rr.top(), hh = std::max(1, rr.height() - (rr.height() > 6 ? 2 : 0));
    p.fillRect(QRectF(sp.from, top, sp.to - sp.from, hh), row >= nodeRows() ? channelColor() : activityColor(what));
    ++drawn_;
    sp = Span{};
  };
  for (const auto& iv : rep.timeline) {
    if (iv.row < 0 || iv.row >= rows || iv.end <= t0_ || iv.begin >= t1_) continue;
    const double x0 = lw + (static_cast<double>(iv.begin) - t0_) * scale;
    const double x1 = std::max(x0 + 1.0, lw + (static_cast<double>(iv.end) - t0_) * scale);
    const std::size_t slot = static_cast<std::size_t>(iv.row) * 3 + static_cast<std::size_t>(iv.what);
    Span& sp = pending[slot];
    if (x0 <= sp.to + 1.0 && x0 >= sp.from) {
      sp.to = std::max(sp.to, x1);
      continue;
    }
    flush(slot);
    pending[slot] = Span{x0, x1};
  }
  for (std::size_t slot = 0; slot < pending.size(); ++slot) flush(slot);
  p.setClipping(false);
  // Axis with cycle ticks, and the legend.
  const int axisY = (rows > 0 ? rowsBottom() : bannerHeight()) + 2;
  p.setPen(text);
  p.drawLine(lw, axisY, static_cast<int>(lw + plotW), axisY);
  const QFontMetrics fm = p.fontMetrics();
  for (int k = 0; k <= 4; ++k) {
    const double x = lw + plotW * k / 4;
    p.drawLine(QPointF(x, axisY), QPointF(x, axisY + 4));
    const QString t = QString::number(static_cast<qint64>(t0_ + (t1_ - t0_) * k / 4));
    const int tw = fm.horizontalAdvance(t);
    p.drawText(QPointF(std::clamp(x - tw / 2.0, 0.0, width() - tw - 1.0), axisY + 4 + fm.ascent()), t);
  }
  p.drawText(QRect(4, axisY + 2, lw - 8, fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter, tr("cycles"));
  double lx = lw;
  const int ly = axisY + fm.height() + 8;
  for (Activity a : {Activity::Busy, Activity::StallIn, Activity::BlockedOut}) {
    p.fillRect(QRectF(lx, ly + 2, 14, fm.height() - 4), activityColor(a));
    p.setPen(text);
    p.drawText(QPointF(lx + 18, ly + fm.ascent()), activityLabel(a));
    lx += 30 + fm.horizontalAdvance(activityLabel(a));
  }
  if (channels_ > 0) {
    const QString l = tr("HBM channel taking a request");
    const int cy = ly + fm.height() + 4;
    p.fillRect(QRectF(lw, cy + 2, 14, fm.height() - 4), channelColor());
    p.setPen(text);
    p.drawText(QPointF(lw + 18, cy + fm.ascent()), l);
  }
}

}  // namespace sf::widgets::perf2
