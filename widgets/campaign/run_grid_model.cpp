// RunGridModel (declared in run_comparison_view.hpp): the task x run grid of one metric, its heat map and the
// deltas against a baseline run. The view and its drill-down are in run_comparison_view.cpp.
#include "widgets/campaign/run_comparison_view.hpp"
#include "core/common/speedup.hpp"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <cmath>

#include "widgets/campaign/comparison_model.hpp"
#include "widgets/qt_text.hpp"

namespace sf::widgets {

namespace {

using Metric = RunGridModel::Metric;

// Higher is better for these metrics; lower is better for the others (samples, tokens, cost).
bool higherIsBetter(Metric m) {
  return m == Metric::Status || m == Metric::Pass1 || m == Metric::BestSpeedup;
}

// `tolerance`: the tie tolerance of the cell's run (learn::RunRecord::fast_tolerance).
QString formatMetric(Metric m, double v, double tolerance) {
  switch (m) {
    case Metric::Status: return v > 0.5 ? QStringLiteral("✔") : QStringLiteral("✘");
    case Metric::Pass1: return QString::number(v, 'f', 2);
    case Metric::SamplesToFirstCorrect:
    case Metric::Tokens: return QString::number(static_cast<qint64>(std::llround(v)));
    case Metric::Cost: return QStringLiteral("$%1").arg(v, 0, 'f', 4);
    case Metric::BestSpeedup: return QString::fromStdString(speedup_text(v, tolerance));  // "tie (1.00×)"
  }
  return {};
}

// The value a cell's colour is computed from: a speedup within the tie tolerance of its run counts as the
// baseline's 1×, so a one-cycle win is not coloured as better than a tie.
double heatValue(Metric m, double v, double tolerance) {
  return m == Metric::BestSpeedup && classify_speedup(v, tolerance) == SpeedupClass::Tie ? 1.0 : v;
}

QString formatDelta(Metric m, double d) {
  const QString sign = d > 0 ? QStringLiteral("+") : d < 0 ? QStringLiteral("−") : QStringLiteral("±");
  const double a = std::fabs(d);
  switch (m) {
    case Metric::Status: return {};
    case Metric::Pass1: return sign + QString::number(a, 'f', 2);
    case Metric::SamplesToFirstCorrect:
    case Metric::Tokens: return sign + QString::number(static_cast<qint64>(std::llround(a)));
    case Metric::Cost: return sign + QStringLiteral("$%1").arg(a, 0, 'f', 4);
    case Metric::BestSpeedup: return sign + QStringLiteral("%1×").arg(a, 0, 'f', 2);
  }
  return {};
}

QString cellTooltip(const learn::TaskRunStats& s, double tolerance) {
  QStringList parts;
  parts << (!s.attempted ? RunGridModel::tr("not sampled") : s.solved ? RunGridModel::tr("solved") : RunGridModel::tr("unsolved"));
  parts << RunGridModel::tr("%1 of %2 samples pass").arg(s.successes).arg(s.samples);
  parts << RunGridModel::tr("pass@1 %1").arg(s.pass1, 0, 'f', 3);
  if (s.samples_to_first_correct)
    parts << RunGridModel::tr("first pass at sample %1").arg(*s.samples_to_first_correct);
  parts << RunGridModel::tr("%1 tokens, $%2").arg(s.tokens).arg(s.cost_usd, 0, 'f', 4);
  if (s.best_cycles)
    parts << (s.best_speedup ? RunGridModel::tr("best %1 (%2 cycles)")
                                           .arg(QString::fromStdString(best_speedup_text(*s.best_speedup, tolerance)))
                                           .arg(*s.best_cycles)
                             : RunGridModel::tr("best %1 cycles").arg(*s.best_cycles));
  return parts.join(QStringLiteral(" · "));
}

}  // namespace

// ---- RunGridModel ----

RunGridModel::RunGridModel(QObject* parent) : QAbstractTableModel(parent) {}

QString RunGridModel::metricName(Metric m) {
  switch (m) {
    case Metric::Status: return tr("Status");
    case Metric::Pass1: return tr("pass@1");
    case Metric::SamplesToFirstCorrect: return tr("Samples to first pass");
    case Metric::Tokens: return tr("Tokens");
    case Metric::Cost: return tr("Cost");
    case Metric::BestSpeedup: return tr("Best speedup");
  }
  return {};
}

void RunGridModel::setRuns(std::vector<RunRecordPtr> runs) {
  beginResetModel();
  runs_.clear();
  for (auto& r : runs)
    if (r) runs_.push_back(std::move(r));
  stats_.clear();
  tasks_.clear();
  for (const auto& r : runs_) {
    std::map<std::string, learn::TaskRunStats> m;
    for (auto& s : learn::task_run_stats(r->state)) {
      if (std::find(tasks_.begin(), tasks_.end(), s.task) == tasks_.end()) tasks_.push_back(s.task);
      m.emplace(s.task, std::move(s));
    }
    stats_.push_back(std::move(m));
  }
  if (baseline_ >= runCount()) baseline_ = -1;
  rebuildRows();
  endResetModel();
}

void RunGridModel::rebuildRows() {
  rows_.clear();
  for (const auto& t : tasks_) {
    if (onlyDiffering_) {
      std::vector<const learn::TaskRunStats*> cells;
      for (const auto& m : stats_) {
        auto it = m.find(t);
        cells.push_back(it == m.end() ? nullptr : &it->second);
      }
      if (!learn::task_differs(cells)) continue;
    }
    rows_.push_back(t);
  }
}

void RunGridModel::setMetric(Metric m) {
  if (m == metric_) return;
  metric_ = m;
  emit dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1));
}

void RunGridModel::setOnlyDiffering(bool on) {
  if (on == onlyDiffering_) return;
  beginResetModel();
  onlyDiffering_ = on;
  rebuildRows();
  endResetModel();
}

void RunGridModel::setBaseline(int run) {
  baseline_ = run >= 0 && run < runCount() ? run : -1;
  emit dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1));
  emit headerDataChanged(Qt::Horizontal, 1, columnCount() - 1);
}

const learn::RunRecord* RunGridModel::run(int r) const {
  return r >= 0 && r < runCount() ? runs_[static_cast<std::size_t>(r)].get() : nullptr;
}

QString RunGridModel::runTitle(int r) const {
  const auto* rr = run(r);
  if (!rr) return {};
  return runLabel(qs(rr->dir.string()), qs(rr->name));  // "demo-a · demo"
}

std::string RunGridModel::task(int row) const {
  return row >= 0 && row < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(row)] : std::string();
}

int RunGridModel::rowOfTask(const std::string& task) const {
  auto it = std::find(rows_.begin(), rows_.end(), task);
  return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
}

const learn::TaskRunStats* RunGridModel::cell(int row, int column) const {
  if (row < 0 || row >= rowCount() || column < 1 || column > runCount()) return nullptr;
  const auto& m = stats_[static_cast<std::size_t>(column - 1)];
  auto it = m.find(rows_[static_cast<std::size_t>(row)]);
  return it == m.end() ? nullptr : &it->second;
}

int RunGridModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}
int RunGridModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 1 + runCount(); }

std::optional<double> RunGridModel::value(const learn::TaskRunStats& s) const {
  if (!s.attempted) return std::nullopt;
  switch (metric_) {
    case Metric::Status: return s.solved ? 1.0 : 0.0;
    case Metric::Pass1: return s.pass1;
    case Metric::SamplesToFirstCorrect:
      return s.samples_to_first_correct ? std::optional<double>(double(*s.samples_to_first_correct)) : std::nullopt;
    case Metric::Tokens: return double(s.tokens);
    case Metric::Cost: return s.cost_usd;
    case Metric::BestSpeedup: return s.best_speedup;
  }
  return std::nullopt;
}

std::optional<double> RunGridModel::delta(const learn::TaskRunStats& base, const learn::TaskRunStats& s) const {
  if (!base.attempted || !s.attempted) return std::nullopt;
  const auto d = learn::task_run_delta(base, s);
  switch (metric_) {
    case Metric::Status: return std::nullopt;
    case Metric::Pass1: return d.pass1;
    case Metric::SamplesToFirstCorrect:
      return d.samples_to_first_correct ? std::optional<double>(double(*d.samples_to_first_correct)) : std::nullopt;
    case Metric::Tokens: return double(d.tokens);
    case Metric::Cost: return d.cost_usd;
    case Metric::BestSpeedup: return d.best_speedup;
  }
  return std::nullopt;
}

QVariant RunGridModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  if (index.column() == 0) return role == Qt::DisplayRole ? QVariant(qs(task(index.row()))) : QVariant();
  const learn::TaskRunStats* s = cell(index.row(), index.column());
  if (!s) return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
  const auto v = value(*s);
  const double tolerance = run(index.column() - 1)->fast_tolerance;  // each run's own
  const learn::TaskRunStats* base =
      baseline_ >= 0 && baseline_ != index.column() - 1 ? cell(index.row(), baseline_ + 1) : nullptr;
  std::optional<double> d;
  if (base) d = delta(*base, *s);
  switch (role) {
    case Qt::DisplayRole: {
      if (!s->attempted) return tr("not sampled");
      QString text = v ? formatMetric(metric_, *v, tolerance) : QStringLiteral("–");
      if (metric_ != Metric::Status) text = (s->solved ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) + text;
      if (d) text += QStringLiteral(" (%1)").arg(formatDelta(metric_, *d));
      return text;
    }
    case Qt::ToolTipRole: return cellTooltip(*s, tolerance);
    case ValueRole: return v ? QVariant(*v) : QVariant();
    case DeltaRole: return d ? QVariant(*d) : QVariant();
    case HeatRole:
    case Qt::BackgroundRole: {
      if (!v) return role == Qt::BackgroundRole ? QVariant(QBrush(QColor(0xe6, 0xe6, 0xe6))) : QVariant();
      const double hv = heatValue(metric_, *v, tolerance);
      double lo = hv, hi = hv;
      for (int r = 0; r < rowCount(); ++r)
        for (int c = 1; c <= runCount(); ++c)
          if (const auto* o = cell(r, c))
            if (const auto ov = value(*o)) {
              lo = std::min(lo, heatValue(metric_, *ov, run(c - 1)->fast_tolerance));
              hi = std::max(hi, heatValue(metric_, *ov, run(c - 1)->fast_tolerance));
            }
      double heat = hi > lo ? (hv - lo) / (hi - lo) : 1.0;
      if (!higherIsBetter(metric_)) heat = hi > lo ? 1.0 - heat : 1.0;
      if (metric_ == Metric::Status) heat = *v;
      if (role == HeatRole) return heat;
      return QBrush(QColor::fromHsvF(float(heat / 3.0), 0.35f, 0.98f));  // red (worst) .. green (best)
    }
    case Qt::ForegroundRole: return QBrush(QColor(0x20, 0x20, 0x20));
  }
  return {};
}

QVariant RunGridModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return tr("Task");
  if (section > runCount()) return {};
  QString t = runTitle(section - 1);
  return section - 1 == baseline_ ? tr("%1 (baseline)").arg(t) : t;
}

}  // namespace sf::widgets
