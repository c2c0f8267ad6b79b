#include "widgets/campaign/campaign_docks.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFrame>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "widgets/campaign/campaign_dialog.hpp"
#include "widgets/campaign/comparison_pane.hpp"
#include "widgets/campaign/episode_lineage_view.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/campaign/replay_controls.hpp"
#include "widgets/scroll_wrap.hpp"
#include "widgets/editor/task_browser.hpp"
#include "widgets/campaign/trace_pane.hpp"

namespace sf::widgets {

namespace {

QString duration(double s) {
  if (s < 0) return QStringLiteral("–");
  const qint64 t = qint64(s + 0.5);
  return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

constexpr double kSpeeds[] = {5, 20, 50, 200, 1000, 5000, 0};

// Gives a dock as much height as its scrolled contents need (their size hint, re-read when they lay out again
// or the font changes; only ever growing the dock when a row is hidden), taken from its neighbours through QMainWindow::resizeDocks (which respects every
// minimum, so the window never grows): in the presentation font at 1366x768 the Campaign dock's last row
// (Replay speed) stays on screen instead of below the fold; the task list above scrolls instead.
class TallEnough : public QObject {
 public:
  TallEnough(QMainWindow* window, QDockWidget* dock, QWidget* contents)
      : QObject(dock), window_(window), dock_(dock), contents_(contents) {
    contents->installEventFilter(this);
  }

 protected:
  bool eventFilter(QObject*, QEvent* e) override {
    if ((e->type() == QEvent::LayoutRequest || e->type() == QEvent::FontChange) && !pending_) {
      pending_ = true;
      QTimer::singleShot(0, this, [this] {
        pending_ = false;
        auto* scroll = qobject_cast<QScrollArea*>(dock_->widget());
        if (!scroll || !dock_->isVisible() || dock_->isFloating()) return;
        const int missing = contents_->sizeHint().height() - scroll->viewport()->height();
        if (missing > 0) window_->resizeDocks({dock_}, {dock_->height() + missing}, Qt::Vertical);
      });
    }
    return false;
  }

 private:
  QMainWindow* window_;
  QDockWidget* dock_;
  QWidget* contents_;
  bool pending_ = false;
};

}  // namespace

double CampaignDocks::speedForSlider(int value) {
  return kSpeeds[std::clamp(value, 0, int(std::size(kSpeeds)) - 1)];
}

CampaignDocks::CampaignDocks(QMainWindow* window, EngineBridge* bridge, TaskBrowser* tasks,
                             std::function<void(const QString&)> onWorkspace)
    : QObject(window), w_(window), bridge_(bridge), tasks_(tasks), onWorkspace_(std::move(onWorkspace)) {
  setObjectName(QStringLiteral("CampaignDocks"));
  createDocks();
  createActions();
  connect(bridge_, &EngineBridge::campaignUpdated, this, &CampaignDocks::onUpdate);
  connect(bridge_, &EngineBridge::campaignStateChanged, this, &CampaignDocks::onState);
  // A replayed sage story with a memory-off run beside it: that run's curve is the baseline under the replay's.
  connect(bridge_, &EngineBridge::replayStory, this, [this](const ReplayStory& st) {
    QVector<CampaignSummary> base;
    if (!st.baselineCurve.isEmpty()) {
      CampaignSummary b;
      b.dir = st.baselineDir;
      b.name = tr("memory off (baseline)");
      b.sage = true;
      b.curve = st.baselineCurve;
      base.push_back(std::move(b));
    }
    curves_->setOverlays(base);
  });
  connect(bridge_, &EngineBridge::comparisonReady, cmpPane_, &ComparisonPane::setCampaigns);
  updateActions();
}

void CampaignDocks::createDocks() {
  // Run control and progress.
  auto* pane = new QWidget(w_);
  pane->setObjectName(QStringLiteral("CampaignPane"));
  title_ = new QLabel(tr("No campaign open (Campaign → New Campaign or Open Workspace)."), pane);
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar(pane);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("idle"));
  status_ = new QLabel(pane);
  status_->setWordWrap(true);
  // Shown while the engine has paused the campaign by itself (an endpoint failure, a budget): why, what to fix,
  // and Resume (a new run that continues the workspace).
  haltBanner_ = new QFrame(pane);
  haltBanner_->setObjectName(QStringLiteral("CampaignPauseBanner"));
  haltBanner_->setStyleSheet(QStringLiteral(
      "#CampaignPauseBanner { background: #fff4d6; border: 1px solid #d9a400; border-radius: 4px; }"));
  haltText_ = new QLabel(haltBanner_);
  haltText_->setWordWrap(true);
  haltText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A wrapped label's minimum height is one line: reserve four, so a short dock shows the cause and the fix.
  haltText_->setMinimumHeight(4 * haltText_->fontMetrics().lineSpacing());
  auto* haltResume = new QPushButton(tr("Resume"), haltBanner_);
  connect(haltResume, &QPushButton::clicked, this, &CampaignDocks::resume);
  auto* hb = new QVBoxLayout(haltBanner_);  // the message gets the dock's whole width (it names a URL)
  hb->addWidget(haltText_);
  hb->addWidget(haltResume, 0, Qt::AlignRight);
  haltBanner_->hide();
  speed_ = new QSlider(Qt::Horizontal, pane);
  speed_->setRange(0, int(std::size(kSpeeds)) - 1);
  speed_->setValue(3);
  speedLabel_ = new QLabel(pane);
  auto* speedRow = new QHBoxLayout;
  auto* speedCaption = new QLabel(tr("Replay speed:"), pane);
  speedCaption->setObjectName(QStringLiteral("ReplaySpeedCaption"));
  speedRow->addWidget(speedCaption);
  speedRow->addWidget(speed_, 1);
  speedRow->addWidget(speedLabel_);
  auto updateSpeedLabel = [this] {
    const double s = speedForSlider(speed_->value());
    speedLabel_->setText(s <= 0 ? tr("fastest") : tr("%1 events/s").arg(s));
  };
  updateSpeedLabel();
  connect(speed_, &QSlider::valueChanged, this, [this, updateSpeedLabel] {
    updateSpeedLabel();
    bridge_->setReplaySpeed(speedForSlider(speed_->value()));
  });
  auto* l = new QVBoxLayout(pane);
  l->setContentsMargins(6, 4, 6, 4);  // (tight: the dock shares the left column with the task list)
  l->setSpacing(4);
  l->addWidget(title_);
  l->addWidget(progress_);
  l->addWidget(haltBanner_);
  l->addLayout(speedRow);  // above the (wrapping) status, so a short dock still shows it
  l->addWidget(status_);
  l->addStretch(1);
  auto* runDock = new QDockWidget(tr("Campaign"), w_);
  runDock->setObjectName(QStringLiteral("CampaignDock"));
  runDock->setWidget(inScrollArea(pane, runDock));  // the labels and the pause banner never squeezed
  new TallEnough(w_, runDock, pane);
  w_->addDockWidget(Qt::LeftDockWidgetArea, runDock);

  traces_ = new TracePane(w_);
  connect(traces_, &TracePane::lineageRequested, this, [this](int episode) {
    QString error;
    if (!showEpisodeLineage(w_, dir_, episode, &error))
      w_->statusBar()->showMessage(tr("No episode lineage: %1").arg(error), 8000);
  });
  connect(traces_, &TracePane::statusMessage, this, [this](const QString& m) { w_->statusBar()->showMessage(m, 8000); });
  auto* traceDock = new QDockWidget(tr("Traces"), w_);
  traceDock->setObjectName(QStringLiteral("TracesDock"));
  traceDock->setWidget(traces_);
  w_->addDockWidget(Qt::BottomDockWidgetArea, traceDock);
  if (auto* issues = w_->findChild<QDockWidget*>(QStringLiteral("IssuesDock"))) {
    w_->tabifyDockWidget(issues, traceDock);
    issues->raise();
  }

  curves_ = new LearningCurves(w_);
  auto* curveDock = new QDockWidget(tr("Learning Curves"), w_);
  curveDock->setObjectName(QStringLiteral("CurvesDock"));
  replay_ = new ReplayControls(bridge_, curves_, w_);  // hosts the curves; scrubbing and highlights in replays
  curvesScroll_ = inScrollArea(replay_, curveDock, ScrollWrap::Both);
  replay_->installEventFilter(this);
  curveDock->setWidget(curvesScroll_);
  w_->addDockWidget(Qt::RightDockWidgetArea, curveDock);
  if (auto* graph = w_->findChild<QDockWidget*>(QStringLiteral("GraphDock"))) {
    w_->tabifyDockWidget(graph, curveDock);
    graph->raise();
  }

  // Run comparison: the workspaces to compare and the views of the compared runs (ComparisonPane).
  cmpPane_ = new ComparisonPane(w_);
  connect(cmpPane_, &ComparisonPane::statusMessage, this, [this](const QString& m) { w_->statusBar()->showMessage(m, 5000); });
  connect(cmpPane_, &ComparisonPane::compareRequested, bridge_, &EngineBridge::requestComparison);
  auto* cmpDock = new QDockWidget(tr("Run Comparison"), w_);
  cmpDock->setObjectName(QStringLiteral("ComparisonDock"));
  cmpDock->setWidget(inScrollArea(cmpPane_, cmpDock, ScrollWrap::Both));
  w_->addDockWidget(Qt::BottomDockWidgetArea, cmpDock);
  w_->tabifyDockWidget(traceDock, cmpDock);
  if (auto* issues = w_->findChild<QDockWidget*>(QStringLiteral("IssuesDock"))) issues->raise();
}

void CampaignDocks::createActions() {
  QMenu* menu = nullptr;
  // Insert the Campaign menu before Help when there is one.
  QAction* before = nullptr;
  for (QAction* a : w_->menuBar()->actions())
    if (a->menu() && a->text().remove(QLatin1Char('&')) == tr("Help")) before = a;
  menu = new QMenu(tr("&Campaign"), w_);
  menu->setObjectName(QStringLiteral("CampaignMenu"));
  w_->menuBar()->insertMenu(before, menu);

  newA_ = menu->addAction(tr("&New Campaign…"), this, &CampaignDocks::newCampaign);
  newA_->setShortcut(QKeySequence(tr("Ctrl+Shift+N")));
  openA_ = menu->addAction(tr("&Open Workspace…"), this, [this] {
    QString d = QFileDialog::getExistingDirectory(w_, tr("Open campaign workspace"), dir_);
    if (!d.isEmpty()) openWorkspace(d);
  });
  openA_->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  continueA_ = menu->addAction(tr("Co&ntinue Workspace…"), this, [this] {
    QString d = QFileDialog::getExistingDirectory(w_, tr("Continue an unfinished campaign"), dir_);
    if (!d.isEmpty()) continueWorkspace(d);
  });
  menu->addSeparator();
  pauseA_ = menu->addAction(tr("&Pause"), this, &CampaignDocks::pause);
  pauseA_->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
  resumeA_ = menu->addAction(tr("&Resume"), this, &CampaignDocks::resume);
  resumeA_->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
  cancelA_ = menu->addAction(tr("&Cancel Campaign"), this, &CampaignDocks::cancel);
  menu->addSeparator();
  demoA_ = menu->addAction(tr("&Demo Mode…"), this, [this] {
    QString d = QFileDialog::getExistingDirectory(w_, tr("Replay a recorded campaign"), dir_);
    if (!d.isEmpty()) startDemo(d, speedForSlider(speed_->value()));
  });
  presentA_ = menu->addAction(tr("Presentation &Layout"), this, &CampaignDocks::setPresentation);
  presentA_->setCheckable(true);
  presentA_->setShortcut(QKeySequence(tr("F11")));
  compareA_ = menu->addAction(tr("Co&mpare Workspaces…"), this, &CampaignDocks::showComparison);
  menu->addSeparator();
  for (const char* name : {"CampaignDock", "TracesDock", "CurvesDock", "ComparisonDock"})
    if (auto* d = w_->findChild<QDockWidget*>(QLatin1String(name))) menu->addAction(d->toggleViewAction());

  QToolBar* tb = w_->addToolBar(tr("Campaign"));
  tb->setObjectName(QStringLiteral("CampaignToolBar"));
  tb->addActions({newA_, openA_, pauseA_, resumeA_, cancelA_, demoA_});
}

void CampaignDocks::updateActions() {
  const bool live = state_ == CampaignRunState::Running || state_ == CampaignRunState::Replaying;
  pauseA_->setEnabled(live);
  resumeA_->setEnabled(state_ == CampaignRunState::Paused || state_ == CampaignRunState::Halted);
  cancelA_->setEnabled(live || state_ == CampaignRunState::Paused || state_ == CampaignRunState::Following);
  speed_->setEnabled(state_ == CampaignRunState::Replaying || state_ == CampaignRunState::Paused);
}

void CampaignDocks::setWorkspace(const QString& dir) {
  dir_ = dir;
  title_->setText(tr("Workspace %1").arg(QDir::toNativeSeparators(dir)));
  cmpPane_->setStartDir(dir);
  if (onWorkspace_) onWorkspace_(dir);
}

void CampaignDocks::newCampaign() {
  CampaignDialog d(w_);
  if (d.exec() != QDialog::Accepted) return;
  startCampaign(d.configJson(), d.workspaceDir());
}

void CampaignDocks::startCampaign(const QByteArray& configJson, const QString& dir) {
  bridge_->startCampaign(configJson, dir);
  setWorkspace(dir);
}

void CampaignDocks::openWorkspace(const QString& dir) {
  curves_->setOverlays({});  // a replay's baseline belongs to the replay
  bridge_->openWorkspace(dir);
  setWorkspace(dir);
}

void CampaignDocks::continueWorkspace(const QString& dir) {
  curves_->setOverlays({});
  bridge_->continueCampaign(dir);
  setWorkspace(dir);
}

void CampaignDocks::startDemo(const QString& dir, double eventsPerSecond) {
  setPresentation(true);
  bridge_->replayWorkspace(dir, eventsPerSecond);
  emit replayStarted(dir);  // before workspaceOpened: the event-following docks start empty, read no file
  setWorkspace(dir);
  showPresentationDocks();
}

void CampaignDocks::showPresentationDocks() {
  for (QDockWidget* d : w_->findChildren<QDockWidget*>()) {
    const QString n = d->objectName();
    d->setVisible(n == QLatin1String("CampaignDock") || n == QLatin1String("TracesDock") ||
                  n == QLatin1String("CurvesDock"));
  }
}

void CampaignDocks::compareWorkspaces(const QStringList& dirs) {
  cmpPane_->setWorkspaces(dirs);
  bridge_->requestComparison(dirs);
  showComparison();
}

void CampaignDocks::showComparison() {
  auto* d = w_->findChild<QDockWidget*>(QStringLiteral("ComparisonDock"));
  if (!d) return;
  d->show();
  d->raise();
  // The tables and charts take the height: two thirds of the window (the dock area stops at the other
  // docks' and the editor's minimum sizes).
  if (!d->isFloating() && w_->dockWidgetArea(d) == Qt::BottomDockWidgetArea)
    w_->resizeDocks({d}, {w_->height() * 2 / 3}, Qt::Vertical);
}

LearningCurves* CampaignDocks::comparisonCurves() const { return cmpPane_->curves(); }
ComparisonSummaryModel* CampaignDocks::comparisonSummary() const { return cmpPane_->summaryModel(); }
ComparisonTaskModel* CampaignDocks::comparisonTasks() const { return cmpPane_->taskModel(); }
RunComparisonView* CampaignDocks::comparisonGrid() const { return cmpPane_->grid(); }

void CampaignDocks::pause() { bridge_->pauseCampaign(); }
void CampaignDocks::resume() { bridge_->resumeCampaign(); }
void CampaignDocks::cancel() { bridge_->cancelCampaign(); }

void CampaignDocks::setPresentation(bool on) {
  if (on == presenting_) return;
  presenting_ = on;
  presentA_->setChecked(on);
  replay_->setArrowKeysEnabled(on);
  curves_->setToolsVisible(!on);  // the chart keeps its room; the menus keep every action
  if (on) {
    savedState_ = w_->saveState();
    savedFont_ = w_->font();
    QFont big = savedFont_;
    big.setPointSizeF(std::max(14.0, savedFont_.pointSizeF() * 1.6));
    w_->setFont(big);
    showPresentationDocks();
    // The editor's and the campaign's tool bars make room for the charts (the menus keep every action).
    for (QToolBar* tb : w_->findChildren<QToolBar*>()) tb->hide();
    if (w_->statusBar()) w_->statusBar()->hide();  // the Campaign dock shows the run's state
    // The docks that follow a sage replay (Adoption Audit, Memory; opened from the View menu, a replay does
    // not pop them up: at 1366×768 they would not fit beside the curves) join the Traces dock as tabs.
    // Leaving restores the saved state.
    if (auto* t = w_->findChild<QDockWidget*>(QStringLiteral("TracesDock")))
      for (const char* name : {"AuditDock", "MemoryDock"})
        if (auto* d = w_->findChild<QDockWidget*>(QLatin1String(name))) w_->tabifyDockWidget(t, d);
    if (w_->centralWidget()) w_->centralWidget()->hide();
    if (auto* c = w_->findChild<QDockWidget*>(QStringLiteral("CurvesDock"))) c->raise();
    if (auto* t = w_->findChild<QDockWidget*>(QStringLiteral("TracesDock"))) t->raise();
    fitPresentationDocks();
  } else {
    w_->setFont(savedFont_);
    fitPresentationDocks();
    if (w_->statusBar()) w_->statusBar()->show();
    if (w_->centralWidget()) w_->centralWidget()->show();
    w_->restoreState(savedState_);
  }
}

void CampaignDocks::fitPresentationDocks() {
  // The curves sit in a scroll area so that the default layout stays small; presenting, they take the room their
  // controls, chart and highlights need without scrolling (in the presentation font), as if not in one.
  // (again on each layout request of the curves: the presentation font and the highlights list change them)
  curvesScroll_->setMinimumSize(presenting_ ? replay_->minimumSizeHint() : QSize(0, 0));
}

bool CampaignDocks::eventFilter(QObject* watched, QEvent* e) {
  if (watched == replay_ && e->type() == QEvent::LayoutRequest && presenting_) fitPresentationDocks();
  return QObject::eventFilter(watched, e);
}

QString CampaignDocks::statusText() const { return status_->text(); }

QString CampaignDocks::pauseBannerText() const { return haltBanner_->isHidden() ? QString() : haltText_->text(); }

void CampaignDocks::onUpdate(const CampaignUpdate& u) {
  if (u.reset && tasks_) tasks_->clearStatuses();
  traces_->apply(u);
  curves_->apply(u);
  if (tasks_)
    for (const auto& t : u.taskStatus) tasks_->setTaskStatus(t.task, t.solved, t.samples > 0 ? t.rate() : qQNaN());
  last_ = u;
  title_->setText(tr("%1 (%2) — %3").arg(u.name.isEmpty() ? tr("campaign") : u.name, u.mode,
                                         QDir::toNativeSeparators(u.dir)));
  if (u.total > 0) {
    progress_->setRange(0, int(std::min<qint64>(u.total, INT_MAX)));
    progress_->setValue(int(std::min(u.done, u.total)));
    progress_->setFormat((u.sage ? tr("episode %1: round %2 of %3") : tr("iteration %1: %2 of %3 samples"))
                             .arg(u.iteration)
                             .arg(u.done)
                             .arg(u.total));
  }
  status_->setText(tr("%1 — %2/%3 tasks solved — %4 tokens — $%5 — ETA %6 — %7 events")
                       .arg(campaignRunStateName(state_))
                       .arg(u.solved)
                       .arg(u.taskCount)
                       .arg(QLocale().toString(u.tokens))
                       .arg(u.cost, 0, 'f', 4)
                       .arg(duration(u.etaSeconds))
                       .arg(u.events));
}

void CampaignDocks::onState(CampaignRunState s, const QString& message) {
  state_ = s;
  updateActions();
  QString text = campaignRunStateName(s);
  if (!message.isEmpty()) text += QStringLiteral(": ") + message;
  if (s == CampaignRunState::Finished) {
    progress_->setRange(0, 1);
    progress_->setValue(1);
    progress_->setFormat(tr("finished (%1)").arg(message));
  } else if (s == CampaignRunState::Cancelled) {
    progress_->setFormat(tr("cancelled"));
  } else if (s == CampaignRunState::Failed) {
    progress_->setFormat(tr("failed"));
  } else if (s == CampaignRunState::Halted) {
    progress_->setFormat(tr("paused: fix the cause, then Resume"));
  }
  haltText_->setText(tr("<b>The campaign paused itself.</b> %1").arg(message.toHtmlEscaped()));
  haltBanner_->setVisible(s == CampaignRunState::Halted);
  status_->setText(text);
  w_->statusBar()->showMessage(tr("Campaign %1").arg(text), 8000);
}

}  // namespace sf::widgets
