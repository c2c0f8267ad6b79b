#include <gtest/gtest.h>

#include <cmath>

#include "core/learn/engine_state.hpp"
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

// Issue 19 item 10: distinct canonical programs among samples, failures and successes, per task, per
// iteration and per campaign, in the report.
TEST(Diversity, ReportCountsDistinctCanonicalProgramsPerTaskIterationAndCampaign) {
  using namespace sf::learn;
  CampaignState st;
  std::string err;
  auto ev = [](EventBody b) { return Event{kEventVersion, 0, 0.0, std::move(b)}; };
  ASSERT_TRUE(st.apply(ev(CampaignStarted{{{"mode", "adaptive"}, {"n", 4}}, {{"a", "g", "untagged"}, {"b", "g", "untagged"}}}),
                       err))
      << err;
  IterationStarted is;
  is.temperatures = {0.5};
  is.tasks = {"a", "b"};
  is.n = 4;
  ASSERT_TRUE(st.apply(ev(is), err)) << err;
  auto verdict = [](std::string task, int i, bool pass, std::string key) {
    Verdict v;
    v.task = std::move(task);
    v.sample_index = i;
    v.pass = pass;
    v.canonical_key = std::move(key);
    return v;
  };
  // a: k1 passes twice, k2 fails, one sample without a program; b: k1 (another task's k1) fails twice.
  for (const Verdict& v : {verdict("a", 0, true, "k1"), verdict("a", 1, true, "k1"), verdict("a", 2, false, "k2"),
                           verdict("a", 3, false, ""), verdict("b", 0, false, "k1"), verdict("b", 1, false, "k1")})
    ASSERT_TRUE(st.apply(ev(v), err)) << err;
  IterationSummary sum;
  ASSERT_TRUE(st.apply(ev(sum), err)) << err;
  const nlohmann::json r = report_json(st);
  const nlohmann::json want_a = {{"programs", 2}, {"failed", 1}, {"passed", 1}};
  const nlohmann::json want_b = {{"programs", 1}, {"failed", 1}, {"passed", 0}};
  const nlohmann::json want_all = {{"programs", 3}, {"failed", 2}, {"passed", 1}};
  EXPECT_EQ(r["tasks"][0]["diversity"], want_a);
  EXPECT_EQ(r["tasks"][1]["diversity"], want_b);
  EXPECT_EQ(r["diversity"], want_all);
  ASSERT_EQ(r["iterations"].size(), 1u);
  EXPECT_EQ(r["iterations"][0]["diversity"], want_all);
}
