// The Run Comparison dock's contents (issue 9 item 4, issue 20, issue 34 item 5, issue 33 item 6): the list of
// workspaces to compare (Add, Remove, Compare) beside each other in one short row, and the views of the compared
// runs as tabs that take the rest of the height: Curves (learning curves of every run), Speedups (the best-speedup
// curve per run), Tokens and cost, Per-task success, Drill-down (the task x run grid). The tables size their
// columns to their contents, the Task column to its longest task id.
#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/campaign/campaign_types.hpp"

class QListWidget;
class QTabWidget;
class QTableView;

namespace sf::widgets {

class ComparisonSummaryModel;
class ComparisonTaskModel;
class LearningCurves;
class RunComparisonView;
class RunSpeedupChart;

class ComparisonPane : public QWidget {
  Q_OBJECT
 public:
  enum Tab { CurvesTab, SpeedupsTab, SummaryTab, TasksTab, DrillDownTab };
  explicit ComparisonPane(QWidget* parent = nullptr);

  // The compared runs (EngineBridge::comparisonReady): every view at once; workspaces that could not be read are
  // listed above the drill-down grid.
  void setCampaigns(const QVector<CampaignSummary>& campaigns);
  void setWorkspaces(const QStringList& dirs);  // the list (Compare asks for these)
  QStringList workspaces() const;
  void setStartDir(const QString& dir) { startDir_ = dir; }  // where Add Workspace… opens

  QListWidget* workspaceList() const { return list_; }
  QTabWidget* tabs() const { return tabs_; }
  LearningCurves* curves() const { return curves_; }
  RunSpeedupChart* speedups() const { return speedups_; }
  ComparisonSummaryModel* summaryModel() const { return summary_; }
  ComparisonTaskModel* taskModel() const { return tasks_; }
  QTableView* summaryTable() const { return summaryView_; }
  QTableView* taskTable() const { return taskView_; }
  RunComparisonView* grid() const { return grid_; }

 signals:
  void compareRequested(const QStringList& dirs);
  void statusMessage(const QString& text);

 private:
  void fitColumns();

  QListWidget* list_;
  QTabWidget* tabs_;
  LearningCurves* curves_;
  RunSpeedupChart* speedups_;
  ComparisonSummaryModel* summary_;
  ComparisonTaskModel* tasks_;
  QTableView* summaryView_;
  QTableView* taskView_;
  RunComparisonView* grid_;
  QString startDir_;
};

}  // namespace sf::widgets
