// The audit and memory docks in the main window: opening a sage workspace loads and shows them, from the one
// snapshot the campaign thread builds (the docks read no workspace file on the GUI thread).
#include <gtest/gtest.h>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QElapsedTimer>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "widgets/audit/audit_docks.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "widgets/main_window.hpp"
#include "widgets/audit/memory_inspector.hpp"
#include "widgets/audit/memory_inspector_model.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "test_support.hpp"

using nlohmann::json;
using namespace sf::widgets;

namespace {
void writeSageLog(const QString& dir) {
  std::ofstream out((dir + QStringLiteral("/events.jsonl")).toStdString(), std::ios::binary);
  out << json{{"v", 1},        {"seq", 0},
              {"t", 0.0},      {"type", "experience_added"},
              {"episode", 0},  {"item", "mem-000001"},
              {"rule", "r"},   {"evidence", "e"},
              {"pattern", ""}, {"source_task", "a"},
              {"tokens", 1}}
             .dump()
      << "\n"
      << json{{"v", 1},          {"seq", 1},         {"t", 0.0},         {"type", "adoption_record"},
              {"episode", 1},    {"task", "b"},      {"round", 0},       {"item", "mem-000001"},
              {"rank", 1},       {"relevance", 1.0}, {"score", 1.0},     {"utility", 0.0},
              {"adopted", true}, {"rationale", "x"}, {"reasked", false}, {"before", ""},
              {"after", "y\n"}}
             .dump()
      << "\n"
      // The episode's credit: the memory counts retrievals and adoptions from it (as memory.json does).
      << json{{"v", 1},           {"seq", 2},     {"t", 0.0},           {"type", "credit"},
              {"episode", 1},     {"item", "mem-000001"}, {"adopted", true}, {"credit", 0.5},
              {"eta", 1.0},       {"utility_before", 0.0}, {"utility_after", 0.5}, {"n_updates", 1}}
             .dump()
      << "\n";
}
void writeConfig(const QString& dir) {
  std::ofstream((dir + QStringLiteral("/campaign.json")).toStdString())
      << json{{"format", "stepforge-campaign"}, {"version", 1}, {"config", {{"name", "audit"}, {"mode", "sage"}}}}
             .dump();
}

// Opens `dir` in `w` as the user does (Campaign → Open Workspace: a follow session of the bridge) and waits for
// the campaign thread's snapshot.
AuditMemorySnapshotPtr openThroughTheBridge(MainWindow& w, const QString& dir) {
  QSignalSpy snap(w.bridge(), &EngineBridge::auditMemorySnapshot);
  w.campaignDocks()->openWorkspace(dir);
  if (!snap.wait(20000)) return nullptr;
  return snap.at(0).at(0).value<AuditMemorySnapshotPtr>();
}

}  // namespace

TEST(AuditDocks, OpeningASageWorkspaceLoadsAndShowsThePanes) {
  QTemporaryDir tmp;
  writeConfig(tmp.path());
  writeSageLog(tmp.path());
  MainWindow w;
  ASSERT_NE(w.auditDocks(), nullptr);
  EXPECT_TRUE(w.auditDocks()->auditDock()->isHidden());
  ASSERT_TRUE(openThroughTheBridge(w, tmp.path()));
  EXPECT_EQ(w.auditDocks()->auditPane()->model()->rowCount(), 1);
  ASSERT_EQ(w.auditDocks()->memoryInspector()->model()->rowCount(), 1);
  EXPECT_EQ(w.auditDocks()->memoryInspector()->model()->item(0).adoption_count, 1);
  EXPECT_FALSE(w.auditDocks()->auditDock()->isHidden());
  EXPECT_FALSE(w.auditDocks()->memoryDock()->isHidden());
  // The follow session's event batches (the same three events) change nothing.
  QTest::qWait(300);
  EXPECT_EQ(w.auditDocks()->auditPane()->model()->rowCount(), 1);
  ASSERT_EQ(w.auditDocks()->memoryInspector()->model()->rowCount(), 1);
  EXPECT_EQ(w.auditDocks()->memoryInspector()->model()->item(0).adoption_count, 1);

  // A workspace without sage data leaves them hidden.
  QTemporaryDir plain;
  writeConfig(plain.path());
  MainWindow w2;
  ASSERT_TRUE(openThroughTheBridge(w2, plain.path()));
  EXPECT_TRUE(w2.auditDocks()->auditDock()->isHidden());
  EXPECT_EQ(w2.auditDocks()->auditPane()->model()->rowCount(), 0);
}

// Issue 14 item 2: events.jsonl is read once, by the campaign thread. The audit pane and the memory inspector
// get an opened workspace only through the bridge's snapshot: the window's workspaceOpened alone fills nothing,
// and the panes stay empty until the snapshot arrives.
TEST(AuditDocks, TheDocksReadNoWorkspaceOnTheGuiThread) {
  QTemporaryDir tmp;
  writeConfig(tmp.path());
  writeSageLog(tmp.path());
  MainWindow w;
  auto* audit = w.auditDocks()->auditPane()->model();
  auto* memory = w.auditDocks()->memoryInspector()->model();
  emit w.workspaceOpened(tmp.path());
  QTest::qWait(200);
  EXPECT_EQ(audit->rowCount(), 0);
  EXPECT_EQ(memory->rowCount(), 0);
  EXPECT_TRUE(w.auditDocks()->auditDock()->isHidden());

  QSignalSpy snap(w.bridge(), &EngineBridge::auditMemorySnapshot);
  w.campaignDocks()->openWorkspace(tmp.path());
  QElapsedTimer t;
  t.start();
  while (snap.isEmpty() && t.elapsed() < 20000) {
    ASSERT_EQ(audit->rowCount(), 0);
    ASSERT_EQ(memory->rowCount(), 0);
    QTest::qWait(1);
  }
  ASSERT_EQ(snap.size(), 1);
  const auto s = snap.at(0).at(0).value<AuditMemorySnapshotPtr>();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->dir, tmp.path());
  EXPECT_EQ(s->events, 3);
  EXPECT_EQ(audit->rowCount(), 1);
  EXPECT_EQ(memory->rowCount(), 1);
}

// A followed live workspace: after the snapshot of what was logged at opening, the records another process
// appends reach the audit pane and the memory inspector as event batches.
TEST(AuditDocks, AFollowedLogAddsItsNewRecords) {
  QTemporaryDir tmp;
  writeConfig(tmp.path());
  writeSageLog(tmp.path());
  MainWindow w;
  ASSERT_TRUE(openThroughTheBridge(w, tmp.path()));
  auto* audit = w.auditDocks()->auditPane()->model();
  auto* memory = w.auditDocks()->memoryInspector()->model();
  ASSERT_EQ(audit->rowCount(), 1);
  {
    std::ofstream out((tmp.path() + QStringLiteral("/events.jsonl")).toStdString(), std::ios::app);
    out << json{{"v", 1},          {"seq", 3},         {"t", 0.0},         {"type", "adoption_record"},
                {"episode", 2},    {"task", "c"},      {"round", 0},       {"item", "mem-000001"},
                {"rank", 1},       {"relevance", 1.0}, {"score", 1.0},     {"utility", 0.5},
                {"adopted", true}, {"rationale", "z"}, {"reasked", false}, {"before", ""},
                {"after", "z\n"}}
               .dump()
        << "\n"
        << json{{"v", 1},           {"seq", 4},     {"t", 0.0},           {"type", "credit"},
                {"episode", 2},     {"item", "mem-000001"}, {"adopted", true}, {"credit", 0.5},
                {"eta", 1.0},       {"utility_before", 0.5}, {"utility_after", 0.5}, {"n_updates", 2}}
               .dump()
        << "\n";
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return audit->rowCount() == 2; }, 10000));
  EXPECT_EQ(audit->record(1).task, "c");
  ASSERT_TRUE(QTest::qWaitFor([&] { return memory->item(0).adoption_count == 2; }, 10000));
  EXPECT_EQ(memory->trajectory(QStringLiteral("mem-000001")).size(), 2);
}

// The errors read the same as when the panes read the files themselves: a corrupt audit.json is the audit
// pane's message (the memory still loads), a bad memory.json the memory inspector's.
TEST(AuditDocks, ACorruptAuditFileIsShownInThePane) {
  QTemporaryDir tmp;
  writeConfig(tmp.path());
  writeSageLog(tmp.path());
  std::ofstream((tmp.path() + QStringLiteral("/audit.json")).toStdString()) << "{ not json";
  MainWindow w;
  QSignalSpy auditStatus(w.auditDocks()->auditPane(), &AuditPane::statusMessage);
  ASSERT_TRUE(openThroughTheBridge(w, tmp.path()));
  ASSERT_FALSE(auditStatus.isEmpty());
  const QString msg = auditStatus.last().at(0).toString();
  EXPECT_TRUE(msg.startsWith(QStringLiteral("Cannot open the audit of %1: audit.json").arg(tmp.path())))
      << msg.toStdString();
  EXPECT_EQ(w.auditDocks()->auditPane()->model()->rowCount(), 0);
  EXPECT_EQ(w.auditDocks()->memoryInspector()->model()->rowCount(), 1);

  QTemporaryDir bad;
  writeConfig(bad.path());
  writeSageLog(bad.path());
  std::ofstream((bad.path() + QStringLiteral("/memory.json")).toStdString())
      << R"({"format":"stepforge-memory","version":9,"items":[]})";
  QSignalSpy memoryStatus(w.auditDocks()->memoryInspector(), &MemoryInspector::statusMessage);
  ASSERT_TRUE(openThroughTheBridge(w, bad.path()));
  ASSERT_FALSE(memoryStatus.isEmpty());
  EXPECT_TRUE(memoryStatus.last().at(0).toString().startsWith(
      QStringLiteral("Cannot load the memory of %1: ").arg(bad.path())))
      << memoryStatus.last().at(0).toString().toStdString();
  EXPECT_EQ(w.auditDocks()->auditPane()->model()->rowCount(), 1);  // the audit of the second workspace
}

// A workspace whose audit.json cannot be read, opened after a good one: the pane shows the error and drops the
// previous workspace (no rows, no directory, labelling refused and its buttons disabled), the new session's
// events are not applied to anything, and no file is written in either workspace.
TEST(AuditDocks, AFailedOpenDropsThePreviousWorkspaceAndWritesNothing) {
  QTemporaryDir good, bad;
  writeConfig(good.path());
  writeSageLog(good.path());
  writeConfig(bad.path());
  writeSageLog(bad.path());
  const std::string badAudit = (bad.path() + QStringLiteral("/audit.json")).toStdString();
  std::ofstream(badAudit) << "{ not json";
  const auto filesOf = [](const QString& dir) { return QDir(dir).entryList(QDir::Files, QDir::Name); };
  MainWindow w;
  AuditPane* pane = w.auditDocks()->auditPane();
  ASSERT_TRUE(openThroughTheBridge(w, good.path()));
  ASSERT_EQ(pane->model()->rowCount(), 1);
  const QStringList goodFiles = filesOf(good.path()), badFiles = filesOf(bad.path());

  QSignalSpy status(pane, &AuditPane::statusMessage);
  ASSERT_TRUE(openThroughTheBridge(w, bad.path()));
  ASSERT_FALSE(status.isEmpty());
  EXPECT_TRUE(status.last().at(0).toString().startsWith(
      QStringLiteral("Cannot open the audit of %1: audit.json").arg(bad.path())));
  EXPECT_EQ(pane->model()->rowCount(), 0);
  EXPECT_TRUE(pane->model()->workspaceDir().isEmpty());
  int labelButtons = 0;
  for (auto* b : pane->findChildren<QPushButton*>()) {
    if (b->text().contains(QStringLiteral("Full"))) {
      ++labelButtons;
      EXPECT_FALSE(b->isEnabled());
    }
  }
  EXPECT_EQ(labelButtons, 1);

  // A record arriving in the session: not applied, and labelling is refused.
  json record = {{"v", 1},          {"seq", 3},         {"t", 0.0},         {"type", "adoption_record"},
                 {"episode", 2},    {"task", "b"},      {"round", 0},       {"item", "mem-000001"},
                 {"rank", 1},       {"relevance", 1.0}, {"score", 1.0},     {"utility", 0.0},
                 {"adopted", true}, {"rationale", "x"}, {"reasked", false}, {"before", ""},
                 {"after", "y\n"}};
  w.auditDocks()->applyEvents(std::vector<json>{record});
  EXPECT_EQ(pane->model()->rowCount(), 0);
  QString error;
  EXPECT_FALSE(pane->model()->setLabel(0, QStringLiteral("full"), {}, &error));
  EXPECT_FALSE(pane->labelCurrent(0));
  EXPECT_EQ(filesOf(good.path()), goodFiles);
  EXPECT_EQ(filesOf(bad.path()), badFiles);
  std::ifstream in(badAudit);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "{ not json");

  // The next good open labels as before.
  ASSERT_TRUE(openThroughTheBridge(w, good.path()));
  ASSERT_EQ(pane->model()->rowCount(), 1);
  EXPECT_TRUE(pane->model()->setLabel(0, QStringLiteral("full"), {}, &error)) << error.toStdString();
  EXPECT_TRUE(QFile::exists(good.path() + QStringLiteral("/audit.json")));
}

// The session's event batches start with the events the snapshot folded: the docks leave exactly those out (by
// position) and apply what follows.
TEST(AuditDocks, EventsTheSnapshotFoldsAreNotAppliedAgain) {
  QTemporaryDir tmp;
  writeConfig(tmp.path());
  writeSageLog(tmp.path());
  QMainWindow w;
  AuditDocks docks(&w);
  const auto snap = sf::widgets::test::snapshotOf(tmp.path());
  ASSERT_EQ(snap->events, 3);
  docks.applySnapshot(snap);
  ASSERT_EQ(docks.auditPane()->model()->rowCount(), 1);
  auto record = [](int seq, int episode) {
    return json{{"v", 1},          {"seq", seq},       {"t", 0.0},         {"type", "adoption_record"},
                {"episode", episode}, {"task", "b"},   {"round", 0},       {"item", "mem-000001"},
                {"rank", 1},       {"relevance", 1.0}, {"score", 1.0},     {"utility", 0.0},
                {"adopted", true}, {"rationale", "x"}, {"reasked", false}, {"before", ""},
                {"after", "y\n"}};
  };
  // Three events in the first batches stand for the folded ones (were they applied, they would add rows).
  docks.applyEvents(std::vector<json>{record(0, 7), record(1, 8)});
  EXPECT_EQ(docks.auditPane()->model()->rowCount(), 1);
  docks.applyEvents(std::vector<json>{record(2, 9), record(3, 2)});
  ASSERT_EQ(docks.auditPane()->model()->rowCount(), 2);
  EXPECT_EQ(docks.auditPane()->model()->record(1).episode, 2);
}

TEST(AuditDocks, LiveEventsFillThePanesAndShowTheDocks) {
  QMainWindow w;
  AuditDocks docks(&w);
  EXPECT_TRUE(docks.auditDock()->isHidden());
  std::vector<json> events = {json{{"v", 1},
                                   {"seq", 0},
                                   {"t", 0.0},
                                   {"type", "campaign_started"},
                                   {"config", json::object()},
                                   {"tasks", json::array()}},
                              json{{"v", 1},
                                   {"seq", 1},
                                   {"t", 0.0},
                                   {"type", "adoption_record"},
                                   {"episode", 0},
                                   {"task", "b"},
                                   {"round", 0},
                                   {"item", "mem-000001"},
                                   {"rank", 1},
                                   {"relevance", 1.0},
                                   {"score", 1.0},
                                   {"utility", 0.0},
                                   {"adopted", false},
                                   {"rationale", "x"},
                                   {"reasked", false},
                                   {"before", ""},
                                   {"after", ""}}};
  // The item itself and the episode's credit (the memory folds them as the store does).
  events.insert(events.begin() + 1, json{{"v", 1}, {"seq", 1}, {"t", 0.0}, {"type", "experience_added"},
                                         {"episode", 0}, {"item", "mem-000001"}, {"rule", "r"},
                                         {"evidence", "e"}, {"pattern", ""}, {"source_task", "a"}, {"tokens", 1}});
  events[2]["seq"] = 2;
  events.push_back(json{{"v", 1}, {"seq", 3}, {"t", 0.0}, {"type", "credit"}, {"episode", 0},
                        {"item", "mem-000001"}, {"adopted", false}, {"credit", 0.0}, {"eta", 1.0},
                        {"utility_before", 0.0}, {"utility_after", 0.0}, {"n_updates", 1}});
  docks.applyEvents(events);
  EXPECT_EQ(docks.auditPane()->model()->rowCount(), 1);
  ASSERT_EQ(docks.memoryInspector()->model()->rowCount(), 1);
  EXPECT_EQ(docks.memoryInspector()->model()->item(0).retrieval_count, 1);
  EXPECT_FALSE(docks.auditDock()->isHidden());
  EXPECT_FALSE(docks.memoryDock()->isHidden());
}
