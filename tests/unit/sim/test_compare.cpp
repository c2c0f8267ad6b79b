// Numeric comparison and the V-MISMATCH message (step-dialect §12).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/sim/compare.hpp"

namespace sf::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Compare, ToleranceBoundaryIsInclusive) {
  const float out[] = {1.25f, std::nextafter(1.25f, 2.0f), 3.0f, std::nextafter(3.0f, 4.0f)};
  const double ref_a[] = {1.0, 1.0, 1.0, 1.0};
  auto s = compare(out, ref_a, 2, 0.25, 0.0);
  EXPECT_EQ(s.bad, 1);
  EXPECT_EQ(s.first_bad, 1);
  const double ref_r[] = {2.0, 2.0};
  s = compare(out + 2, ref_r, 2, 0.0, 0.5);  // allowed = 0.5 * |2| = 1
  EXPECT_EQ(s.bad, 1);
  EXPECT_EQ(s.first_bad, 1);
}

TEST(Compare, ReferenceIsRoundedToFloatFirst) {
  const float out[] = {1.0f};
  const double ref[] = {1.0 + 1e-12};
  EXPECT_EQ(compare(out, ref, 1, 0.0, 0.0).bad, 0);
  const double ref2[] = {1.0 + 1e-6};
  EXPECT_EQ(compare(out, ref2, 1, 0.0, 0.0).bad, 1);
}

TEST(Compare, NanAndInf) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float out[] = {1.0f, nan, inf, -inf, 5.0f, inf};
  const double ref[] = {std::nan(""), 2.0, kInf, kInf, kInf, 3.0};
  const auto s = compare(out, ref, 6, 1e-5, 1.3e-6);
  EXPECT_TRUE(s.ref_nan);
  EXPECT_EQ(s.first_ref_nan, 0);
  EXPECT_EQ(s.bad, 4);  // NaN vs 2, -inf vs inf, 5 vs inf, inf vs 3; inf vs inf is ok
  EXPECT_EQ(s.first_bad, 1);
  EXPECT_TRUE(s.nonfinite);
  EXPECT_TRUE(s.first_bad_nonfinite);
  EXPECT_EQ(mismatch_code(s), "V-NONFINITE");
  EXPECT_FALSE(s.ok());
}

TEST(Compare, MaxErrorsAndRelOverNonZeroRefs) {
  const float out[] = {0.5f, 2.0f, 10.5f};
  const double ref[] = {0.0, 1.0, 10.0};
  const auto s = compare(out, ref, 3, 1.0, 0.0);
  EXPECT_EQ(s.bad, 0);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.max_abs, 1.0);
  EXPECT_EQ(s.max_abs_at, 1);
  EXPECT_EQ(s.max_rel, 1.0);  // ref 0 is excluded (its rel error would be inf)
  EXPECT_EQ(s.max_rel_at, 1);
  EXPECT_EQ(mismatch_code(s), "V-MISMATCH");
}

TEST(Compare, MismatchMessage) {
  // dims [2, 2] of fp32: FT index 2 is stream position (i0=0, i1=1).
  const float out[] = {1.0f, 2.0f, 3.5f, 4.0f};
  const double ref[] = {1.0, 2.0, 3.0, 4.0};
  const auto s = compare(out, ref, 4, 1e-5, 1.3e-6);
  ASSERT_EQ(s.bad, 1);
  EXPECT_EQ(mismatch_message("S0", s, {2, 2}, "[K, M]", {}, 1e-5, 1.3e-6, out, ref),
            "output S0: 1 of 4 values differ (atol 1e-05, rtol 1.3e-06); first at stream position [0, 1] "
            "(innermost-first, as in dims [K, M]), element 0: got 3.5, expected 3, |diff| 0.5 > allowed "
            "1.39e-05; max abs error 0.5 at [0, 1] element 0; max rel error 0.166666667 at [0, 1] element 0");
}

TEST(Compare, MessageWithBufferElementAndNonFinite) {
  // dims [3] of Buffer(fp32, [2]): FT index 5 is position [2], element 1.
  const float out[] = {0, 0, 0, 0, 0, std::numeric_limits<float>::quiet_NaN()};
  const double ref[] = {0, 0, 0, 0, 0, 1.0};
  const auto s = compare(out, ref, 6, 1e-5, 1.3e-6);
  const auto m = mismatch_message("S1", s, {3}, "[M]", {2}, 1e-5, 1.3e-6, out, ref);
  EXPECT_EQ(m.substr(0, m.find("; max abs")),
            "output S1: 1 of 6 values differ (atol 1e-05, rtol 1.3e-06); first at stream position [2] "
            "(innermost-first, as in dims [M]), element 1: got NaN, expected 1, |diff| NaN > allowed 1.13e-05");
  EXPECT_EQ(mismatch_code(s), "V-NONFINITE");
  EXPECT_EQ(format_position(5, {3}, {2}), "[2] element 1");
}

TEST(Compare, PassMessage) {
  const float out[] = {1.0f, 2.0f};
  const double ref[] = {1.0, 2.0};
  const auto s = compare(out, ref, 2, 1e-5, 1.3e-6);
  EXPECT_EQ(pass_message("S0", s, {2}, {}, 1e-5, 1.3e-6),
            "output S0: all 2 values within tolerance (atol 1e-05, rtol 1.3e-06); max abs error 0 at [0] element 0; "
            "max rel error 0 at [0] element 0");
}

}  // namespace
}  // namespace sf::sim
