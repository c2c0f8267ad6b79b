#include "widgets/perf2/pareto_view.hpp"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QEvent>
#include <QResizeEvent>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/perf2/perf2_types.hpp"

namespace sf::widgets::perf2 {

namespace ex = sf::inspect::perf2;

namespace {

double kib(std::int64_t bytes) { return static_cast<double>(bytes) / 1024.0; }

QString kibText(std::int64_t bytes) { return groupNum((bytes + 512) / 1024) + QStringLiteral(" KiB"); }

// A padded axis range around [lo, hi] that starts at a round value and never collapses to a point.
void padRange(double lo, double hi, double& a, double& b) {
  const double span = std::max(hi - lo, std::max(std::abs(hi) * 0.2, 1.0));
  a = std::max(0.0, lo - span * 0.12);
  b = hi + span * 0.12;
  const double step = std::pow(10.0, std::floor(std::log10(std::max(1.0, b - a))) - 1);
  a = std::floor(a / step) * step;
  b = std::ceil(b / step) * step;
}

}  // namespace

// The chart goes to the view's constructor (QChartView(QWidget*) would make a default chart to leak).
ParetoView::ParetoView(QWidget* parent)
    : QWidget(parent), sentence_(new QLabel(this)), legend_(new QLabel(this)), chart_(new QChart),
      view_(new QChartView(chart_, this)) {
  setObjectName(QStringLiteral("Perf2ParetoView"));
  sentence_->setObjectName(QStringLiteral("Perf2ParetoSentence"));
  sentence_->setWordWrap(true);
  sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  view_->setObjectName(QStringLiteral("Perf2ParetoChart"));
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  chart_->setMargins(QMargins(2, 2, 2, 2));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
  chart_->legend()->hide();  // the legend is a wrapped label under the plot: QtCharts' elides in a narrow dock

  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("cycles"));
  axisX_->setLabelFormat(QStringLiteral("%.0f"));
  axisY_ = new QValueAxis;
  axisY_->setTitleText(tr("on-chip memory (KiB)"));
  axisY_->setLabelFormat(QStringLiteral("%.0f"));
  chart_->addAxis(axisX_, Qt::AlignBottom);
  chart_->addAxis(axisY_, Qt::AlignLeft);

  frontLine_ = new QLineSeries;
  frontLine_->setPen(QPen(frontColor(), 2, Qt::DashLine));
  chart_->addSeries(frontLine_);
  frontLine_->attachAxis(axisX_);
  frontLine_->attachAxis(axisY_);
  // Drawn bottom to top: the rings of pending programs, failures, verified dots, the front, the baseline.
  pending_ = addScatter(tr("not verified yet"), Qt::transparent, pendingColor(), 9);
  failed_ = addScatter(tr("failed"), failedColor(), failedColor(), 9);
  failed_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
  verified_ = addScatter(tr("dominated"), verifiedColor(), verifiedColor().darker(130), 9);
  frontDots_ = addScatter(tr("Pareto front"), frontColor(), frontColor().darker(140), 14);
  baseline_ = addScatter(tr("baseline"), baselineColor(), Qt::black, 15);
  baseline_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
  legend_->setObjectName(QStringLiteral("Perf2ParetoLegend"));
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  auto item = [](const QColor& c, const QString& symbol, const QString& text) {
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
        .arg(c.name(), symbol, text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
  };
  legend_->setText(QStringList{item(frontColor(), QStringLiteral("&#9679;&#8211;&#9679;"), tr("Pareto front")),
                               item(verifiedColor(), QStringLiteral("&#9679;"), tr("dominated")),
                               item(baselineColor(), QStringLiteral("&#9670;"), tr("baseline")),
                               item(pendingColor(), QStringLiteral("&#9675;"), tr("not verified yet")),
                               item(failedColor(), QStringLiteral("&#9650;"), tr("failed"))}
                       .join(QStringLiteral(" ")));
  legend_->setToolTip(tr("Pareto front: verified programs no other verified program beats on both cycles and on-chip "
                         "bytes. Dominated: verified, beaten on both. Not verified yet: timed by the cost model, the "
                         "verifier has not answered. Failed: timed, but the verifier rejected it."));

  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(sentence_);
  lay->addWidget(view_, 1);
  lay->addWidget(legend_);
  applyFonts();
  rebuild();
}

QScatterSeries* ParetoView::addScatter(const QString& name, const QColor& fill, const QColor& border, double size) {
  auto* s = new QScatterSeries;
  s->setName(name);
  s->setColor(fill);
  s->setBorderColor(border);
  s->setPen(QPen(border, fill == QColor(Qt::transparent) ? 2.0 : 1.0));
  s->setMarkerSize(size);
  chart_->addSeries(s);
  s->attachAxis(axisX_);
  s->attachAxis(axisY_);
  connect(s, &QScatterSeries::clicked, this, [this, s](const QPointF& p) { activateNearest(s, p); });
  connect(s, &QScatterSeries::hovered, this, [this](const QPointF& p, bool on) {
    if (!on) return QToolTip::hideText();
    QToolTip::showText(QCursor::pos(),
                       tr("%1 cycles, %2 on chip. Click to open the program.")
                           .arg(groupNum(std::llround(p.x())), kibText(std::llround(p.y() * 1024))),
                       view_);
  });
  members_.push_back({s, {}});
  return s;
}

QSize ParetoView::minimumSizeHint() const {
  const QFontMetrics fm(font());
  return {std::max(260, fm.horizontalAdvance(QStringLiteral("0000000")) * 4), fm.height() * 10};
}

void ParetoView::setTaskName(const QString& name) {
  task_ = name;
  rebuild();
}

void ParetoView::setRecord(const ex::SessionRecord& record) {
  programs_ = record.programs();
  front_ = record.verified_front();
  rebuild();
}

QString ParetoView::sentence() const { return sentence_->text(); }
QString ParetoView::legendText() const { return legend_->text(); }

void ParetoView::rebuild() {
  for (auto& [s, idx] : members_) {
    s->clear();
    idx.clear();
  }
  frontLine_->clear();
  auto put = [this](QScatterSeries* s, std::size_t i) {
    s->append(static_cast<double>(programs_[i].cycles), kib(programs_[i].onchip_bytes));
    for (auto& [series, idx] : members_)
      if (series == s) idx.push_back(i);
  };
  double x0 = std::numeric_limits<double>::max(), x1 = 0, y0 = std::numeric_limits<double>::max(), y1 = 0;
  std::size_t pending = 0, failed = 0, verified = 0;
  for (std::size_t i = 0; i < programs_.size(); ++i) {
    const auto& p = programs_[i];
    x0 = std::min(x0, static_cast<double>(p.cycles));
    x1 = std::max(x1, static_cast<double>(p.cycles));
    y0 = std::min(y0, kib(p.onchip_bytes));
    y1 = std::max(y1, kib(p.onchip_bytes));
    const bool onFront = std::find(front_.begin(), front_.end(), i) != front_.end();
    if (p.verified == ex::Verification::Pass) ++verified;
    if (p.verified == ex::Verification::NotRun) ++pending, put(pending_, i);
    else if (p.verified == ex::Verification::Fail) ++failed, put(failed_, i);
    else if (!onFront) put(verified_, i);
    if (p.baseline) put(baseline_, i);
  }
  for (std::size_t i : front_) {
    put(frontDots_, i);
    frontLine_->append(static_cast<double>(programs_[i].cycles), kib(programs_[i].onchip_bytes));
  }
  if (programs_.empty()) x0 = 0, x1 = 1000, y0 = 0, y1 = 100;
  double a, b;
  padRange(x0, x1, a, b);
  rangeX_ = {a, b};
  padRange(y0, y1, a, b);
  rangeY_ = {a, b};
  fitTicks();

  const QString task = task_.isEmpty() ? tr("this task") : task_;
  QString s;
  if (programs_.empty()) {
    s = tr("No program of %1 timed yet.").arg(task);
  } else {
    s = tr("%2: %1 timed, %3 verified, %4 on the front").arg(programs_.size()).arg(task).arg(verified).arg(front_.size());
    if (front_.size() == 1) {
      const auto& best = programs_[front_.front()];
      s += tr(": %1 cycles (%2 on chip).").arg(groupNum(best.cycles), kibText(best.onchip_bytes));
    } else if (front_.size() > 1) {
      const auto& fast = programs_[front_.front()];
      const auto& small = programs_[front_.back()];
      s += tr(": %1 cycles (%2 on chip) to %3 cycles (%4).")
               .arg(groupNum(fast.cycles), kibText(fast.onchip_bytes), groupNum(small.cycles), kibText(small.onchip_bytes));
    } else {
      s += QLatin1Char('.');
    }
  }
  if (pending) s += QLatin1Char(' ') + tr("%1 waiting for the verifier.").arg(pending);
  if (failed) s += QLatin1Char(' ') + tr("%1 failed verification.").arg(failed);
  sentence_->setText(s);
}

QPoint ParetoView::viewportPos(std::size_t i) const {
  if (i >= programs_.size()) return {};
  const QPointF value(static_cast<double>(programs_[i].cycles), kib(programs_[i].onchip_bytes));
  return view_->mapFromScene(chart_->mapToPosition(value, frontDots_));
}

void ParetoView::activateNearest(const QScatterSeries* series, const QPointF& value) {
  for (const auto& [s, idx] : members_) {
    if (s != series || idx.empty()) continue;
    // Nearest in pixels (the axes have different units).
    const QPointF at = chart_->mapToPosition(value, s);
    std::size_t best = idx.front();
    double bestD = std::numeric_limits<double>::max();
    for (std::size_t i : idx) {
      const QPointF q = chart_->mapToPosition(
          QPointF(static_cast<double>(programs_[i].cycles), kib(programs_[i].onchip_bytes)), s);
      const double d = std::hypot(q.x() - at.x(), q.y() - at.y());
      if (d < bestD) bestD = d, best = i;
    }
    Q_EMIT programActivated(QString::fromStdString(programs_[best].source));
    return;
  }
}

void ParetoView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) applyFonts();
}

void ParetoView::applyFonts() {
  // QtCharts does not inherit the widget font: labels, titles and the legend follow it (presentation font).
  const QFont base = font();
  chart_->legend()->setFont(base);
  for (QValueAxis* a : {axisX_, axisY_}) {
    a->setLabelsFont(base);
    a->setTitleFont(base);
  }
  fitTicks();
}

void ParetoView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitTicks();
}

void ParetoView::fitTicks() {
  // As many x labels as fit side by side ("16938" and a gap each), so they never overlap.
  const QFontMetrics fm(font());
  axisX_->setTickCount(std::clamp(view_->width() / std::max(1, fm.horizontalAdvance(QStringLiteral("0000000  "))), 3, 9));
  axisY_->setTickCount(std::clamp(view_->height() / std::max(1, fm.height() * 3), 3, 9));
  // A short plot keeps the unit whole rather than an elided title.
  const QString full = tr("on-chip memory (KiB)");
  axisY_->setTitleText(fm.horizontalAdvance(full) < view_->height() - 4 * fm.height() ? full : tr("KiB on chip"));
  // Round tick values (the data's range grows to the next nice numbers).
  axisX_->setRange(rangeX_.first, rangeX_.second);
  axisY_->setRange(rangeY_.first, rangeY_.second);
  axisX_->applyNiceNumbers();
  axisY_->applyNiceNumbers();
}

}  // namespace sf::widgets::perf2
