#include <gtest/gtest.h>

#include <cmath>

#include "core/learn/metrics.hpp"

using namespace sf::learn;

TEST(PassAtK, HandComputedSingleTask) {
  // n=5, c=2, k=2: 1 − C(3,2)/C(5,2) = 1 − 3/10.
  EXPECT_NEAR(*pass_at_k_task(5, 2, 2), 0.7, 1e-15);
  // n=10, c=3, k=1: c/n.
  EXPECT_NEAR(*pass_at_k_task(10, 3, 1), 0.3, 1e-15);
  // n − c < k: certain.
  EXPECT_EQ(*pass_at_k_task(4, 3, 2), 1.0);
  EXPECT_EQ(*pass_at_k_task(4, 0, 4), 0.0);
  EXPECT_EQ(*pass_at_k_task(4, 1, 4), 1.0);
  // n=6, c=2, k=3: 1 − C(4,3)/C(6,3) = 1 − 4/20.
  EXPECT_NEAR(*pass_at_k_task(6, 2, 3), 0.8, 1e-15);
}

TEST(PassAtK, StableForLargeN) {
  // c = 1: exactly k / n.
  EXPECT_NEAR(*pass_at_k_task(10000, 1, 100), 0.01, 1e-15);
  // n = 10^4, c = 5000, k = 100: C(5000,100)/C(10000,100) via lgamma.
  const double logratio =
      std::lgamma(5001.0) - std::lgamma(4901.0) - std::lgamma(10001.0) + std::lgamma(9901.0);
  const double expected = 1.0 - std::exp(logratio);
  auto got = pass_at_k_task(10000, 5000, 100);
  ASSERT_TRUE(got);
  EXPECT_TRUE(std::isfinite(*got));
  EXPECT_NEAR(*got, expected, 1e-12);
  // A tiny pass@k that binomials would lose: n = 10^4, c = 3, k = 1.
  EXPECT_NEAR(*pass_at_k_task(10000, 3, 1), 3e-4, 1e-16);
}

TEST(PassAtK, MeanOverTasks) {
  const std::vector<int> counts = {0, 2, 5};
  EXPECT_NEAR(*pass_at_k(counts, 5, 2), (0.0 + 0.7 + 1.0) / 3.0, 1e-15);
  EXPECT_NEAR(*pass_at_1(counts, 5), (0.0 + 0.4 + 1.0) / 3.0, 1e-15);
  EXPECT_NEAR(*pass_at_n(counts, 5), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(*pass_at_k(counts, 5, 5), *pass_at_n(counts, 5), 1e-15);
  EXPECT_NEAR(*pass_at_k(counts, 5, 1), *pass_at_1(counts, 5), 1e-15);
}

TEST(PassAtK, InvalidInputIsNotANumberButNullopt) {
  EXPECT_FALSE(pass_at_k_task(0, 0, 1));
  EXPECT_FALSE(pass_at_k_task(5, 6, 1));
  EXPECT_FALSE(pass_at_k_task(5, -1, 1));
  EXPECT_FALSE(pass_at_k_task(5, 1, 0));
  EXPECT_FALSE(pass_at_k_task(5, 1, 6));
  EXPECT_FALSE(pass_at_k({}, 5, 1));
  EXPECT_FALSE(pass_at_1({1, 7}, 5));
  EXPECT_FALSE(pass_at_n({}, 5));
}
