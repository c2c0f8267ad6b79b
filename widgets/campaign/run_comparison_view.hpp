// Run comparison drill-down (issue 20 items 1 and 4): a task x run grid of one metric at a time (status,
// pass@1, samples to first correct, tokens, cost, best speedup) coloured as a heat map, "only tasks that
// differ", deltas against a baseline run; a cell opens that run's samples of the task (programs, verdicts and
// the agent calls); two cells open a program diff (ProgramDiffView, canonical form optional) with each
// program's outputs against the reference; G promotes a cell's (or a sample's) program to the golden set
// (widgets/editor/golden_promote.hpp). Every number comes from core/learn/run_comparison (the report's fold) and
// verify::compare_outputs; this file only shows them. Every action has a key (cheatSheetText()).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QDialog>
#include <QPersistentModelIndex>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include "core/learn/run_comparison.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace sf::widgets {

class ProgramDiffView;

using RunRecordPtr = std::shared_ptr<const learn::RunRecord>;

class RunGridModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum class Metric { Status, Pass1, SamplesToFirstCorrect, Tokens, Cost, BestSpeedup };
  static constexpr int kMetricCount = 6;
  // ValueRole: the metric's number (invalid when the cell has none); DeltaRole: the cell minus the baseline's
  // cell (invalid without a baseline, in the baseline's column, or when either side has no number);
  // HeatRole: 0 (worst) .. 1 (best) over the whole grid for this metric.
  enum Role { ValueRole = Qt::UserRole + 1, DeltaRole, HeatRole };

  explicit RunGridModel(QObject* parent = nullptr);
  void setRuns(std::vector<RunRecordPtr> runs);
  void setMetric(Metric m);
  Metric metric() const { return metric_; }
  static QString metricName(Metric m);
  void setOnlyDiffering(bool on);
  bool onlyDiffering() const { return onlyDiffering_; }
  void setBaseline(int run);  // -1: none
  int baseline() const { return baseline_; }

  int runCount() const { return static_cast<int>(runs_.size()); }
  const learn::RunRecord* run(int r) const;
  QString runTitle(int r) const;
  std::string task(int row) const;
  int rowOfTask(const std::string& task) const;
  // The cell at (row, column >= 1); nullptr when that run does not have the task.
  const learn::TaskRunStats* cell(int row, int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;  // 1 + runs
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  void rebuildRows();
  std::optional<double> value(const learn::TaskRunStats& s) const;
  std::optional<double> delta(const learn::TaskRunStats& base, const learn::TaskRunStats& s) const;

  std::vector<RunRecordPtr> runs_;
  std::vector<std::map<std::string, learn::TaskRunStats>> stats_;  // per run: task -> cell
  std::vector<std::string> tasks_;  // union, in the first run's order
  std::vector<std::string> rows_;   // shown (all, or only the differing ones)
  Metric metric_ = Metric::Pass1;
  bool onlyDiffering_ = false;
  int baseline_ = -1;
};

class RunComparisonView : public QWidget {
  Q_OBJECT
 public:
  explicit RunComparisonView(QWidget* parent = nullptr);
  // `problems`: the workspaces that could not be read ("DIR: why"), shown above the grid.
  void setRuns(std::vector<RunRecordPtr> runs, const QStringList& problems = {});

  RunGridModel* model() const { return model_; }
  QTableView* grid() const { return grid_; }
  QTabWidget* detailTabs() const { return tabs_; }
  QTableWidget* samples() const { return samples_; }
  QPlainTextEdit* programText() const { return program_; }
  QPlainTextEdit* callsText() const { return calls_; }
  QLabel* sampleOutputs() const { return sampleOutputs_; }
  ProgramDiffView* diffView() const { return diff_; }
  QLabel* leftOutputs() const { return leftOutputs_; }
  QLabel* rightOutputs() const { return rightOutputs_; }
  QPersistentModelIndex marked() const { return marked_; }

  // The actions (each has a key).
  bool openCell(const QModelIndex& index);  // Enter: the run's samples of the task
  bool diffCells(const QModelIndex& left, const QModelIndex& right);  // the two cells' programs
  bool diffCurrent();     // D: the marked cell (or the baseline's cell of the row) against the current cell
  void markCurrent();     // Space: mark the current cell as the left side of the next diff
  void setBaselineToCurrent();  // B: the current cell's run becomes the baseline (again: none)
  void cycleMetric(int delta);  // M / Shift+M
  void toggleOnlyDiffering();   // F
  void moveSample(int delta);   // J / K
  void toggleCanonical();       // C
  // G (or the context menu): verify the program and add it to the golden set (goldenFileForWorkspace of the
  // cell's run) with its provenance (campaign, workspace, task, iteration, sample, model, "comparison"); no
  // confirmation; a program that does not verify is refused with the reason (statusMessage either way).
  bool promoteCell(const QModelIndex& index);  // the cell's representative program (the one the diff shows)
  bool promoteShownSample();  // the opened cell's current sample (G in the sample list or its program)
  QAction* promoteCellAction() const { return promoteCellAction_; }
  QAction* promoteSampleAction() const { return promoteSampleAction_; }
  static QString cheatSheetText();
  void showCheatSheet();
  QWidget* cheatSheet() const;

 signals:
  void statusMessage(const QString& text);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showSample(int i);
  void syncControls();
  // The outputs of `impl` against the reference of `task` (bundled catalogue), one line per output.
  static QString outputsText(const std::string& task, const std::string& impl);

  RunGridModel* model_;
  QComboBox* metricBox_;
  QCheckBox* differing_;
  QComboBox* baselineBox_;
  QLabel* note_;
  QTableView* grid_;
  QTabWidget* tabs_;
  QLabel* cellTitle_;
  QTableWidget* samples_;
  QPlainTextEdit* program_;
  QPlainTextEdit* calls_;
  QLabel* sampleOutputs_;
  ProgramDiffView* diff_;
  QLabel* leftOutputs_;
  QLabel* rightOutputs_;
  QPersistentModelIndex marked_;
  QPointer<QDialog> cheatSheet_;
  std::vector<learn::TaskSample> shown_;  // the opened cell's samples
  std::filesystem::path shownDir_;        // the opened cell's run workspace (its prompts' blobs/)
  std::string shownTask_;
  int shownRun_ = -1;  // the opened cell's run
  QAction* promoteCellAction_;
  QAction* promoteSampleAction_;
};

}  // namespace sf::widgets
