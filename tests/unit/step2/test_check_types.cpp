// The step-v2 checker's per-statement types (CheckResult::types): every statement's on a clean program, and
// only the statements before the first error's statement when there is one (a type error, a name error, an
// error under verify.alt_sizes), with the diagnostics the checker always gave.
#include <gtest/gtest.h>

#include "tests/unit/step2/test_util.hpp"

using namespace sf;
using namespace sf::step2;

namespace types_test {

// K1 (tests/data/step25/K1_gemm.yaml: M = K = N = 256, the GEMM baseline): the task and its impl, whose lines
// are a load of A, a load of B, the matmul accumulation into c and the store of C.
struct K1 {
  step::TaskDoc task;
  std::string impl;
};
K1 k1() {
  Diagnostics d;
  auto t = step::load_task_file(std::string(SF_TEST_DATA_DIR) + "/step25/K1_gemm.yaml", d);
  EXPECT_TRUE(t && t->impl) << (d.empty() ? "" : d[0].message);
  if (!t || !t->impl) return {};
  std::string impl = *t->impl;
  return {std::move(*t), std::move(impl)};
}

std::string text(const StreamType& t) { return shape_text(t.shape) + " of " + elem_type_text(t.elem); }

// The first diagnostic is `code` on impl line `line`, and K1's first `kept` statements keep their one stream type
// while the others have none.
void expect_types_stop_at(const CheckResult& r, const std::string& code, int line, std::size_t kept) {
  ASSERT_FALSE(r.diags.empty());
  EXPECT_EQ(r.diags.front().code, code);
  EXPECT_EQ(r.diags.front().loc.line, line);
  ASSERT_EQ(r.types.size(), 4u);
  for (std::size_t i = 0; i < r.types.size(); ++i) EXPECT_EQ(r.types[i].size(), i < kept ? 1u : 0u) << i;
  EXPECT_TRUE(r.graphs.empty());
}

}  // namespace types_test

using types_test::k1;
using types_test::expect_types_stop_at;
using types_test::text;
using sf::step2::test::replace;

TEST(Step2Types, EveryStatementOfACleanProgram) {
  auto g = k1();
  auto r = check(g.task, g.impl);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.types.size(), 4u);
  ASSERT_EQ(r.types[0].size(), 1u);
  EXPECT_EQ(text(r.types[0][0]), "[1, 2, 2, 2] of Tile[128, 128]");
  EXPECT_EQ(text(r.types[2][0]), "[1, 2, 2] of Tile[128, 128]");
  EXPECT_TRUE(r.types[3].empty());  // a store gives no stream
}

TEST(Step2Types, ATypeErrorKeepsTheLinesAbove) {
  // Line 3: rank=4 is beyond the rank of the streams (3): T2-RANK there.
  auto g = k1();
  auto r = check(g.task, replace(g.impl, "rank=1", "rank=4"));
  expect_types_stop_at(r, "T2-RANK", 3, 2);
  EXPECT_EQ(text(r.types[1].at(0)), "[1, 2, 2, 2] of Tile[128, 128]");
}

TEST(Step2Types, ANameErrorKeepsTheLinesAbove) {
  // Line 3 uses an undefined stream (N-UNDEF): the name pass fails, the two loads keep their types.
  auto g = k1();
  expect_types_stop_at(check(g.task, replace(g.impl, "apply((a, b))", "apply((a, q))")), "N-UNDEF", 3, 2);
}

TEST(Step2Types, AnErrorOnTheFirstLineKeepsNone) {
  // The first load's tile does not divide A: every line loses its types, though the second load types.
  auto g = k1();
  auto r = check(g.task, replace(g.impl, "tile=[128, 128]", "tile=[96, 128]"));
  ASSERT_FALSE(r.diags.empty());
  expect_types_stop_at(r, r.diags.front().code, 1, 0);
}

TEST(Step2Types, ParseErrorHasNoTypes) {
  auto g = k1();
  auto r = check(g.task, g.impl + "d = step.UnaryMap(fn=exp\n");
  EXPECT_FALSE(r.program);
  EXPECT_TRUE(r.types.empty());
}
