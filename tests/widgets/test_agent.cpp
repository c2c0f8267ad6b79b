// The agent at the editor's side (issue 18): Propose / Repair / Optimise / Ask… from the main window against the
// loopback endpoint (streamed answers, a cancelled stream, a proposal that fails verification, an accepted
// proposal undone, history and restore, promote to golden), the builtin backend offline, and the session's
// events replayed in the trace pane.
#include <gtest/gtest.h>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QAction>

#include <QTreeWidget>

#include <fstream>

#include "core/memory/memory_store.hpp"
#include "tests/support/loopback_server.hpp"
#include "widgets/editor/agent_docks.hpp"
#include "widgets/editor/agent_panel.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/main_window.hpp"
#include "widgets/editor/statement_diff_view.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "widgets/campaign/trace_pane.hpp"

namespace agent_widget_tests {

using sf::learn::InteractiveAction;
using sf::llm::testing::LoopbackServer;
using sf::widgets::AgentDocks;
using sf::widgets::AgentPanel;
using sf::widgets::AgentSettings;
using sf::widgets::MainWindow;

const char* const kTask = "extra/exclusive_cumsum";
// A correct exclusive cumsum that uses E0 twice: the guardian inserts the Copy.
const QString kGoodProgram = QStringLiteral(
    "  C = step.Scan(fn=fn_add, b=1).apply(E0)\n"
    "  Y = step.Map(fn=fn_minus).apply((C, E0))\n"
    "  return Y\n");
const QString kWrongProgram = QStringLiteral("  Y = step.Accum(fn=fn_add, b=1).apply(E0)\n  return Y\n");

std::string fencedAnswer(const QString& program) {
  return "Here it is.\n```yaml\nimpl: |\n" + program.toStdString() + "```\n";
}

QString readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

struct AgentWindow {
  LoopbackServer server;
  QTemporaryDir dir;
  MainWindow w;
  explicit AgentWindow(const std::string& kind = "openai") {
    AgentSettings a;
    if (kind == "builtin") {
      a.backend = {{"kind", "builtin"}, {"model", "builtin"}};
    } else {
      a.backend = {{"kind", kind},
                   {"base_url", kind == "anthropic" ? server.anthropic_base_url() : server.base_url()},
                   {"model", "test-model"},
                   {"key_env", ""},
                   {"max_retries", 0},
                   {"timeout_s", 30}};
    }
    a.sessionDir = dir.path() + QStringLiteral("/session");
    a.goldenFile = dir.path() + QStringLiteral("/golden.json");
    sf::widgets::setAgentSettings(a);
    w.resize(1400, 900);
  }
  AgentDocks* agent() const { return w.agentDocks(); }
  AgentPanel* panel() const { return w.agentDocks()->panel(); }
  bool waitIdle(int ms = 60000) const {
    return QTest::qWaitFor([this] { return !agent()->runner()->busy(); }, ms);
  }
  QString events() const { return readAll(dir.path() + QStringLiteral("/session/events.jsonl")); }
  void setProgram(const QString& impl) {
    ASSERT_TRUE(w.newFromTask(QString::fromLatin1(kTask)));
    QString t = w.editor()->text();
    t.replace(QStringLiteral("impl: |\n  \n"), QStringLiteral("impl: |\n") + impl);
    w.setDocument(t);
  }
};

TEST(AgentActions, ProposeStreamsIsAcceptedAsOneUndoableEditAndPromoted) {
  AgentWindow a;
  a.server.answer_text = fencedAnswer(kGoodProgram);
  a.server.stream_pieces = 5;
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  const QString before = a.w.editor()->text();
  EXPECT_TRUE(a.agent()->proposeAction()->isEnabled());
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  EXPECT_FALSE(a.agent()->proposeAction()->isEnabled());
  EXPECT_EQ(a.agent()->run(InteractiveAction::Propose), 0u);  // one round at a time
  ASSERT_TRUE(a.waitIdle());
  // Streamed: the request asked for server-sent events and the answer arrived in the panel.
  EXPECT_NE(a.server.seen().back().body.find("\"stream\":true"), std::string::npos);
  EXPECT_TRUE(a.panel()->responseText().contains(QStringLiteral("Y = step.Map(fn=fn_minus)")))
      << a.panel()->responseText().toStdString();
  EXPECT_TRUE(a.panel()->statsText().contains(QStringLiteral("30 out"))) << a.panel()->statsText().toStdString();
  ASSERT_EQ(a.panel()->history().size(), 1);
  EXPECT_TRUE(a.panel()->verdictText().contains(QStringLiteral("verified"))) << a.panel()->verdictText().toStdString();
  EXPECT_TRUE(a.panel()->verdictText().contains(QStringLiteral("cycles"))) << a.panel()->verdictText().toStdString();
  EXPECT_TRUE(a.panel()->guardianText().contains(QStringLiteral("rewrite"))) << a.panel()->guardianText().toStdString();
  EXPECT_GT(a.panel()->diffView()->diff().inserted, 0);
  EXPECT_FALSE(a.panel()->promoteButton()->isEnabled());  // not accepted yet
  if (const QByteArray shots = qgetenv("SF_SCREENSHOT_DIR"); !shots.isEmpty()) {
    a.w.show();
    a.agent()->dock()->raise();
    a.panel()->resize(560, 820);
    a.panel()->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/agent_panel.png"));
    a.w.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/agent_window.png"));
  }

  ASSERT_TRUE(a.panel()->acceptButton()->isEnabled());
  a.panel()->acceptButton()->click();
  const std::string impl = a.panel()->history()[0].outcome.result->impl;
  EXPECT_TRUE(a.w.editor()->text().contains(QStringLiteral("step.Map(fn=fn_minus)")));
  EXPECT_NE(a.w.editor()->text(), before);
  EXPECT_EQ(a.panel()->history()[0].decision, QStringLiteral("accepted"));
  a.w.editor()->undo();  // one edit
  EXPECT_EQ(a.w.editor()->text(), before);
  a.w.editor()->redo();
  EXPECT_TRUE(QTest::qWaitFor([&] { return a.events().contains(QStringLiteral("\"accepted\"")); }, 10000));

  ASSERT_TRUE(a.panel()->promoteButton()->isEnabled());
  a.panel()->promoteButton()->click();
  ASSERT_TRUE(QTest::qWaitFor([&] { return a.panel()->messageText().contains(QStringLiteral("promoted")); }, 60000))
      << a.panel()->messageText().toStdString();
  const QString golden = readAll(a.dir.path() + QStringLiteral("/golden.json"));
  EXPECT_TRUE(golden.contains(QString::fromLatin1(kTask)));
  EXPECT_TRUE(golden.contains(QStringLiteral("\"editor\"")));

  // The session's events replay in the trace pane like a campaign's rounds.
  auto* traces = a.w.campaignDocks()->tracePane();
  ASSERT_TRUE(QTest::qWaitFor([&] { return traces->model()->rowCount() >= 1; }, 20000));
  EXPECT_EQ(a.w.workspaceDir(), a.dir.path() + QStringLiteral("/session"));
  traces->showRow(0);
  EXPECT_TRUE(traces->detailText(QStringLiteral("response")).contains(QStringLiteral("fn_minus")));
}

TEST(AgentActions, CancelAbortsAStreamingAnthropicRound) {
  AgentWindow a("anthropic");
  a.server.answer_text = "first piece, then a long pause, then the rest of it";
  a.server.stream_pieces = 3;
  a.server.stream_gap_ms = 5000;  // the rest would take 10 s
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  ASSERT_TRUE(QTest::qWaitFor([&] { return a.panel()->responseText().contains(QStringLiteral("first")); }, 20000));
  ASSERT_TRUE(a.panel()->cancelButton()->isEnabled());
  a.panel()->cancelButton()->click();
  ASSERT_TRUE(a.waitIdle());
  EXPECT_TRUE(a.panel()->statusText().contains(QStringLiteral("cancelled"))) << a.panel()->statusText().toStdString();
  EXPECT_FALSE(a.panel()->responseText().contains(QStringLiteral("rest of it")));
  EXPECT_TRUE(a.panel()->history().isEmpty());
  EXPECT_TRUE(QTest::qWaitFor([&] { return a.server.client_gone.load(); }, 5000));  // the transfer was aborted
  EXPECT_FALSE(a.agent()->cancelAction()->isEnabled());
  EXPECT_TRUE(a.agent()->proposeAction()->isEnabled());
}

TEST(AgentActions, RepairWithAnInstructionFailingProposalRejectedThenHistoryRestore) {
  AgentWindow a;
  a.setProgram(QStringLiteral("  C = step.Scan(fn=fn_add, b=1).apply(E0)\n  return Z\n"));
  a.server.answer_text = fencedAnswer(kWrongProgram);
  ASSERT_NE(a.agent()->run(InteractiveAction::Repair, QStringLiteral("keep the Scan")), 0u);
  ASSERT_TRUE(a.waitIdle());
  const std::string sent = a.server.seen().back().body;
  EXPECT_NE(sent.find("N-UNDEF"), std::string::npos);        // the diagnostics went with the program
  EXPECT_NE(sent.find("keep the Scan"), std::string::npos);  // Ask…'s instruction
  ASSERT_EQ(a.panel()->history().size(), 1);
  EXPECT_TRUE(a.panel()->verdictText().contains(QStringLiteral("does not verify")))
      << a.panel()->verdictText().toStdString();
  EXPECT_FALSE(a.panel()->promoteButton()->isEnabled());
  a.panel()->rejectButton()->click();
  EXPECT_EQ(a.panel()->history()[0].decision, QStringLiteral("rejected"));
  EXPECT_FALSE(a.panel()->rejectButton()->isEnabled());
  EXPECT_TRUE(a.w.editor()->text().contains(QStringLiteral("return Z")));  // untouched

  a.server.answer_text = fencedAnswer(kGoodProgram);
  ASSERT_NE(a.agent()->run(InteractiveAction::Repair), 0u);
  ASSERT_TRUE(a.waitIdle());
  ASSERT_EQ(a.panel()->history().size(), 2);
  EXPECT_EQ(a.panel()->shownIndex(), 1);
  a.panel()->acceptButton()->click();
  EXPECT_TRUE(a.w.editor()->text().contains(QStringLiteral("fn_minus")));
  // Browse back to the rejected round and restore it.
  a.panel()->historyView()->setCurrentRow(0);
  EXPECT_EQ(a.panel()->shownIndex(), 0);
  ASSERT_TRUE(a.panel()->restoreButton()->isEnabled());
  a.panel()->restoreButton()->click();
  EXPECT_TRUE(a.w.editor()->text().contains(QStringLiteral("step.Accum")));
  EXPECT_EQ(a.panel()->history()[0].decision, QStringLiteral("restored"));
  EXPECT_TRUE(QTest::qWaitFor(
      [&] {
        const QString e = a.events();
        return e.contains(QStringLiteral("\"rejected\"")) && e.contains(QStringLiteral("\"restored\""));
      },
      10000));
  // The history belongs to the buffer: another document has none, and coming back would need the same key.
  a.w.setDocument(a.w.editor()->text());
  EXPECT_TRUE(a.panel()->history().isEmpty());
}

TEST(AgentActions, OptimiseAVerifiedProgram) {
  AgentWindow a;
  a.setProgram(QStringLiteral(
      "  T1, T2 = step.Copy().apply(E0)\n"
      "  T3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
      "  T4 = step.Map(fn=fn_minus).apply((T3, T2))\n"
      "  return T4\n"));
  a.server.answer_text = fencedAnswer(kGoodProgram);
  ASSERT_NE(a.agent()->run(InteractiveAction::Optimise), 0u);
  ASSERT_TRUE(a.waitIdle());
  ASSERT_EQ(a.panel()->history().size(), 1) << a.panel()->statusText().toStdString();
  // The answer is as fast as the reference: a tie under the 1% tolerance, not "speedup 1.00×".
  EXPECT_TRUE(a.panel()->verdictText().contains(QStringLiteral("no faster program: a tie with the reference")))
      << a.panel()->verdictText().toStdString();
  EXPECT_FALSE(a.panel()->verdictText().contains(QStringLiteral("speedup"))) << a.panel()->verdictText().toStdString();
  EXPECT_FALSE(a.panel()->history()[0].outcome.result->input_feedback.empty());  // the cost feedback was sent
}

TEST(AgentActions, BuiltinBackendOfflineReportsItsSearch) {
  AgentWindow a("builtin");
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  ASSERT_TRUE(a.waitIdle(120000));
  EXPECT_TRUE(a.panel()->responseText().contains(QStringLiteral("[synth: searching programs for extra/exclusive_cumsum")))
      << a.panel()->responseText().toStdString();
  ASSERT_EQ(a.panel()->history().size(), 1);
  EXPECT_TRUE(a.panel()->verdictText().contains(QStringLiteral("verified"))) << a.panel()->verdictText().toStdString();
  EXPECT_EQ(a.server.hits(), 0);
}

TEST(AgentActions, ABadBackendInThePreferencesIsReportedNotRun) {
  AgentWindow a;
  AgentSettings s = sf::widgets::agentSettings();
  s.backend = {{"kind", "openai"}, {"model", "m"}, {"key_env", "sk-abcdefghijklmnopqrstuvwxyz0123456789"}};
  sf::widgets::setAgentSettings(s);
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  ASSERT_TRUE(a.waitIdle());
  EXPECT_TRUE(a.panel()->statusText().contains(QStringLiteral("error"))) << a.panel()->statusText().toStdString();
  EXPECT_FALSE(a.panel()->statusText().contains(QStringLiteral("abcdefghij")));  // a pasted key is never echoed
  EXPECT_EQ(a.server.hits(), 0);
}

TEST(AgentActions, AnEndpointFailureIsNamedWithItsCauseAndFix) {
  AgentWindow a;
  a.server.script({sf::llm::testing::Mode::Unauthorized});
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  ASSERT_TRUE(a.waitIdle());
  const QString status = a.panel()->statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("endpoint failed: authentication failed (HTTP 401)"))) << status.toStdString();
  EXPECT_FALSE(status.contains(QStringLiteral("no program"))) << status.toStdString();
}

TEST(AgentActions, WorkspaceMemoryIsRetrievedAndTheAdoptionListShown) {
  AgentWindow a;
  sf::memory::MemoryStore mem;
  sf::memory::NewExperience e;
  e.rule = "An exclusive prefix sum along each row is an inclusive Scan minus the input; Copy the input first.";
  e.evidence = "exclusive cumsum solved";
  e.id = "mem-cumsum";
  ASSERT_TRUE(mem.add_experience(e).ok());
  const QString ws = a.dir.path() + QStringLiteral("/campaign");
  ASSERT_TRUE(QDir().mkpath(ws));
  std::ofstream((ws + QStringLiteral("/memory.json")).toStdString()) << mem.to_json().dump();
  AgentSettings s = sf::widgets::agentSettings();
  s.memoryWorkspace = ws;
  sf::widgets::setAgentSettings(s);
  a.server.answer_text = fencedAnswer(kGoodProgram) +
                         "```yaml\nadoption:\n  - id: mem-cumsum\n    adopted: yes\n    rationale: scan minus input\n```\n";
  ASSERT_TRUE(a.w.newFromTask(QString::fromLatin1(kTask)));
  ASSERT_NE(a.agent()->run(InteractiveAction::Propose), 0u);
  ASSERT_TRUE(a.waitIdle());
  EXPECT_NE(a.server.seen().back().body.find("mem-cumsum"), std::string::npos);  // retrieved into the prompt
  ASSERT_EQ(a.panel()->history().size(), 1) << a.panel()->statusText().toStdString();
  QTreeWidget* adoption = a.panel()->adoptionView();
  ASSERT_GE(adoption->topLevelItemCount(), 1);
  EXPECT_EQ(adoption->topLevelItem(0)->text(0), QStringLiteral("mem-cumsum"));
  EXPECT_EQ(adoption->topLevelItem(0)->text(1), QStringLiteral("yes"));
  EXPECT_EQ(adoption->topLevelItem(0)->text(2), QStringLiteral("scan minus input"));
}

}  // namespace agent_widget_tests
