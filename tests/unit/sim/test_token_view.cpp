// Token view (step-dialect §3.4) on the spec's examples.
#include <gtest/gtest.h>

#include "core/sim/token_view.hpp"
#include "sim_test_util.hpp"

namespace sf::sim {
namespace {
using testing::seq;
using testing::values;

TEST(TokenView, TwoRowsOfThree) { EXPECT_EQ(format_tokens(seq({3, 2})), "1 2 3 S1 4 5 6 S1 D"); }

TEST(TokenView, TwoTwoTwoEmitsOnlyHighestStop) {
  EXPECT_EQ(format_tokens(seq({2, 2, 2})), "1 2 S1 3 4 S2 5 6 S1 7 8 S2 D");
}

TEST(TokenView, RankZeroHasNoStops) { EXPECT_EQ(format_tokens(seq({3})), "1 2 3 D"); }

TEST(TokenView, EmptyStreamIsDone) {
  EXPECT_EQ(format_tokens(seq({0, 2})), "D");
  EXPECT_EQ(format_tokens(seq({2, 0})), "D");
}

TEST(TokenView, TokensCarryPositionsAndLevels) {
  const auto t = token_view(seq({2, 2, 2}), 100);
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[3].kind, Token::Value);
  EXPECT_EQ(t[3].position, 3);
  EXPECT_EQ(t[3].stop, 2);
  EXPECT_EQ(t[4].stop, 0);
  EXPECT_EQ(t[8].kind, Token::Done);
}

TEST(TokenView, BoundedAndMarkedTruncated) {
  const auto x = seq({1000, 1000});
  EXPECT_EQ(token_view(x, 5).size(), 5u);
  EXPECT_EQ(format_tokens(x, 3), "1 2 3 …");
}

TEST(TokenView, BuffersTuplesAndNonIntegers) {
  EXPECT_EQ(format_tokens(seq({2}, {3})), "[1 2 3] [4 5 6] D");
  EXPECT_EQ(format_tokens(seq({1}, {2, 2})), "[[1 2] [3 4]] D");
  StreamValue t = seq({2});
  t.fields.push_back(Field{{}, {0.5f, -2.25f}});
  EXPECT_EQ(format_tokens(t), "(1, 0.5) (2, -2.25) D");
  EXPECT_EQ(format_tokens(values({1}, {}, {0.1f})), "0.1 D");
}

}  // namespace
}  // namespace sf::sim
