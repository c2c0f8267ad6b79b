// The agent panel (issue 18 items 2-3): a side dock where the running round's answer streams in (text, the
// builtin synthesizer's progress lines) with elapsed time, tokens and cost, and a Cancel that aborts at once;
// then the review of the proposal: the verdict (with cycles and speedup from the cost model), a side-by-side
// StatementDiffView against the program the round was asked on (statements aligned whatever the streams are called;
// "No program in the answer" with the reason when the answer had none) with the guardian's changes and the
// adoption list under it;
// Accept / Reject / Promote to golden; and the history of the buffer's rounds, each restorable. The panel only
// shows and asks: MainWindow runs the rounds (AgentRunner), edits the editor and records the decisions.
#pragma once

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QVector>
#include <QWidget>

#include "widgets/editor/agent_runner.hpp"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;
class QTreeWidget;

namespace sf::widgets {

class StatementDiffView;

struct AgentHistoryEntry {
  AgentOutcome outcome;
  QString decision;  // "" (undecided), "accepted", "rejected", "restored"
  QDateTime when;
};

class AgentPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AgentPanel(QWidget* parent = nullptr);

  // The buffer whose history is shown (MainWindow: the file path, or a name for an untitled buffer).
  void setBuffer(const QString& key);
  QString buffer() const { return buffer_; }
  // The current buffer got a new name (saved under a new path): its history moves with it.
  void renameBuffer(const QString& key);

  void roundStarted(quint64 job, learn::InteractiveAction action, const QString& instruction);
  void applyDelta(quint64 job, const AgentDelta& d);
  // Adds the round to the buffer's history and shows it for review.
  void roundFinished(const AgentOutcome& o);
  // Records a decision on history entry `index` of the current buffer.
  void setDecision(int index, const QString& decision);
  void setMessage(const QString& text);  // a line under the verdict (promotion, decision errors)

  bool running() const { return job_ != 0; }
  const QVector<AgentHistoryEntry>& history() const;
  int shownIndex() const { return shown_; }
  void showEntry(int index);

  // For tests and screenshots.
  QString responseText() const;
  QString statusText() const;  // "Propose: streaming…", "Repair: verified", …
  QString statsText() const;   // "3.2 s · 812 tokens · $0.0012"
  QString verdictText() const;
  QString guardianText() const;
  QString messageText() const;
  StatementDiffView* diffView() const { return diff_; }
  QTreeWidget* adoptionView() const { return adoption_; }
  QListWidget* historyView() const { return historyList_; }
  QPushButton* acceptButton() const { return accept_; }
  QPushButton* rejectButton() const { return reject_; }
  QPushButton* promoteButton() const { return promote_; }
  QPushButton* restoreButton() const { return restore_; }
  QPushButton* cancelButton() const { return cancel_; }

 Q_SIGNALS:
  void cancelRequested();
  void acceptRequested(int index);
  void rejectRequested(int index);
  void restoreRequested(int index);
  void promoteRequested(int index);

 private:
  void updateStats();
  void updateButtons();
  void refreshHistoryList();
  QVector<AgentHistoryEntry>& entries();

  QHash<QString, QVector<AgentHistoryEntry>> history_;
  QString buffer_;
  int shown_ = -1;
  quint64 job_ = 0;
  QString action_;
  QElapsedTimer clock_;
  double lastElapsed_ = 0;
  qint64 doneIn_ = 0, doneOut_ = 0, streamOut_ = 0, streamIn_ = 0;
  double cost_ = 0;
  bool priced_ = false;

  QLabel* status_;
  QLabel* stats_;
  QPushButton* cancel_;
  QPlainTextEdit* response_;
  QTabWidget* tabs_;
  QLabel* verdict_;
  QLabel* message_;
  StatementDiffView* diff_;
  QPushButton* accept_;
  QPushButton* reject_;
  QPushButton* promote_;
  QPlainTextEdit* guardian_;
  QTreeWidget* adoption_;
  QListWidget* historyList_;
  QPushButton* restore_;
  QTimer* tick_;
};

// One line for a finished round's result: "verified · 1,234 cycles · speedup 1.8×", "does not verify: …",
// "cancelled", "error: …".
QString agentVerdictLine(const AgentOutcome& o);
QString agentActionName(learn::InteractiveAction a);  // "Propose", "Repair", "Optimise" (translated)
// Why a finished round's answer had no program (it was cut at the token limit, it could not be read as a
// program, the synthesizer found none, the call failed); "" when it had one.
QString agentNoProgramReason(const learn::InteractiveResult& r);

}  // namespace sf::widgets
