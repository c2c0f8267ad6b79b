// Map, Zip, Accum, Scan on the token examples of step-dialect §7.1–7.4.
#include <gtest/gtest.h>

#include "core/sim/kernels.hpp"
#include "core/sim/token_view.hpp"
#include "sim_test_util.hpp"

namespace sf::sim {
namespace {
using testing::ScaleFn;
using testing::seq;
using testing::SumFn;
using testing::values;

TEST(Map, AppliesFnKeepingStops) {
  Budget b;
  ScaleFn f;
  StreamValue y;
  ASSERT_TRUE(map(seq({3, 2}), f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "10 20 30 S1 40 50 60 S1 D");
  EXPECT_EQ(f.calls, 6);
  EXPECT_EQ(b.used_total, 6);
}

TEST(Map, TupleInputGetsOnePointerPerField) {
  Budget b;
  ScaleFn f(2);
  const auto a = seq({2});
  const auto c = seq({2}, {}, 5.0f);
  StreamValue z, y;
  ASSERT_TRUE(zip({&a, &c}, z).ok());
  ASSERT_TRUE(map(z, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "60 80 D");
}

TEST(Map, EmptyStreamNeverCallsFn) {
  Budget b;
  ScaleFn f;
  StreamValue y;
  ASSERT_TRUE(map(seq({0, 3}), f, b, y).ok());
  EXPECT_EQ(f.calls, 0);
  EXPECT_EQ(y.dims, (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(format_tokens(y), "D");
}

TEST(Map, FnErrorPropagates) {
  Budget b;
  ScaleFn f;
  f.fail_at = 2;
  StreamValue y;
  const auto st = map(seq({3}), f, b, y);
  EXPECT_EQ(st.code, "R-MULTIHOT");
  EXPECT_EQ(f.calls, 3);
}

TEST(Zip, PairsValuesAndFlattensTuples) {
  const auto a = seq({3, 2});
  const auto bb = seq({3, 2}, {}, 11.0f);
  const auto c = seq({3, 2}, {2}, 100.0f);
  StreamValue ab, abc;
  ASSERT_TRUE(zip({&a, &bb}, ab).ok());
  EXPECT_EQ(format_tokens(ab), "(1, 11) (2, 12) (3, 13) S1 (4, 14) (5, 15) (6, 16) S1 D");
  ASSERT_TRUE(zip({&ab, &c}, abc).ok());
  ASSERT_EQ(abc.fields.size(), 3u);
  EXPECT_EQ(abc.fields[2].esh, (Shape{2}));
  StreamValue moved;
  std::vector<StreamValue> parts{seq({2}), seq({2}, {}, 3.0f)};
  ASSERT_TRUE(zip_move(std::move(parts), moved).ok());
  EXPECT_EQ(format_tokens(moved), "(1, 3) (2, 4) D");
}

TEST(Zip, DifferentDimsAreRejected) {
  const auto a = seq({3, 2});
  const auto c = seq({2, 3});
  StreamValue y;
  EXPECT_EQ(zip({&a, &c}, y).code, "T-ZIP-DIMS");
}

TEST(Accum, SumB1) {
  Budget b;
  SumFn f;
  StreamValue y;
  ASSERT_TRUE(accum(seq({3, 2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "6 15 D");
  ASSERT_TRUE(accum(seq({2, 2, 2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "3 7 S1 11 15 S1 D");
}

TEST(Accum, SumB2ReducesTwoInnermostDims) {
  Budget b;
  SumFn f;
  StreamValue y;
  ASSERT_TRUE(accum(seq({2, 2, 2}), 2, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "10 26 D");
  EXPECT_EQ(y.dims, (std::vector<std::int64_t>{2}));
}

TEST(Accum, BufferElementsAndInit) {
  Budget b;
  SumFn f({2}, 0.5f);
  StreamValue y;
  ASSERT_TRUE(accum(seq({3, 1}, {2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "[9.5 12.5] D");  // 0.5 + (1+3+5), 0.5 + (2+4+6)
}

TEST(Accum, EmptyInnerRangeGivesInitWithoutCalls) {
  Budget b;
  SumFn f({}, -1.0f);
  StreamValue y;
  ASSERT_TRUE(accum(seq({0, 2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "-1 -1 D");
  EXPECT_EQ(f.calls, 0);
}

TEST(Accum, RankChecks) {
  Budget b;
  SumFn f;
  StreamValue y;
  EXPECT_EQ(accum(seq({3}), 1, f, b, y).code, "T-RANK");
  EXPECT_EQ(accum(seq({3, 2}), 2, f, b, y).code, "T-RANK");
  EXPECT_EQ(accum(seq({3, 2}), 0, f, b, y).code, "T-RANK");
}

TEST(Scan, InclusivePrefixRestartedPerRow) {
  Budget b;
  SumFn f;
  StreamValue y;
  ASSERT_TRUE(scan(seq({3, 2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "1 3 6 S1 4 9 15 S1 D");
  ASSERT_TRUE(scan(seq({2, 2, 2}), 2, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "1 3 S1 6 10 S2 5 11 S1 18 26 S2 D");
}

TEST(Scan, StatefulFnWithoutInitIsAnError) {
  Budget b;
  ScaleFn f;  // stateless: no init
  StreamValue y;
  EXPECT_EQ(scan(seq({3, 2}), 1, f, b, y).code, "R-INTERNAL");
  EXPECT_EQ(f.calls, 0);
}

}  // namespace
}  // namespace sf::sim

namespace sf::sim {
namespace {

// Two-field state (count, sum): out0 = state0 + 1, out1 = state1 + in0. Reads the state after writing out0,
// so it would break if out aliased state.
class CountSumFn : public ElementFn {
 public:
  const std::vector<Shape>& out_esh() const override { return esh_; }
  const std::vector<float>& init() const override { return init_; }
  Status call(const float* const* in, const float* const* state, float* const* out) override {
    out[0][0] = state[0][0] + 1.0f;
    out[1][0] = state[1][0] + in[0][0] + (out[0][0] - state[0][0] - 1.0f);
    return {};
  }

 private:
  std::vector<Shape> esh_{Shape{}, Shape{}};
  std::vector<float> init_{0.0f, 100.0f};
};

TEST(Accum, TupleStateNeverAliasesOutput) {
  Budget b;
  CountSumFn f;
  StreamValue y;
  ASSERT_TRUE(accum(testing::seq({4, 2}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "(4, 110) (4, 126) D");
  EXPECT_EQ(scan(testing::seq({3}), 1, f, b, y).code, "T-RANK");
  ASSERT_TRUE(scan(testing::seq({3, 1}), 1, f, b, y).ok());
  EXPECT_EQ(format_tokens(y), "(1, 101) (2, 103) (3, 106) S1 D");
}

}  // namespace
}  // namespace sf::sim

namespace sf::sim {
namespace {

TEST(Zip, MovedVectorOverloadMovesFields) {
  std::vector<StreamValue> parts{testing::seq({2}), testing::seq({2}, {}, 3.0f)};
  const float* data = parts[1].fields[0].data.data();
  StreamValue z;
  ASSERT_TRUE(zip(std::move(parts), z).ok());
  EXPECT_EQ(z.fields[1].data.data(), data);
  EXPECT_EQ(format_tokens(z), "(1, 3) (2, 4) D");
}

}  // namespace
}  // namespace sf::sim
