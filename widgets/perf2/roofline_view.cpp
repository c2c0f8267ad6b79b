#include "widgets/perf2/roofline_view.hpp"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sf::widgets::perf2 {

namespace ex = sf::inspect::perf2;

RooflinePlot::RooflinePlot(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("Perf2RooflinePlot"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RooflinePlot::setRoofs(const Roofs& r) {
  roofs_ = r;
  update();
}
void RooflinePlot::setProgram(std::optional<ex::RooflinePoint> p) {
  program_ = p;
  update();
}
void RooflinePlot::setBaseline(std::optional<ex::RooflinePoint> p) {
  baseline_ = p;
  update();
}
void RooflinePlot::addHistory(const ex::RooflinePoint& p) {
  if (history_.size() >= 500) history_.erase(history_.begin());  // bounded
  history_.push_back(p);
  update();
}
void RooflinePlot::clearHistory() {
  history_.clear();
  update();
}

QRectF RooflinePlot::plotRect() const {
  const QFontMetrics fm(font());
  const double left = fm.horizontalAdvance(QStringLiteral("10000")) + fm.height() + 10;
  const double bottom = 2.0 * fm.height() + 10;
  return QRectF(left, 8, std::max(10.0, width() - left - 12), std::max(10.0, height() - bottom - 8));
}

void RooflinePlot::ranges(double& x0, double& x1, double& y0, double& y1) const {
  const double ridge = roofs_.compute_flop_per_cycle / std::max(1e-9, roofs_.hbm_bytes_per_cycle);
  double xmin = ridge, xmax = ridge, ymin = roofs_.compute_flop_per_cycle, ymax = roofs_.compute_flop_per_cycle;
  auto take = [&](const ex::RooflinePoint& p) {
    if (p.intensity > 0) xmin = std::min(xmin, p.intensity), xmax = std::max(xmax, p.intensity);
    if (p.flop_per_cycle > 0) ymin = std::min(ymin, p.flop_per_cycle), ymax = std::max(ymax, p.flop_per_cycle);
  };
  if (program_) take(*program_);
  if (baseline_) take(*baseline_);
  for (const auto& h : history_) take(h);
  x0 = std::pow(10.0, std::floor(std::log10(xmin / 2)));
  x1 = std::pow(10.0, std::ceil(std::log10(xmax * 2)));
  y0 = std::pow(10.0, std::floor(std::log10(std::max(1e-6, std::min(ymin, roofs_.hbm_bytes_per_cycle * x0)) / 2)));
  y1 = std::pow(10.0, std::ceil(std::log10(ymax * 2)));
}

QPointF RooflinePlot::toPixel(const ex::RooflinePoint& p) const {
  double x0, x1, y0, y1;
  ranges(x0, x1, y0, y1);
  const QRectF r = plotRect();
  const double fx = (std::log10(std::max(p.intensity, x0)) - std::log10(x0)) / (std::log10(x1) - std::log10(x0));
  const double fy = (std::log10(std::max(p.flop_per_cycle, y0)) - std::log10(y0)) / (std::log10(y1) - std::log10(y0));
  return {r.left() + fx * r.width(), r.bottom() - fy * r.height()};
}

void RooflinePlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QRectF r = plotRect();
  double x0, x1, y0, y1;
  ranges(x0, x1, y0, y1);
  const QColor text = palette().text().color();
  const QFontMetrics fm(font());
  // Grid and ticks at powers of ten.
  p.setPen(QPen(palette().mid().color(), 0.5, Qt::DotLine));
  for (double x = x0; x <= x1 * 1.0001; x *= 10) {
    const double px = toPixel({x, y0}).x();
    p.drawLine(QPointF(px, r.top()), QPointF(px, r.bottom()));
  }
  for (double y = y0; y <= y1 * 1.0001; y *= 10) {
    const double py = toPixel({x0, y}).y();
    p.drawLine(QPointF(r.left(), py), QPointF(r.right(), py));
  }
  p.setPen(text);
  p.drawRect(r);
  auto tick = [](double v) { return v >= 1 ? QString::number(v, 'f', 0) : QString::number(v, 'g', 2); };
  for (double x = x0; x <= x1 * 1.0001; x *= 10) {
    const double px = toPixel({x, y0}).x();
    const QString t = tick(x);
    p.drawText(QPointF(px - fm.horizontalAdvance(t) / 2.0, r.bottom() + fm.ascent() + 3), t);
  }
  for (double y = y0; y <= y1 * 1.0001; y *= 10) {
    const double py = toPixel({x0, y}).y();
    const QString t = tick(y);
    p.drawText(QPointF(r.left() - fm.horizontalAdvance(t) - 4, py + fm.ascent() / 2.0 - 1), t);
  }
  const QString xl = tr("arithmetic intensity (FLOP per off-chip byte)");
  p.drawText(QRectF(r.left(), r.bottom() + fm.height() + 4, r.width(), fm.height() + 2), Qt::AlignHCenter, xl);
  p.save();
  p.translate(fm.height() * 0.2, r.center().y());
  p.rotate(-90);
  QString yl = tr("performance (FLOP per cycle)");
  if (fm.horizontalAdvance(yl) > r.height()) yl = tr("FLOP/cycle");  // a short plot keeps the unit whole
  p.drawText(QRectF(-r.height() / 2, 0, r.height(), fm.height() + 2), Qt::AlignHCenter, yl);
  p.restore();
  // Roofs.
  const double ridge = roofs_.compute_flop_per_cycle / std::max(1e-9, roofs_.hbm_bytes_per_cycle);
  p.setClipRect(r);
  p.setPen(QPen(memoryRoofColor(), 2));
  p.drawLine(toPixel({x0, roofs_.hbm_bytes_per_cycle * x0}), toPixel({ridge, roofs_.compute_flop_per_cycle}));
  p.setPen(QPen(computeRoofColor(), 2));
  p.drawLine(toPixel({ridge, roofs_.compute_flop_per_cycle}), toPixel({x1, roofs_.compute_flop_per_cycle}));
  // Points.
  p.setPen(Qt::NoPen);
  p.setBrush(historyColor());
  for (const auto& h : history_) p.drawEllipse(toPixel(h), 3, 3);
  if (baseline_) {
    const QPointF c = toPixel(*baseline_);
    QPainterPath d;
    d.moveTo(c + QPointF(0, -7));
    d.lineTo(c + QPointF(7, 0));
    d.lineTo(c + QPointF(0, 7));
    d.lineTo(c + QPointF(-7, 0));
    d.closeSubpath();
    p.setBrush(baselineColor());
    p.drawPath(d);
  }
  if (program_) {
    p.setBrush(programColor());
    p.setPen(QPen(text, 1));
    p.drawEllipse(toPixel(*program_), 6, 6);
  }
  p.setClipping(false);
  // Legend (top left inside the plot).
  struct Item {
    QColor c;
    QString t;
  };
  const Item items[] = {
      {computeRoofColor(), tr("compute roof %1 FLOP/cycle").arg(roofs_.compute_flop_per_cycle, 0, 'f', 0)},
      {memoryRoofColor(), tr("memory roof %1 B/cycle").arg(roofs_.hbm_bytes_per_cycle, 0, 'f', 0)},
      {programColor(), tr("this program")},
      {baselineColor(), tr("baseline")},
      {historyColor(), tr("programs tried in this session")},
  };
  double lw = 0;
  for (const auto& it : items) lw = std::max<double>(lw, fm.horizontalAdvance(it.t));
  const QRectF box(r.left() + 6, r.top() + 6, lw + 30, 5 * (fm.height() + 2) + 6);
  p.setPen(palette().mid().color());
  QColor bg = palette().base().color();
  bg.setAlpha(230);
  p.setBrush(bg);
  p.drawRect(box);
  for (int i = 0; i < 5; ++i) {
    const double y = box.top() + 4 + i * (fm.height() + 2);
    p.fillRect(QRectF(box.left() + 5, y + fm.height() / 2.0 - 3, 14, 6), items[i].c);
    p.setPen(text);
    p.drawText(QPointF(box.left() + 24, y + fm.ascent()), items[i].t);
  }
}

RooflineView::RooflineView(QWidget* parent)
    : QWidget(parent), sentence_(new QLabel(this)), plot_(new RooflinePlot(this)) {
  setObjectName(QStringLiteral("Perf2RooflineView"));
  sentence_->setObjectName(QStringLiteral("Perf2RooflineSentence"));
  sentence_->setWordWrap(true);
  sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(sentence_);
  lay->addWidget(plot_, 1);
  sentence_->setText(tr("No timing yet."));
}

void RooflineView::setRoofs(const Roofs& r) {
  roofs_ = r;
  plot_->setRoofs(r);
}

void RooflineView::setOutcome(const Outcome& o) {
  if (!o.ok) return;  // a broken program keeps the last point
  const auto pt = ex::roofline_point(o.report);
  plot_->setProgram(pt);
  plot_->addHistory(pt);
  const QString bound = QString::fromLatin1(ex::roof_bound(pt, roofs_.compute_flop_per_cycle, roofs_.hbm_bytes_per_cycle));
  const double roof = std::min(roofs_.compute_flop_per_cycle, roofs_.hbm_bytes_per_cycle * pt.intensity);
  sentence_->setText(tr("At %1 FLOP per off-chip byte the %2 roof allows %3 FLOP/cycle; the program attains %4 "
                        "FLOP/cycle. %5")
                         .arg(pt.intensity, 0, 'f', 1)
                         .arg(bound)
                         .arg(roof, 0, 'f', 0)
                         .arg(pt.flop_per_cycle, 0, 'f', 1)
                         .arg(QString::fromStdString(ex::bound_sentence(o.report))));
}

void RooflineView::setBaseline(const Outcome& o) {
  plot_->setBaseline(o.ok ? std::optional(ex::roofline_point(o.report)) : std::nullopt);
}

QString RooflineView::sentence() const { return sentence_->text(); }

}  // namespace sf::widgets::perf2
