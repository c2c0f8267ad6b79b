#include <gtest/gtest.h>

#include <cmath>

#include "core/memory/bm25_index.hpp"

using namespace sf::memory;

TEST(Bm25, Tokenizer) {
  EXPECT_EQ(bm25_tokenize("Copy-chain: stream_A consumed TWICE (x2)!"),
            (std::vector<std::string>{"copy", "chain", "stream", "a", "consumed", "twice", "x2"}));
  EXPECT_TRUE(bm25_tokenize("  -- ").empty());
}

TEST(Bm25, HandComputedScore) {
  Bm25Index idx;
  idx.add("a b");
  idx.add("a c");
  idx.add("d");
  auto s = idx.score("b");
  // N = 3, df = 1: idf = ln(1 + 2.5/1.5); avgdl = 5/3; |D0| = 2: norm = 0.25 + 0.75 · 2 / (5/3) = 1.15.
  const double idf = std::log(1.0 + 2.5 / 1.5);
  EXPECT_NEAR(s[0], idf * 2.2 / (1.0 + 1.2 * 1.15), 1e-12);
  EXPECT_EQ(s[1], 0.0);
  EXPECT_EQ(s[2], 0.0);
  // A rarer term weighs more than a common one; repeated query terms count once.
  auto t = idx.score("a c c c");
  EXPECT_GT(t[1], t[0]);
  EXPECT_DOUBLE_EQ(t[1], idx.score("a c")[1]);
}

TEST(Bm25, EmptyIndexAndQuery) {
  Bm25Index idx;
  EXPECT_TRUE(idx.score("x").empty());
  idx.add("x y");
  EXPECT_EQ(idx.score("")[0], 0.0);
}
