#include "widgets/editor/agent_docks.hpp"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QToolBar>

#include "widgets/editor/agent_panel.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/engine/engine_jobs.hpp"
#include "widgets/main_window.hpp"
#include "widgets/scroll_wrap.hpp"
#include "widgets/settings_dialog.hpp"
#include "widgets/editor/step_editor.hpp"

namespace sf::widgets {

AgentDocks::AgentDocks(MainWindow* window)
    : QObject(window), w_(window), runner_(new AgentRunner(this)), panel_(new AgentPanel(window)) {
  dock_ = new QDockWidget(tr("Agent"), w_);
  dock_->setObjectName(QStringLiteral("AgentDock"));
  dock_->setWidget(inScrollArea(panel_, dock_));  // a short dock scrolls: the window fits 1366×768
  w_->addDockWidget(Qt::RightDockWidgetArea, dock_);
  if (auto* graph = w_->findChild<QDockWidget*>(QStringLiteral("GraphDock"))) w_->tabifyDockWidget(graph, dock_);
  if (auto* graph = w_->findChild<QDockWidget*>(QStringLiteral("GraphDock"))) graph->raise();

  // The Agent menu, before Help (after the Campaign menu when there is one).
  QAction* before = nullptr;
  for (QAction* a : w_->menuBar()->actions())
    if (a->menu() && a->text().remove(QLatin1Char('&')) == tr("Help")) before = a;
  auto* menu = new QMenu(tr("A&gent"), w_);
  menu->setObjectName(QStringLiteral("AgentMenu"));
  w_->menuBar()->insertMenu(before, menu);
  propose_ = menu->addAction(tr("&Propose"), this, [this] { run(learn::InteractiveAction::Propose); });
  propose_->setObjectName(QStringLiteral("AgentProposeAction"));
  propose_->setShortcut(QKeySequence(tr("Ctrl+Alt+P")));
  propose_->setToolTip(tr("Ask the agent for a program for this task, from scratch"));
  repair_ = menu->addAction(tr("&Repair"), this, [this] { run(learn::InteractiveAction::Repair); });
  repair_->setObjectName(QStringLiteral("AgentRepairAction"));
  repair_->setShortcut(QKeySequence(tr("Ctrl+Alt+R")));
  repair_->setToolTip(tr("Send the program with its diagnostics or failing verdict and ask for a fix"));
  optimise_ = menu->addAction(tr("&Optimise"), this, [this] { run(learn::InteractiveAction::Optimise); });
  optimise_->setObjectName(QStringLiteral("AgentOptimiseAction"));
  optimise_->setShortcut(QKeySequence(tr("Ctrl+Alt+O")));
  optimise_->setToolTip(tr("Send the correct program with its cost-model feedback and ask for a faster one"));
  ask_ = menu->addAction(tr("&Ask…"), this, &AgentDocks::askDialog);
  ask_->setObjectName(QStringLiteral("AgentAskAction"));
  ask_->setShortcut(QKeySequence(tr("Ctrl+Alt+A")));
  ask_->setToolTip(tr("A round with your own instruction added"));
  menu->addSeparator();
  promoteEditor_ = menu->addAction(tr("Promote Editor Program to &Golden"), this, &AgentDocks::promoteEditor);
  promoteEditor_->setObjectName(QStringLiteral("AgentPromoteEditorAction"));
  promoteEditor_->setShortcut(QKeySequence(tr("Ctrl+Alt+G")));
  promoteEditor_->setToolTip(tr("Verify the editor's program and add it to the golden set (refused with the reason "
                                "when it does not verify)"));
  menu->addSeparator();
  cancel_ = menu->addAction(tr("&Cancel Agent"), this, &AgentDocks::cancel);
  cancel_->setObjectName(QStringLiteral("AgentCancelAction"));
  cancel_->setShortcut(QKeySequence(tr("Ctrl+Alt+K")));
  menu->addSeparator();
  menu->addAction(dock_->toggleViewAction());
  menu->addAction(tr("Agent &Preferences…"), this, [this] { SettingsDialog(w_).exec(); });

  QToolBar* tb = w_->addToolBar(tr("Agent"));
  tb->setObjectName(QStringLiteral("AgentToolBar"));
  tb->addActions({propose_, repair_, optimise_, ask_, cancel_});

  connect(runner_, &AgentRunner::delta, panel_, &AgentPanel::applyDelta);
  connect(runner_, &AgentRunner::finished, this, &AgentDocks::onFinished);
  connect(runner_, &AgentRunner::decisionRecorded, this, [this](int, const QString& decision, const QString& error) {
    if (!error.isEmpty()) panel_->setMessage(tr("The %1 decision was not logged: %2").arg(decision, error));
  });
  connect(runner_, &AgentRunner::promoted, this, [this](bool, const QString& message) {
    panel_->setMessage(message);
    w_->statusBar()->showMessage(message, 8000);
  });
  connect(panel_, &AgentPanel::cancelRequested, this, &AgentDocks::cancel);
  connect(panel_, &AgentPanel::acceptRequested, this, &AgentDocks::accept);
  connect(panel_, &AgentPanel::rejectRequested, this, &AgentDocks::reject);
  connect(panel_, &AgentPanel::restoreRequested, this, &AgentDocks::restore);
  connect(panel_, &AgentPanel::promoteRequested, this, &AgentDocks::promote);
  updateActions();
}

void AgentDocks::updateActions() {
  const bool busy = runner_->busy();
  for (QAction* a : {propose_, repair_, optimise_, ask_}) a->setEnabled(!busy);
  cancel_->setEnabled(busy);
}

void AgentDocks::setBuffer(const QString& key) { panel_->setBuffer(key); }

void AgentDocks::renameBuffer(const QString& key) { panel_->renameBuffer(key); }

quint64 AgentDocks::run(learn::InteractiveAction action, const QString& instruction) {
  if (runner_->busy()) return 0;
  AgentJob job;
  job.action = action;
  job.document = w_->editor()->text();
  job.path = w_->editor()->filePath();
  job.instruction = instruction.trimmed();
  job.settings = agentSettings();
  job.chip = chipSetting();
  const quint64 id = runner_->start(job);
  if (!id) return 0;
  panel_->roundStarted(id, action, job.instruction);
  dock_->show();
  dock_->raise();
  updateActions();
  return id;
}

void AgentDocks::askDialog() {
  if (runner_->busy()) return;
  QDialog d(w_);
  d.setWindowTitle(tr("Ask the agent"));
  auto* text = new QPlainTextEdit(&d);
  text->setPlaceholderText(tr("e.g. use Partition to spread the experts over lanes"));
  auto* kind = new QComboBox(&d);
  kind->addItem(tr("Propose (from scratch)"), static_cast<int>(learn::InteractiveAction::Propose));
  kind->addItem(tr("Repair this program"), static_cast<int>(learn::InteractiveAction::Repair));
  kind->addItem(tr("Optimise this program"), static_cast<int>(learn::InteractiveAction::Optimise));
  step::TaskDoc task;
  std::string program;
  QString error;
  const bool hasProgram = AgentRunner::taskOf(w_->editor()->text(), task, program, error) &&
                          program.find_first_not_of(" \t\r\n") != std::string::npos;
  kind->setCurrentIndex(hasProgram ? 1 : 0);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
  connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
  auto* form = new QFormLayout(&d);
  form->addRow(tr("&Instruction:"), text);
  form->addRow(tr("&Round:"), kind);
  form->addRow(buttons);
  if (d.exec() != QDialog::Accepted) return;
  run(static_cast<learn::InteractiveAction>(kind->currentData().toInt()), text->toPlainText());
}

void AgentDocks::cancel() { runner_->cancel(); }

void AgentDocks::onFinished(const AgentOutcome& o) {
  panel_->roundFinished(o);
  updateActions();
  if (o.result && !o.result->cancelled)
    w_->statusBar()->showMessage(tr("Agent %1: %2").arg(agentActionName(o.action), agentVerdictLine(o)), 8000);
  // The session's events replay in the trace and audit panes like a campaign's: open (and follow) the session
  // workspace there, unless another campaign is shown.
  if (!o.sessionDir.isEmpty() && w_->workspaceDir() != o.sessionDir) {
    const CampaignRunState s = w_->campaignDocks()->state();
    if (s == CampaignRunState::Idle || w_->workspaceDir().isEmpty()) w_->campaignDocks()->openWorkspace(o.sessionDir);
  }
}

bool AgentDocks::putIntoEditor(const QString& impl) {
  const std::string doc = w_->editor()->text().toStdString();
  std::optional<std::string> out = replaceImplBlock(doc, impl.toStdString());
  if (!out) {  // no `impl: |` block yet: add one
    const std::string s = impl.toStdString();
    std::string body;
    for (std::size_t pos = 0; pos < s.size();) {
      std::size_t nl = s.find('\n', pos);
      if (nl == std::string::npos) nl = s.size();
      body += "  " + s.substr(pos, nl - pos) + "\n";
      pos = nl + 1;
    }
    out = doc + (doc.empty() || doc.back() == '\n' ? "" : "\n") + "impl: |\n" + body;
  }
  w_->editor()->replaceAllText(QString::fromStdString(*out));
  return true;
}

bool AgentDocks::accept(int index) { return adopt(index, QStringLiteral("accepted")); }

bool AgentDocks::restore(int index) { return adopt(index, QStringLiteral("restored")); }

bool AgentDocks::adopt(int index, const QString& decision) {
  if (index < 0 || index >= panel_->history().size()) return false;
  const AgentHistoryEntry& e = panel_->history()[index];
  if (e.outcome.result->impl.empty()) return false;
  putIntoEditor(QString::fromStdString(e.outcome.result->impl));
  runner_->recordDecision(e.outcome.result->round, e.outcome.taskId, decision);
  panel_->setDecision(index, decision);
  return true;
}

void AgentDocks::reject(int index) {
  if (index < 0 || index >= panel_->history().size()) return;
  const AgentHistoryEntry& e = panel_->history()[index];
  runner_->recordDecision(e.outcome.result->round, e.outcome.taskId, QStringLiteral("rejected"));
  panel_->setDecision(index, QStringLiteral("rejected"));
}

void AgentDocks::promoteEditor() {
  const QString document = w_->editor()->text();
  step::TaskDoc task;
  std::string program;
  QString error;
  if (!AgentRunner::taskOf(document, task, program, error)) {
    const QString m = tr("Not promoted: %1").arg(error);
    panel_->setMessage(m);
    w_->statusBar()->showMessage(m, 8000);
    return;
  }
  w_->statusBar()->showMessage(tr("Promoting (verifying)…"), 8000);
  runner_->promoteToGolden(agentSettings().goldenFile, document, QString::fromStdString(program), QString(),
                           QString(), -1);
}

void AgentDocks::promote(int index) {
  if (index < 0 || index >= panel_->history().size()) return;
  const AgentHistoryEntry& e = panel_->history()[index];
  const auto& r = *e.outcome.result;
  if (!r.pass || r.impl.empty()) return;
  panel_->setMessage(tr("Promoting (verifying again)…"));
  runner_->promoteToGolden(agentSettings().goldenFile, e.outcome.document, QString::fromStdString(r.impl),
                           e.outcome.model, e.outcome.sessionDir, r.round, r.cycles, r.speedup);
}

}  // namespace sf::widgets
