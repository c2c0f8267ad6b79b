#include "widgets/campaign/run_speedup_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/campaign/comparison_model.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/qt_text.hpp"

namespace sf::widgets {

RunSpeedupChart::RunSpeedupChart(QWidget* parent) : QWidget(parent) {
  chart_ = new QChart;
  chart_->setTitle(tr("Best speedup per run"));
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  view_ = new QChartView(chart_, this);
  view_->setObjectName(QStringLiteral("runSpeedupChart"));
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumSize(240, 160);
  empty_ = new QLabel(this);
  empty_->setWordWrap(true);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(empty_);
  l->addWidget(view_, 1);
  setRuns({});
}

QString RunSpeedupChart::emptyText() const { return empty_->isHidden() ? QString() : empty_->text(); }

void RunSpeedupChart::setRuns(const std::vector<RunRecordPtr>& runs) {
  chart_->removeAllSeries();
  for (QAbstractAxis* a : chart_->axes()) {
    chart_->removeAxis(a);
    delete a;
  }
  series_.clear();
  x_ = new QValueAxis;
  x_->setTitleText(tr("samples verified"));
  x_->setLabelFormat(QStringLiteral("%d"));
  y_ = new QValueAxis;
  y_->setTitleText(tr("median best speedup (×)"));
  chart_->addAxis(x_, Qt::AlignBottom);
  chart_->addAxis(y_, Qt::AlignLeft);
  double xMax = 1, yMin = 1, yMax = 1;
  int v2 = 0, v1 = 0;  // runs of each kind: the x axis counts samples (v1) or proposals per task (step-v2)
  const int n = static_cast<int>(runs.size());
  for (int r = 0; r < n; ++r) {
    const auto& run = runs[static_cast<std::size_t>(r)];
    if (!run) continue;
    const auto curve = learn::best_speedup_curve(run->state);
    if (curve.empty()) continue;
    ++(run->state.is_opt2() ? v2 : v1);
    auto* s = new QLineSeries;
    s->setName(runLabel(qs(run->dir.string()), qs(run->name)));
    QPen pen = LearningCurves::penFor(r, std::max(n, 2), LearningCurves::Kind::Pass1);  // the run's hue
    pen.setStyle(Qt::SolidLine);
    s->setPen(pen);
    // A step curve: the median holds until the proposal that changes it.
    double prevY = curve.front().median_best;
    for (std::size_t i = 0; i < curve.size(); ++i) {
      const auto& p = curve[i];
      const double x = static_cast<double>(p.proposals);
      if (i > 0 && prevY != p.median_best) s->append(x, prevY);
      s->append(x, p.median_best);
      prevY = p.median_best;
      xMax = std::max(xMax, x);
      yMin = std::min(yMin, p.median_best);
      yMax = std::max(yMax, p.median_best);
    }
    chart_->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(y_);
    series_.push_back(s);
  }
  baseline_ = new QLineSeries;
  baseline_->setName(tr("baseline (1×)"));
  QPen grey(QColor(0x80, 0x80, 0x80));
  grey.setStyle(Qt::DashLine);
  grey.setWidthF(1.0);
  baseline_->setPen(grey);
  baseline_->append(0, 1.0);
  baseline_->append(xMax, 1.0);
  chart_->addSeries(baseline_);
  baseline_->attachAxis(x_);
  baseline_->attachAxis(y_);
  if (v2 > 0) x_->setTitleText(v1 > 0 ? tr("samples verified (STeP-25 runs: proposals per task)")
                                       : tr("proposals per task"));
  x_->setRange(0, xMax);
  const double pad = std::max(0.05, (yMax - yMin) * 0.08);
  y_->setRange(std::max(0.0, yMin - pad), yMax + pad);
  x_->applyNiceNumbers();
  empty_->setText(runs.empty() ? tr("Compare two or more workspaces to see their speedup curves.")
                               : tr("No run has a correct program timed by the cost model, so there is no speedup "
                                    "to draw."));
  empty_->setVisible(series_.isEmpty());
}

}  // namespace sf::widgets
