#include "widgets/editor/task_browser_model.hpp"
#include "widgets/qt_text.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/bench/catalogue.hpp"

namespace sf::widgets {

namespace {

// Internal ids: 0 for group rows, group index + 1 for task rows (their parent).
constexpr quintptr kGroupId = 0;


QString percent(double rate) {
  return QString::number(std::lround(rate * 100)) + QStringLiteral("%");
}

}  // namespace

std::vector<std::string> task_tags(const step::TaskDoc& task) {
  std::vector<std::string> tags;
  if (!task.meta.present) return tags;
  if (!task.meta.attr.empty()) tags.push_back(task.meta.attr);
  if (task.meta.copies == 0) tags.emplace_back("Once");
  if (task.meta.copies > 0) tags.emplace_back("Reuse");
  return tags;
}

TaskEntry task_entry(const step::TaskDoc& task) {
  return TaskEntry{task.id, task.group, task.title, task.meta.origin, task_tags(task)};
}

std::vector<TaskEntry> task_entries(const bench::Catalogue& catalogue) {
  std::vector<TaskEntry> out;
  for (const auto& t : catalogue.tasks()) out.push_back(task_entry(t));
  return out;
}

TaskBrowserModel::TaskBrowserModel(QObject* parent) : QAbstractItemModel(parent) {}

void TaskBrowserModel::setTasks(std::vector<TaskEntry> tasks) {
  std::map<QString, std::vector<TaskEntry>> by_group;
  for (auto& t : tasks) by_group[qs(t.group)].push_back(std::move(t));
  beginResetModel();
  groups_.clear();
  for (auto& [name, list] : by_group) {
    std::sort(list.begin(), list.end(), [](const TaskEntry& a, const TaskEntry& b) { return a.id < b.id; });
    groups_.push_back(Group{name, std::move(list)});
  }
  endResetModel();
}

bool TaskBrowserModel::setTaskStatus(const QString& id, bool solved, double rate) {
  const QModelIndex idx = indexOfTask(id);
  if (!idx.isValid()) return false;
  if (!std::isnan(rate)) rate = std::clamp(rate, 0.0, 1.0);
  const bool had_any = !status_.isEmpty();
  status_[id] = Status{solved, rate};
  if (!had_any) {
    // The status columns appear for every row: repaint everything.
    if (!groups_.empty()) {
      Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(groups_.size()) - 1, ColumnCount - 1));
      for (std::size_t g = 0; g < groups_.size(); ++g) {
        const QModelIndex gi = index(static_cast<int>(g), 0);
        if (!groups_[g].tasks.empty())
          Q_EMIT dataChanged(index(0, 0, gi),
                             index(static_cast<int>(groups_[g].tasks.size()) - 1, ColumnCount - 1, gi));
      }
    }
    return true;
  }
  Q_EMIT dataChanged(index(idx.row(), 0, idx.parent()), index(idx.row(), ColumnCount - 1, idx.parent()));
  const QModelIndex g = idx.parent();
  Q_EMIT dataChanged(index(g.row(), 0), index(g.row(), ColumnCount - 1));
  return true;
}

void TaskBrowserModel::clearStatuses() {
  if (status_.isEmpty()) return;
  beginResetModel();
  status_.clear();
  endResetModel();
}

QModelIndex TaskBrowserModel::indexOfTask(const QString& id, int column) const {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    for (std::size_t t = 0; t < groups_[g].tasks.size(); ++t)
      if (qs(groups_[g].tasks[t].id) == id)
        return createIndex(static_cast<int>(t), column, static_cast<quintptr>(g + 1));
  return {};
}

QModelIndex TaskBrowserModel::indexOfGroup(const QString& group, int column) const {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].name == group) return createIndex(static_cast<int>(g), column, kGroupId);
  return {};
}

QModelIndex TaskBrowserModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) {
    if (static_cast<std::size_t>(row) >= groups_.size()) return {};
    return createIndex(row, column, kGroupId);
  }
  if (parent.internalId() != kGroupId || parent.column() != 0) return {};
  const auto g = static_cast<std::size_t>(parent.row());
  if (g >= groups_.size() || static_cast<std::size_t>(row) >= groups_[g].tasks.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(g + 1));
}

QModelIndex TaskBrowserModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kGroupId) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, kGroupId);
}

int TaskBrowserModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(groups_.size());
  if (parent.internalId() != kGroupId || parent.column() != 0) return 0;
  return static_cast<int>(groups_[static_cast<std::size_t>(parent.row())].tasks.size());
}

int TaskBrowserModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

Qt::ItemFlags TaskBrowserModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.internalId() != kGroupId) f |= Qt::ItemNeverHasChildren;
  return f;
}

QVariant TaskBrowserModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  if (index.internalId() == kGroupId)
    return groupData(groups_[static_cast<std::size_t>(index.row())], index.column(), role);
  const auto& g = groups_[static_cast<std::size_t>(index.internalId() - 1)];
  return taskData(g.tasks[static_cast<std::size_t>(index.row())], index.column(), role);
}

QVariant TaskBrowserModel::groupData(const Group& g, int column, int role) const {
  switch (role) {
    case GroupRole:
      return g.name;
    case IsTaskRole:
      return false;
    case Qt::ForegroundRole:
      if (column == TagsColumn) return QBrush(QColor(0x80, 0x80, 0x80));
      break;
    case Qt::DisplayRole:
      switch (column) {
        case NameColumn:
          return g.name;
        case TagsColumn:
          return tr("%n task(s)", nullptr, static_cast<int>(g.tasks.size()));
        case SolvedColumn: {
          if (status_.isEmpty()) return {};
          int solved = 0;
          for (const auto& t : g.tasks) {
            auto it = status_.constFind(qs(t.id));
            solved += it != status_.constEnd() && it->solved ? 1 : 0;
          }
          return tr("%1/%2").arg(solved).arg(g.tasks.size());
        }
        case RateColumn: {
          if (status_.isEmpty()) return {};
          double sum = 0;
          int n = 0;
          for (const auto& t : g.tasks) {
            auto it = status_.constFind(qs(t.id));
            if (it != status_.constEnd() && !std::isnan(it->rate)) {
              sum += it->rate;
              ++n;
            }
          }
          return n ? percent(sum / n) : QVariant();
        }
      }
      break;
  }
  return {};
}

QVariant TaskBrowserModel::taskData(const TaskEntry& t, int column, int role) const {
  const QString id = qs(t.id);
  auto it = status_.constFind(id);
  const bool known = it != status_.constEnd();
  switch (role) {
    case TaskIdRole:
      return id;
    case GroupRole:
      return qs(t.group);
    case IsTaskRole:
      return true;
    case SolvedRole:
      return known ? QVariant(it->solved) : QVariant();
    case RateRole:
      return known && !std::isnan(it->rate) ? QVariant(it->rate) : QVariant();
    case Qt::ToolTipRole: {
      QString tip = id + QStringLiteral("\n") + qs(t.title);
      if (!t.origin.empty()) tip += QStringLiteral("\n") + tr("Paper task: %1").arg(qs(t.origin));
      return tip;
    }
    case Qt::DisplayRole:
      switch (column) {
        case NameColumn: {
          const auto slash = t.id.find('/');
          return slash == std::string::npos ? id : qs(t.id.substr(slash + 1));
        }
        case TagsColumn: {
          QStringList tags;
          for (const auto& tag : t.tags) tags << qs(tag);
          return tags.join(QStringLiteral(", "));
        }
        case SolvedColumn:
          if (!known) return status_.isEmpty() ? QVariant() : QVariant(tr("—"));
          return it->solved ? tr("solved") : tr("unsolved");
        case RateColumn:
          return known && !std::isnan(it->rate) ? QVariant(percent(it->rate)) : QVariant();
      }
      break;
    case Qt::ForegroundRole:
      if (column == SolvedColumn && known)
        return QBrush(it->solved ? QColor(QStringLiteral("#15803d")) : QColor(QStringLiteral("#b91c1c")));
      if (column == TagsColumn) return QBrush(QColor(0x80, 0x80, 0x80));  // secondary to the id
      break;
  }
  return {};
}

QVariant TaskBrowserModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Task");
    case TagsColumn:
      return tr("Tags");
    case SolvedColumn:
      return tr("Status");
    case RateColumn:
      return tr("Success rate");
  }
  return {};
}

}  // namespace sf::widgets
