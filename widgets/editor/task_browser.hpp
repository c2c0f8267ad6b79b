// The task browser pane (issue 8, item 5): groups -> tasks with their tags and, when a campaign is open,
// their status (solved, success rate). A filter box matches ids, titles and tags. Activating a task (double
// click, Enter) emits taskActivated(id).
#pragma once

#include <QWidget>
#include <vector>

#include "widgets/editor/task_browser_model.hpp"

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace sf::widgets {

class TaskBrowser : public QWidget {
  Q_OBJECT
 public:
  explicit TaskBrowser(QWidget* parent = nullptr);

  void setTasks(std::vector<TaskEntry> tasks);
  void setTaskStatus(const QString& id, bool solved, double rate);
  void clearStatuses();

  TaskBrowserModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTreeView* view() const { return view_; }
  QString currentTask() const;  // id of the selected task, empty if a group or nothing is selected
  QSize sizeHint() const override;  // every column at its content width
  int columnContentWidth(int column) const;  // the widest cell of `column`, with the tree's indentation

 public Q_SLOTS:
  void setFilterText(const QString& text);
  bool selectTask(const QString& id);  // selects and reveals the task; no signal

 Q_SIGNALS:
  void taskActivated(const QString& id);

 private:
  TaskBrowserModel* model_;
  QSortFilterProxyModel* proxy_;
  QLineEdit* filter_;
  QTreeView* view_;
};

}  // namespace sf::widgets
