// The campaign side of the main window (issue 8 items 5-8, issue 9 items 3-4): the Campaign menu and run
// control toolbar (new, open, continue, start/pause/resume/cancel, demo mode, compare), the Campaign dock
// (progress bar with ETA, tokens and cost so far, replay speed), the Traces, Learning Curves and Run
// Comparison docks, and the task browser's status column. Everything comes from EngineBridge's campaign
// updates, so a live, a followed and a replayed campaign look the same.
#pragma once

#include <functional>

#include <QFont>
#include <QObject>
#include <QPointer>

#include "widgets/campaign/campaign_types.hpp"

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QProgressBar;
class QSlider;
class QTableView;
class QListWidget;

class QScrollArea;

namespace sf::widgets {

class EngineBridge;
class TaskBrowser;
class TracePane;
class LearningCurves;
class ReplayControls;
class ComparisonPane;
class ComparisonSummaryModel;
class ComparisonTaskModel;
class RunComparisonView;

class CampaignDocks : public QObject {
  Q_OBJECT
 public:
  // `onWorkspace` is called whenever a workspace is opened or a campaign started (MainWindow emits
  // workspaceOpened from it).
  CampaignDocks(QMainWindow* window, EngineBridge* bridge, TaskBrowser* tasks,
                std::function<void(const QString&)> onWorkspace);

  TracePane* tracePane() const { return traces_; }
  LearningCurves* curves() const { return curves_; }
  ReplayControls* replayControls() const { return replay_; }
  ComparisonPane* comparisonPane() const { return cmpPane_; }
  LearningCurves* comparisonCurves() const;
  ComparisonSummaryModel* comparisonSummary() const;
  ComparisonTaskModel* comparisonTasks() const;
  RunComparisonView* comparisonGrid() const;
  QProgressBar* progressBar() const { return progress_; }
  QString statusText() const;  // the dock's status line (state, tokens, cost, ETA)
  // The banner a campaign the engine paused shows (the cause and the fix, and Resume); "" when hidden.
  QString pauseBannerText() const;
  QWidget* pauseBanner() const { return haltBanner_; }
  CampaignRunState state() const { return state_; }
  const CampaignUpdate& last() const { return last_; }
  bool presenting() const { return presenting_; }

  // Replay speeds of the speed slider (events per second; the last one is "as fast as possible" = 0).
  static double speedForSlider(int value);

 public slots:
  void newCampaign();                         // the dialog, then start
  void startCampaign(const QByteArray& configJson, const QString& dir);
  void openWorkspace(const QString& dir);     // finished or live
  void continueWorkspace(const QString& dir);
  void startDemo(const QString& dir, double eventsPerSecond);  // replay + presentation layout
  void compareWorkspaces(const QStringList& dirs);
  // Shows and raises the Run Comparison dock and gives it most of the window's height (the editor and the
  // other bottom docks keep their minimum), so the tables show as many rows as the screen allows.
  void showComparison();
  void setPresentation(bool on);
  void pause();
  void resume();
  void cancel();

 signals:
  void replayStarted(const QString& dir);  // a demo replay of `dir` started (after its workspace was opened)

 private:
  void createDocks();
  void createActions();
  void onUpdate(const CampaignUpdate& u);
  void onState(CampaignRunState s, const QString& message);
  void updateActions();
  void showPresentationDocks();  // Campaign, Traces and Learning Curves only
  bool eventFilter(QObject* watched, QEvent* e) override;
  void fitPresentationDocks();  // the curves' minimum size: their contents' when presenting, else none
  void setWorkspace(const QString& dir);

  QMainWindow* w_;
  EngineBridge* bridge_;
  TaskBrowser* tasks_;
  QScrollArea* curvesScroll_ = nullptr;
  std::function<void(const QString&)> onWorkspace_;
  QString dir_;
  CampaignRunState state_ = CampaignRunState::Idle;
  CampaignUpdate last_;
  bool presenting_ = false;
  QByteArray savedState_;
  QFont savedFont_;

  TracePane* traces_ = nullptr;
  LearningCurves* curves_ = nullptr;
  ReplayControls* replay_ = nullptr;
  ComparisonPane* cmpPane_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* status_ = nullptr;
  QWidget* haltBanner_ = nullptr;
  QLabel* haltText_ = nullptr;
  QSlider* speed_ = nullptr;
  QLabel* speedLabel_ = nullptr;
  QAction *newA_ = nullptr, *openA_ = nullptr, *continueA_ = nullptr, *pauseA_ = nullptr, *resumeA_ = nullptr,
          *cancelA_ = nullptr, *demoA_ = nullptr, *presentA_ = nullptr, *compareA_ = nullptr;
};

}  // namespace sf::widgets
