#include "core/common/diagnostic.hpp"

#include <gtest/gtest.h>

using namespace sf;

TEST(Diagnostic, StageFollowsCodePrefix) {
  EXPECT_EQ(stage_of("P-SYNTAX"), Stage::Parse);
  EXPECT_EQ(stage_of("A-MULTI"), Stage::Affine);
  EXPECT_EQ(stage_of("T-RANK"), Stage::Type);
  EXPECT_EQ(stage_of("T-RESHAPE-DIV"), Stage::Type);
  EXPECT_EQ(stage_of("X-DIM"), Stage::Shape);
  EXPECT_EQ(stage_of("C-BW"), Stage::Type);  // STeP-25: rejected by the checker, not the cost model
  EXPECT_EQ(stage_of("C-COMPUTE"), Stage::Cost);
  EXPECT_EQ(stage_of("O-RETURN"), Stage::Output);
  EXPECT_EQ(stage_of("L-ELEMENTS"), Stage::Limit);
  EXPECT_EQ(stage_of("V-MISMATCH"), Stage::Numeric);
  EXPECT_EQ(stage_of("R-MERGE-COUNT"), Stage::Runtime);
  Stage s{};
  EXPECT_TRUE(parse_stage("numeric", s));
  EXPECT_EQ(s, Stage::Numeric);
  EXPECT_FALSE(parse_stage("bogus", s));
}

TEST(Diagnostic, SortAndCapKeepsTwentyErrorsInLineOrder) {
  Diagnostics ds;
  for (int i = 30; i > 0; --i) ds.push_back(make_error("P-SYNTAX", "x", {i, 1}));
  ds.push_back(make_warning("W-IDENTITY", "w", {40, 1}));
  sort_and_cap(ds, 20);
  ASSERT_EQ(ds.size(), 21u);
  EXPECT_EQ(ds.front().loc.line, 1);
  EXPECT_EQ(ds[19].loc.line, 20);
  EXPECT_EQ(ds.back().code, "W-IDENTITY");
}

TEST(Diagnostic, FormatsLikeACompiler) {
  auto d = make_error("N-UNDEF", "line 3: name 'x' is not defined", {3, 7});
  EXPECT_EQ(format_diagnostic(d, "a.yaml"), "a.yaml:3:7: error: line 3: name 'x' is not defined [N-UNDEF]");
}
