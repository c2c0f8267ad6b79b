#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/learn/stratify.hpp"

using namespace sf::learn;

namespace {
const std::vector<int> kCounts = {1, 2, 2, 5, 9, 12, 30, 64};
}

TEST(Stratify, ThresholdsOfTheIssueExample) {
  EXPECT_EQ(stratify(kCounts, 1).thresholds, (std::vector<int>{64}));
  EXPECT_EQ(stratify(kCounts, 2).thresholds, (std::vector<int>{5, 64}));
  EXPECT_EQ(stratify(kCounts, 3).thresholds, (std::vector<int>{2, 12, 64}));
  auto st = stratify(kCounts, 3);
  ASSERT_EQ(st.level_count(), 3u);
  EXPECT_EQ(st.levels[0], (std::vector<std::size_t>{0, 1, 2}));  // array_split sizes 3, 3, 2
  EXPECT_EQ(st.levels[1], (std::vector<std::size_t>{3, 4, 5}));
  EXPECT_EQ(st.levels[2], (std::vector<std::size_t>{6, 7}));
}

TEST(Stratify, SortsUnorderedCountsStably) {
  // counts by index: 0:30 1:2 2:64 3:1 4:2   sorted: 1(3) 2(1) 2(4) 30(0) 64(2); m=2 → sizes 3, 2
  auto st = stratify({30, 2, 64, 1, 2}, 2);
  ASSERT_EQ(st.level_count(), 2u);
  EXPECT_EQ(st.levels[0], (std::vector<std::size_t>{3, 1, 4}));
  EXPECT_EQ(st.levels[1], (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(st.thresholds, (std::vector<int>{2, 64}));
}

TEST(Stratify, MoreLevelsThanTasksDropsEmptyGroups) {
  auto st = stratify({7, 3}, 3);
  EXPECT_EQ(st.thresholds, (std::vector<int>{3, 7}));
  EXPECT_EQ(stratify({}, 3).level_count(), 0u);
  EXPECT_EQ(stratify({4, 1}, 0).thresholds, (std::vector<int>{4}));
}

TEST(Select, CumulativeVariants) {
  auto st = stratify(kCounts, 3);
  EXPECT_EQ(select_demonstrations(st, Selection::Mixed, 0), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(select_demonstrations(st, Selection::Mixed, 1), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(select_demonstrations(st, Selection::Mixed, 2).size(), 8u);
  EXPECT_EQ(select_demonstrations(st, Selection::Mixed, 9).size(), 8u);  // clamped to the last level
  EXPECT_EQ(select_demonstrations(st, Selection::HardOnly, 2), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(select_demonstrations(st, Selection::All, 0).size(), 8u);
  EXPECT_EQ(selection_steps(Selection::Mixed, st), 3);
  EXPECT_EQ(selection_steps(Selection::HardOnly, st), 1);
  EXPECT_EQ(selection_steps(Selection::All, st), 1);
  EXPECT_EQ(selection_steps(Selection::Mixed, stratify({}, 3)), 0);
}

TEST(Select, RandomKIsSeededDistinctAndInStratifiedOrder) {
  auto st = stratify({30, 2, 64, 1, 2, 9}, 3);  // stratified order: 3,1,4,5,0,2
  const std::vector<std::size_t> order = {3, 1, 4, 5, 0, 2};
  std::set<std::vector<std::size_t>> seen;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    auto d = select_demonstrations(st, Selection::RandomK, 0, 3, seed);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d, select_demonstrations(st, Selection::RandomK, 0, 3, seed));
    // In stratified order, distinct.
    std::size_t last_pos = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
      auto pos = static_cast<std::size_t>(std::find(order.begin(), order.end(), d[i]) - order.begin());
      ASSERT_LT(pos, order.size());
      if (i > 0) {
        EXPECT_GT(pos, last_pos);
      }
      last_pos = pos;
    }
    seen.insert(d);
  }
  EXPECT_GT(seen.size(), 5u);  // really random across seeds
  EXPECT_EQ(select_demonstrations(st, Selection::RandomK, 0, 10, 1), order);
  EXPECT_TRUE(select_demonstrations(st, Selection::RandomK, 0, 0, 1).empty());
}

TEST(Select, Names) {
  EXPECT_EQ(parse_selection("hard-only"), Selection::HardOnly);
  EXPECT_EQ(parse_selection("random-k"), Selection::RandomK);
  EXPECT_FALSE(parse_selection("hard").has_value());
  EXPECT_EQ(selection_name(Selection::Mixed), "mixed");
}

TEST(StoppingRule, Algorithm1) {
  // X empty → stop even if something new was solved.
  auto d = next_loop_step({0, 5, 2, 0, 3, false});
  EXPECT_EQ(d.action, LoopAction::Stop);
  EXPECT_EQ(d.reason, StopReason::AllSolved);
  // Budget spent.
  d = next_loop_step({3, 5, 1, 0, 3, true});
  EXPECT_EQ(d.reason, StopReason::BudgetSpent);
  // Iteration 0 solved nothing: no experience to demonstrate.
  d = next_loop_step({26, 0, 0, 0, 0, false});
  EXPECT_EQ(d.reason, StopReason::NoExperience);
  // New task solved at level 1 → re-stratify, restart at j = 0.
  d = next_loop_step({3, 5, 1, 1, 3, false});
  EXPECT_EQ(d.action, LoopAction::Restratify);
  EXPECT_EQ(d.next_step, 0);
  // Nothing new at j = 1 of 3 → widen to j = 2.
  d = next_loop_step({3, 5, 0, 1, 3, false});
  EXPECT_EQ(d.action, LoopAction::Widen);
  EXPECT_EQ(d.next_step, 2);
  // Nothing new at the widest level → stop.
  d = next_loop_step({3, 5, 0, 2, 3, false});
  EXPECT_EQ(d.action, LoopAction::Stop);
  EXPECT_EQ(d.reason, StopReason::NothingNewAtWidest);
  EXPECT_EQ(stop_reason_name(d.reason), "nothing-new");
  // hard-only never widens.
  d = next_loop_step({3, 5, 0, 0, 1, false});
  EXPECT_EQ(d.reason, StopReason::NothingNewAtWidest);
}
