// The audit and memory docks in the main window: opening a sage workspace loads and shows them.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QMainWindow>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

#include "widgets/audit/audit_docks.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "widgets/main_window.hpp"
#include "widgets/audit/memory_inspector.hpp"
#include "widgets/audit/memory_inspector_model.hpp"

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
}  // namespace

TEST(AuditDocks, OpeningASageWorkspaceLoadsAndShowsThePanes) {
  QTemporaryDir tmp;
  writeSageLog(tmp.path());
  MainWindow w;
  ASSERT_NE(w.auditDocks(), nullptr);
  EXPECT_TRUE(w.auditDocks()->auditDock()->isHidden());
  emit w.workspaceOpened(tmp.path());
  EXPECT_EQ(w.auditDocks()->auditPane()->model()->rowCount(), 1);
  ASSERT_EQ(w.auditDocks()->memoryInspector()->model()->rowCount(), 1);
  EXPECT_EQ(w.auditDocks()->memoryInspector()->model()->item(0).adoption_count, 1);
  EXPECT_FALSE(w.auditDocks()->auditDock()->isHidden());
  EXPECT_FALSE(w.auditDocks()->memoryDock()->isHidden());

  // A workspace without sage data leaves them hidden.
  QTemporaryDir plain;
  MainWindow w2;
  emit w2.workspaceOpened(plain.path());
  EXPECT_TRUE(w2.auditDocks()->auditDock()->isHidden());
  EXPECT_EQ(w2.auditDocks()->auditPane()->model()->rowCount(), 0);
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
