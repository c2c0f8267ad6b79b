// The memory inspector (issue 9.2): the model under QAbstractItemModelTester from live events, utility
// trajectories from credit events, the hot budget gauge, workspace loading (memory.json + events.jsonl),
// export → import, a bad import file rejected. Fixtures follow the sage event contract.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QLineSeries>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <fstream>

#include "widgets/audit/memory_inspector.hpp"
#include "widgets/audit/memory_inspector_model.hpp"
#include "test_support.hpp"
#include "tests/support/events.hpp"

using nlohmann::json;
using namespace sf::widgets;
using sf::memory::ItemState;

namespace {

using sf::test_support::envelope;

json experience(int seq, int episode, const std::string& item, const std::string& task, int tokens) {
  return envelope(seq, "experience_added",
                  {{"episode", episode},
                   {"item", item},
                   {"rule", "rule of " + item},
                   {"evidence", "evidence of " + item},
                   {"pattern", ""},
                   {"source_task", task},
                   {"tokens", tokens}});
}
json adoption(int seq, int episode, const std::string& task, int round, const std::string& item,
              bool adopted) {
  return envelope(seq, "adoption_record",
                  {{"episode", episode},
                   {"task", task},
                   {"round", round},
                   {"item", item},
                   {"rank", 1},
                   {"relevance", 1.0},
                   {"score", 1.0},
                   {"utility", 0.0},
                   {"adopted", adopted},
                   {"rationale", "r"},
                   {"reasked", false},
                   {"before", ""},
                   {"after", ""}});
}
// ATU with the defaults: n=1 → η=1, n=2 → η=1/2 (hand-computed utilities).
json credit(int seq, int episode, const std::string& item, bool adopted, double c, double eta, double before,
            double after, int n) {
  return envelope(seq, "credit",
                  {{"episode", episode},
                   {"item", item},
                   {"adopted", adopted},
                   {"credit", c},
                   {"eta", eta},
                   {"utility_before", before},
                   {"utility_after", after},
                   {"n_updates", n}});
}

// Episode 0 (task a) creates mem-000001 and mem-000002; episode 1 (task b) retrieves both in two rounds and
// adopts mem-000001 (score 0.8: credit 0.8 − 0.2 = 0.6) and not mem-000002 (−0.2); episode 2 (task c) adopts
// mem-000001 again with score 0 (credit −0.2; U = 0.6 + ½(−0.2 − 0.6) = 0.2); consolidation sets the access
// of the retrievable items to retrievals / eligible episodes (mem-000001: 2/2 = 1, mem-000002: 1/2 = 0.5),
// validates mem-000001 and promotes it with 7 resident tokens under a budget of 40; in episode 3 the hot
// item is not used: a = (1 − μ)·1 + μ·0 = 0.9 with μ = 0.1.
std::vector<json> fixture() {
  auto finished = [](int seq, int episode, const std::string& task) {
    return envelope(seq, "episode_finished",
                    {{"episode", episode},
                     {"task", task},
                     {"score", 1.0},
                     {"rounds", 1},
                     {"first_correct_round", 0},
                     {"solved", true}});
  };
  return {
      envelope(0, "campaign_started",
               {{"config", {{"mode", "sage"}, {"memory", {{"budget", 50}}}}}, {"tasks", json::array()}}),
      finished(1, 0, "a"),
      experience(2, 0, "mem-000001", "a", 12),
      experience(3, 0, "mem-000002", "a", 20),
      adoption(4, 1, "b", 0, "mem-000001", false),
      adoption(5, 1, "b", 0, "mem-000002", false),
      adoption(6, 1, "b", 1, "mem-000001", true),
      adoption(7, 1, "b", 1, "mem-000002", false),
      finished(8, 1, "b"),
      credit(9, 1, "mem-000001", true, 0.6, 1.0, 0.0, 0.6, 1),
      credit(10, 1, "mem-000002", false, -0.2, 1.0, 0.0, -0.2, 1),
      adoption(11, 2, "c", 0, "mem-000001", true),
      finished(12, 2, "c"),
      credit(13, 2, "mem-000001", true, -0.2, 0.5, 0.6, 0.2, 2),
      envelope(14, "consolidation",
               {{"episode", 2},
                {"validated", {{{"item", "mem-000001"}, {"value", 0.0}, {"tokens", 0}}}},
                {"promoted", {{{"item", "mem-000001"}, {"value", 0.03}, {"tokens", 7}}}},
                {"demoted", json::array()},
                {"abstraction_failed", json::array()},
                {"hot_tokens", 7},
                {"budget", 40}}),
      finished(15, 3, "d"),
      envelope(16, "access_update",
               {{"episode", 3},
                {"item", "mem-000001"},
                {"used", false},
                {"access_before", 1.0},
                {"access_after", 0.9}}),
  };
}

void writeText(const QString& path, const std::string& s) {
  std::ofstream(path.toStdString(), std::ios::binary) << s;
}

}  // namespace

TEST(MemoryInspectorModel, LiveEventsUnderTheModelTester) {
  MemoryInspectorModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&m);
  proxy.setSortRole(MemoryInspectorModel::SortRole);
  proxy.sort(MemoryInspectorModel::UtilityColumn, Qt::DescendingOrder);
  QAbstractItemModelTester ptester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  for (const auto& e : fixture()) m.applyEvent(e);
  ASSERT_EQ(m.rowCount(), 2);
  const auto& a = m.item(m.rowOfId(QStringLiteral("mem-000001")));
  const auto& b = m.item(m.rowOfId(QStringLiteral("mem-000002")));
  EXPECT_EQ(a.state, ItemState::Hot);
  EXPECT_EQ(b.state, ItemState::Cold);
  EXPECT_DOUBLE_EQ(a.utility, 0.2);
  EXPECT_DOUBLE_EQ(b.utility, -0.2);
  EXPECT_EQ(a.retrieval_count, 2);  // once per episode (1 and 2), though retrieved in two rounds of episode 1
  EXPECT_EQ(a.adoption_count, 2);
  EXPECT_EQ(a.adopting_tasks, (std::set<std::string>{"b", "c"}));
  EXPECT_EQ(b.retrieval_count, 1);
  EXPECT_EQ(b.adoption_count, 0);
  EXPECT_EQ(a.n_updates, 2);
  EXPECT_DOUBLE_EQ(a.access, 0.9);
  EXPECT_DOUBLE_EQ(b.access, 0.5);
  EXPECT_EQ(a.eligible_episodes, 2);  // episodes 1 and 2 (hot in episode 3)
  EXPECT_EQ(b.eligible_episodes, 3);
  EXPECT_EQ(a.source_task, "a");
  EXPECT_EQ(m.hotTokens(), 7);
  EXPECT_EQ(m.budget(), 40);  // the consolidation event's budget replaces the config's 50
  const int ra = m.rowOfId(QStringLiteral("mem-000001"));
  EXPECT_EQ(m.index(ra, MemoryInspectorModel::StateColumn).data().toString(), QStringLiteral("hot"));
  EXPECT_EQ(m.index(ra, MemoryInspectorModel::OperatorsColumn).data().toInt(), 2);
  EXPECT_EQ(m.index(ra, MemoryInspectorModel::TokensColumn).data().toInt(), 7);  // resident tokens when hot
  EXPECT_EQ(m.index(ra, MemoryInspectorModel::UtilityColumn).data().toString(), QStringLiteral("0.200"));
  EXPECT_EQ(proxy.index(0, MemoryInspectorModel::IdColumn).data().toString(), QStringLiteral("mem-000001"));

  // Utility trajectory: (episode, U after) per credit event.
  EXPECT_EQ(m.trajectory(QStringLiteral("mem-000001")), QVector<QPointF>({QPointF(1, 0.6), QPointF(2, 0.2)}));
  EXPECT_EQ(m.trajectory(QStringLiteral("mem-000002")), QVector<QPointF>({QPointF(1, -0.2)}));

  // Replaying already-applied events changes nothing; a replay from seq 0 starts over.
  for (const auto& e : fixture())
    if (e["seq"].get<int>() > 0) m.applyEvent(e);
  EXPECT_EQ(m.item(ra).retrieval_count, 2);
  EXPECT_EQ(m.trajectory(QStringLiteral("mem-000001")).size(), 2);
  for (const auto& e : fixture()) m.applyEvent(e);
  EXPECT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.item(m.rowOfId(QStringLiteral("mem-000001"))).retrieval_count, 2);
  EXPECT_EQ(m.trajectory(QStringLiteral("mem-000001")).size(), 2);
}

TEST(MemoryInspectorModel, ExportImportRoundTripAndTrajectoryFromHistory) {
  QTemporaryDir tmp;
  MemoryInspectorModel m;
  for (const auto& e : fixture()) m.applyEvent(e);
  const QString file = tmp.path() + QStringLiteral("/exported.json");
  QString err;
  ASSERT_TRUE(m.exportFile(file, &err)) << err.toStdString();
  MemoryInspectorModel back;
  QAbstractItemModelTester tester(&back, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_TRUE(back.importFile(file, &err)) << err.toStdString();
  ASSERT_EQ(back.rowCount(), 2);
  for (int r = 0; r < 2; ++r) EXPECT_EQ(back.item(r), m.item(r));
  // Without credit events the trajectory is rebuilt from the history with the ATU update: 0 → 0.6 (η = 1)
  // → 0.6 + ½(−0.2 − 0.6) = 0.2.
  const auto t = back.trajectory(QStringLiteral("mem-000001"));
  ASSERT_EQ(t.size(), 2);
  EXPECT_DOUBLE_EQ(t[0].x(), 1);
  EXPECT_DOUBLE_EQ(t[0].y(), 0.6);
  EXPECT_DOUBLE_EQ(t[1].x(), 2);
  EXPECT_NEAR(t[1].y(), 0.2, 1e-12);
  EXPECT_EQ(back.hotTokens(), 7);  // the hot item's resident tokens
}

TEST(MemoryInspectorModel, BadImportFileIsRejectedAndTheModelKept) {
  QTemporaryDir tmp;
  MemoryInspectorModel m;
  for (const auto& e : fixture()) m.applyEvent(e);
  const QString bad = tmp.path() + QStringLiteral("/bad.json");
  writeText(bad,
            R"({"format":"stepforge-memory","version":1,"items":[{"id":"x","rule":"r","utility":"high"}]})");
  QString err;
  EXPECT_FALSE(m.importFile(bad, &err));
  EXPECT_TRUE(err.contains(QStringLiteral("items[0].utility"))) << err.toStdString();
  EXPECT_TRUE(err.contains(QStringLiteral("M-IMPORT"))) << err.toStdString();
  writeText(bad, "{\"format\":\"something-else\"");
  EXPECT_FALSE(m.importFile(bad, &err));
  EXPECT_TRUE(err.contains(QStringLiteral("M-IMPORT"))) << err.toStdString();
  EXPECT_FALSE(m.importFile(tmp.path() + QStringLiteral("/missing.json"), &err));
  EXPECT_TRUE(err.contains(QStringLiteral("M-IO"))) << err.toStdString();
  EXPECT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.item(0).id, "mem-000001");
}

TEST(MemoryInspector, LoadsAWorkspaceWithGaugeChartAndProvenance) {
  QTemporaryDir tmp;
  // memory.json holds the items (an extra counter proves it is read); events.jsonl the trajectories.
  MemoryInspectorModel src;
  for (const auto& e : fixture()) src.applyEvent(e);
  json mem = src.toJson();
  mem["items"][0]["eligible_episodes"] = 7;
  writeText(tmp.path() + QStringLiteral("/memory.json"), mem.dump());
  std::string events;
  for (const auto& e : fixture()) events += e.dump() + "\n";
  writeText(tmp.path() + QStringLiteral("/events.jsonl"), events);

  MemoryInspector w;
  ASSERT_TRUE(w.openSnapshot(*sf::widgets::test::snapshotOf(tmp.path())));
  auto* m = w.model();
  ASSERT_EQ(m->rowCount(), 2);
  EXPECT_EQ(m->item(0).eligible_episodes, 7);
  EXPECT_EQ(m->item(0).retrieval_count, 2);  // from the file, not counted again from the events
  EXPECT_EQ(w.gauge()->maximum(), 40);
  EXPECT_EQ(w.gauge()->value(), 7);
  w.selectItem(QStringLiteral("mem-000001"));
  EXPECT_EQ(w.selectedId(), QStringLiteral("mem-000001"));
  EXPECT_EQ(w.series()->points(), QList<QPointF>({QPointF(1, 0.6), QPointF(2, 0.2)}));
  EXPECT_TRUE(w.provenanceText().contains(QStringLiteral("Source: task a, episode 0")));
  EXPECT_TRUE(w.provenanceText().contains(QStringLiteral("evidence of mem-000001")));
  w.setStateFilter(QStringLiteral("cold"));
  EXPECT_EQ(w.proxy()->rowCount(), 1);
  EXPECT_EQ(w.selectedId(), QStringLiteral("mem-000002"));  // the selection moved to the remaining row
  w.setStateFilter({});
  EXPECT_EQ(w.proxy()->rowCount(), 2);
  w.selectItem(QStringLiteral("mem-000001"));

  // Live events after the load extend the selected item's chart.
  w.applyEvent(credit(17, 4, "mem-000002", true, 0.5, 0.5, -0.2, 0.15, 2));
  w.applyEvent(credit(18, 4, "mem-000001", true, 0.8, 1.0 / 3, 0.2, 0.4, 3));
  EXPECT_EQ(w.series()->points().size(), 3);
  EXPECT_DOUBLE_EQ(w.series()->points().back().y(), 0.4);

  // A bad memory.json is a clear error and leaves the inspector as it was.
  writeText(tmp.path() + QStringLiteral("/memory.json"),
            "{\"format\":\"stepforge-memory\",\"version\":9,\"items\":[]}");
  EXPECT_FALSE(w.openSnapshot(*sf::widgets::test::snapshotOf(tmp.path())));
  EXPECT_EQ(m->rowCount(), 2);
  QString err;
  EXPECT_FALSE(w.importFrom(tmp.path() + QStringLiteral("/memory.json"), &err));
  EXPECT_TRUE(err.contains(QStringLiteral("version"))) << err.toStdString();
}

// A campaign that started from an imported memory (config memory.import): items the log names without an
// `experience_added` take their rule text from that file, found through campaign.json.
TEST(MemoryInspector, ItemsOfTheImportedMemoryKeepTheirRuleText) {
  QTemporaryDir tmp;
  MemoryInspectorModel src;
  for (const auto& e : fixture()) src.applyEvent(e);
  const QString imported = tmp.path() + QStringLiteral("/start-memory.json");
  QString err;
  ASSERT_TRUE(src.exportFile(imported, &err)) << err.toStdString();
  const json config = {{"name", "from-import"},
                       {"mode", "sage"},
                       {"memory", {{"enabled", true}, {"import", imported.toStdString()}}}};
  writeText(tmp.path() + QStringLiteral("/campaign.json"),
            json{{"format", "stepforge-campaign"}, {"version", 1}, {"config", config}}.dump());
  const std::string log = envelope(0, "campaign_started", {{"config", config}, {"tasks", json::array()}}).dump() +
                          "\n" + credit(1, 0, "mem-000001", true, 0.5, 1.0, 0.6, 0.55, 3).dump() + "\n";
  writeText(tmp.path() + QStringLiteral("/events.jsonl"), log);

  MemoryInspectorModel m;
  ASSERT_TRUE(m.openSnapshot(*sf::widgets::test::snapshotOf(tmp.path()), &err)) << err.toStdString();
  const int row = m.rowOfId(QStringLiteral("mem-000001"));
  ASSERT_GE(row, 0);
  EXPECT_EQ(m.item(row).rule, "rule of mem-000001");  // from the imported file, not the id
  EXPECT_DOUBLE_EQ(m.item(row).utility, 0.55);
  // Without the file the item still shows, with its id as rule text.
  QFile::remove(imported);
  MemoryInspectorModel bare;
  ASSERT_TRUE(bare.openSnapshot(*sf::widgets::test::snapshotOf(tmp.path()), &err)) << err.toStdString();
  EXPECT_EQ(bare.item(bare.rowOfId(QStringLiteral("mem-000001"))).rule, "mem-000001");
}

// The consolidation guard (issue 19 item 8): a `consolidation_rollback` undoes the step in the inspector (the
// previous resident set is shown again) and a line says the resident set was kept and why.
TEST(MemoryInspector, ShowsAConsolidationRollback) {
  MemoryInspector w;
  w.resize(900, 600);
  for (const auto& e : fixture())
    if (e["seq"].get<int>() <= 14) w.applyEvent(e);  // up to the consolidation that promoted mem-000001
  auto* m = w.model();
  EXPECT_EQ(m->item(m->rowOfId(QStringLiteral("mem-000001"))).state, ItemState::Hot);
  EXPECT_TRUE(w.rollbackText().isEmpty());
  EXPECT_TRUE(w.rollbackLabel()->isHidden());
  w.applyEvent(envelope(15, "consolidation_rollback",
                        {{"episode", 2},
                         {"hot_tokens_before", 120},
                         {"hot_tokens_after", 7},
                         {"lost_adopted", {"mem-000003"}}}));
  EXPECT_EQ(m->item(m->rowOfId(QStringLiteral("mem-000001"))).state, ItemState::Cold);  // the step undone
  EXPECT_EQ(m->hotTokens(), 0);
  ASSERT_EQ(m->rollbacks().size(), 1u);
  const QString text = w.rollbackText();
  EXPECT_TRUE(text.contains(QStringLiteral("episode 2"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("resident set was kept"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("from 120 to 7 tokens"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("mem-000003"))) << text.toStdString();
  EXPECT_FALSE(w.rollbackLabel()->isHidden());
  if (const QString shots = qEnvironmentVariable("SF_SCREENSHOT_DIR"); !shots.isEmpty())
    w.grab().save(shots + QStringLiteral("/memory_rollback.png"));
  // A replay from its start forgets it.
  w.applyEvent(fixture().front());
  EXPECT_TRUE(w.rollbackText().isEmpty());
}
