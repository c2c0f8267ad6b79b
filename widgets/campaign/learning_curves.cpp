#include "widgets/campaign/learning_curves.hpp"
#include "widgets/campaign/comparison_model.hpp"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QAreaSeries>
#include <QLineSeries>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QFileDialog>
#include <QFileInfo>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>
#include <QLegendMarker>
#include <QVBoxLayout>
#include <cmath>
#include <set>
#include <tuple>

#include "core/learn/sweep.hpp"
#include "widgets/campaign/campaign_feed.hpp"

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
  auto* sweepButton = new QPushButton(tr("Open sweep…"), this);
  sweepButton->setToolTip(tr("A folder written by 'campaign sweep': each variant's mean over its seeds with a "
                             "min–max band"));
  auto* png = new QPushButton(tr("PNG…"), this);
  auto* svg = new QPushButton(tr("SVG…"), this);
  // Two rows of controls (what is plotted; sweep and export), so that a narrow dock shows them whole.
  // The combo boxes never get less than their longest choice (in the presentation font too).
  for (QComboBox* c : {xCombo_, metricCombo_}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    c->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
  }
  // The tag filter's choices come from the campaign (any length): it takes the room that is left, down to
  // "All tasks", so a long tag never squeezes the two fixed-choice boxes.
  tagCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  tagCombo_->setMinimumContentsLength(12);
  tagCombo_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  auto* top = new QHBoxLayout;
  top->addWidget(xCombo_);
  top->addWidget(metricCombo_);
  top->addWidget(tagCombo_);
  top->addStretch(1);
  tools_ = new QWidget(this);  // the second row: hidden in the presentation layout (setToolsVisible)
  auto* second = new QHBoxLayout(tools_);
  second->setContentsMargins(0, 0, 0, 0);
  second->addWidget(perfCheck_);
  second->addStretch(1);
  second->addWidget(sweepButton);
  second->addWidget(new QLabel(tr("Export:"), this));
  second->addWidget(png);
  second->addWidget(svg);
  view_->setRenderHint(QPainter::Antialiasing);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->legend()->hide();  // the legend below is a wrapped label: it always fits (exports show the chart's own)
  chart_->setMargins(QMargins(4, 4, 4, 4));
  legend_ = new QLabel(this);
  legend_->setObjectName(QStringLiteral("CurvesLegend"));
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);
  l->addLayout(top);
  l->addWidget(tools_);
  l->addWidget(view_, 1);
  l->addWidget(legend_);
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
  connect(sweepButton, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Open a sweep folder"));
    if (d.isEmpty()) return;
    QString err;
    if (!openSweep(d, &err)) QMessageBox::warning(this, tr("Open sweep"), err);
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
  // The plot: the chart less the axes' labels and titles (the legend is the label below the chart; a second
  // axis on the right takes as much room as the left one).
  const int sideAxes = chart_->axes(Qt::Vertical).size();
  const double plotW = std::max(50.0, size.width() - fm.height() * 3 * std::max(2, sideAxes * 2));
  const double plotH = std::max(50.0, size.height() - fm.height() * 6);
  for (QAbstractAxis* a : chart_->axes()) {
    auto* v = qobject_cast<QValueAxis*>(a);
    if (!v) continue;
    const bool horizontal = v->orientation() == Qt::Horizontal;
    const double range = v->max() - v->min();
    if (range <= 0) continue;
    double step;
    if (horizontal) {
      const bool integer = x_ == XAxis::Iteration || !sweep_.isEmpty();
      const QString widest = QString::number(v->max(), 'f', 0);
      const double need = fm.horizontalAdvance(widest) + fm.horizontalAdvance(QStringLiteral("MMM"));
      step = niceStep(range, int(plotW / need), integer ? 1.0 : std::max(1.0, range / 1000.0));
    } else {
      step = niceStep(range, int(plotH / (fm.height() * 1.8)), range <= 1.0 ? 0.1 : 0.5);
      v->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    }
    // An axis title longer than its axis would be elided: it gets the short form (the legend names the
    // series), and is hidden only when even that does not fit.
    const double axisLength = horizontal ? plotW : plotH;
    const QString full = v->property("fullTitle").toString(), brief = v->property("shortTitle").toString();
    if (!full.isEmpty()) {
      const QFontMetricsF tf(v->titleFont());
      const bool fullFits = tf.horizontalAdvance(full) + fm.height() <= axisLength;
      v->setTitleText(fullFits || brief.isEmpty() ? full : brief);
    }
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
  current_.opt2 = u.opt2;
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
    overlays_.push_back({runLabel(c.dir, c.name), c.sage, c.curve, c.opt2});  // "demo-a · demo"
  }
  updateTagCombo();
  rebuild();
}

void LearningCurves::setCampaigns(const QVector<CampaignSummary>& campaigns) {
  showCurrent_ = false;
  current_ = Series{};
  setOverlays(campaigns);
}

bool LearningCurves::openSweep(const QString& dir, QString* error) {
  std::string err;
  const std::filesystem::path root = dir.toStdString();
  auto folder = learn::read_sweep_folder(root, err);
  if (!folder) {
    if (error) *error = QString::fromStdString(err);
    return false;
  }
  QVector<SweepBand> bands;
  bool opt2Cells = false;
  for (const auto& v : folder->variants) {
    SweepBand b;
    b.label = QString::fromStdString(v.name);
    for (const auto& o : v.overrides) b.label += QLatin1Char(' ') + QString::fromStdString(o);
    std::vector<QVector<CurvePoint>> curves;
    for (std::int64_t seed : folder->seeds) {
      const auto cell = learn::sweep_cell_dir(root, v.name, seed);
      if (!std::filesystem::exists(cell / "campaign.json")) continue;  // not run yet
      CampaignSummary cs = summarizeWorkspace(QString::fromStdString(cell.string()));
      // An optimisation campaign's curve is per proposal (speedups, Fast_p), not an ER / pass@1 band: not drawn
      // here.
      opt2Cells = opt2Cells || cs.opt2;
      if (!cs.error.isEmpty() || cs.curve.isEmpty() || cs.opt2) continue;
      b.sage = b.sage || cs.sage;
      curves.push_back(cs.curve);
    }
    if (curves.empty()) continue;
    b.seeds = static_cast<int>(curves.size());
    std::set<int> xs;
    for (const auto& c : curves)
      for (const auto& p : c) xs.insert(p.x);
    for (int x : xs) {
      // each seed's value at x: its last point at or before x (a campaign that stopped keeps its last value)
      std::vector<double> ys;
      for (const auto& c : curves) {
        const CurvePoint* at = nullptr;
        for (const auto& p : c)
          if (p.x <= x) at = &p;
        if (at) ys.push_back(at->pass1);
      }
      if (ys.empty()) continue;
      double sum = 0;
      for (double y : ys) sum += y;
      const auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
      b.mean << QPointF(x, sum / static_cast<double>(ys.size()));
      b.lo << QPointF(x, *lo);
      b.hi << QPointF(x, *hi);
    }
    bands.push_back(std::move(b));
  }
  if (bands.empty()) {
    if (error)
      *error = opt2Cells ? tr("%1: the sweep's cells are STeP-25 optimisation campaigns: open a cell's folder as a "
                              "workspace to see its curves, or use 'campaign sweep-report'")
                               .arg(dir)
                         : tr("%1: no cell of the sweep has a curve yet").arg(dir);
    return false;
  }
  sweep_ = std::move(bands);
  rebuild();
  return true;
}

void LearningCurves::clearSweep() {
  sweep_.clear();
  rebuild();
}

void LearningCurves::setToolsVisible(bool on) { tools_->setVisible(on); }

void LearningCurves::setXAxis(XAxis x) { xCombo_->setCurrentIndex(x == XAxis::Tokens ? 1 : 0); }
void LearningCurves::setMetric(Metric m) { metricCombo_->setCurrentIndex(m == Metric::Pass1 ? 1 : m == Metric::PassN ? 2 : 0); }
void LearningCurves::setShowPerformance(bool on) { perfCheck_->setChecked(on); }

QList<QPointF> LearningCurves::perfPoints(const Series& s, PerfMetric m) const {
  QList<QPointF> out;
  for (const auto& p : s.points) {
    const std::optional<double>& v = m == PerfMetric::Fast1    ? p.fast1
                                     : m == PerfMetric::Fast15 ? p.fast15
                                     : m == PerfMetric::Fast2  ? p.fast2
                                     : m == PerfMetric::Geomean ? p.geomeanSpeedup
                                                                : p.medianSpeedup;
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

QVector<LearningCurves::Plotted> LearningCurves::plottedSeries() const {
  QVector<Plotted> out;
  if (!sweep_.isEmpty()) {  // a sweep replaces the campaigns: each variant's mean (the bands go with them)
    int run = 0;
    for (const auto& b : sweep_)
      out.push_back({b.label + QStringLiteral(" — ") + tr("mean %1 (%n seed(s))", nullptr, b.seeds)
                                                          .arg(b.sage ? tr("ER") : tr("pass@1")),
                     b.label, b.sage ? tr("ER") : tr("pass@1"), b.mean, run++, Kind::Pass1});
    return out;
  }
  QVector<const Series*> all;
  if (showCurrent_ && (!current_.points.isEmpty() || !current_.label.isEmpty())) all << &current_;
  for (const auto& s : overlays_) all << &s;
  for (int run = 0; run < all.size(); ++run) {
    const Series* s = all[run];
    auto put = [&](const QString& metric, QList<QPointF> pts, Kind k) {
      out.push_back({s->label + QStringLiteral(" — ") + metric, s->label, metric, std::move(pts), run, k});
    };
    if (s->opt2) {
      // An optimisation campaign: its speedups ("speedups" choice = Pass1) and Fast_p ("Fast_p" = PassN).
      const std::tuple<PerfMetric, QString, Kind, bool> opt2[] = {
          {PerfMetric::Median, tr("median best speedup"), Kind::Median, true},
          {PerfMetric::Geomean, tr("geomean best speedup"), Kind::Geomean, true},
          {PerfMetric::Fast1, QStringLiteral("Fast_1.0"), Kind::Fast1, false},
          {PerfMetric::Fast15, QStringLiteral("Fast_1.5"), Kind::Fast15, false},
          {PerfMetric::Fast2, QStringLiteral("Fast_2.0"), Kind::Fast2, false}};
      for (const auto& [m, name, k, speedup] : opt2) {
        if (speedup ? metric_ == Metric::PassN : metric_ == Metric::Pass1) continue;
        QList<QPointF> pts = perfPoints(*s, m);
        if (!pts.isEmpty()) put(name, std::move(pts), k);
      }
      continue;
    }
    const QString m1 = s->sage ? tr("ER") : tr("pass@1");
    const QString mn = s->sage ? tr("solved") : tr("pass@n");
    if (metric_ != Metric::PassN) put(m1, points(*s, false), Kind::Pass1);
    if (metric_ != Metric::Pass1) put(mn, points(*s, true), Kind::PassN);
    if (showPerf_ && tag_.isEmpty() && !s->sage) {
      const std::tuple<PerfMetric, QString, Kind> perf[] = {
          {PerfMetric::Fast1, QStringLiteral("Fast_1.0"), Kind::Fast1},
          {PerfMetric::Fast15, QStringLiteral("Fast_1.5"), Kind::Fast15},
          {PerfMetric::Median, tr("median speedup"), Kind::Median}};
      for (const auto& [m, name, k] : perf) {
        QList<QPointF> pts = perfPoints(*s, m);
        if (!pts.isEmpty()) put(name, std::move(pts), k);
      }
    }
  }
  return out;
}

QVector<QPair<QString, QList<QPointF>>> LearningCurves::plotted() const {
  QVector<QPair<QString, QList<QPointF>>> out;
  for (const auto& p : plottedSeries()) out.push_back({p.name, p.points});
  return out;
}

namespace {

// Colour-blind safe (Okabe–Ito, then Tol's bright): one colour per metric of a single campaign, one hue per
// campaign when several are drawn (run comparison, overlays, sweeps).
const QColor kCurveColours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
                                QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00),
                                QColor(0x44, 0x44, 0x44), QColor(0xaa, 0x33, 0x77), QColor(0x22, 0x88, 0x33),
                                QColor(0x66, 0x66, 0xcc)};
constexpr int kCurveColourCount = int(std::size(kCurveColours));

}  // namespace

QPen LearningCurves::penFor(int run, int runs, Kind k) {
  const int kind = static_cast<int>(k);
  QColor c;
  if (runs <= 1) {
    c = kCurveColours[kind % kCurveColourCount];
  } else {
    // The campaign's hue; each metric a distinct shade of it (darker and lighter in turn), so no two series
    // share a colour and a campaign's series read as one family.
    static const int kShade[] = {100, 140, 70, 175, 55, 120, 85};
    const QColor base = kCurveColours[run % kCurveColourCount];
    c = kShade[kind] >= 100 ? base.darker(kShade[kind]) : base.lighter(100 + (100 - kShade[kind]) * 2);
    // runs beyond the palette: turn the hue so they stay apart
    if (run >= kCurveColourCount) c = QColor::fromHsv((c.hsvHue() + 37 * (run / kCurveColourCount)) % 360, c.hsvSaturation(), c.value());
  }
  // Fast2 and Geomean (optimisation campaigns, which draw no Pass1 / PassN) reuse the dashed and solid lines.
  static const Qt::PenStyle kStyle[] = {Qt::SolidLine,  Qt::DashLine, Qt::DotLine, Qt::DashDotDotLine,
                                        Qt::DashDotLine, Qt::DashLine, Qt::SolidLine};
  QPen pen(c);
  pen.setStyle(kStyle[kind]);
  pen.setWidthF(k == Kind::Pass1 || k == Kind::Geomean ? 2.5 : 2.0);
  return pen;
}

QString LearningCurves::legendText() const { return legend_->text(); }

bool LearningCurves::opt2Shown() const {
  if (!sweep_.isEmpty()) return false;
  if (showCurrent_ && (!current_.points.isEmpty() || !current_.label.isEmpty())) return current_.opt2;
  return !overlays_.isEmpty() && std::all_of(overlays_.begin(), overlays_.end(), [](const auto& s) { return s.opt2; });
}

void LearningCurves::rebuild() {
  chart_->removeAllSeries();
  for (QAbstractAxis* a : chart_->axes()) {
    chart_->removeAxis(a);
    delete a;
  }
  const bool opt2 = opt2Shown();
  const bool sage = !opt2 && (sweep_.isEmpty() ? showCurrent_ && current_.sage
                                               : std::any_of(sweep_.begin(), sweep_.end(), [](const auto& b) { return b.sage; }));
  // The metric choice names what an optimisation campaign draws (speedups, Fast_p) instead of pass@1 / pass@n.
  {
    const QStringList choices = opt2 ? QStringList{tr("speedups and Fast_p"), tr("speedups"), tr("Fast_p")}
                                     : QStringList{tr("pass@1 and pass@n"), tr("pass@1"), tr("pass@n")};
    for (int i = 0; i < choices.size(); ++i) metricCombo_->setItemText(i, choices[i]);
    xCombo_->setItemText(0, opt2 ? tr("per proposal") : tr("per iteration"));
    perfCheck_->setEnabled(!opt2);  // an optimisation campaign's curves are its speedups
  }
  auto* ax = new QValueAxis;
  const bool tokens = x_ == XAxis::Tokens && sweep_.isEmpty();  // a sweep is drawn per iteration / episode
  ax->setTitleText(tokens ? tr("cumulative tokens") : opt2 ? tr("proposals") : sage ? tr("episode") : tr("iteration"));
  ax->setLabelFormat(tokens ? QStringLiteral("%.0f") : QStringLiteral("%d"));
  auto* ay = new QValueAxis;
  ay->setObjectName(QStringLiteral("FractionAxis"));
  ay->setRange(0, 1);
  const QString yTitle = tag_.isEmpty() ? tr("fraction of tasks") : tr("fraction of %1 tasks").arg(tag_);
  ay->setTitleText(yTitle);
  ay->setProperty("fullTitle", yTitle);
  ay->setProperty("shortTitle", tr("fraction"));
  chart_->addAxis(ax, Qt::AlignBottom);
  chart_->addAxis(ay, Qt::AlignLeft);
  double xmax = 1;
  const auto all = plottedSeries();
  int runs = 0;
  for (const auto& p : all) runs = std::max(runs, p.run_index + 1);
  QValueAxis* ay2 = nullptr;
  double ymax2 = 2;
  for (const auto& p : all)
    if (p.kind == Kind::Median || p.kind == Kind::Geomean)
      for (const auto& q : p.points) ymax2 = std::max(ymax2, q.y() * 1.1);
  QStringList legend;
  for (const auto& p : all) {
    auto* s = new QLineSeries;
    s->setName(p.name);
    s->append(p.points);
    s->setPointsVisible(!opt2 || p.points.size() <= 60);  // hundreds of proposals: the line alone
    const QPen pen = penFor(p.run_index, runs, p.kind);
    s->setPen(pen);  // explicit: a pen set before the chart's theme applies is otherwise black
    chart_->addSeries(s);
    s->attachAxis(ax);
    const bool speedup = p.kind == Kind::Median || p.kind == Kind::Geomean;
    if (speedup) {
      // The speedup (×, from 0) has its own labelled axis on the right; the fractions stay on the left.
      if (!ay2) {
        ay2 = new QValueAxis;
        ay2->setObjectName(QStringLiteral("SpeedupAxis"));
        ay2->setRange(0, ymax2);
        const QString title = opt2 ? tr("best speedup (×)") : tr("median speedup (×)");
        ay2->setTitleText(title);
        ay2->setProperty("fullTitle", title);
        ay2->setProperty("shortTitle", tr("speedup ×"));
        ay2->setLinePen(pen);
        chart_->addAxis(ay2, Qt::AlignRight);
      }
      s->attachAxis(ay2);
    } else {
      s->attachAxis(ay);
    }
    for (const auto& q : p.points) xmax = std::max(xmax, q.x());
    // The legend entry: a short stroke in the series' colour and style, then its name (the campaign only when
    // several are drawn; the right axis named for the speedup).
    static const char* kStroke[] = {"━━━", "━ ━", "┅┅┅", "━┅━", "━ ┅", "━ ━", "━━━"};
    QString label = runs > 1 ? p.name : p.metric;
    if (speedup) label += QStringLiteral(" (") + tr("right axis") + QLatin1Char(')');
    legend << QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2</span>&nbsp;%3")
                  .arg(pen.color().name(), QString::fromUtf8(kStroke[static_cast<int>(p.kind)]),
                       label.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
  }
  if (opt2 && showCurrent_ && !current_.points.isEmpty()) {
    // The rounds so far per verdict (the report's verdict counts), after the series.
    QStringList counts;
    for (const auto& [verdict, n] : current_.points.back().verdicts)
      counts << QStringLiteral("%1&nbsp;%2").arg(n).arg(QString::fromStdString(verdict).toHtmlEscaped());
    if (!counts.isEmpty())
      legend << QStringLiteral("<span style=\"color:#555\">%1</span>")
                    .arg(tr("%n proposal(s):", nullptr, current_.points.back().x) + QStringLiteral(" ") +
                         counts.join(QStringLiteral(", ")));
  }
  legend_->setText(legend.join(QStringLiteral(" &nbsp; ")));
  legend_->setVisible(!legend.isEmpty());
  // A sweep: each variant's band (min–max over seeds) in its mean's colour, translucent.
  const auto lines = chart_->series();
  for (int i = 0; i < sweep_.size() && i < lines.size(); ++i) {
    const auto& b = sweep_[i];
    auto* area = new QAreaSeries;
    auto* upper = new QLineSeries(area);
    auto* lower = new QLineSeries(area);
    upper->append(b.hi);
    lower->append(b.lo);
    area->setUpperSeries(upper);
    area->setLowerSeries(lower);
    area->setName(b.label + QStringLiteral(" — ") + tr("min–max over %n seed(s)", nullptr, b.seeds));
    QColor c = static_cast<QLineSeries*>(lines[i])->color();
    area->setPen(Qt::NoPen);
    c.setAlpha(55);
    area->setBrush(c);
    chart_->addSeries(area);
    area->attachAxis(ax);
    area->attachAxis(ay);
    for (QLegendMarker* m : chart_->legend()->markers(area)) m->setVisible(false);  // the title names the band
  }
  ax->setRange(0, tokens ? xmax * 1.05 : xmax);
  if (const QList<QPointF> marks = sweep_.isEmpty() ? momentPoints() : QList<QPointF>(); !marks.isEmpty()) {
    auto* m = new QScatterSeries;
    m->setName(tr("key moments"));
    m->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m->setMarkerSize(QFontMetrics(font()).height() * 1.2);
    m->setColor(QColor(0xd9, 0x7a, 0x00));
    m->append(marks);
    chart_->addSeries(m);
    m->attachAxis(ax);
    m->attachAxis(ay);
    legend_->setText(legend_->text() + QStringLiteral(" &nbsp; <span style=\"color:%1\">★</span>&nbsp;%2")
                                           .arg(m->color().name(), tr("key&nbsp;moments")));
    legend_->show();
  }
  chart_->setTitle(!sweep_.isEmpty() ? tr("Sweep: mean over seeds, band = min–max")
                   : opt2           ? tr("Optimisation: best speedups over proposals")
                   : sage           ? tr("Execution rate over episodes")
                                    : tr("Learning curves"));
  applyFonts();
  fitToSize();
}

void LearningCurves::render(QPainter& p, QSize size) const {
  // Lay the chart out at the export size (also when the pane is hidden), render its scene, restore.
  const QSizeF old = chart_->size();
  const bool legendShown = chart_->legend()->isVisible();
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->legend()->show();  // the pane's legend is a label beside the chart view: an export carries the chart's
  chart_->resize(size);
  if (chart_->layout()) chart_->layout()->activate();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  chart_->scene()->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), chart_->mapRectToScene(chart_->boundingRect()));
  chart_->legend()->setVisible(legendShown);
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
