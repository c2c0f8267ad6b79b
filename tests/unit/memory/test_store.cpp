#include <gtest/gtest.h>

#include "core/memory/memory_store.hpp"

using namespace sf::memory;

namespace {

NewExperience exp_of(std::string rule, std::string evidence = "") {
  NewExperience e;
  e.rule = std::move(rule);
  e.evidence = std::move(evidence);
  return e;
}

MemoryStore three_items() {
  MemoryStore m;
  EXPECT_EQ(
      *m.add_experience(exp_of("insert a Copy when a stream is consumed twice", "A-MULTI affine")).value,
      "mem-000001");
  EXPECT_EQ(*m.add_experience(exp_of("Accum needs a rank argument", "T-RANK accum rank")).value,
            "mem-000002");
  EXPECT_EQ(*m.add_experience(exp_of("Partition splits a stream by a selector", "selector multihot")).value,
            "mem-000003");
  return m;
}

}  // namespace

TEST(MemoryStore, AddExperienceAssignsIdsAndTokenEstimate) {
  MemoryStore m;
  auto id = m.add_experience(exp_of("12345"));  // 5 chars → ceil(5/4) = 2 tokens
  ASSERT_TRUE(id.ok());
  const MemoryItem* it = m.find(*id.value);
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(it->tokens, 2);
  EXPECT_EQ(it->state, ItemState::Cold);
  EXPECT_EQ(it->utility, 0.0);
  NewExperience e = exp_of("r");
  e.tokens = 40;
  e.id = "custom";
  EXPECT_EQ(m.find(*m.add_experience(e).value)->tokens, 40);
  auto dup = m.add_experience(e);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error->code, "M-ITEM");
  EXPECT_FALSE(m.add_experience(exp_of("")).ok());
}

TEST(MemoryStore, RetrieveRanksByRelevanceAndExcludesUnrelated) {
  MemoryStore m = three_items();
  auto c = m.retrieve("A-MULTI: stream consumed twice, insert Copy");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].id, "mem-000001");
  EXPECT_EQ(c[0].rank, 1);
  EXPECT_DOUBLE_EQ(c[0].relevance_normalised, 1.0);
  for (const auto& x : c) {
    EXPECT_GT(x.relevance, 0.0);
    EXPECT_LE(x.relevance_normalised, 1.0);
  }
  EXPECT_TRUE(m.retrieve("completely unrelated words").empty());
  EXPECT_EQ(m.retrieve("stream rank selector", 1).size(), 1u);
  EXPECT_TRUE(m.retrieve("stream", 0).empty());
}

TEST(MemoryStore, UtilityReordersEqualRelevanceButRelevanceModeDoesNot) {
  MemoryConfig cfg;
  MemoryStore m(cfg);
  m.add_experience(exp_of("tile the reduction axis"));  // mem-000001
  m.add_experience(exp_of("tile the reduction axis"));  // mem-000002, identical text → equal relevance
  auto before = m.retrieve("tile reduction");
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0].id, "mem-000001");  // tie broken by id
  // mem-000002 adopted in a successful episode, mem-000001 retrieved but not adopted.
  auto up = m.end_episode({1, "t1", 1.0, {{"mem-000001", false}, {"mem-000002", true}}, {}});
  ASSERT_TRUE(up.ok());
  auto after = m.retrieve("tile reduction");
  EXPECT_EQ(after[0].id, "mem-000002");
  EXPECT_DOUBLE_EQ(after[0].score, 1.0 * (1 + 0.3 * 0.8));
  EXPECT_DOUBLE_EQ(after[1].score, 1.0 * (1 - 0.15 * 0.2));
  cfg.ranking = RankingMode::Relevance;
  m.set_config(cfg);
  EXPECT_EQ(m.retrieve("tile reduction")[0].id, "mem-000001");
}

TEST(MemoryStore, LateRerankingShowsTheTopKOfAPoolOfThreeK) {
  MemoryConfig cfg;
  MemoryStore m(cfg);
  for (int i = 0; i < 4; ++i) m.add_experience(exp_of("tile the reduction axis"));  // equal relevance
  // mem-000003 and mem-000004 adopted in a successful episode: positive utility.
  ASSERT_TRUE(m.end_episode({1, "t1", 1.0, {{"mem-000003", true}, {"mem-000004", true}}, {}}).ok());
  // k = 1: the pool is the 3 most relevant (ties by id: items 1-3); utility lifts item 3 to the top.
  auto one = m.retrieve("tile reduction", 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].id, "mem-000003");
  EXPECT_EQ(one[0].relevance_rank, 3);
  EXPECT_EQ(one[0].pool_rank, 1);
  EXPECT_EQ(one[0].rank, 1);
  // Item 4 is outside the relevance pool, so its utility cannot make it shown.
  // k = 2: pool of 6 (all 4 items): the two useful ones first, in relevance order.
  auto two = m.retrieve("tile reduction", 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].id, "mem-000003");
  EXPECT_EQ(two[1].id, "mem-000004");
  EXPECT_EQ(two[1].relevance_rank, 4);
  EXPECT_EQ(two[1].pool_rank, 2);
  // Relevance-only ranking: the pool order is the shown order.
  cfg.ranking = RankingMode::Relevance;
  m.set_config(cfg);
  auto rel = m.retrieve("tile reduction", 1);
  ASSERT_EQ(rel.size(), 1u);
  EXPECT_EQ(rel[0].id, "mem-000001");
  EXPECT_EQ(rel[0].relevance_rank, 1);
  EXPECT_EQ(rel[0].pool_rank, 1);
}

TEST(MemoryStore, FullContextIsEveryItemNewestFirstWithinTheBudget) {
  MemoryStore m = three_items();  // tokens: 12, 7, 10
  auto all = m.full_context(10000);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, "mem-000003");
  EXPECT_EQ(all[2].id, "mem-000001");
  EXPECT_EQ(all[2].rank, 3);
  EXPECT_EQ(all[0].pool_rank, 0);
  // 21 tokens: item 3 (10) fits, item 2 (7) fits, item 1 (12) is skipped.
  auto some = m.full_context(21);
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[1].id, "mem-000002");
  EXPECT_TRUE(m.full_context(0).empty());
}

TEST(MemoryStore, EndEpisodeAppliesAtuAndCounts) {
  MemoryStore m = three_items();
  // Episode 1 (task t1, s = 1): items 1 and 2 adopted (item 1 reported in two rounds), item 3 not.
  auto up = m.end_episode({1,
                           "t1",
                           1.0,
                           {{"mem-000001", false},
                            {"mem-000002", true},
                            {"mem-000003", false},
                            {"mem-000001", true},
                            {"ghost", true}},
                           {}});
  ASSERT_TRUE(up.ok());
  ASSERT_TRUE(up.value->applied);
  ASSERT_EQ(up.value->credits.size(), 3u);
  EXPECT_EQ(up.value->unknown_ids, (std::vector<std::string>{"ghost"}));
  EXPECT_EQ(up.value->credits[0].id, "mem-000001");
  EXPECT_TRUE(up.value->credits[0].adopted);
  EXPECT_DOUBLE_EQ(up.value->credits[0].credit, 0.4);
  EXPECT_DOUBLE_EQ(up.value->credits[2].credit, -0.2);
  EXPECT_DOUBLE_EQ(m.find("mem-000001")->utility, 0.4);
  EXPECT_DOUBLE_EQ(m.find("mem-000003")->utility, -0.2);
  // Episode 2 (task t2, s = 0): item 1 adopted alone → credit −0.2, η = 1/2 → U = 0.1.
  up = m.end_episode({2, "t2", 0.0, {{"mem-000001", true}}, {}});
  ASSERT_TRUE(up.ok());
  EXPECT_DOUBLE_EQ(up.value->credits[0].credit, -0.2);
  EXPECT_DOUBLE_EQ(up.value->credits[0].eta, 0.5);
  const MemoryItem& it = *m.find("mem-000001");
  EXPECT_NEAR(it.utility, 0.1, 1e-15);
  EXPECT_EQ(it.n_updates, 2);
  EXPECT_EQ(it.retrieval_count, 2);
  EXPECT_EQ(it.adoption_count, 2);
  EXPECT_EQ(it.adopting_tasks, (std::set<std::string>{"t1", "t2"}));
  EXPECT_EQ(it.eligible_episodes, 2);
  ASSERT_EQ(it.history.size(), 2u);
  EXPECT_EQ(it.history[1], (CreditEntry{2, -0.2}));
  EXPECT_EQ(m.find("mem-000003")->eligible_episodes, 2);
  EXPECT_EQ(m.find("mem-000003")->retrieval_count, 1);
  EXPECT_EQ(m.episodes(), 2);
}

TEST(MemoryStore, EndEpisodeRejectsBadScore) {
  MemoryStore m = three_items();
  auto up = m.end_episode({1, "t1", 1.5, {{"mem-000001", true}}, {}});
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.error->code, "M-EPISODE");
  EXPECT_EQ(m.find("mem-000001")->n_updates, 0);
}

TEST(MemoryStore, FrozenMemoryDoesNotChange) {
  MemoryStore m = three_items();
  m.set_frozen(true);
  auto up = m.end_episode({1, "t1", 1.0, {{"mem-000001", true}}, {}});
  ASSERT_TRUE(up.ok());
  EXPECT_FALSE(up.value->applied);
  EXPECT_EQ(m.find("mem-000001")->utility, 0.0);
  EXPECT_EQ(m.find("mem-000001")->retrieval_count, 0);
  EXPECT_EQ(m.episodes(), 0);
  auto add = m.add_experience(exp_of("new"));
  ASSERT_FALSE(add.ok());
  EXPECT_EQ(add.error->code, "M-FROZEN");
  EXPECT_FALSE(m.consolidate().applied);
  EXPECT_FALSE(m.retrieve("stream").empty());  // retrieval still works
}
