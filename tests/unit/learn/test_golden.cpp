// Golden demonstrations (issue 20 item 2): promotion verifies (a failing program is refused with the reason),
// duplicates are not added twice, provenance survives export → import, the set gives demonstrations to other
// tasks' prompts, and `demos.golden` in the campaign config.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/golden_demos.hpp"
#include "core/step/task.hpp"
#include "core/store/golden.hpp"
#include "tests/support/files.hpp"
#include "tests/support/catalogue.hpp"

namespace fs = std::filesystem;
using namespace sf;

namespace {

fs::path golden_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_golden_" + name);
}

learn::PromoteRequest golden_request(const std::string& impl, const std::string& task, std::int64_t it, std::int64_t sample) {
  learn::PromoteRequest r;
  r.impl = impl;
  r.provenance = {"demo-campaign", "/ws/demo", task, it, sample, "gpt-4o", "trace"};
  r.promoted_by = "ann";
  r.promoted_at = "2026-12-01T17:00:00Z";
  r.cycles = 1234;
  r.speedup = 1.5;
  return r;
}

}  // namespace

TEST(Golden, PromoteVerifiesRefusesWithTheReasonAndKeepsOneCopy) {
  auto d = golden_dir("promote");
  const fs::path file = d / "golden.json";
  const auto* task = test_support::catalogue().find("bmm/row_wise");
  ASSERT_NE(task, nullptr);
  const std::string good = test_support::solution_impl("bmm/row_wise");
  ASSERT_FALSE(good.empty());
  verify::Verifier v;

  auto r = learn::promote_to_golden(file, *task, golden_request(good, "bmm/row_wise", 3, 7), v);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.added);
  EXPECT_EQ(r.entry.id, "g-000001");
  EXPECT_FALSE(r.entry.canonical_key.empty());
  EXPECT_EQ(r.entry.task_text, task->raw_text_without_impl);
  // The same program again: not added twice.
  auto again = learn::promote_to_golden(file, *task, golden_request(good, "bmm/row_wise", 4, 0), v);
  ASSERT_TRUE(again.ok);
  EXPECT_FALSE(again.added);
  EXPECT_EQ(again.entry.id, "g-000001");
  EXPECT_EQ(again.entry.provenance.iteration, 3);

  // A program that does not verify (it names a stream that does not exist) is refused with the reason.
  auto bad = learn::promote_to_golden(file, *task, golden_request(good + "\nbogus = Nothing(x)\n", "bmm/row_wise", 1, 1), v);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error.rfind("refused: does not verify: ", 0), 0u) << bad.error;
  auto empty = learn::promote_to_golden(file, *task, golden_request("  \n", "bmm/row_wise", 1, 1), v);
  EXPECT_EQ(empty.error, "refused: the program is empty");

  store::GoldenSet set;
  std::string err;
  ASSERT_TRUE(store::load_golden_file(file, set, err)) << err;
  ASSERT_EQ(set.entries.size(), 1u);
  EXPECT_EQ(set.revision, 1);
  const auto& p = set.entries[0].provenance;
  EXPECT_EQ(p, (store::GoldenProvenance{"demo-campaign", "/ws/demo", "bmm/row_wise", 3, 7, "gpt-4o", "trace"}));
  EXPECT_EQ(set.entries[0].cycles, 1234);
  EXPECT_EQ(set.entries[0].speedup, 1.5);
  fs::remove_all(d);
}

TEST(Golden, ProvenanceSurvivesExportAndImport) {
  auto d = golden_dir("roundtrip");
  store::GoldenSet set;
  set.revision = 5;
  store::GoldenEntry a{"g-000001", "bmm/row_wise", "task a", "impl a\n", "key-a",
                       {"c1", "/ws/1", "bmm/row_wise", 2, 9, "claude-3-5-sonnet", "comparison"},
                       "2026-12-01T10:00:00Z", "ann", 100, 2.0};
  store::GoldenEntry b{"g-000002", "elementwise/add", "task b", "impl b\n", "key-b",
                       {"", "", "elementwise/add", -1, -1, "", "editor"}, "2026-12-01T11:00:00Z", "bob",
                       std::nullopt, std::nullopt};
  set.entries = {a, b};
  std::string err;
  ASSERT_TRUE(store::save_golden_file(d / "golden.json", set, err)) << err;

  // Export everything, then only one task.
  auto n = store::export_golden(d / "golden.json", d / "all.json", {}, err);
  ASSERT_TRUE(n) << err;
  EXPECT_EQ(*n, 2u);
  n = store::export_golden(d / "golden.json", d / "one.json", {"bmm/row_wise"}, err);
  ASSERT_TRUE(n) << err;
  EXPECT_EQ(*n, 1u);

  // Import into an empty set: every field, provenance included, comes back unchanged.
  auto added = store::import_golden(d / "other.json", d / "all.json", err);
  ASSERT_TRUE(added) << err;
  EXPECT_EQ(*added, 2u);
  store::GoldenSet back;
  ASSERT_TRUE(store::load_golden_file(d / "other.json", back, err)) << err;
  EXPECT_EQ(back.entries, set.entries);
  EXPECT_EQ(back.revision, 1);
  // Importing again adds nothing.
  added = store::import_golden(d / "other.json", d / "all.json", err);
  ASSERT_TRUE(added);
  EXPECT_EQ(*added, 0u);

  // A set whose g-000001 is another program: the imported entry gets a fresh id, its provenance stays.
  store::GoldenSet third;
  third.entries = {{"g-000001", "rope", "t", "other\n", "key-x", {}, "", "", std::nullopt, std::nullopt}};
  ASSERT_TRUE(store::save_golden_file(d / "third.json", third, err));
  added = store::import_golden(d / "third.json", d / "one.json", err);
  ASSERT_TRUE(added) << err;
  EXPECT_EQ(*added, 1u);
  ASSERT_TRUE(store::load_golden_file(d / "third.json", third, err));
  ASSERT_EQ(third.entries.size(), 2u);
  EXPECT_EQ(third.entries[1].id, "g-000002");
  EXPECT_EQ(third.entries[1].provenance, a.provenance);
  EXPECT_EQ(third.entries[1].impl, a.impl);

  // Bad files are clear errors naming the field.
  std::ofstream(d / "bad.json") << R"({"format":"stepforge-golden","version":1,"revision":0,"entries":[)"
                                   R"({"id":"g-1","task":"t","task_text":"","impl":"","canonical_key":"",)"
                                   R"("provenance":{"campaign":"","workspace":"","task":"t","iteration":"2",)"
                                   R"("sample":0,"model":"","source":""},"promoted_at":"","promoted_by":""}]})";
  EXPECT_FALSE(store::import_golden(d / "other.json", d / "bad.json", err));
  EXPECT_EQ(err, "bad.json: entries[0].provenance.iteration: expected an integer");
  std::ofstream(d / "newer.json") << R"({"format":"stepforge-golden","version":2,"revision":0,"entries":[]})";
  EXPECT_FALSE(store::load_golden_file(d / "newer.json", back, err));
  EXPECT_EQ(err, "newer.json: version 2 is not supported (this build reads 1)");
  EXPECT_FALSE(store::export_golden(d / "missing.json", d / "x.json", {}, err));
  EXPECT_EQ(err, "missing.json: no such file");
  fs::remove_all(d);
}

TEST(Golden, DemonstrationsForOtherTasksAndTheConfigKey) {
  store::GoldenSet set;
  auto entry = [](std::string id, std::string task, std::string impl) {
    store::GoldenEntry e;
    e.id = std::move(id);
    e.task = task;
    e.task_text = "text of " + task;
    e.impl = std::move(impl);
    return e;
  };
  set.entries = {entry("g-1", "a", "a1"), entry("g-2", "b", "b1"), entry("g-3", "a", "a2"), entry("g-4", "c", "c1")};
  auto demos = learn::golden_demonstrations(set, "b", 8);
  ASSERT_EQ(demos.size(), 2u);  // a (its first program) and c; never b's own
  EXPECT_EQ(demos[0].task_id, "a");
  EXPECT_EQ(demos[0].impl, "a1");
  EXPECT_EQ(demos[0].task_text, "text of a");
  EXPECT_EQ(demos[1].task_id, "c");
  EXPECT_EQ(learn::golden_demonstrations(set, "z", 2).size(), 2u);
  EXPECT_TRUE(learn::golden_demonstrations(set, "z", 0).empty());

  std::string err;
  auto c = learn::config_from_json(nlohmann::json::parse(R"({"backend": {"model": "m"}, "demos": {"golden": "g.json", "max": 2}})"), err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->demos.golden, "g.json");
  EXPECT_EQ(c->demos.max, 2);
  EXPECT_EQ(learn::config_to_json(*c)["demos"], nlohmann::json({{"golden", "g.json"}, {"max", 2}}));
  EXPECT_FALSE(learn::config_to_json(learn::CampaignConfig{}).contains("demos"));
  EXPECT_FALSE(learn::config_from_json(nlohmann::json::parse(R"({"demos": {"gold": "g.json"}})"), err));
  EXPECT_EQ(err, "unknown config key 'demos.gold' (known: golden, max)");
  EXPECT_FALSE(learn::config_from_json(nlohmann::json::parse(R"({"demos": {"golden": 3}})"), err));
  EXPECT_EQ(err, "config key 'demos.golden': expected a string, got 3");
  c->demos.max = 100;
  EXPECT_EQ(learn::validate(*c), "config key 'demos.max': must be in [0, 64]");
}
