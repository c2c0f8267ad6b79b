// The workbench's main window: the STeP editor in the centre; docks for issues, verification, the dataflow
// graph (and, when present, the stream inspector and the task browser); actions Check, Simulate, Verify,
// Insert Copies, Format; open/save (UTF-8); settings with a version key and restored window state;
// Help → STeP Manual. Everything the engine does goes through EngineBridge.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include "widgets/engine/engine_types.hpp"

class QLabel;
class QProgressBar;
class QTreeView;
class QTableView;
class QAction;

namespace sf::widgets {

class EngineBridge;
class StepEditor;
class IssuesModel;
class VerifySetsModel;
class GraphView;
class ManualBrowser;
class StreamInspector;
class TaskBrowser;
class CampaignDocks;
class AuditDocks;
class AgentDocks;
class PerformancePane;
namespace perf2 {
class Perf2Docks;
}

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Reads a task document or solution file (UTF-8). False (with a message in the status bar) on failure.
  bool openFile(const QString& path);
  // A new buffer with the bundled task `id` ("group/name") and an empty `impl: |`.
  bool newFromTask(const QString& id);
  // A new buffer with `text` (not tied to a file).
  void setDocument(const QString& text, const QString& path = {});
  bool saveTo(const QString& path);
  // Renders the whole window into a PNG.
  bool saveScreenshot(const QString& path);

  // A bundled task with a correct program, for the screenshot and first start.
  static QString demoDocument();

  StepEditor* editor() const { return editor_; }
  EngineBridge* bridge() const { return bridge_; }
  IssuesModel* issuesModel() const { return issues_; }
  VerifySetsModel* verifySetsModel() const { return sets_; }
  StreamInspector* streamInspector() const { return inspector_; }
  TaskBrowser* taskBrowser() const { return tasks_; }
  // The campaign menu, run control, traces, learning curves and run comparison (campaign_docks.hpp).
  CampaignDocks* campaignDocks() const { return campaign_; }
  AuditDocks* auditDocks() const { return audit_; }  // adoption audit + memory inspector
  // The agent at the editor's side: Agent menu, toolbar and dock (agent_docks.hpp).
  AgentDocks* agentDocks() const { return agent_; }
  GraphView* graphView() const { return graph_; }
  PerformancePane* performancePane() const { return perf_; }
  perf2::Perf2Docks* perf2Docks() const { return perf2_; }  // the STeP-25 performance explorer
  // The cost summary in the status bar after Verify ("" when there is none).
  QString statusPerfText() const;
  // Scrolls the editor so that the impl block is in view.
  void revealImpl();
  QString verifySummary() const;
  // The campaign workspace open in the window ("" when none): set by opening a workspace or starting a
  // campaign; workspaceOpened is emitted each time.
  QString workspaceDir() const { return workspaceDir_; }

  static constexpr int kSettingsVersion = 1;

 public slots:
  // Records the open campaign workspace and emits workspaceOpened (CampaignDocks calls it).
  void setWorkspaceDir(const QString& dir);
  void check();
  void simulate();
  void verifyProgram();
  void insertCopies();
  void formatProgram();
  void cancelAll();
  void showManual();

 signals:
  void verified(const sf::widgets::VerifySnapshot& s);
  void simulated(const sf::widgets::SimulateSnapshot& s);
  // A campaign workspace was opened (finished or live) or a new campaign was started in `dir`.
  void workspaceOpened(const QString& dir);

 protected:
  void closeEvent(QCloseEvent* e) override;
  void showEvent(QShowEvent* e) override;
  bool event(QEvent* e) override;  // dock tab bars: titles never elided
  void changeEvent(QEvent* e) override;  // a font change: fitRowsToFont

 private:
  void createActions();
  void createDocks();
  void restoreSettings();
  // Widens the Tasks dock to show every task id whole (at most 2/5 of the window; issue 21); on the first
  // show without a saved layout also gives the Issues dock its default height.
  void fitDocks(bool firstShow);
  void fitRowsToFont();
  bool shown_ = false;
  bool savedLayout_ = false;  // restoreSettings found a saved dock layout
  void saveSettings() const;
  bool maybeSave();
  void updateTitle();
  void onCheck(const CheckSnapshot& s);
  void onVerify(const VerifySnapshot& s);
  void onSimulate(const SimulateSnapshot& s);
  void onRewrite(const RewriteSnapshot& s);
  void onProgress(JobKind k, int done, int total, const QString& what);
  void openDialog();
  void saveDialog(bool saveAs);
  void newFromTaskDialog();

  EngineBridge* bridge_;
  StepEditor* editor_;
  IssuesModel* issues_;
  VerifySetsModel* sets_;
  QTreeView* issuesView_ = nullptr;
  QTableView* setsView_ = nullptr;
  QLabel* verifyLabel_ = nullptr;
  GraphView* graph_ = nullptr;
  StreamInspector* inspector_ = nullptr;
  TaskBrowser* tasks_ = nullptr;
  PerformancePane* perf_ = nullptr;
  perf2::Perf2Docks* perf2_ = nullptr;
  QLabel* statusPerf_ = nullptr;
  QString perfText_;    // the document text the last cost report is for
  QString verifyText_;  // the text of the last Verify request
  QLabel* statusTask_ = nullptr;
  QLabel* statusCheck_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPointer<ManualBrowser> manual_;
  QAction* cancelAction_ = nullptr;
  QString path_;
  QString workspaceDir_;
  CampaignDocks* campaign_ = nullptr;
  AuditDocks* audit_ = nullptr;
  AgentDocks* agent_ = nullptr;
  int untitled_ = 0;  // numbers untitled buffers (the agent's history is per buffer)
  quint64 savedRevision_ = 0;
};

}  // namespace sf::widgets
