#include "widgets/learning_curves.hpp"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QPushButton>
#include <QFileDialog>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>
#include <QLegendMarker>
#include <QVBoxLayout>
#include <cmath>
#include <set>

namespace sf::widgets {

// The chart goes to the view's constructor: QChartView(QWidget*) makes a default chart that setChart() would
// release without deleting (a leak LeakSanitizer reports).
LearningCurves::LearningCurves(QWidget* parent)
    : QWidget(parent), chart_(new QChart), view_(new QChartView(chart_, this)) {
  setObjectName(QStringLiteral("LearningCurves"));
  xCombo_ = new QComboBox(this);
  xCombo_->addItem(tr("per iteration"));
  xCombo_->addItem(tr("per cumulative tokens"));
  metricCombo_ = new QComboBox(this);
  metricCombo_->addItem(tr("pass@1 and pass@n"));
  metricCombo_->addItem(tr("pass@1"));
  metricCombo_->addItem(tr("pass@n"));
  tagCombo_ = new QComboBox(this);
  tagCombo_->addItem(tr("All tasks"), QString());
  perfCheck_ = new QCheckBox(tr("Speedups"), this);
  perfCheck_->setChecked(true);
  perfCheck_->setToolTip(tr("Fast_1.0, Fast_1.5 and the median speedup, when the campaign's log has them"));
  auto* png = new QPushButton(tr("PNG…"), this);
  auto* svg = new QPushButton(tr("SVG…"), this);
  auto* top = new QHBoxLayout;
  top->addWidget(xCombo_);
  top->addWidget(metricCombo_);
  top->addWidget(tagCombo_);
  top->addWidget(perfCheck_);
  top->addStretch(1);
  top->addWidget(new QLabel(tr("Export:"), this));
  top->addWidget(png);
  top->addWidget(svg);
  view_->setRenderHint(QPainter::Antialiasing);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);
  l->addLayout(top);
  l->addWidget(view_, 1);
  view_->installEventFilter(this);
  connect(xCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    x_ = i == 1 ? XAxis::Tokens : XAxis::Iteration;
    rebuild();
  });
  connect(metricCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    metric_ = i == 1 ? Metric::Pass1 : i == 2 ? Metric::PassN : Metric::Both;
    rebuild();
  });
  connect(tagCombo_, &QComboBox::currentIndexChanged, this, [this] {
    tag_ = tagCombo_->currentData().toString();
    rebuild();
  });
  connect(perfCheck_, &QCheckBox::toggled, this, [this](bool on) {
    showPerf_ = on;
    rebuild();
  });
  connect(png, &QPushButton::clicked, this, [this] {
    QString p = QFileDialog::getSaveFileName(this, tr("Export learning curves"), QStringLiteral("curves.png"),
                                             tr("PNG images (*.png)"));
    if (!p.isEmpty()) exportPng(p);
  });
  connect(svg, &QPushButton::clicked, this, [this] {
    QString p = QFileDialog::getSaveFileName(this, tr("Export learning curves"), QStringLiteral("curves.svg"),
                                             tr("SVG images (*.svg)"));
    if (!p.isEmpty()) exportSvg(p);
  });
  rebuild();
}

void LearningCurves::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) {
    applyFonts();
    fitToSize();
  }
}

bool LearningCurves::eventFilter(QObject* o, QEvent* e) {
  if (o == view_ && e->type() == QEvent::Resize) fitToSize();
  return QWidget::eventFilter(o, e);
}

void LearningCurves::applyFonts() {
  // QtCharts does not inherit the widget font: labels, titles and the legend follow it explicitly, so they
  // scale with the presentation layout. The chart keeps room for ~13 lines of text.
  const QFont base = font();
  QFont title = base;
  title.setBold(true);
  title.setPointSizeF(base.pointSizeF() * 1.15);
  chart_->setTitleFont(title);
  chart_->legend()->setFont(base);
  for (QAbstractAxis* a : chart_->axes()) {
    a->setLabelsFont(base);
    a->setTitleFont(base);
  }
  view_->setMinimumHeight(QFontMetrics(base).height() * 13);
}

namespace {

// The smallest "nice" step (1, 2, 5 × 10^k, at least `minStep`) that keeps at most `maxTicks` ticks on
// [0, range].
double niceStep(double range, int maxTicks, double minStep) {
  maxTicks = std::max(2, maxTicks);
  double step = minStep;
  for (int k = 0; k < 40; ++k) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double s = m * std::pow(10.0, std::floor(std::log10(minStep)) + k);
      if (s + 1e-12 < minStep) continue;
      if (range / s + 1 <= maxTicks + 1e-9) return s;
      step = s;
    }
  }
  return step;
}

}  // namespace

void LearningCurves::fitToSize() {
  const QFontMetricsF fm(chart_->legend()->font());
  const QSizeF size = view_->size();
  if (size.width() <= 0 || size.height() <= 0) return;
  // The legend: below the plot when its entries fit in one row, else beside it (one entry per line).
  double legendWidth = 0;
  for (QLegendMarker* m : chart_->legend()->markers())
    if (m->isVisible()) legendWidth += fm.horizontalAdvance(m->label()) + fm.height() * 2.5;
  const bool bottom = legendWidth <= size.width() - 16;
  chart_->legend()->setAlignment(bottom ? Qt::AlignBottom : Qt::AlignRight);
  // The plot: the chart less the axes' labels and titles, less the legend.
  double legendSide = 0;
  if (!bottom)
    for (QLegendMarker* m : chart_->legend()->markers())
      legendSide = std::max(legendSide, fm.horizontalAdvance(m->label()) + fm.height() * 2.5);
  const double plotW = std::max(50.0, size.width() - legendSide - fm.height() * 6);
  const double plotH = std::max(50.0, size.height() - fm.height() * (bottom ? 8 : 6));
  for (QAbstractAxis* a : chart_->axes()) {
    auto* v = qobject_cast<QValueAxis*>(a);
    if (!v) continue;
    const bool horizontal = v->orientation() == Qt::Horizontal;
    const double range = v->max() - v->min();
    if (range <= 0) continue;
    double step;
    if (horizontal) {
      const bool integer = x_ == XAxis::Iteration;
      const QString widest = QString::number(v->max(), 'f', 0);
      const double need = fm.horizontalAdvance(widest) + fm.horizontalAdvance(QStringLiteral("MMM"));
      step = niceStep(range, int(plotW / need), integer ? 1.0 : std::max(1.0, range / 1000.0));
    } else {
      step = niceStep(range, int(plotH / (fm.height() * 1.8)), range <= 1.0 ? 0.1 : 0.5);
      v->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    }
    // An axis title longer than its axis would be elided: the chart title and legend say it already.
    const double axisLength = horizontal ? plotW : plotH;
    v->setTitleVisible(QFontMetricsF(v->titleFont()).horizontalAdvance(v->titleText()) + fm.height() <= axisLength);
    v->setTickType(QValueAxis::TicksDynamic);
    v->setTickAnchor(0);
    v->setTickInterval(step);
  }
}

void LearningCurves::setMoments(const QVector<ReplayMoment>& moments) {
  moments_ = moments;
  rebuild();
}

QList<QPointF> LearningCurves::momentPoints() const {
  QList<QPointF> out;
  if (!showCurrent_ || current_.points.isEmpty()) return out;
  const QList<QPointF> curve = points(current_, metric_ == Metric::PassN);
  for (const auto& m : moments_) {
    // The curve's point for the moment's iteration / episode, else the last one before it.
    const CurvePoint* at = nullptr;
    int i = -1;
    for (int k = 0; k < current_.points.size() && k < curve.size(); ++k)
      if (current_.points[k].x <= m.x) {
        at = &current_.points[k];
        i = k;
      }
    if (!at) continue;
    out << QPointF(curve[i].x(), curve[i].y());
  }
  return out;
}

void LearningCurves::apply(const CampaignUpdate& u) {
  showCurrent_ = true;
  if (u.reset) current_ = Series{};
  current_.label = u.name.isEmpty() ? tr("campaign") : u.name;
  current_.sage = u.sage;
  current_.points += u.newPoints;
  if (u.reset || !u.newPoints.isEmpty()) {
    updateTagCombo();
    rebuild();
  }
}

void LearningCurves::clearCurrent() {
  current_ = Series{};
  rebuild();
}

void LearningCurves::setOverlays(const QVector<CampaignSummary>& campaigns) {
  overlays_.clear();
  for (const auto& c : campaigns) {
    if (!c.error.isEmpty()) continue;
    overlays_.push_back({c.name.isEmpty() ? c.dir : c.name, c.sage, c.curve});
  }
  updateTagCombo();
  rebuild();
}

void LearningCurves::setCampaigns(const QVector<CampaignSummary>& campaigns) {
  showCurrent_ = false;
  current_ = Series{};
  setOverlays(campaigns);
}

void LearningCurves::setXAxis(XAxis x) { xCombo_->setCurrentIndex(x == XAxis::Tokens ? 1 : 0); }
void LearningCurves::setMetric(Metric m) { metricCombo_->setCurrentIndex(m == Metric::Pass1 ? 1 : m == Metric::PassN ? 2 : 0); }
void LearningCurves::setShowPerformance(bool on) { perfCheck_->setChecked(on); }

QList<QPointF> LearningCurves::perfPoints(const Series& s, PerfMetric m) const {
  QList<QPointF> out;
  for (const auto& p : s.points) {
    const std::optional<double>& v = m == PerfMetric::Fast1 ? p.fast1 : m == PerfMetric::Fast15 ? p.fast15 : p.medianSpeedup;
    if (!v) continue;
    out << QPointF(x_ == XAxis::Tokens ? double(p.tokens) : double(p.x), *v);
  }
  return out;
}

void LearningCurves::setTag(const QString& tag) {
  const int i = tagCombo_->findData(tag);
  if (i >= 0) tagCombo_->setCurrentIndex(i);
}

QStringList LearningCurves::tags() const {
  std::set<std::string> all;
  auto scan = [&](const Series& s) {
    for (const auto& p : s.points)
      for (const auto& [t, v] : p.byTag) all.insert(t);
  };
  scan(current_);
  for (const auto& s : overlays_) scan(s);
  QStringList out;
  for (const auto& t : all) out << QString::fromStdString(t);
  return out;
}

void LearningCurves::updateTagCombo() {
  const QStringList t = tags();
  if (tagCombo_->count() == t.size() + 1) return;
  const QString cur = tag_;
  tagCombo_->blockSignals(true);
  while (tagCombo_->count() > 1) tagCombo_->removeItem(1);
  for (const auto& s : t) tagCombo_->addItem(s, s);
  tagCombo_->setCurrentIndex(std::max(0, tagCombo_->findData(cur)));
  tag_ = tagCombo_->currentData().toString();
  tagCombo_->blockSignals(false);
}

QList<QPointF> LearningCurves::points(const Series& s, bool passN) const {
  QList<QPointF> out;
  const std::string tag = tag_.toStdString();
  for (const auto& p : s.points) {
    double y;
    if (tag.empty()) {
      y = passN ? p.passN : p.pass1;
    } else {
      auto it = p.byTag.find(tag);
      if (it == p.byTag.end()) continue;
      y = passN ? it->second.second : it->second.first;
    }
    out << QPointF(x_ == XAxis::Tokens ? double(p.tokens) : double(p.x), y);
  }
  return out;
}

QVector<QPair<QString, QList<QPointF>>> LearningCurves::plotted() const {
  QVector<QPair<QString, QList<QPointF>>> out;
  QVector<const Series*> all;
  if (showCurrent_ && (!current_.points.isEmpty() || !current_.label.isEmpty())) all << &current_;
  for (const auto& s : overlays_) all << &s;
  for (const Series* s : all) {
    const QString m1 = s->sage ? tr("ER") : tr("pass@1");
    const QString mn = s->sage ? tr("solved") : tr("pass@n");
    if (metric_ != Metric::PassN) out.push_back({s->label + QStringLiteral(" — ") + m1, points(*s, false)});
    if (metric_ != Metric::Pass1) out.push_back({s->label + QStringLiteral(" — ") + mn, points(*s, true)});
    if (showPerf_ && tag_.isEmpty() && !s->sage) {
      const std::pair<PerfMetric, QString> perf[] = {{PerfMetric::Fast1, QStringLiteral("Fast_1.0")},
                                                     {PerfMetric::Fast15, QStringLiteral("Fast_1.5")},
                                                     {PerfMetric::Median, tr("median speedup")}};
      for (const auto& [m, name] : perf) {
        QList<QPointF> pts = perfPoints(*s, m);
        if (!pts.isEmpty()) out.push_back({s->label + QStringLiteral(" — ") + name, pts});
      }
    }
  }
  return out;
}

void LearningCurves::rebuild() {
  chart_->removeAllSeries();
  for (QAbstractAxis* a : chart_->axes()) {
    chart_->removeAxis(a);
    delete a;
  }
  const bool sage = showCurrent_ && current_.sage;
  auto* ax = new QValueAxis;
  ax->setTitleText(x_ == XAxis::Tokens ? tr("cumulative tokens") : sage ? tr("episode") : tr("iteration"));
  ax->setLabelFormat(x_ == XAxis::Tokens ? QStringLiteral("%.0f") : QStringLiteral("%d"));
  auto* ay = new QValueAxis;
  ay->setRange(0, 1);
  ay->setTitleText(tag_.isEmpty() ? tr("fraction of tasks") : tr("fraction of %1 tasks").arg(tag_));
  chart_->addAxis(ax, Qt::AlignBottom);
  chart_->addAxis(ay, Qt::AlignLeft);
  double xmax = 1;
  const auto all = plotted();
  const QString medianName = tr("median speedup");
  QValueAxis* ay2 = nullptr;
  double ymax2 = 2;
  for (const auto& [name, pts] : all)
    if (name.endsWith(medianName))
      for (const auto& p : pts) ymax2 = std::max(ymax2, p.y() * 1.1);
  for (const auto& [name, pts] : all) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->append(pts);
    s->setPointsVisible(true);
    const bool median = name.endsWith(medianName);
    if (name.endsWith(tr("pass@n")) || name.endsWith(tr("solved"))) {
      QPen p = s->pen();
      p.setStyle(Qt::DashLine);
      p.setWidthF(2);
      s->setPen(p);
    } else if (median || name.endsWith(QLatin1String("Fast_1.0")) || name.endsWith(QLatin1String("Fast_1.5"))) {
      QPen p = s->pen();
      p.setStyle(median ? Qt::DashDotLine : Qt::DotLine);
      p.setWidthF(2);
      s->setPen(p);
    }
    chart_->addSeries(s);
    s->attachAxis(ax);
    if (median) {
      if (!ay2) {
        ay2 = new QValueAxis;
        ay2->setRange(0, ymax2);
        ay2->setTitleText(tr("median speedup (×)"));
        chart_->addAxis(ay2, Qt::AlignRight);
      }
      s->attachAxis(ay2);
    } else {
      s->attachAxis(ay);
    }
    for (const auto& p : pts) xmax = std::max(xmax, p.x());
  }
  ax->setRange(0, x_ == XAxis::Tokens ? xmax * 1.05 : xmax);
  if (const QList<QPointF> marks = momentPoints(); !marks.isEmpty()) {
    auto* m = new QScatterSeries;
    m->setName(tr("key moments"));
    m->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m->setMarkerSize(QFontMetrics(font()).height() * 1.2);
    m->setColor(QColor(0xd9, 0x7a, 0x00));
    m->append(marks);
    chart_->addSeries(m);
    m->attachAxis(ax);
    m->attachAxis(ay);
  }
  chart_->setTitle(sage ? tr("Execution rate over episodes") : tr("Learning curves"));
  applyFonts();
  fitToSize();
}

void LearningCurves::render(QPainter& p, QSize size) const {
  // Lay the chart out at the export size (also when the pane is hidden), render its scene, restore.
  const QSizeF old = chart_->size();
  chart_->resize(size);
  if (chart_->layout()) chart_->layout()->activate();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  chart_->scene()->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), chart_->mapRectToScene(chart_->boundingRect()));
  chart_->resize(old);
  if (chart_->layout()) chart_->layout()->activate();
}

bool LearningCurves::exportPng(const QString& path, QSize size) const {
  QImage img(size, QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setRenderHint(QPainter::Antialiasing);
  render(p, size);
  p.end();
  return img.save(path, "PNG");
}

bool LearningCurves::exportSvg(const QString& path, QSize size) const {
  QSvgGenerator gen;
  gen.setFileName(path);
  gen.setSize(size);
  gen.setViewBox(QRect(QPoint(0, 0), size));
  gen.setTitle(tr("StepForge learning curves"));
  QPainter p;
  if (!p.begin(&gen)) return false;
  render(p, size);
  return p.end();
}

}  // namespace sf::widgets
