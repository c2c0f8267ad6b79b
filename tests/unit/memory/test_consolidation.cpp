#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/memory/memory_store.hpp"

using namespace sf::memory;
using nlohmann::json;

namespace {

// A validated item with a resident rule of `tokens` tokens (4 chars each) and a = retrievals / eligible.
json validated(const std::string& id, double u, int tokens, int retrievals = 4, int eligible = 4) {
  return json{{"id", id},
              {"rule", "rule of " + id + " stream"},
              {"utility", u},
              {"n_updates", 4},
              {"retrieval_count", retrievals},
              {"adoption_count", 3},
              {"adopting_tasks", {"t1", "t2", "t3"}},
              {"eligible_episodes", eligible},
              {"state", "validated"},
              {"resident_rule", std::string(static_cast<std::size_t>(tokens) * 4, 'x')}};
}

MemoryStore load(json items, MemoryConfig cfg) {
  json j{{"format", "stepforge-memory"}, {"version", 1}, {"items", std::move(items)}};
  auto r = MemoryStore::from_json(j, cfg);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  return std::move(*r.value);
}

std::vector<std::string> hot_ids(const MemoryStore& m) {
  std::vector<std::string> out;
  for (const auto& h : m.hot_context()) out.push_back(h.id);
  return out;
}

}  // namespace

TEST(Ugc, GateNeedsPositiveUtilityAdoptionsAndDistinctOperators) {
  MemoryStore m;
  for (const char* r : {"x rule", "y rule", "z rule", "w rule"})
    m.add_experience({r, "", {}, {}, 0, "", {}, {}});
  // x: adopted by t1, t2, t3 with s = 1 → validated. y: three adoptions by one operator. z: three operators
  // but s = 0 (U < 0). w: adopted by two operators only.
  const char* tasks[] = {"t1", "t2", "t3"};
  for (int e = 0; e < 3; ++e) {
    ASSERT_TRUE(m.end_episode({e, tasks[e], 1.0, {{"mem-000001", true}, {"mem-000002", true}}, {}}).ok());
  }
  // y: three adoptions, all by one operator.
  MemoryStore y;
  y.add_experience({"y rule", "", {}, {}, 0, "", {}, {}});
  for (int e = 0; e < 3; ++e) ASSERT_TRUE(y.end_episode({e, "t1", 1.0, {{"mem-000001", true}}, {}}).ok());
  EXPECT_TRUE(y.consolidate().validated.empty());
  EXPECT_EQ(y.find("mem-000001")->state, ItemState::Cold);

  for (int e = 0; e < 3; ++e)
    ASSERT_TRUE(m.end_episode({10 + e, tasks[e], 0.0, {{"mem-000003", true}}, {}}).ok());
  for (int e = 0; e < 2; ++e)
    ASSERT_TRUE(m.end_episode({20 + e, tasks[e], 1.0, {{"mem-000004", true}}, {}}).ok());
  auto rep = m.consolidate();
  ASSERT_TRUE(rep.applied);
  ASSERT_EQ(rep.validated.size(), 2u);  // x (mem-000001) and mem-000002 (also adopted by t1..t3)
  EXPECT_EQ(rep.validated[0].id, "mem-000001");
  EXPECT_EQ(rep.validated[1].id, "mem-000002");
  EXPECT_EQ(m.find("mem-000003")->state, ItemState::Cold);  // U < 0
  EXPECT_EQ(m.find("mem-000004")->state, ItemState::Cold);  // 2 operators < K_op
  // Both validated items fit the default budget and become hot, so they leave retrieval.
  EXPECT_EQ(rep.promoted.size(), 2u);
  EXPECT_EQ(m.find("mem-000001")->state, ItemState::Hot);
  for (const auto& c : m.retrieve("x rule")) EXPECT_NE(c.id, "mem-000001");
  EXPECT_EQ(hot_ids(m).size(), 2u);
}

TEST(Ugc, AccessEstimateOfNonHotItemsIsRetrievalsOverEligibleEpisodes) {
  MemoryStore m;
  m.add_experience({"a rule", "", {}, {}, 0, "", {}, {}});
  m.add_experience({"b rule", "", {}, {}, 0, "", {}, {}});
  ASSERT_TRUE(m.end_episode({1, "t1", 1.0, {{"mem-000001", false}}, {}}).ok());
  ASSERT_TRUE(m.end_episode({2, "t1", 1.0, {}, {}}).ok());
  m.consolidate();
  EXPECT_DOUBLE_EQ(m.find("mem-000001")->access, 0.5);
  EXPECT_DOUBLE_EQ(m.find("mem-000002")->access, 0.0);
}

TEST(Ugc, GreedyPackingSkipsWhatDoesNotFitAndContinues) {
  MemoryConfig cfg;
  cfg.budget = 10;
  // v = U · a / tokens: A 0.6/6 = 0.1, B 0.4/6 ≈ 0.067, C 0.2/4 = 0.05.
  MemoryStore m =
      load(json::array({validated("A", 0.6, 6), validated("B", 0.4, 6), validated("C", 0.2, 4)}), cfg);
  auto rep = m.consolidate();
  ASSERT_EQ(rep.promoted.size(), 2u);
  EXPECT_EQ(rep.promoted[0].id, "A");
  EXPECT_EQ(rep.promoted[1].id, "C");  // B (6 tokens) is skipped, C (4) still fits
  EXPECT_NEAR(rep.promoted[0].value, 0.1, 1e-12);
  EXPECT_EQ(rep.hot_tokens, 10);
  EXPECT_EQ(m.find("B")->state, ItemState::Validated);
  EXPECT_EQ(hot_ids(m), (std::vector<std::string>{"A", "C"}));
}

TEST(Ugc, DisplacedHotItemsAreDemotedAndRetrievableAgain) {
  MemoryConfig cfg;
  cfg.budget = 10;
  MemoryStore m =
      load(json::array({validated("A", 0.6, 6), validated("B", 0.4, 6), validated("C", 0.2, 4)}), cfg);
  m.consolidate();
  // A new validated item D: 8 tokens, v = 0.9/8 = 0.1125 > A's 0.1.
  json all = m.to_json();
  all["items"].push_back(validated("D", 0.9, 8));
  MemoryStore m2 = load(all["items"], cfg);
  EXPECT_TRUE(m2.retrieve("rule of A stream").size() == 2u);  // B and D are retrievable, A and C are hot
  auto rep = m2.consolidate();
  ASSERT_EQ(rep.promoted.size(), 1u);
  EXPECT_EQ(rep.promoted[0].id, "D");
  ASSERT_EQ(rep.demoted.size(), 2u);
  EXPECT_EQ(rep.demoted[0].id, "A");
  EXPECT_EQ(rep.demoted[1].id, "C");
  EXPECT_EQ(m2.find("A")->state, ItemState::Validated);
  EXPECT_EQ(hot_ids(m2), (std::vector<std::string>{"D"}));
  auto c = m2.retrieve("rule of A stream");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].id, "A");                      // retrievable again
  EXPECT_DOUBLE_EQ(m2.find("A")->access, 1.0);  // back to retrievals / eligible episodes
}

TEST(Ugc, HotAccessDecaysUnderNonUse) {
  MemoryStore m = load(json::array({validated("A", 0.6, 6)}), MemoryConfig{});
  m.consolidate();
  ASSERT_EQ(m.find("A")->state, ItemState::Hot);
  auto up = m.end_episode({1, "t9", 1.0, {}, {}});
  ASSERT_TRUE(up.ok());
  ASSERT_EQ(up.value->hot_access.size(), 1u);
  EXPECT_DOUBLE_EQ(up.value->hot_access[0].access_after, 0.9);
  up = m.end_episode({2, "t9", 1.0, {}, {"A"}});
  EXPECT_NEAR(m.find("A")->access, 0.91, 1e-15);
  EXPECT_EQ(m.find("A")->eligible_episodes, 4);  // hot episodes are not eligible for retrieval
}

TEST(Ugc, AbstractorWritesTheResidentRuleAndFailuresStayValidated) {
  MemoryStore m;
  m.add_experience(
      {"verbose rule about copy chains", "evidence", std::string("x = Copy(y)"), {}, 0, "", {}, {}});
  m.add_experience({"another verbose rule", "", {}, {}, 0, "", {}, {}});
  const char* tasks[] = {"t1", "t2", "t3"};
  for (int e = 0; e < 3; ++e) {
    ASSERT_TRUE(m.end_episode({e, tasks[e], 1.0, {{"mem-000001", true}, {"mem-000002", true}}, {}}).ok());
  }
  int calls = 0;
  Abstractor abstractor = [&](const MemoryItem& it) -> std::optional<AbstractedRule> {
    ++calls;
    if (it.id == "mem-000002") return std::nullopt;
    return AbstractedRule{"Copy a stream before a second use.", std::string("b = Copy(a)")};
  };
  auto rep = m.consolidate(abstractor);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(rep.abstraction_failed, (std::vector<std::string>{"mem-000002"}));
  EXPECT_EQ(m.find("mem-000002")->state, ItemState::Validated);
  const MemoryItem& hot = *m.find("mem-000001");
  EXPECT_EQ(hot.state, ItemState::Hot);
  EXPECT_EQ(hot.rule, "verbose rule about copy chains");  // source kept for provenance
  EXPECT_EQ(hot.evidence, "evidence");
  EXPECT_EQ(hot.resident_tokens, (34 + 11 + 3) / 4);
  auto ctx = m.hot_context();
  ASSERT_EQ(ctx.size(), 1u);
  EXPECT_EQ(ctx[0].rule, "Copy a stream before a second use.");
  EXPECT_EQ(ctx[0].code_example, std::optional<std::string>("b = Copy(a)"));
  // The hot item is not abstracted again; the failed one is asked again.
  m.consolidate(abstractor);
  EXPECT_EQ(calls, 3);
}

TEST(Ugc, OffAndRandomModes) {
  MemoryConfig off;
  off.ugc = UgcMode::Off;
  MemoryStore m = load(json::array({validated("A", 0.6, 6)}), off);
  EXPECT_FALSE(m.consolidate().applied);
  EXPECT_EQ(m.find("A")->state, ItemState::Validated);

  // Random: no gate, seeded order; cold items can become hot; same seed → same hot set.
  MemoryConfig rnd;
  rnd.ugc = UgcMode::Random;
  rnd.budget = 12;
  json items = json::array();
  for (int i = 0; i < 8; ++i) {
    json it = validated("R" + std::to_string(i), -0.1, 6);
    it["state"] = "cold";
    items.push_back(it);
  }
  std::set<std::vector<std::string>> seen;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    rnd.seed = seed;
    MemoryStore a = load(items, rnd);
    MemoryStore b = load(items, rnd);
    auto ra = a.consolidate();
    b.consolidate();
    EXPECT_EQ(ra.promoted.size(), 2u);  // 2 × 6 tokens fill the budget of 12
    EXPECT_EQ(hot_ids(a), hot_ids(b));
    std::vector<std::string> ids = hot_ids(a);
    std::sort(ids.begin(), ids.end());
    seen.insert(ids);
  }
  EXPECT_GT(seen.size(), 3u);
}

TEST(Ugc, HotContextStaysWithinTheBudget) {
  MemoryConfig cfg;
  cfg.budget = 10;
  json a = validated("A", 0.6, 6);
  json b = validated("B", 0.5, 6);
  a["state"] = "hot";
  a["access"] = 1.0;
  b["state"] = "hot";
  b["access"] = 1.0;
  MemoryStore m = load(json::array({a, b}), cfg);  // imported with a larger budget
  auto ctx = m.hot_context();
  ASSERT_EQ(ctx.size(), 1u);
  EXPECT_EQ(ctx[0].id, "A");
}
