#include "widgets/campaign/trace_model.hpp"

#include <QBrush>
#include <QColor>

namespace sf::widgets {

TraceModel::TraceModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceModel::clear() {
  if (rows_.empty() && roles_.isEmpty()) return;
  beginResetModel();
  rows_.clear();
  roles_.clear();
  endResetModel();
  emit rolesChanged(roles_);
}

void TraceModel::append(const QVector<TraceRow>& rows) {
  if (rows.isEmpty()) return;
  const int first = static_cast<int>(rows_.size());
  beginInsertRows({}, first, first + static_cast<int>(rows.size()) - 1);
  rows_.insert(rows_.end(), rows.begin(), rows.end());
  endInsertRows();
  bool newRole = false;
  for (const auto& r : rows)
    if (!r.role.isEmpty() && !roles_.contains(r.role)) {
      roles_ << r.role;
      newRole = true;
    }
  if (newRole) emit rolesChanged(roles_);
}

void TraceModel::applyVerdicts(const QVector<TraceVerdictUpdate>& updates) {
  if (updates.isEmpty()) return;
  int lo = INT_MAX, hi = -1;
  for (const auto& v : updates) {
    if (v.row < 0 || v.row >= static_cast<int>(rows_.size())) continue;
    rows_[static_cast<std::size_t>(v.row)].verdict = v.verdict;
    rows_[static_cast<std::size_t>(v.row)].verdictWord = v.verdictWord;
    rows_[static_cast<std::size_t>(v.row)].cycles = v.cycles;
    rows_[static_cast<std::size_t>(v.row)].speedup = v.speedup;
    lo = std::min(lo, v.row);
    hi = std::max(hi, v.row);
  }
  if (hi >= 0) emit dataChanged(index(lo, 0), index(hi, ColumnCount - 1));
}

void TraceModel::apply(const CampaignUpdate& u) {
  if (u.reset) clear();
  fastTolerance_ = u.fastTolerance;
  applyVerdicts(u.verdictUpdates);
  append(u.traceRows);
}

QStringList TraceModel::roles() const { return roles_; }

int TraceModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TraceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TraceModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) || index.column() >= ColumnCount) return {};
  const TraceRow& r = rows_[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case SeqColumn: return r.seq;
        case RoleColumn: return r.role;
        case TaskColumn: return r.task;
        case IterationColumn: return r.iteration;
        case SampleColumn:  // from 1, as people count (the log's index + 1); none for a call outside a sample
          if (r.sample < 0) return QStringLiteral("—");
          return r.temperatureIndex > 0 ? QStringLiteral("%1/T%2").arg(r.sample + 1).arg(r.temperatureIndex)
                                        : QString::number(r.sample + 1);
        case VerdictColumn:
          if (!r.error.isEmpty() && r.verdict.isEmpty()) return tr("error: %1").arg(r.error);
          if (r.verdict.isEmpty()) return tr("…");
          return r.verdictWord.isEmpty() ? r.verdict : r.verdictWord;
        case CyclesColumn: return r.cycles >= 0 ? QVariant(r.cycles) : QVariant();
        case SpeedupColumn:
          return r.speedup >= 0 ? QVariant(QString::fromStdString(speedup_text(r.speedup, fastTolerance_))) : QVariant();
        case TokensColumn: return r.tokens;
        case LatencyColumn: return QString::number(r.latency, 'f', 2) + (r.fromCache ? tr(" (cache)") : QString());
      }
      return {};
    case Qt::ToolTipRole:
      if (index.column() == VerdictColumn) {  // the code behind the short word
        if (!r.error.isEmpty()) return r.verdict.isEmpty() ? r.error : r.verdict + QLatin1Char('\n') + r.error;
        if (!r.verdict.isEmpty()) return r.verdict;
      }
      if (index.column() == SpeedupColumn && r.speedup > kSuspiciousSpeedup)
        return tr("Suspicious: a speedup above %1× should be checked by a human").arg(kSuspiciousSpeedup);
      return {};
    case Qt::ForegroundRole:
      if (index.column() == VerdictColumn) {
        if (r.verdict == QLatin1String("pass")) return QBrush(QColor(0x1b, 0x80, 0x3a));
        if (r.verdict.startsWith(QLatin1String("fail"))) return QBrush(QColor(0xc0, 0x30, 0x30));
      }
      if (index.column() == SpeedupColumn && r.speedup > kSuspiciousSpeedup) return QBrush(QColor(0xb4, 0x53, 0x09));
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == TokensColumn || index.column() == LatencyColumn || index.column() == SeqColumn ||
          index.column() == IterationColumn || index.column() == CyclesColumn || index.column() == SpeedupColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case RowRole: return index.row();
    case RoleNameRole: return r.role;
    case TaskRole: return r.task;
    case VerdictRole: return r.verdict;
    case PassRole: return r.verdict == QLatin1String("pass");
    case CyclesRole: return r.cycles;
    case SpeedupRole: return r.speedup;
    case SearchTextRole: return r.task + QLatin1Char(' ') + r.role + QLatin1Char(' ') + r.verdict + QLatin1Char(' ') + r.error;
  }
  return {};
}

QVariant TraceModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case SeqColumn: return tr("#");
    case RoleColumn: return tr("Role");
    case TaskColumn: return tr("Task");
    case IterationColumn: return tr("Iteration");
    case SampleColumn: return tr("Sample");
    case VerdictColumn: return tr("Verdict");
    case CyclesColumn: return tr("Cycles");
    case SpeedupColumn: return tr("Speedup");
    case TokensColumn: return tr("Tokens");
    case LatencyColumn: return tr("Latency (s)");
  }
  return {};
}

TraceFilterProxy::TraceFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

void TraceFilterProxy::setRoleFilter(const QString& role) {
  if (role == role_) return;
  role_ = role;
  invalidateFilter();
}

void TraceFilterProxy::setVerdictFilter(VerdictFilter v) {
  if (v == verdict_) return;
  verdict_ = v;
  invalidateFilter();
}

void TraceFilterProxy::setTaskFilter(const QString& task) {
  if (task == task_) return;
  task_ = task;
  invalidateFilter();
}

void TraceFilterProxy::setSearchText(const QString& text) {
  if (text == search_) return;
  search_ = text;
  invalidateFilter();
}

void TraceFilterProxy::setSearchResponses(bool on) {
  if (on == searchResponses_) return;
  searchResponses_ = on;
  invalidateFilter();
}

bool TraceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (sourceParent.isValid()) return false;
  auto* m = qobject_cast<const TraceModel*>(sourceModel());
  if (!m || sourceRow >= m->rowCount()) return false;
  const TraceRow& r = m->row(sourceRow);
  if (!role_.isEmpty() && r.role != role_) return false;
  if (!task_.isEmpty() && r.task != task_) return false;
  switch (verdict_) {
    case VerdictFilter::Any: break;
    case VerdictFilter::Pass:
      if (r.verdict != QLatin1String("pass")) return false;
      break;
    case VerdictFilter::Fail:
      if (!r.verdict.startsWith(QLatin1String("fail"))) return false;
      break;
    case VerdictFilter::Pending:
      if (!r.verdict.isEmpty()) return false;
      break;
  }
  if (search_.isEmpty()) return true;
  const auto cs = Qt::CaseInsensitive;
  if (r.task.contains(search_, cs) || r.role.contains(search_, cs) || r.verdict.contains(search_, cs) ||
      r.error.contains(search_, cs))
    return true;
  return searchResponses_ && r.detail &&
         (r.detail->response.contains(search_, cs) || r.detail->impl.contains(search_, cs));
}

}  // namespace sf::widgets
