#include <gtest/gtest.h>

#include <cmath>

#include "core/memory/utility.hpp"

using namespace sf::memory;

TEST(AtuCredit, AdoptedSetSharesOneBudget) {
  MemoryConfig c;
  // s = 1, two of three adopted: (1 − 0.2) / 2 each, the other −0.2.
  auto r = episode_credits({true, true, false}, 1.0, c);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_DOUBLE_EQ(r[0], 0.4);
  EXPECT_DOUBLE_EQ(r[1], 0.4);
  EXPECT_DOUBLE_EQ(r[2], -0.2);
  // A larger set earns no more in total: the adopted credits always sum to s − β.
  for (int n = 1; n <= 5; ++n) {
    std::vector<bool> all(static_cast<std::size_t>(n), true);
    double sum = 0;
    for (double x : episode_credits(all, 0.75, c)) sum += x;
    EXPECT_NEAR(sum, 0.55, 1e-12);
  }
}

TEST(AtuCredit, NoCreditBelowMinusPointTwoWithDefaults) {
  MemoryConfig c;
  for (double s : {0.0, 0.1, 0.2, 0.5, 0.75, 1.0}) {
    for (int adopted = 0; adopted <= 5; ++adopted) {
      std::vector<bool> flags(5, false);
      for (int i = 0; i < adopted; ++i) flags[static_cast<std::size_t>(i)] = true;
      for (double x : episode_credits(flags, s, c)) EXPECT_GE(x, -0.2 - 1e-12) << s << " " << adopted;
    }
  }
  // The worst case is reached: s = 0 and a single adopted item.
  EXPECT_DOUBLE_EQ(episode_credits({true}, 0.0, c)[0], -0.2);
}

TEST(AtuCredit, UniformGivesEveryRetrievedItemSMinusBeta) {
  MemoryConfig c;
  c.credit = CreditMode::Uniform;
  auto r = episode_credits({true, false, false}, 1.0, c);
  EXPECT_DOUBLE_EQ(r[0], 0.8);
  EXPECT_DOUBLE_EQ(r[1], 0.8);
  EXPECT_DOUBLE_EQ(r[2], 0.8);
}

TEST(AtuUpdate, StepSizeAndFloor) {
  // First update: η = 1, U = r.
  auto a = update_utility(0.0, 0, 0.4, 0.05);
  EXPECT_EQ(a.n_updates, 1);
  EXPECT_DOUBLE_EQ(a.eta, 1.0);
  EXPECT_DOUBLE_EQ(a.utility, 0.4);
  // Second: η = 1/2, U = 0.4 + 0.5 (−0.2 − 0.4) = 0.1.
  auto b = update_utility(a.utility, a.n_updates, -0.2, 0.05);
  EXPECT_DOUBLE_EQ(b.eta, 0.5);
  EXPECT_NEAR(b.utility, 0.1, 1e-15);
  // From n_U = 20 on the floor 0.05 holds (1/20 = 0.05, 1/21 < 0.05).
  EXPECT_DOUBLE_EQ(update_utility(0, 19, 0, 0.05).eta, 0.05);
  EXPECT_DOUBLE_EQ(update_utility(0, 30, 0, 0.05).eta, 0.05);
}

TEST(AtuUpdate, FloorGivesAHalfLifeOfAbout13Point5Updates) {
  // ln 0.5 / ln 0.95 = 13.51: old evidence weighs > 1/2 after 13 floor updates and < 1/2 after 14.
  double u = 1.0;
  int n = 100;
  for (int i = 0; i < 13; ++i) {
    auto st = update_utility(u, n, 0.0, 0.05);
    u = st.utility;
    n = st.n_updates;
  }
  EXPECT_NEAR(u, std::pow(0.95, 13), 1e-12);
  EXPECT_GT(u, 0.5);
  u = update_utility(u, n, 0.0, 0.05).utility;
  EXPECT_LT(u, 0.5);
  EXPECT_NEAR(std::log(0.5) / std::log(1.0 - 0.05), 13.5, 0.02);
}

TEST(Rerank, Formula) {
  EXPECT_DOUBLE_EQ(rerank_score(1.0, 0.5, 0.3), 1.15);
  EXPECT_DOUBLE_EQ(rerank_score(1.0, -0.2, 0.3), 0.97);  // negative evidence counts half
  EXPECT_DOUBLE_EQ(rerank_score(0.5, 0.0, 0.3), 0.5);
}

TEST(Rerank, SmallUtilityDifferenceReordersNearTies) {
  // Normalised relevance 1.0 (U = 0) vs 0.98 (U = 0.1): 1.0 < 0.98 · 1.03 = 1.0094.
  EXPECT_LT(rerank_score(1.0, 0.0, 0.3), rerank_score(0.98, 0.1, 0.3));
}

TEST(Rerank, LargeRelevanceGapIsKept) {
  // U ≤ 0.8 with the defaults, so a 0.5 item can reach at most 0.5 · 1.24 = 0.62, even against a
  // top item with the worst utility −0.2 (0.97).
  EXPECT_GT(rerank_score(1.0, -0.2, 0.3), rerank_score(0.5, 0.8, 0.3));
}

TEST(Ugc, ValuePerTokenAndAccessSmoothing) {
  EXPECT_DOUBLE_EQ(value_per_token(0.6, 0.5, 10), 0.03);
  EXPECT_DOUBLE_EQ(value_per_token(-0.6, 0.5, 10), 0.0);
  EXPECT_DOUBLE_EQ(value_per_token(0.6, 0.5, 0), 0.0);
  EXPECT_DOUBLE_EQ(smooth_access(1.0, false, 0.1), 0.9);
  EXPECT_NEAR(smooth_access(0.9, true, 0.1), 0.91, 1e-15);
  // Half-life of about 6.6 updates under non-use.
  double a = 1.0;
  for (int i = 0; i < 6; ++i) a = smooth_access(a, false, 0.1);
  EXPECT_GT(a, 0.5);
  a = smooth_access(a, false, 0.1);
  EXPECT_LT(a, 0.5);
}
