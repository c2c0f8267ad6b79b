// Resource limits (step-dialect §8): L-ELEMENTS before allocation, L-TIME.
#include <gtest/gtest.h>

#include "core/sim/kernels.hpp"
#include "sim_test_util.hpp"

namespace sf::sim {
namespace {
using testing::ScaleFn;
using testing::seq;
using testing::SumFn;

TEST(Budget, ReserveCountsStreamAndTotal) {
  Budget b;
  b.max_stream_scalars = 10;
  b.max_total_scalars = 15;
  EXPECT_TRUE(b.reserve(10).ok());
  EXPECT_EQ(b.reserve(11).code, "L-ELEMENTS");
  EXPECT_EQ(b.used_total, 10);
  EXPECT_TRUE(b.reserve(5).ok());
  const auto st = b.reserve(1);
  EXPECT_EQ(st.code, "L-ELEMENTS");
  EXPECT_NE(st.message.find("16"), std::string::npos);
  EXPECT_EQ(b.used_total, 15);
  EXPECT_EQ(b.reserve(-1).code, "L-ELEMENTS");  // overflowed sizes never pass
}

TEST(Budget, RepeatBombFailsBeforeAllocating) {
  Budget b;
  const auto x = seq({1000, 1000});  // 1e6 scalars
  StreamValue y;
  // 1e18 scalars: must fail fast, before any allocation.
  const auto st = repeat(x, 1'000'000'000'000, b, y);
  EXPECT_EQ(st.code, "L-ELEMENTS");
  EXPECT_EQ(b.used_total, 0);
  EXPECT_TRUE(y.fields.empty());
  EXPECT_EQ(repeat(x, 5, b, y).code, "L-ELEMENTS");  // 5e6 > 4e6 per stream
  EXPECT_TRUE(repeat(x, 4, b, y).ok());
  EXPECT_EQ(b.used_total, 4'000'000);
}

TEST(Budget, TotalLimitAcrossStreams) {
  Budget b;
  b.max_total_scalars = 20;
  ScaleFn f;
  StreamValue y1, y2, y3;
  const auto x = seq({8});
  ASSERT_TRUE(map(x, f, b, y1).ok());
  ASSERT_TRUE(map(x, f, b, y2).ok());
  EXPECT_EQ(map(x, f, b, y3).code, "L-ELEMENTS");
  EXPECT_EQ(f.calls, 16);  // the third map never called the fn
}

TEST(Budget, TimeLimitStopsKernels) {
  Budget b;
  b.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EXPECT_EQ(b.check_time().code, "L-TIME");
  ScaleFn f;
  StreamValue y;
  EXPECT_EQ(map(seq({3, 2}), f, b, y).code, "L-TIME");
  EXPECT_EQ(f.calls, 0);
  SumFn s;
  EXPECT_EQ(accum(seq({3, 2}), 1, s, b, y).code, "L-TIME");
  EXPECT_EQ(repeat(seq({3}), 2, b, y).code, "L-TIME");
  Budget fresh;  // default deadline: never
  EXPECT_TRUE(fresh.check_time().ok());
}

}  // namespace
}  // namespace sf::sim
