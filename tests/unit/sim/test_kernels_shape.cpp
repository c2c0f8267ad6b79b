// Bufferize, Streamify, Promote, Repeat, Flatten, Reshape on the token examples of step-dialect §7.5–7.11.
#include <gtest/gtest.h>

#include "core/sim/kernels.hpp"
#include "core/sim/token_view.hpp"
#include "sim_test_util.hpp"

namespace sf::sim {
namespace {
using testing::seq;
using Dims = std::vector<std::int64_t>;

TEST(Bufferize, RowsBecomeBuffers) {
  StreamValue y;
  ASSERT_TRUE(bufferize(seq({3, 2}), 1, y).ok());
  EXPECT_EQ(format_tokens(y), "[1 2 3] [4 5 6] D");
  EXPECT_EQ(y.fields[0].esh, (Shape{3}));
  ASSERT_TRUE(bufferize(seq({2, 2, 2}), 1, y).ok());
  EXPECT_EQ(format_tokens(y), "[1 2] [3 4] S1 [5 6] [7 8] S1 D");
}

TEST(Bufferize, TwoDimsAndNestedBuffersKeepOldDimsInnermost) {
  StreamValue y;
  ASSERT_TRUE(bufferize(seq({3, 2, 4}), 2, y).ok());  // Buffer(fp32, [3, 2]) = tensor (2, 3)
  EXPECT_EQ(y.dims, (Dims{4}));
  EXPECT_EQ(y.fields[0].esh, (Shape{2, 3}));
  // Buffer(fp32,[D=2]) on dims [N=3, M=2] -> Bufferize(a=1) -> Buffer(fp32, [2, 3]) = (3, 2)
  ASSERT_TRUE(bufferize(seq({3, 2}, {2}), 1, y).ok());
  EXPECT_EQ(y.fields[0].esh, (Shape{3, 2}));
  EXPECT_EQ(y.fields[0].data, seq({3, 2}, {2}).fields[0].data);  // FT unchanged
}

TEST(Bufferize, Errors) {
  StreamValue y;
  EXPECT_EQ(bufferize(seq({3}), 1, y).code, "T-RANK");
  StreamValue t = seq({3, 2});
  t.fields.push_back(t.fields[0]);
  EXPECT_EQ(bufferize(t, 1, y).code, "T-BUF-TUPLE");
}

TEST(Streamify, InvertsBufferize) {
  StreamValue y;
  ASSERT_TRUE(streamify(seq({2}, {3}), 1, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 3 S1 4 5 6 S1 D");
  EXPECT_EQ(y.dims, (Dims{3, 2}));
  StreamValue buf, back;
  ASSERT_TRUE(bufferize(seq({2, 3, 2}), 2, buf).ok());
  ASSERT_TRUE(streamify(std::move(buf), 2, back).ok());
  EXPECT_EQ(back.dims, (Dims{2, 3, 2}));
  EXPECT_EQ(format_tokens(back), format_tokens(seq({2, 3, 2})));
}

TEST(Streamify, MultihotBufferKeepsLanes) {
  // Buffer(Multihot(fp32, M=2), [E=3]) on dims [4]: esh (3, 2) -> dims [3, 4] of Multihot esh (2).
  StreamValue y;
  ASSERT_TRUE(streamify(seq({4}, {3, 2}), 1, y).ok());
  EXPECT_EQ(y.dims, (Dims{3, 4}));
  EXPECT_EQ(y.fields[0].esh, (Shape{2}));
}

TEST(Streamify, NonBufferIsRejected) {
  StreamValue y;
  EXPECT_EQ(streamify(seq({3}), 1, y).code, "T-NOT-BUFFER");
  EXPECT_EQ(streamify(seq({3}, {2}), 2, y).code, "T-NOT-BUFFER");
}

TEST(Promote, SpecExamples) {
  StreamValue y;
  ASSERT_TRUE(promote(seq({3, 2}), 1, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 3 S2 4 5 6 S2 D");
  ASSERT_TRUE(promote(seq({3, 2}), 2, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 3 S1 4 5 6 S2 D");
  ASSERT_TRUE(promote(seq({3}), 0, y).ok());
  EXPECT_EQ(format_tokens(y), "1 S1 2 S1 3 S1 D");
  EXPECT_EQ(y.dims, (Dims{1, 3}));
}

TEST(Promote, KZeroAndKRankPlusOne) {
  StreamValue y;
  ASSERT_TRUE(promote(seq({3, 2}), 0, y).ok());
  EXPECT_EQ(format_tokens(y), "1 S1 2 S1 3 S2 4 S1 5 S1 6 S2 D");
  ASSERT_TRUE(promote(seq({3}), 1, y).ok());  // rank 0, k = r + 1: the last element gets S1
  EXPECT_EQ(format_tokens(y), "1 2 3 S1 D");
  EXPECT_EQ(y.dims, (Dims{3, 1}));
  ASSERT_TRUE(promote(seq({2, 2, 2}), 3, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 S1 3 4 S2 5 6 S1 7 8 S3 D");
  EXPECT_EQ(promote(seq({3, 2}), 3, y).code, "T-PARAM-VALUE");
  EXPECT_EQ(promote(seq({3, 2}), -1, y).code, "T-PARAM-VALUE");
}

TEST(Repeat, EachElementRepeatedConsecutively) {
  Budget b;
  StreamValue y;
  ASSERT_TRUE(repeat(seq({2, 2}), 2, b, y).ok());
  EXPECT_EQ(format_tokens(y), "1 1 S1 2 2 S2 3 3 S1 4 4 S2 D");
  EXPECT_EQ(y.dims, (Dims{2, 2, 2}));
  ASSERT_TRUE(repeat(seq({2}, {2}), 3, b, y).ok());
  EXPECT_EQ(format_tokens(y), "[1 2] [1 2] [1 2] S1 [3 4] [3 4] [3 4] S1 D");
  EXPECT_EQ(b.used_total, 8 + 12);
  EXPECT_EQ(repeat(seq({2}), 0, b, y).code, "T-PARAM-VALUE");
}

TEST(Flatten, SpecExamples) {
  StreamValue y;
  ASSERT_TRUE(flatten(seq({3, 2}), 1, 1, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 3 4 5 6 D");
  EXPECT_EQ(y.dims, (Dims{6}));
  ASSERT_TRUE(flatten(seq({2, 2, 2}), 2, 2, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 S1 3 4 S1 5 6 S1 7 8 S1 D");
  EXPECT_EQ(y.dims, (Dims{2, 4}));
  ASSERT_TRUE(flatten(seq({2, 3, 4, 5}), 1, 2, y).ok());
  EXPECT_EQ(y.dims, (Dims{24, 5}));
  EXPECT_EQ(flatten(seq({3, 2}), 0, 1, y).code, "T-PARAM-VALUE");
  EXPECT_EQ(flatten(seq({3, 2}), 1, 2, y).code, "T-PARAM-VALUE");
}

TEST(Reshape, SpecExample) {
  StreamValue y;
  ASSERT_TRUE(reshape(seq({4, 2}), {0}, 2, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 S1 3 4 S2 5 6 S1 7 8 S2 D");
  EXPECT_EQ(y.dims, (Dims{2, 2, 2}));
  ASSERT_TRUE(reshape(seq({16, 7}), {0}, 4, y).ok());  // [D, N], L=[0], S=4 -> [4, D/4, N]
  EXPECT_EQ(y.dims, (Dims{4, 4, 7}));
}

TEST(Reshape, SeveralDimsAnyOrder) {
  StreamValue y;
  ASSERT_TRUE(reshape(seq({4, 6}), {1, 0}, 2, y).ok());
  EXPECT_EQ(y.dims, (Dims{2, 2, 2, 3}));
  EXPECT_EQ(y.fields[0].data, seq({4, 6}).fields[0].data);
}

TEST(Reshape, Errors) {
  StreamValue y;
  const auto st = reshape(seq({6, 2}), {0}, 4, y);
  EXPECT_EQ(st.code, "T-RESHAPE-DIV");
  EXPECT_NE(st.message.find("not a multiple of 4"), std::string::npos);
  EXPECT_EQ(reshape(seq({4, 2}), {2}, 2, y).code, "T-PARAM-VALUE");
  EXPECT_EQ(reshape(seq({4, 2}), {0, 0}, 2, y).code, "T-PARAM-VALUE");
  EXPECT_EQ(reshape(seq({4, 2}), {}, 2, y).code, "T-PARAM-VALUE");
}

TEST(Relabel, MoveOverloadsKeepTheBuffer) {
  StreamValue x = seq({4, 2});
  const float* data = x.fields[0].data.data();
  StreamValue y;
  ASSERT_TRUE(bufferize(std::move(x), 1, y).ok());
  EXPECT_EQ(y.fields[0].data.data(), data);
  StreamValue z;
  ASSERT_TRUE(promote(std::move(y), 0, z).ok());
  EXPECT_EQ(z.fields[0].data.data(), data);
}

}  // namespace
}  // namespace sf::sim
