// The agent side of the main window (issue 18 items 1-4): the Agent menu and toolbar (Propose, Repair,
// Optimise, Ask…, Cancel; shortcuts Ctrl+Alt+P / R / O / A and Ctrl+Alt+K), the Agent dock (AgentPanel) and
// the glue: a round runs on AgentRunner's thread with the backend, memory workspace and session workspace of
// the preferences (agentSettings()); Accept and Restore replace the editor's impl block as one undoable edit;
// every decision is appended to the session workspace; "Promote to golden" adds an accepted verified program
// to the golden set (Ctrl+Alt+G: the editor's own program); the session workspace is opened in the campaign
// docks (trace pane, audit pane) so its rounds replay there like campaign rounds.
#pragma once

#include <QObject>
#include <QString>

#include "core/learn/interactive.hpp"

class QAction;
class QDockWidget;

namespace sf::widgets {

class MainWindow;
class AgentPanel;
class AgentRunner;
struct AgentOutcome;

class AgentDocks : public QObject {
  Q_OBJECT
 public:
  explicit AgentDocks(MainWindow* window);

  AgentPanel* panel() const { return panel_; }
  AgentRunner* runner() const { return runner_; }
  QDockWidget* dock() const { return dock_; }
  QAction* proposeAction() const { return propose_; }
  QAction* repairAction() const { return repair_; }
  QAction* optimiseAction() const { return optimise_; }
  QAction* askAction() const { return ask_; }
  QAction* cancelAction() const { return cancel_; }

  // Starts a round on the editor's document (0 when one is already running).
  quint64 run(learn::InteractiveAction action, const QString& instruction = {});
  // The history of a buffer (MainWindow calls it when the document changes).
  void setBuffer(const QString& key);
  void renameBuffer(const QString& key);  // the buffer was saved under a new path

  // The decisions on the current buffer's history entry `index` (the panel's buttons call these).
  bool accept(int index);
  void reject(int index);
  bool restore(int index);
  void promote(int index);
  // Agent → Promote Editor Program to Golden (Ctrl+Alt+G): the editor's program, verified, into the golden set
  // of the preferences (provenance source "editor", no campaign); the outcome in the status bar and the panel.
  void promoteEditor();
  QAction* promoteEditorAction() const { return promoteEditor_; }

 public Q_SLOTS:
  void askDialog();  // Ask…: an instruction and the kind of round
  void cancel();

 private:
  void onFinished(const AgentOutcome& o);
  bool putIntoEditor(const QString& impl);
  bool adopt(int index, const QString& decision);  // Accept / Restore: the proposal into the editor
  void updateActions();

  MainWindow* w_;
  AgentRunner* runner_;
  AgentPanel* panel_;
  QDockWidget* dock_ = nullptr;
  QAction *propose_ = nullptr, *repair_ = nullptr, *optimise_ = nullptr, *ask_ = nullptr, *cancel_ = nullptr,
          *promoteEditor_ = nullptr;
};

}  // namespace sf::widgets
