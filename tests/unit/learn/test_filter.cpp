#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/learn/filter.hpp"

using sf::learn::CorrectSample;
using sf::learn::filter_task;

namespace {
CorrectSample S(int idx, const char* key, int len) {
  return {idx, key, len, "prog" + std::to_string(idx)};
}
}  // namespace

TEST(Filter, NoCorrectSamplesIsUnsolved) {
  EXPECT_FALSE(filter_task({}, 1).has_value());
}

TEST(Filter, CountsAllCorrectSamplesAndGroupsByCanonicalForm) {
  const std::vector<CorrectSample> xs = {S(3, "a", 4), S(7, "b", 2), S(9, "a", 4), S(12, "c", 5),
                                         S(20, "b", 2)};
  auto r = filter_task(xs, 42);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, 5);
  EXPECT_EQ(r->groups, 3);
  ASSERT_EQ(r->representatives.size(), 3u);
  // Groups in order of their earliest sample: a (3), b (7), c (12).
  EXPECT_EQ(r->representatives[0].canonical_key, "a");
  EXPECT_EQ(r->representatives[1].canonical_key, "b");
  EXPECT_EQ(r->representatives[2].canonical_key, "c");
  EXPECT_EQ(r->representatives[2].sample_index, 12);
  // Shortest representative: group b (length 2), either member.
  EXPECT_EQ(r->best.canonical_key, "b");
  EXPECT_TRUE(r->best.sample_index == 7 || r->best.sample_index == 20);
  EXPECT_EQ(r->best.text, "prog" + std::to_string(r->best.sample_index));
}

TEST(Filter, TiesOnLengthKeepTheEarliestSample) {
  auto r = filter_task({S(5, "x", 3), S(2, "y", 3), S(8, "z", 3)}, 7);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->best.sample_index, 2);
}

TEST(Filter, RandomRepresentativeIsSeededAndReallyRandom) {
  // Group a has one member of length 4; group b has members of length 3 (index 1) and 6 (index 2).
  // The best is b/1 when b's random pick is 1, otherwise a/0 (4 < 6).
  const std::vector<CorrectSample> xs = {S(0, "a", 4), S(1, "b", 3), S(2, "b", 6)};
  std::set<int> bests;
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    auto r = filter_task(xs, seed);
    ASSERT_TRUE(r);
    const int pick_b = r->representatives[1].sample_index;
    ASSERT_TRUE(pick_b == 1 || pick_b == 2);
    EXPECT_EQ(r->best.sample_index, pick_b == 1 ? 1 : 0);
    bests.insert(r->best.sample_index);
    // Same seed, same answer.
    EXPECT_EQ(filter_task(xs, seed)->best.sample_index, r->best.sample_index);
  }
  EXPECT_EQ(bests, (std::set<int>{0, 1}));
}

TEST(Filter, IndependentOfInputOrder) {
  std::vector<CorrectSample> xs = {S(0, "a", 5), S(1, "a", 4), S(2, "a", 3), S(3, "b", 9), S(4, "b", 2)};
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    auto r1 = filter_task(xs, seed);
    std::vector<CorrectSample> ys(xs.rbegin(), xs.rend());
    auto r2 = filter_task(ys, seed);
    ASSERT_TRUE(r1 && r2);
    EXPECT_EQ(r1->best.sample_index, r2->best.sample_index);
    EXPECT_EQ(r1->representatives[0].sample_index, r2->representatives[0].sample_index);
  }
}

TEST(Filter, DuplicateSampleIndicesCountOnce) {
  auto r = filter_task({S(1, "a", 2), S(1, "a", 2), S(2, "a", 2)}, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, 2);
}
