#include "widgets/main_window.hpp"
#include "widgets/perf2/perf2_docks.hpp"

#include <QAction>
#include <QApplication>
#include <QChildEvent>
#include <QCloseEvent>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <algorithm>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/bench/catalogue.hpp"
#include "widgets/editor/agent_docks.hpp"
#include "widgets/audit/audit_docks.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/sweep_status.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/inspect/graph_view.hpp"
#include "widgets/editor/issues_model.hpp"
#include "widgets/editor/issues_pane.hpp"
#include "widgets/editor/manual_browser.hpp"
#include "widgets/editor/manual_index.hpp"
#include "widgets/editor/performance_pane.hpp"
#include "widgets/settings_dialog.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/inspect/stream_inspector.hpp"
#include "widgets/editor/task_browser.hpp"
#include "widgets/editor/task_browser_model.hpp"

namespace sf::widgets {

namespace {

QString benchmarkDir() { return QString::fromStdString(bench::resource_dir()) + QStringLiteral("/benchmark"); }

QString readUtf8File(const QString& path, QString* error) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    if (error) *error = f.errorString();
    return {};
  }
  return QString::fromUtf8(f.read(static_cast<qint64>(step::kMaxDocumentBytes) + 1));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      bridge_(new EngineBridge(this)),
      editor_(new StepEditor(this)),
      issues_(new IssuesModel(this)),
      sets_(new VerifySetsModel(this)) {
  setObjectName(QStringLiteral("MainWindow"));
  setCentralWidget(editor_);
  editor_->attachBridge(bridge_);
  connect(editor_, &StepEditor::checked, this, &MainWindow::onCheck);
  connect(editor_, &QsciScintilla::modificationChanged, this, [this](bool) { updateTitle(); });
  connect(bridge_, &EngineBridge::verifyFinished, this, &MainWindow::onVerify);
  connect(bridge_, &EngineBridge::simulateFinished, this, &MainWindow::onSimulate);
  connect(bridge_, &EngineBridge::rewriteFinished, this, &MainWindow::onRewrite);
  connect(bridge_, &EngineBridge::progress, this,
          [this](JobKind k, quint64, int done, int total, const QString& what) { onProgress(k, done, total, what); });
  connect(bridge_, &EngineBridge::cancelled, this, [this](JobKind k, quint64) {
    statusBar()->showMessage(tr("%1 cancelled").arg(jobKindName(k)), 4000);
    progress_->hide();
  });
  connect(bridge_, &EngineBridge::busyChanged, this, [this](JobKind, bool) {
    bool any = false;
    for (auto k : {JobKind::Simulate, JobKind::Verify, JobKind::Rewrite}) any = any || bridge_->isBusy(k);
    cancelAction_->setEnabled(any);
    if (!any) progress_->hide();
  });
  createDocks();
  audit_ = new AuditDocks(this);
  // The audit docks read no file: an opened workspace reaches them as the campaign thread's snapshot.
  connect(bridge_, &EngineBridge::auditMemorySnapshot, audit_, &AuditDocks::applySnapshot);
  connect(bridge_, &EngineBridge::campaignEvents, audit_, [this](const EventBatch& events) {
    if (events) audit_->applyEvents(*events);
  });
  createActions();
  campaign_ = new CampaignDocks(this, bridge_, tasks_, [this](const QString& dir) { setWorkspaceDir(dir); });
  agent_ = new AgentDocks(this);
  agent_->setBuffer(tr("untitled %1").arg(++untitled_));
  connect(campaign_, &CampaignDocks::replayStarted, audit_, &AuditDocks::startReplay);
  statusTask_ = new QLabel(this);
  statusCheck_ = new QLabel(this);
  statusPerf_ = new QLabel(this);
  statusPerf_->setObjectName(QStringLiteral("StatusPerf"));
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->hide();
  statusBar()->addPermanentWidget(statusCheck_);
  statusBar()->addPermanentWidget(statusPerf_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(statusTask_);
  resize(1280, 820);
  restoreSettings();
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
  // The diagnostics list and, under it, the selected one in full (its fix wrapped, never cut off).
  auto* issuesPane = new IssuesPane(issues_, this);
  issuesView_ = issuesPane->view();
  connect(issuesPane, &IssuesPane::lineActivated, editor_, &StepEditor::gotoLocation);
  auto* issuesDock = new QDockWidget(tr("Issues"), this);
  issuesDock->setObjectName(QStringLiteral("IssuesDock"));
  issuesDock->setWidget(issuesPane);
  addDockWidget(Qt::BottomDockWidgetArea, issuesDock);

  auto* verifyPane = new QWidget(this);
  auto* vl = new QVBoxLayout(verifyPane);
  verifyLabel_ = new QLabel(tr("Not verified yet (Run → Verify)."), verifyPane);
  verifyLabel_->setWordWrap(true);
  verifyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  setsView_ = new QTableView(verifyPane);
  setsView_->setModel(sets_);
  setsView_->horizontalHeader()->setStretchLastSection(true);
  setsView_->verticalHeader()->hide();
  vl->addWidget(verifyLabel_);
  vl->addWidget(setsView_);
  auto* verifyDock = new QDockWidget(tr("Verification"), this);
  verifyDock->setObjectName(QStringLiteral("VerificationDock"));
  verifyDock->setWidget(verifyPane);
  addDockWidget(Qt::BottomDockWidgetArea, verifyDock);
  tabifyDockWidget(issuesDock, verifyDock);
  issuesDock->raise();

  graph_ = new GraphView(this);
  auto* graphDock = new QDockWidget(tr("Dataflow Graph"), this);
  graphDock->setObjectName(QStringLiteral("GraphDock"));
  graphDock->setWidget(graph_);
  addDockWidget(Qt::RightDockWidgetArea, graphDock);
  connect(graph_, &GraphView::statementActivated, this, [this](int line) { editor_->gotoLocation(line, 1); });
  connect(editor_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
    graph_->selectStatementAtLine(line + 1);
  });

  inspector_ = new StreamInspector(this);
  auto* inspectorDock = new QDockWidget(tr("Stream Inspector"), this);
  inspectorDock->setObjectName(QStringLiteral("StreamInspectorDock"));
  inspectorDock->setWidget(inspector_);
  addDockWidget(Qt::BottomDockWidgetArea, inspectorDock);
  tabifyDockWidget(verifyDock, inspectorDock);
  issuesDock->raise();

  perf_ = new PerformancePane(this);
  auto* perfDock = new QDockWidget(tr("Performance"), this);
  perfDock->setObjectName(QStringLiteral("PerformanceDock"));
  perfDock->setWidget(perf_);
  addDockWidget(Qt::BottomDockWidgetArea, perfDock);
  tabifyDockWidget(verifyDock, perfDock);
  issuesDock->raise();
  connect(perf_, &PerformancePane::lineActivated, this, [this](int line) { editor_->gotoLocation(line, 1); });
  connect(editor_, &QsciScintilla::textChanged, this, [this] {
    if (perf_->snapshot().ok) perf_->setStale(editor_->text() != perfText_);
  });
  perf2_ = new perf2::Perf2Docks(this, editor_);  // docks shown while a STeP-25 task is open

  tasks_ = new TaskBrowser(this);
  auto* tasksDock = new QDockWidget(tr("Tasks"), this);
  tasksDock->setObjectName(QStringLiteral("TasksDock"));
  tasksDock->setWidget(tasks_);
  addDockWidget(Qt::LeftDockWidgetArea, tasksDock);
  connect(tasks_, &TaskBrowser::taskActivated, this, [this](const QString& id) {
    if (maybeSave()) newFromTask(id);
  });
  connect(bridge_, &EngineBridge::taskListReady, this, [this](const TaskListSnapshot& s) {
    if (s.tasks) tasks_->setTasks(*s.tasks);
    tasks_->view()->resizeColumnToContents(0);
    if (shown_) fitDocks(false);
  });
  bridge_->requestTaskList();

  resizeDocks({tasksDock, graphDock}, {300, 400}, Qt::Horizontal);
  resizeDocks({issuesDock}, {190}, Qt::Vertical);
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* a = file->addAction(tr("&New from Task…"), this, &MainWindow::newFromTaskDialog);
  a->setShortcut(QKeySequence::New);
  a = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  a->setShortcut(QKeySequence::Open);
  QAction* save = file->addAction(tr("&Save"), this, [this] { saveDialog(false); });
  save->setShortcut(QKeySequence::Save);
  a = file->addAction(tr("Save &As…"), this, [this] { saveDialog(true); });
  a->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  // A sweep's cells (local or on Slurm): states, progress, job ids, Resubmit / Cancel (sweep_status.hpp).
  file->addAction(tr("Open S&weep…"), this,
                  [this] { openSweepWindow(this, [this](const QString& d) { campaign_->openWorkspace(d); }); });
  file->addSeparator();
  a = file->addAction(tr("&Quit"), this, &QWidget::close);
  a->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  a = edit->addAction(tr("&Undo"), editor_, &QsciScintilla::undo);
  a->setShortcut(QKeySequence::Undo);
  a = edit->addAction(tr("&Redo"), editor_, &QsciScintilla::redo);
  a->setShortcut(QKeySequence::Redo);
  edit->addSeparator();
  QAction* copies = edit->addAction(tr("Insert &Copies"), this, &MainWindow::insertCopies);
  copies->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
  copies->setToolTip(tr("Fix multiple uses of a stream with Copy chains (the guardian's rewrite)"));
  QAction* format = edit->addAction(tr("&Format Program"), this, &MainWindow::formatProgram);
  format->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
  edit->addSeparator();
  QAction* prefs = edit->addAction(tr("&Preferences…"), this, [this] { SettingsDialog(this).exec(); });
  prefs->setObjectName(QStringLiteral("PreferencesAction"));
  prefs->setShortcut(QKeySequence::Preferences);
  prefs->setMenuRole(QAction::PreferencesRole);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QAction* checkA = run->addAction(tr("&Check"), this, &MainWindow::check);
  checkA->setShortcut(QKeySequence(tr("F5")));
  QAction* simA = run->addAction(tr("&Simulate"), this, &MainWindow::simulate);
  simA->setShortcut(QKeySequence(tr("F6")));
  QAction* verA = run->addAction(tr("&Verify"), this, &MainWindow::verifyProgram);
  verA->setShortcut(QKeySequence(tr("F7")));
  cancelAction_ = run->addAction(tr("C&ancel"), this, &MainWindow::cancelAll);
  cancelAction_->setShortcut(QKeySequence(tr("Ctrl+.")));
  cancelAction_->setEnabled(false);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  a = help->addAction(tr("STeP &Manual"), this, &MainWindow::showManual);
  a->setShortcut(QKeySequence::HelpContents);
  help->addAction(tr("&About StepForge"), this, [this] {
    QMessageBox::about(this, tr("About StepForge"),
                       tr("StepForge %1\nA workbench where LLM agents learn to write STeP from their own verified "
                          "work.").arg(QApplication::applicationVersion()));
  });

  QToolBar* tb = addToolBar(tr("Program"));
  tb->setObjectName(QStringLiteral("ProgramToolBar"));
  tb->addActions({checkA, simA, verA, cancelAction_});
  tb->addSeparator();
  tb->addActions({copies, format});
}

void MainWindow::restoreSettings() {
  QSettings s;
  if (s.value(QStringLiteral("settings/version")).toInt() != kSettingsVersion) {
    // An unknown window layout: start it from the defaults. Only the layout: the user's preferences (agent,
    // chip, language, auditor name, last file) survive.
    s.remove(QStringLiteral("window"));
    s.setValue(QStringLiteral("settings/version"), kSettingsVersion);
  }
  restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
  savedLayout_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray(), kSettingsVersion);
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (shown_) return;
  shown_ = true;
  fitDocks(!savedLayout_);
}

bool MainWindow::event(QEvent* e) {
  // The dock areas' tab bars (QMainWindow makes them when docks are tabified): tab titles are never elided
  // ("Verificati…"); too many tabs scroll instead.
  if (e->type() == QEvent::ChildPolished)
    if (auto* tb = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(e)->child())) {
      tb->setElideMode(Qt::ElideNone);
      tb->setUsesScrollButtons(true);
    }
  return QMainWindow::event(e);
}

void MainWindow::changeEvent(QEvent* e) {
  QMainWindow::changeEvent(e);
  if (e->type() == QEvent::FontChange) fitRowsToFont();
}

void MainWindow::fitRowsToFont() {
  // A table's row height is fixed when it is made: after a font change (the presentation layout and back) every
  // table's rows follow its font, so descenders and underscores are not cut.
  for (QTableView* v : findChildren<QTableView*>())
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
}

void MainWindow::fitDocks(bool firstShow) {
  auto* tasksDock = findChild<QDockWidget*>(QStringLiteral("TasksDock"));
  if (firstShow) {
    if (auto* issues = findChild<QDockWidget*>(QStringLiteral("IssuesDock")))
      resizeDocks({issues}, {std::max(190, height() / 4)}, Qt::Vertical);
    // The right dock (graph, learning curves, agent): a third of the window, so the curves and their legend
    // have room; the user's own layout (restoreState) wins from the second start on.
    if (auto* graph = findChild<QDockWidget*>(QStringLiteral("GraphDock")); graph && graph->isVisible())
      resizeDocks({graph}, {std::max(graph->minimumSizeHint().width(), width() * 3 / 10)}, Qt::Horizontal);
  }
  if (!tasksDock || !tasksDock->isVisible()) return;
  const int margins = tasksDock->width() - tasks_->width();  // the dock's frame around the browser
  const int want = std::min(tasks_->sizeHint().width() + margins, width() * 2 / 5);
  if (tasksDock->width() < want) resizeDocks({tasksDock}, {want}, Qt::Horizontal);
}

void MainWindow::saveSettings() const {
  QSettings s;
  s.setValue(QStringLiteral("settings/version"), kSettingsVersion);
  s.setValue(QStringLiteral("window/geometry"), saveGeometry());
  s.setValue(QStringLiteral("window/state"), saveState(kSettingsVersion));
  s.setValue(QStringLiteral("files/last"), path_);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeSave()) {
    e->ignore();
    return;
  }
  saveSettings();
  bridge_->cancelAll();
  e->accept();
}

bool MainWindow::maybeSave() {
  if (!editor_->isModified() || !isVisible() || QApplication::platformName() == QLatin1String("offscreen")) return true;
  auto r = QMessageBox::warning(this, tr("Unsaved changes"), tr("The document has unsaved changes. Save them?"),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (r == QMessageBox::Cancel) return false;
  if (r == QMessageBox::Save) saveDialog(false);
  return !editor_->isModified();
}

void MainWindow::updateTitle() {
  QString name = path_.isEmpty() ? tr("untitled") : QFileInfo(path_).fileName();
  setWindowTitle(tr("%1%2 — StepForge").arg(name, editor_->isModified() ? QStringLiteral("*") : QString()));
}

void MainWindow::setDocument(const QString& text, const QString& path) {
  path_ = path;
  agent_->setBuffer(path.isEmpty() ? tr("untitled %1").arg(++untitled_) : path);
  editor_->setFilePath(path);
  editor_->setText(text);
  editor_->setModified(false);
  issues_->setIssues({});
  sets_->setSets({});
  verifyLabel_->setText(tr("Not verified yet (Run → Verify)."));
  perf_->clear();
  perfText_.clear();
  statusPerf_->clear();
  graph_->setCostReport(nullptr);
  updateTitle();
  editor_->checkNow();
}

bool MainWindow::openFile(const QString& path) {
  QString err;
  QString text = readUtf8File(path, &err);
  if (!err.isEmpty()) {
    statusBar()->showMessage(tr("Cannot open %1: %2").arg(path, err), 8000);
    return false;
  }
  setDocument(text, path);
  statusBar()->showMessage(tr("Opened %1").arg(path), 4000);
  return true;
}

bool MainWindow::newFromTask(const QString& id) {
  QString err;
  QString text = readUtf8File(benchmarkDir() + QLatin1Char('/') + id + QStringLiteral(".yaml"), &err);
  if (!err.isEmpty()) {
    statusBar()->showMessage(tr("No bundled task %1").arg(id), 8000);
    return false;
  }
  if (!text.endsWith(QLatin1Char('\n'))) text += QLatin1Char('\n');
  text += QStringLiteral("impl: |\n  \n");
  setDocument(text);
  editor_->setCursorPosition(editor_->lines() - 2, 2);
  return true;
}

bool MainWindow::saveTo(const QString& path) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(editor_->text().toUtf8()) < 0 || !f.commit()) {
    statusBar()->showMessage(tr("Cannot save %1: %2").arg(path, f.errorString()), 8000);
    return false;
  }
  if (path != path_) agent_->renameBuffer(path);
  path_ = path;
  editor_->setFilePath(path);
  editor_->setModified(false);
  updateTitle();
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  return true;
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  QString p = QFileDialog::getOpenFileName(this, tr("Open task or solution"), QFileInfo(path_).absolutePath(),
                                           tr("STeP documents (*.yaml *.yml);;All files (*)"));
  if (!p.isEmpty()) openFile(p);
}

void MainWindow::saveDialog(bool saveAs) {
  QString p = path_;
  if (saveAs || p.isEmpty())
    p = QFileDialog::getSaveFileName(this, tr("Save document"), p, tr("STeP documents (*.yaml *.yml)"));
  if (!p.isEmpty()) saveTo(p);
}

void MainWindow::newFromTaskDialog() {
  if (!maybeSave()) return;
  QStringList ids;
  QDirIterator it(benchmarkDir(), {QStringLiteral("*.yaml")}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    QString rel = QDir(benchmarkDir()).relativeFilePath(it.next());
    ids << rel.left(rel.size() - 5);
  }
  ids.sort();
  bool ok = false;
  QString id = QInputDialog::getItem(this, tr("New from Task"), tr("Bundled task:"), ids, 0, false, &ok);
  if (ok && !id.isEmpty()) newFromTask(id);
}

void MainWindow::check() { editor_->checkNow(); }

void MainWindow::simulate() {
  bridge_->requestSimulate(editor_->text(), path_);
  statusBar()->showMessage(tr("Simulating…"));
}

void MainWindow::verifyProgram() {
  // The chip profile of the preferences (Edit → Preferences…), read at each Verify.
  bridge_->setChipProfile(chipSetting());
  verifyText_ = editor_->text();
  bridge_->requestVerify(verifyText_, path_);
  verifyLabel_->setText(tr("Verifying…"));
  statusBar()->showMessage(tr("Verifying…"));
}

void MainWindow::insertCopies() {
  bridge_->requestRewrite(RewriteKind::InsertCopies, editor_->text(), path_, editor_->revision());
}

void MainWindow::formatProgram() {
  bridge_->requestRewrite(RewriteKind::Format, editor_->text(), path_, editor_->revision());
}

void MainWindow::cancelAll() { bridge_->cancelAll(); }

void MainWindow::showManual() {
  if (!manual_) {
    manual_ = new ManualBrowser(ManualIndex::loadBundled(), this);
    manual_->setAttribute(Qt::WA_DeleteOnClose);
  }
  manual_->show();
  manual_->raise();
}

void MainWindow::onCheck(const CheckSnapshot& s) {
  issues_->setIssues(s.issues);
  statusTask_->setText(s.taskId.isEmpty() ? tr("no task") : tr("task %1").arg(s.taskId));
  const int e = issues_->errorCount(), w = issues_->warningCount();
  statusCheck_->setText(s.ok ? (w ? tr("✔ checks pass, %n warning(s)", "", w) : tr("✔ checks pass"))
                             : tr("✘ %n error(s)", "", e));
  // The cost overlay belongs to the verified text only.
  if (perfText_.isEmpty() || editor_->text() != perfText_) graph_->setCostReport(nullptr);
  else if (perf_->snapshot().ok) graph_->setCostReport(perf_->snapshot().report);
  if (s.graph) graph_->setGraph(*s.graph);
  else graph_->clearGraph();
}

QString MainWindow::verifySummary() const { return verifyLabel_->text(); }

QString MainWindow::statusPerfText() const { return statusPerf_->text(); }

void MainWindow::setWorkspaceDir(const QString& dir) {
  workspaceDir_ = dir;
  emit workspaceOpened(dir);
}

void MainWindow::onVerify(const VerifySnapshot& s) {
  if (!s.pass && s.sets.isEmpty()) {
    // A failure before any input set ran (parse, names, types, …): the table says where it stopped.
    VerifySetRow r;
    r.failedStage = s.stage.isEmpty() ? tr("unknown") : s.stage;
    r.failedCode = s.code;
    sets_->setSets({r});
  } else {
    sets_->setSets(s.sets);
  }
  setsView_->resizeColumnsToContents();
  if (s.pass) {
    verifyLabel_->setText(tr("PASS — %1: %2 input sets, max abs error %3, max rel error %4, %5 statements (%6 s)")
                              .arg(s.taskId)
                              .arg(s.sets.size())
                              .arg(s.maxAbsError, 0, 'g', 3)
                              .arg(s.maxRelError, 0, 'g', 3)
                              .arg(s.programLength)
                              .arg(s.seconds, 0, 'f', 2));
  } else {
    verifyLabel_->setText(tr("FAIL — %1: stage %2, %3").arg(s.taskId, s.stage, s.code));
    issues_->setIssues(s.issues);
  }
  statusBar()->showMessage(s.pass ? tr("Verification passed") : tr("Verification failed (%1)").arg(s.code), 8000);
  if (s.perf) perf_->setSnapshot(*s.perf);
  else perf_->clear();
  if (s.perf && s.perf->ok && s.perf->report) {
    perfText_ = verifyText_;
    QString t = tr("%1 cycles").arg(formatCount(s.perf->report->cycles));
    if (s.perf->speedup) t += QStringLiteral(", ") + tr("speedup %1").arg(formatSpeedup(*s.perf->speedup));
    else if (!s.perf->report->feasible) t += QStringLiteral(", ") + tr("not feasible");
    statusPerf_->setText(t);
    statusPerf_->setToolTip(tr("Cost model, chip %1 (Performance pane)").arg(s.perf->chip));
    graph_->setCostReport(editor_->text() == perfText_ ? s.perf->report : nullptr);
  } else {
    perfText_.clear();
    statusPerf_->setText(s.pass ? tr("no cost report") : QString());
    statusPerf_->setToolTip(s.perf ? s.perf->why : QString());
    graph_->setCostReport(nullptr);
  }
  // A pass shows the input sets; a failure shows its diagnostics.
  if (auto* d = findChild<QDockWidget*>(s.pass ? QStringLiteral("VerificationDock") : QStringLiteral("IssuesDock")))
    d->raise();
  emit verified(s);
}

void MainWindow::onSimulate(const SimulateSnapshot& s) {
  if (!s.ok) issues_->setIssues(s.issues);
  if (s.inspector) {
    inspector_->setSnapshot(*s.inspector);
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("StreamInspectorDock"))) d->raise();
  } else {
    inspector_->clear();
  }
  statusBar()->showMessage(s.ok ? tr("Simulated %1 (%2, seed %3) in %4 ms")
                                      .arg(s.taskId, s.binding)
                                      .arg(s.seed)
                                      .arg(s.seconds * 1e3, 0, 'f', 1)
                                : tr("Simulation failed"),
                           8000);
  emit simulated(s);
}

void MainWindow::onRewrite(const RewriteSnapshot& s) {
  if (!s.ok) {
    issues_->setIssues(s.issues);
    statusBar()->showMessage(tr("The program cannot be rewritten: fix the errors first"), 8000);
    return;
  }
  if (s.revision != editor_->revision()) {
    statusBar()->showMessage(tr("The document changed during the rewrite; try again"), 8000);
    return;
  }
  if (s.text != editor_->text()) editor_->replaceAllText(s.text);
  statusBar()->showMessage(s.kind == RewriteKind::Format ? tr("Formatted") : tr("Copies inserted"), 4000);
}

void MainWindow::onProgress(JobKind k, int done, int total, const QString& what) {
  if (k == JobKind::Check) return;
  progress_->setRange(0, std::max(1, total));
  progress_->setValue(done);
  progress_->setFormat(jobKindName(k) + QStringLiteral(": ") + what);
  progress_->setVisible(done < total);
}

void MainWindow::revealImpl() {
  const QString t = editor_->text();
  const int line = static_cast<int>(t.left(t.indexOf(QStringLiteral("\nimpl:")) + 1).count(QLatin1Char('\n')));
  if (line <= 0) return;
  editor_->setFirstVisibleLine(std::max(0, line - 4));
  editor_->setCursorPosition(line + 1, 2);
}

bool MainWindow::saveScreenshot(const QString& path) { return grab().toImage().save(path, "PNG"); }

QString MainWindow::demoDocument() {
  QString text = readUtf8File(benchmarkDir() + QStringLiteral("/gemm_easy/batched_matvec.yaml"), nullptr);
  if (!text.endsWith(QLatin1Char('\n'))) text += QLatin1Char('\n');
  text += QStringLiteral(
      "impl: |\n"
      "  E2 = step.Bufferize(a=1).apply(E1)          # the vector of batch n\n"
      "  E3 = step.Repeat(n=M).apply(E2)             # needed again for every row m\n"
      "  E4 = step.Streamify().apply(E3)\n"
      "  E5 = step.Zip().apply((E0, E4))\n"
      "  E6 = step.Map(fn=fn_mul).apply(E5)\n"
      "  E7 = step.Accum(fn=fn_add, b=1).apply(E6)   # sum over k\n"
      "  return E7\n");
  return text;
}

}  // namespace sf::widgets
