// The task browser's tree model: groups -> tasks, with tags and, when a campaign is open, each task's status
// (solved, success rate). Reads value snapshots (TaskEntry); status comes from setTaskStatus.
#pragma once

#include <QAbstractItemModel>
#include <QHash>
#include <string>
#include <vector>

#include "core/step/task.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::widgets {

struct TaskEntry {
  std::string id, group, title, origin;
  std::vector<std::string> tags;  // e.g. {"CS", "Reuse"}
};

// Tags from a task's meta (benchmark.md §1): attr (C / CS), then Once (copies = 0) or Reuse (copies > 0).
std::vector<std::string> task_tags(const step::TaskDoc& task);
TaskEntry task_entry(const step::TaskDoc& task);
std::vector<TaskEntry> task_entries(const bench::Catalogue& catalogue);

class TaskBrowserModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, TagsColumn, SolvedColumn, RateColumn, ColumnCount };
  enum Role { TaskIdRole = Qt::UserRole + 1, GroupRole, IsTaskRole, SolvedRole, RateRole };

  explicit TaskBrowserModel(QObject* parent = nullptr);

  // Replaces the tasks (grouped by TaskEntry::group, groups and tasks sorted by name). Keeps known statuses.
  void setTasks(std::vector<TaskEntry> tasks);
  // Records a task's campaign status; rate in [0, 1] (clamped; NaN = unknown). Unknown ids are ignored.
  // Returns false for an unknown id.
  bool setTaskStatus(const QString& id, bool solved, double rate);
  void clearStatuses();  // no campaign open: the status columns are blank
  bool hasStatus() const { return !status_.isEmpty(); }

  QModelIndex indexOfTask(const QString& id, int column = 0) const;
  QModelIndex indexOfGroup(const QString& group, int column = 0) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  struct Status {
    bool solved = false;
    double rate = 0;
  };
  struct Group {
    QString name;
    std::vector<TaskEntry> tasks;
  };
  QVariant groupData(const Group& g, int column, int role) const;
  QVariant taskData(const TaskEntry& t, int column, int role) const;

  std::vector<Group> groups_;
  QHash<QString, Status> status_;
};

}  // namespace sf::widgets
