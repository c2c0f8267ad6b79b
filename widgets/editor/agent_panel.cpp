#include "widgets/editor/agent_panel.hpp"
#include "core/common/speedup.hpp"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTextCursor>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "widgets/editor/performance_pane.hpp"
#include "widgets/editor/statement_diff_view.hpp"

namespace sf::widgets {

namespace {

const QVector<AgentHistoryEntry> kNoAgentHistory;

QString decisionLabel(const QString& d) {
  if (d == QLatin1String("accepted")) return AgentPanel::tr("accepted");
  if (d == QLatin1String("rejected")) return AgentPanel::tr("rejected");
  if (d == QLatin1String("restored")) return AgentPanel::tr("restored");
  return AgentPanel::tr("undecided");
}

}  // namespace

QString agentActionName(learn::InteractiveAction a) {
  switch (a) {
    case learn::InteractiveAction::Repair:
      return AgentPanel::tr("Repair");
    case learn::InteractiveAction::Optimise:
      return AgentPanel::tr("Optimise");
    case learn::InteractiveAction::Propose:
      break;
  }
  return AgentPanel::tr("Propose");
}

QString agentVerdictLine(const AgentOutcome& o) {
  if (!o.result) return AgentPanel::tr("error: %1").arg(o.error);
  const learn::InteractiveResult& r = *o.result;
  if (r.cancelled) return AgentPanel::tr("cancelled");
  if (r.pass) {
    QString t = AgentPanel::tr("verified");
    if (r.cycles) t += QStringLiteral(" · ") + AgentPanel::tr("%1 cycles").arg(formatCount(*r.cycles));
    // Faster only by the tie tolerance (sf::faster_than): a one-cycle win is no speedup.
    if (r.speedup && faster_than(*r.speedup))
      t += QStringLiteral(" · ") + AgentPanel::tr("speedup %1").arg(formatSpeedup(*r.speedup));
    else if (r.speedup && classify_speedup(*r.speedup) == SpeedupClass::Tie)
      t += QStringLiteral(" · ") + AgentPanel::tr("no faster program: a tie with the reference (%1×)")
                                       .arg(*r.speedup, 0, 'f', 2);
    else if (r.speedup)
      t += QStringLiteral(" · ") + AgentPanel::tr("no faster program: %1× the reference's speed").arg(*r.speedup, 0, 'f', 2);
    else if (r.feasible && !*r.feasible) t += QStringLiteral(" · ") + AgentPanel::tr("not feasible");
    return t;
  }
  if (r.report && !r.report->diags.empty()) {
    const auto& d = r.report->diags.front();
    return AgentPanel::tr("does not verify: %1 %2 at %3:%4: %5")
        .arg(r.report->stage ? QString::fromUtf8(stage_name(*r.report->stage).data(),
                                                 static_cast<qsizetype>(stage_name(*r.report->stage).size()))
                             : QStringLiteral("?"),
             QString::fromStdString(r.report->code))
        .arg(d.loc.line)
        .arg(d.loc.column)
        .arg(QString::fromStdString(d.message));
  }
  if (r.report) return AgentPanel::tr("does not verify: %1").arg(QString::fromStdString(r.report->code));
  // The endpoint's failure, not the model's answer: its message names the cause and the fix.
  if (r.error_kind == "endpoint") return AgentPanel::tr("endpoint failed: %1").arg(QString::fromStdString(r.error));
  return AgentPanel::tr("no program: %1").arg(QString::fromStdString(r.error.empty() ? r.error_kind : r.error));
}

QString agentNoProgramReason(const learn::InteractiveResult& r) {
  if (!r.impl.empty() || !r.proposal.empty()) return QString();
  if (r.error_kind == "truncated")
    return AgentPanel::tr("The answer was cut off at the token limit before its program was complete.");
  if (r.error_kind == "parse")
    return AgentPanel::tr("The answer could not be read as a program (no impl: block, an empty one, or a "
                          "malformed answer).");
  if (r.error_kind == "search")
    return AgentPanel::tr("The built-in synthesizer found no program within its search budget.");
  if (r.error_kind.empty()) return AgentPanel::tr("The answer has no program.");
  return AgentPanel::tr("The model call failed (%1): there is no answer to compare.")
      .arg(QString::fromStdString(r.error_kind));
}

AgentPanel::AgentPanel(QWidget* parent)
    : QWidget(parent),
      status_(new QLabel(tr("Agent idle — Agent → Propose, Repair, Optimise or Ask…"), this)),
      stats_(new QLabel(this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      response_(new QPlainTextEdit(this)),
      tabs_(new QTabWidget(this)),
      verdict_(new QLabel(this)),
      message_(new QLabel(this)),
      diff_(new StatementDiffView(this)),
      accept_(new QPushButton(tr("Accept"), this)),
      reject_(new QPushButton(tr("Reject"), this)),
      promote_(new QPushButton(tr("Promote to golden"), this)),
      guardian_(new QPlainTextEdit(this)),
      adoption_(new QTreeWidget(this)),
      historyList_(new QListWidget(this)),
      restore_(new QPushButton(tr("Restore"), this)),
      tick_(new QTimer(this)) {
  setObjectName(QStringLiteral("AgentPanel"));
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  status_->setObjectName(QStringLiteral("AgentStatus"));
  status_->setWordWrap(true);
  QFont bold = status_->font();
  bold.setBold(true);
  status_->setFont(bold);
  stats_->setObjectName(QStringLiteral("AgentStats"));
  cancel_->setObjectName(QStringLiteral("AgentCancel"));
  cancel_->setEnabled(false);
  cancel_->setToolTip(tr("Stop the round now (the request is aborted)"));
  connect(cancel_, &QPushButton::clicked, this, &AgentPanel::cancelRequested);
  response_->setObjectName(QStringLiteral("AgentResponse"));
  response_->setReadOnly(true);
  response_->setFont(mono);
  response_->setPlaceholderText(tr("The model's answer appears here as it arrives."));
  response_->setMaximumBlockCount(20000);

  auto* header = new QHBoxLayout;
  header->addWidget(status_, 1);
  header->addWidget(cancel_);
  auto* top = new QWidget(this);
  auto* tl = new QVBoxLayout(top);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addLayout(header);
  tl->addWidget(stats_);
  tl->addWidget(response_, 1);

  // Review: verdict, diff, decisions.
  auto* review = new QWidget(this);
  auto* rl = new QVBoxLayout(review);
  rl->setContentsMargins(2, 2, 2, 2);
  verdict_->setObjectName(QStringLiteral("AgentVerdict"));
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setObjectName(QStringLiteral("AgentMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  accept_->setObjectName(QStringLiteral("AgentAccept"));
  accept_->setToolTip(tr("Replace the editor's program by the proposal (one undoable edit)"));
  reject_->setObjectName(QStringLiteral("AgentReject"));
  promote_->setObjectName(QStringLiteral("AgentPromote"));
  promote_->setToolTip(tr("Add the accepted, verified program to the golden demonstrations (verified again)"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(accept_);
  buttons->addWidget(reject_);
  buttons->addStretch(1);
  buttons->addWidget(promote_);
  // The guardian's changes and the adoption list beside the diff (under it: the dock is tall and narrow).
  auto* why = new QSplitter(Qt::Horizontal, review);
  guardian_->setObjectName(QStringLiteral("AgentGuardian"));
  guardian_->setReadOnly(true);
  guardian_->setFont(mono);
  adoption_->setObjectName(QStringLiteral("AgentAdoption"));
  adoption_->setColumnCount(3);
  adoption_->setHeaderLabels({tr("Memory item"), tr("Adopted"), tr("Rationale")});
  adoption_->setRootIsDecorated(false);
  adoption_->setWordWrap(true);
  adoption_->header()->setStretchLastSection(true);
  why->addWidget(guardian_);
  why->addWidget(adoption_);
  auto* reviewSplit = new QSplitter(Qt::Vertical, review);
  reviewSplit->addWidget(diff_);
  reviewSplit->addWidget(why);
  reviewSplit->setStretchFactor(0, 4);  // the diff first: the guardian's notes and the adoption list are short
  reviewSplit->setStretchFactor(1, 1);
  rl->addWidget(verdict_);
  rl->addWidget(reviewSplit, 1);
  rl->addLayout(buttons);
  rl->addWidget(message_);
  connect(accept_, &QPushButton::clicked, this, [this] { emit acceptRequested(shown_); });
  connect(reject_, &QPushButton::clicked, this, [this] { emit rejectRequested(shown_); });
  connect(promote_, &QPushButton::clicked, this, [this] { emit promoteRequested(shown_); });

  // History of the buffer's rounds.
  auto* hist = new QWidget(this);
  auto* hl = new QVBoxLayout(hist);
  hl->setContentsMargins(2, 2, 2, 2);
  historyList_->setObjectName(QStringLiteral("AgentHistory"));
  restore_->setObjectName(QStringLiteral("AgentRestore"));
  restore_->setToolTip(tr("Put this round's proposal into the editor (one undoable edit)"));
  hl->addWidget(historyList_, 1);
  auto* hb = new QHBoxLayout;
  hb->addStretch(1);
  hb->addWidget(restore_);
  hl->addLayout(hb);
  connect(historyList_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0 && row != shown_) showEntry(row);
  });
  connect(restore_, &QPushButton::clicked, this, [this] { emit restoreRequested(shown_); });

  tabs_->addTab(review, tr("Review"));
  tabs_->addTab(hist, tr("History"));

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(split);

  tick_->setInterval(100);
  connect(tick_, &QTimer::timeout, this, &AgentPanel::updateStats);
  updateButtons();
}

QVector<AgentHistoryEntry>& AgentPanel::entries() { return history_[buffer_]; }

const QVector<AgentHistoryEntry>& AgentPanel::history() const {
  auto it = history_.find(buffer_);
  return it == history_.end() ? kNoAgentHistory : *it;
}

void AgentPanel::setBuffer(const QString& key) {
  if (key == buffer_) return;
  buffer_ = key;
  shown_ = -1;
  refreshHistoryList();
  if (!history().isEmpty()) showEntry(static_cast<int>(history().size()) - 1);
  else {
    verdict_->clear();
    guardian_->clear();
    adoption_->clear();
    diff_->clear();
    updateButtons();
  }
}

void AgentPanel::renameBuffer(const QString& key) {
  if (key == buffer_) return;
  history_[key] = history_.take(buffer_);
  buffer_ = key;
}

void AgentPanel::roundStarted(quint64 job, learn::InteractiveAction action, const QString& instruction) {
  job_ = job;
  action_ = agentActionName(action);
  doneIn_ = doneOut_ = streamOut_ = streamIn_ = 0;
  cost_ = 0;
  priced_ = false;
  lastElapsed_ = 0;
  clock_.start();
  tick_->start();
  response_->clear();
  if (!instruction.isEmpty()) response_->appendPlainText(tr("» %1").arg(instruction));
  status_->setText(tr("%1: waiting for the model…").arg(action_));
  message_->clear();
  cancel_->setEnabled(true);
  updateStats();
  updateButtons();
}

void AgentPanel::applyDelta(quint64 job, const AgentDelta& d) {
  if (job != job_) return;
  if (d.totals) {  // a call finished: its tokens are in the totals now
    doneIn_ = d.inputTokens;
    doneOut_ = d.outputTokens;
    cost_ = d.costUsd;
    priced_ = d.priced;
    streamIn_ = streamOut_ = 0;
    updateStats();
    return;
  }
  if (!d.progress.isEmpty()) {
    response_->appendPlainText(QStringLiteral("[%1]").arg(d.progress));
    status_->setText(tr("%1: searching…").arg(action_));
  }
  if (!d.text.isEmpty() && d.progress.isEmpty()) {
    // Appends without a new paragraph: pieces arrive mid-line.
    QTextCursor c = response_->textCursor();
    c.movePosition(QTextCursor::End);
    c.insertText(d.text);
    response_->verticalScrollBar()->setValue(response_->verticalScrollBar()->maximum());
    status_->setText(tr("%1: streaming…").arg(action_));
  } else if (!d.text.isEmpty()) {
    response_->appendPlainText(d.text);
  }
  if (!d.reasoning.isEmpty() && d.text.isEmpty()) status_->setText(tr("%1: thinking…").arg(action_));
  streamOut_ = d.outputTokens;
  streamIn_ = d.inputTokens;
  if (d.done) status_->setText(tr("%1: checking and verifying…").arg(action_));
  updateStats();
}

void AgentPanel::updateStats() {
  const double s = job_ ? clock_.elapsed() / 1000.0 : lastElapsed_;
  QString t = tr("%1 s").arg(s, 0, 'f', 1);
  const qint64 in = doneIn_ + streamIn_, out = doneOut_ + streamOut_;
  t += QStringLiteral(" · ") + tr("%1 tokens in, %2 out").arg(formatCount(in), formatCount(out));
  t += QStringLiteral(" · ") + (priced_ ? QStringLiteral("$%1").arg(cost_, 0, 'f', 4) : tr("cost unknown"));
  stats_->setText(t);
}

void AgentPanel::roundFinished(const AgentOutcome& o) {
  if (o.job == job_) {
    lastElapsed_ = clock_.elapsed() / 1000.0;  // wall time as the user waited (model, guardian, verifier)
    job_ = 0;
    tick_->stop();
    cancel_->setEnabled(false);
    if (o.result) {  // the final totals of every call of the round
      doneIn_ = doneOut_ = 0;
      for (const auto& [role, u] : o.result->usage) {
        doneIn_ += u.input_tokens;
        doneOut_ += u.output_tokens;
      }
      streamIn_ = streamOut_ = 0;
      cost_ = o.costUsd;
      priced_ = o.priced;
    }
    updateStats();
  }
  status_->setText(tr("%1: %2").arg(agentActionName(o.action), agentVerdictLine(o)));
  if (o.result && o.result->cancelled) {
    response_->appendPlainText(tr("— cancelled —"));
    return;  // nothing to review; not a round of the history (nothing was logged)
  }
  if (!o.result) {
    message_->setText(o.error);
    return;
  }
  entries().push_back({o, QString(), QDateTime::currentDateTime()});
  refreshHistoryList();
  showEntry(static_cast<int>(entries().size()) - 1);
  tabs_->setCurrentIndex(0);
}

void AgentPanel::showEntry(int index) {
  if (index < 0 || index >= history().size()) return;
  shown_ = index;
  const AgentHistoryEntry& e = history()[index];
  const learn::InteractiveResult& r = *e.outcome.result;
  QString v = tr("Round %1 · %2 · task %3").arg(r.round).arg(agentActionName(e.outcome.action), e.outcome.taskId);
  if (!e.outcome.instruction.isEmpty()) v += QStringLiteral("\n») ") + e.outcome.instruction;
  v += QStringLiteral("\n") + agentVerdictLine(e.outcome);
  v += QStringLiteral(" · ") + decisionLabel(e.decision);
  verdict_->setText(v);
  QPalette pal = verdict_->palette();
  pal.setColor(QPalette::WindowText, r.pass ? QColor(0x1b, 0x7f, 0x3a) : QColor(0xb0, 0x28, 0x28));
  verdict_->setPalette(pal);
  if (const QString why = agentNoProgramReason(r); !why.isEmpty())
    diff_->setNoProgram(why, QString::fromStdString(r.error));
  else
    diff_->setPrograms(e.outcome.program, QString::fromStdString(r.impl.empty() ? r.proposal : r.impl),
                       e.outcome.program.isEmpty() ? tr("editor (empty)") : tr("editor"),
                       r.pass ? tr("proposal (verified)") : tr("proposal (does not verify)"));
  QString g;
  if (r.guard) {
    g = tr("Guardian: %1").arg(QString::fromStdString(r.guard->action));
    if (!r.guard->diff.empty()) g += QStringLiteral("\n") + QString::fromStdString(r.guard->diff);
    else g += QStringLiteral("\n") + tr("(no change)");
  } else {
    g = tr("Guardian: not run (no program to guard)");
  }
  if (!r.input_feedback.empty())
    g += QStringLiteral("\n\n") + tr("Sent with the program:") + QStringLiteral("\n") +
         QString::fromStdString(r.input_feedback);
  guardian_->setPlainText(g);
  adoption_->clear();
  for (const auto& c : r.retrieved) {
    auto* item = new QTreeWidgetItem(adoption_);
    item->setText(0, QString::fromStdString(c.id));
    auto it = r.adoption.find(c.id);
    if (it != r.adoption.end() && it->second.adopted) {
      item->setText(1, *it->second.adopted ? tr("yes") : tr("no"));
      item->setText(2, QString::fromStdString(it->second.rationale));
    } else {
      item->setText(1, tr("not stated"));
    }
    item->setToolTip(0, tr("shown at rank %1, relevance %2").arg(c.rank).arg(c.relevance_normalised, 0, 'f', 2));
  }
  for (const auto& id : r.resident) {
    auto* item = new QTreeWidgetItem(adoption_);
    item->setText(0, QString::fromStdString(id));
    item->setText(1, tr("resident rule"));
  }
  if (adoption_->topLevelItemCount() == 0) {
    auto* item = new QTreeWidgetItem(adoption_);
    item->setText(0, tr("(nothing retrieved: no workspace memory, or nothing relevant in it)"));
  }
  if (historyList_->currentRow() != index) historyList_->setCurrentRow(index);
  updateButtons();
}

void AgentPanel::setDecision(int index, const QString& decision) {
  if (index < 0 || index >= history().size()) return;
  entries()[index].decision = decision;
  refreshHistoryList();
  showEntry(index);
}

void AgentPanel::setMessage(const QString& text) { message_->setText(text); }

void AgentPanel::refreshHistoryList() {
  const QSignalBlocker block(historyList_);
  historyList_->clear();
  for (const auto& e : history()) {
    const auto& r = *e.outcome.result;
    historyList_->addItem(tr("#%1 %2 %3 — %4 — %5")
                              .arg(r.round)
                              .arg(e.when.toString(QStringLiteral("HH:mm:ss")), agentActionName(e.outcome.action),
                                   agentVerdictLine(e.outcome), decisionLabel(e.decision)));
  }
  if (shown_ >= 0 && shown_ < historyList_->count()) historyList_->setCurrentRow(shown_);
}

void AgentPanel::updateButtons() {
  const bool has = shown_ >= 0 && shown_ < history().size();
  const AgentHistoryEntry* e = has ? &history()[shown_] : nullptr;
  const bool impl = e && !e->outcome.result->impl.empty();
  accept_->setEnabled(!job_ && impl && e->decision != QLatin1String("accepted"));
  reject_->setEnabled(!job_ && e && e->decision.isEmpty());
  promote_->setEnabled(!job_ && impl && e->outcome.result->pass &&
                       (e->decision == QLatin1String("accepted") || e->decision == QLatin1String("restored")));
  restore_->setEnabled(!job_ && impl);
}

QString AgentPanel::responseText() const { return response_->toPlainText(); }
QString AgentPanel::statusText() const { return status_->text(); }
QString AgentPanel::statsText() const { return stats_->text(); }
QString AgentPanel::verdictText() const { return verdict_->text(); }
QString AgentPanel::guardianText() const { return guardian_->toPlainText(); }
QString AgentPanel::messageText() const { return message_->text(); }

}  // namespace sf::widgets
