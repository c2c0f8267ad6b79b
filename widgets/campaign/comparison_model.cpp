#include "widgets/campaign/comparison_model.hpp"
#include "core/common/speedup.hpp"

#include <QBrush>
#include <QColor>
#include <QFileInfo>

namespace sf::widgets {

QString runLabel(const QString& dir, const QString& name) {
  const QString folder = QFileInfo(dir).fileName();
  const QString label = folder.isEmpty() ? name
                        : name.isEmpty() || name == folder ? folder
                                                           : folder + QStringLiteral(" · ") + name;
  return label.isEmpty() ? dir : label;
}

ComparisonSummaryModel::ComparisonSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonSummaryModel::setCampaigns(const QVector<CampaignSummary>& c) {
  beginResetModel();
  c_ = c;
  endResetModel();
}

int ComparisonSummaryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(c_.size()); }
int ComparisonSummaryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparisonSummaryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= c_.size() || index.column() >= ColumnCount) return {};
  const CampaignSummary& s = c_[index.row()];
  if (role == Qt::ToolTipRole) return s.error.isEmpty() ? s.dir : s.error;
  if (role != Qt::DisplayRole) return {};
  const CurvePoint* last = s.curve.isEmpty() ? nullptr : &s.curve.back();
  switch (index.column()) {
    case NameColumn: return runLabel(s.dir, s.name);
    case ModeColumn: return s.mode;
    case SolvedColumn: return QStringLiteral("%1/%2").arg(s.solved).arg(s.taskCount);
    case Pass1Column: return last ? QString::number(last->pass1, 'f', 3) : QStringLiteral("–");
    case PassNColumn: return last ? QString::number(last->passN, 'f', 3) : QStringLiteral("–");
    case TokensColumn: return s.tokens;
    case CostColumn: return QStringLiteral("$%1").arg(s.cost, 0, 'f', 4);
    case StatusColumn:
      if (!s.error.isEmpty()) return tr("error: %1").arg(s.error);
      return s.finished ? tr("finished (%1)").arg(s.finishReason) : tr("unfinished");
  }
  return {};
}

QVariant ComparisonSummaryModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Campaign");
    case ModeColumn: return tr("Mode");
    case SolvedColumn: return tr("Solved");
    case Pass1Column: return tr("pass@1 / ER");
    case PassNColumn: return tr("pass@n / solved");
    case TokensColumn: return tr("Tokens");
    case CostColumn: return tr("Cost");
    case StatusColumn: return tr("Status");
  }
  return {};
}

ComparisonTaskModel::ComparisonTaskModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTaskModel::setCampaigns(const QVector<CampaignSummary>& c) {
  beginResetModel();
  c_ = c;
  tasks_.clear();
  byTask_.clear();
  for (const auto& s : c_) {
    QHash<QString, TaskStatusRow> h;
    for (const auto& t : s.tasks) {
      h.insert(t.task, t);
      if (!tasks_.contains(t.task)) tasks_ << t.task;
    }
    byTask_ << h;
  }
  endResetModel();
}

int ComparisonTaskModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(tasks_.size()); }
int ComparisonTaskModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 1 + int(c_.size()); }

QVariant ComparisonTaskModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= tasks_.size() || index.column() > c_.size()) return {};
  const QString& task = tasks_[index.row()];
  if (index.column() == 0) return role == Qt::DisplayRole ? QVariant(task) : QVariant();
  const auto& h = byTask_[index.column() - 1];
  auto it = h.find(task);
  if (it == h.end()) return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
  const TaskStatusRow& t = *it;
  const double tolerance = c_[index.column() - 1].fastTolerance;  // the campaign's own tie tolerance
  switch (role) {
    case Qt::DisplayRole: {
      QString text = QStringLiteral("%1 %2/%3 (%4%)")
                         .arg(t.solved ? QStringLiteral("✔") : QStringLiteral("✘"))
                         .arg(t.successes)
                         .arg(t.samples)
                         .arg(t.rate() * 100.0, 0, 'f', 0);
      if (t.bestSpeedup)
        text += QStringLiteral(" · ") + QString::fromStdString(best_speedup_text(*t.bestSpeedup, tolerance));
      return text;
    }
    case Qt::ToolTipRole:
      return t.bestSpeedup ? QVariant(tr("Best speedup of a passing program: %1 (a program counts as faster when it is "
                                         "at least %2% faster than the baseline)")
                                          .arg(QString::fromStdString(speedup_text(*t.bestSpeedup, tolerance)))
                                          .arg(tolerance * 100.0, 0, 'g', 3))
                           : QVariant();
    case BestSpeedupRole: return t.bestSpeedup ? *t.bestSpeedup : -1.0;
    case Qt::ForegroundRole: return QBrush(t.solved ? QColor(0x1b, 0x80, 0x3a) : QColor(0xc0, 0x30, 0x30));
    case RateRole: return t.rate();
    case SolvedRole: return t.solved;
    case SamplesRole: return t.samples;
  }
  return {};
}

QVariant ComparisonTaskModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return tr("Task");
  if (section > c_.size()) return {};
  return runLabel(c_[section - 1].dir, c_[section - 1].name);
}

}  // namespace sf::widgets
