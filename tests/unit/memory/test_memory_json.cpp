#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/memory/memory_json.hpp"
#include "core/memory/memory_store.hpp"

using namespace sf::memory;
using nlohmann::json;

namespace {

MemoryStore evolved() {
  MemoryStore m;
  m.add_experience({"insert Copy before a second use",
                    "A-MULTI at 3:5",
                    std::string("b = Copy(a)"),
                    std::string("copy-insert"),
                    0,
                    "t0",
                    {},
                    {}});
  m.add_experience({"Accum needs rank", "T-RANK", {}, {}, 0, "t0", {}, {}});
  const char* tasks[] = {"t1", "t2", "t3"};
  for (int e = 0; e < 3; ++e) {
    EXPECT_TRUE(
        m.end_episode({e + 1, tasks[e], 1.0, {{"mem-000001", true}, {"mem-000002", false}}, {}}).ok());
  }
  m.consolidate();
  EXPECT_TRUE(m.end_episode({4, "t4", 0.0, {{"mem-000002", true}}, {"mem-000001"}}).ok());
  return m;
}

std::string import_error(const json& j) {
  auto r = MemoryStore::from_json(j);
  EXPECT_FALSE(r.ok());
  if (!r.error) return "";
  EXPECT_EQ(r.error->code, "M-IMPORT");
  return r.error->message;
}

json minimal() {
  return json{
      {"format", "stepforge-memory"}, {"version", 1}, {"items", json::array({{{"id", "a"}, {"rule", "r"}}})}};
}

}  // namespace

TEST(MemoryJson, ExportImportRoundTrip) {
  MemoryStore m = evolved();
  ASSERT_EQ(m.find("mem-000001")->state, ItemState::Hot);
  const json j = m.to_json();
  EXPECT_EQ(j["format"], "stepforge-memory");
  EXPECT_EQ(j["version"], 1);
  auto back = MemoryStore::from_json(j);
  ASSERT_TRUE(back.ok()) << back.error->message;
  EXPECT_EQ(back.value->items(), m.items());
  EXPECT_EQ(back.value->episodes(), m.episodes());
  EXPECT_EQ(back.value->to_json(), j);
  // The imported memory keeps generating fresh ids.
  EXPECT_EQ(*back.value->add_experience({"new", "", {}, {}, 5, "", {}, {}}).value, "mem-000003");
}

TEST(MemoryJson, FileSaveIsAtomicAndLoadsBack) {
  const auto dir = std::filesystem::temp_directory_path() / ("sf_memory_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "memory.json").string();
  MemoryStore m = evolved();
  ASSERT_FALSE(save_memory_file(m, path).has_value());
  ASSERT_FALSE(save_memory_file(m, path).has_value());  // overwrite
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  MemoryConfig frozen;
  frozen.frozen = true;
  auto back = load_memory_file(path, frozen);
  ASSERT_TRUE(back.ok()) << back.error->message;
  EXPECT_EQ(back.value->items(), m.items());
  EXPECT_TRUE(back.value->config().frozen);
  // Frozen transfer: updates are refused, retrieval and hot context work.
  EXPECT_FALSE(back.value->end_episode({9, "t9", 1.0, {{"mem-000002", true}}, {}}).value->applied);
  EXPECT_EQ(back.value->hot_context().size(), 1u);

  {
    std::ofstream out(dir / "bad.json");
    out << "{\"format\": \"stepforge-memory\", \"version\": 1, \"items\": [";
  }
  auto bad = load_memory_file((dir / "bad.json").string());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code, "M-IMPORT");
  EXPECT_NE(bad.error->message.find("not valid JSON"), std::string::npos);
  auto missing = load_memory_file((dir / "nope.json").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error->code, "M-IO");
  std::filesystem::remove_all(dir);
}

TEST(MemoryJson, MinimalHandWrittenFileGetsDefaults) {
  auto r = MemoryStore::from_json(minimal());
  ASSERT_TRUE(r.ok());
  const MemoryItem& it = r.value->items()[0];
  EXPECT_EQ(it.state, ItemState::Cold);
  EXPECT_EQ(it.tokens, 1);
  EXPECT_EQ(it.utility, 0.0);
}

TEST(MemoryJson, BadFilesAreRejectedWithTheFieldNamed) {
  EXPECT_NE(import_error(json::array()).find("expected a JSON object"), std::string::npos);
  json j = minimal();
  j["format"] = "something-else";
  EXPECT_NE(import_error(j).find("format: expected \"stepforge-memory\""), std::string::npos);
  j = minimal();
  j["version"] = 2;
  EXPECT_NE(import_error(j).find("version: unsupported version 2"), std::string::npos);
  j = minimal();
  j.erase("items");
  EXPECT_NE(import_error(j).find("items: missing required field"), std::string::npos);
  j = minimal();
  j["items"].push_back({{"id", "b"}, {"rule", "r"}, {"utility", "high"}});
  EXPECT_EQ(import_error(j), "memory file: items[1].utility: expected a number");
  j = minimal();
  j["items"][0]["state"] = "warm";
  EXPECT_NE(import_error(j).find("items[0].state: expected \"cold\", \"validated\" or \"hot\""),
            std::string::npos);
  j = minimal();
  j["items"][0]["state"] = "hot";
  EXPECT_NE(import_error(j).find("items[0].resident_rule"), std::string::npos);
  j = minimal();
  j["items"].push_back({{"id", "a"}, {"rule", "r2"}});
  EXPECT_NE(import_error(j).find("items[1].id: duplicate id 'a'"), std::string::npos);
  j = minimal();
  j["items"][0]["utilty"] = 0.5;
  EXPECT_NE(import_error(j).find("items[0].utilty: unknown field"), std::string::npos);
  j = minimal();
  j["items"][0]["retrieval_count"] = -1;
  EXPECT_NE(import_error(j).find("items[0].retrieval_count: must be between 0"), std::string::npos);
  j = minimal();
  j["items"][0]["history"] = json::array({{{"episode", 1}, {"credit", "x"}}});
  EXPECT_NE(import_error(j).find("items[0].history[0].credit: expected a number"), std::string::npos);
  j = minimal();
  j["items"][0]["adoption_count"] = 2;
  EXPECT_NE(import_error(j).find("items[0].adoption_count: is larger than retrieval_count"),
            std::string::npos);
  j = minimal();
  j["items"][0].erase("rule");
  EXPECT_NE(import_error(j).find("items[0].rule: missing required field"), std::string::npos);
}

TEST(MemoryJson, ConfigRoundTripAndErrors) {
  MemoryConfig c;
  c.credit = CreditMode::Uniform;
  c.ranking = RankingMode::Relevance;
  c.ugc = UgcMode::Random;
  c.frozen = true;
  c.seed = 77;
  c.budget = 500;
  MemoryConfig back;
  ASSERT_FALSE(config_from_json(config_to_json(c), back).has_value());
  EXPECT_EQ(back, c);
  // Defaults are the paper's.
  MemoryConfig d;
  ASSERT_FALSE(config_from_json(json::object(), d).has_value());
  EXPECT_EQ(d.k, 5);
  EXPECT_EQ(d.rounds, 30);
  EXPECT_DOUBLE_EQ(d.delta, 0.2);
  EXPECT_DOUBLE_EQ(d.beta, 0.2);
  EXPECT_DOUBLE_EQ(d.eta_min, 0.05);
  EXPECT_DOUBLE_EQ(d.gamma, 0.3);
  EXPECT_EQ(d.k_ado, 3);
  EXPECT_EQ(d.k_op, 3);
  EXPECT_DOUBLE_EQ(d.mu, 0.1);
  EXPECT_EQ(d.budget, 10000);
  auto e = config_from_json(json{{"ugc", "sometimes"}}, d);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, "M-CONFIG");
  EXPECT_NE(e->message.find("'ugc' has unknown value 'sometimes'"), std::string::npos);
  e = config_from_json(json{{"k", 2.5}}, d);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("'k' must be an integer"), std::string::npos);
}

TEST(MemoryJson, AdoptionRecordRoundTrip) {
  AdoptionRecord r;
  r.episode = 3;
  r.task = "softmax";
  r.round = 2;
  r.item_id = "mem-000001";
  r.rank = 1;
  r.relevance_rank = 3;
  r.pool_rank = 1;
  r.relevance = 2.5;
  r.score = 1.1;
  r.state = AdoptionState::Adopted;
  r.rationale = "the diagnostic was A-MULTI";
  r.code_before = "y = Map(x)";
  r.code_after = "x2 = Copy(x)";
  r.audit = AuditLabel{AuditGrade::Partial, "only half", "expert", "2025-01-01T00:00:00Z"};
  AdoptionRecord back;
  ASSERT_FALSE(adoption_record_from_json(adoption_record_to_json(r), back).has_value());
  EXPECT_EQ(back, r);
  json j = adoption_record_to_json(r);
  // A record written before late reranking (no relevance_rank / pool_rank) still loads, ranks 0.
  json old = j;
  old.erase("relevance_rank");
  old.erase("pool_rank");
  ASSERT_FALSE(adoption_record_from_json(old, back).has_value());
  EXPECT_EQ(back.relevance_rank, 0);
  EXPECT_EQ(back.pool_rank, 0);
  EXPECT_EQ(back.rank, 1);
  j["state"] = "maybe";
  auto e = adoption_record_from_json(j, back);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("state"), std::string::npos);
}
