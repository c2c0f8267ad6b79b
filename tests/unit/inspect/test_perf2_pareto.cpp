// The Pareto front of (cycles, on-chip bytes), both minimised (core/inspect/perf2_pareto), on hand-worked sets,
// and the session record the Pareto view reads (dedup by text, verification, bounded eviction).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/inspect/perf2_pareto.hpp"

using namespace sf::inspect::perf2;

namespace {
std::vector<std::size_t> front(const std::vector<ParetoInput>& p) { return pareto_front(p); }
}  // namespace

TEST(Perf2Pareto, EmptyAndSingle) {
  EXPECT_TRUE(front({}).empty());
  EXPECT_EQ(front({{10, 20}}), (std::vector<std::size_t>{0}));
}

TEST(Perf2Pareto, HandWorkedSet) {
  // 0 (100, 50)   front: fastest
  // 1 (120, 40)   front
  // 2 (130, 45)   dominated by 1
  // 3 (150, 10)   front: smallest
  // 4 (200, 10)   dominated by 3 (same bytes, more cycles)
  // 5 (100, 60)   dominated by 0 (same cycles, more bytes)
  // 6 (110, 40)   front, and it dominates 1 ... so 1 is not on the front after all
  const std::vector<ParetoInput> pts = {{100, 50}, {120, 40}, {130, 45}, {150, 10}, {200, 10}, {100, 60}, {110, 40}};
  EXPECT_EQ(front(pts), (std::vector<std::size_t>{0, 6, 3}));
  EXPECT_TRUE(dominates(pts[6], pts[1]));
  EXPECT_TRUE(dominates(pts[3], pts[4]));
  EXPECT_TRUE(dominates(pts[0], pts[5]));
  EXPECT_FALSE(dominates(pts[0], pts[3]));
  EXPECT_FALSE(dominates(pts[3], pts[0]));
}

TEST(Perf2Pareto, ExactTiesAreBothOnTheFrontAndNeitherDominates) {
  const std::vector<ParetoInput> pts = {{300, 7}, {100, 9}, {100, 9}, {200, 8}, {300, 7}, {250, 8}};
  EXPECT_FALSE(dominates(pts[1], pts[2]));
  // Sorted by cycles, ties in input order; (250, 8) is dominated by (200, 8).
  EXPECT_EQ(front(pts), (std::vector<std::size_t>{1, 2, 3, 0, 4}));
}

TEST(Perf2Pareto, AChainWhereEachPointTradesCyclesForBytes) {
  std::vector<ParetoInput> pts;
  for (int i = 0; i < 50; ++i) pts.push_back({1000 + 10 * i, 5000 - 10 * i});
  pts.push_back({1500, 5000});  // dominated by every point with cycles <= 1490
  const auto f = front(pts);
  ASSERT_EQ(f.size(), 50u);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], i);
}

TEST(Perf2Pareto, RecordDeduplicatesByTextAndFrontsOnlyVerifiedPrograms) {
  SessionRecord r;
  EXPECT_EQ(r.add_timed("a = 1\n", 100, 50, true, "baseline"), 0);
  EXPECT_EQ(r.add_timed("  a = 1\n\n", 100, 50), 0);  // the same text, blank space aside
  EXPECT_TRUE(r.programs()[0].baseline);
  EXPECT_EQ(r.add_timed("b = 2\n", 80, 60), 1);
  EXPECT_EQ(r.add_timed("c = 3\n", 70, 10), 2);  // would dominate both, but is never verified
  EXPECT_EQ(r.add_timed("", 1, 1), -1);
  EXPECT_TRUE(r.verified_front().empty());
  EXPECT_TRUE(r.set_verified("a = 1", true));
  EXPECT_TRUE(r.set_verified("b = 2\n", true));
  EXPECT_FALSE(r.set_verified("z = 9\n", true));
  EXPECT_EQ(r.verified_count(), 2u);
  EXPECT_EQ(r.verified_front(), (std::vector<std::size_t>{1, 0}));
  EXPECT_TRUE(r.set_verified("c = 3\n", false));  // failed verification: still not on the front
  EXPECT_EQ(r.verified_front(), (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(r.programs()[2].verified, Verification::Fail);
  r.clear();
  EXPECT_TRUE(r.programs().empty());
}

TEST(Perf2Pareto, RecordIsBoundedAndKeepsTheBaselineAndTheFront) {
  SessionRecord r(4, 32);
  r.add_timed("base", 100, 100, true);
  r.add_timed("best", 50, 50);
  r.set_verified("best", true);
  r.add_timed("x1", 200, 200);
  r.add_timed("x2", 300, 300);
  r.add_timed("x3", 400, 400);  // full: x1 (oldest, neither baseline nor front) goes
  ASSERT_EQ(r.programs().size(), 4u);
  EXPECT_EQ(r.find("x1"), -1);
  EXPECT_GE(r.find("base"), 0);
  EXPECT_GE(r.find("best"), 0);
  EXPECT_GE(r.find("x3"), 0);
  EXPECT_EQ(r.add_timed(std::string(33, 'y'), 1, 1), -1);  // longer than the text bound
}
