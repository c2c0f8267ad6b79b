// Partition and Merge on the token examples of step-dialect §7.13–7.14.
#include <gtest/gtest.h>

#include "core/sim/kernels.hpp"
#include "core/sim/token_view.hpp"
#include "sim_test_util.hpp"

namespace sf::sim {
namespace {
using testing::seq;
using testing::SumFn;
using testing::values;
using Dims = std::vector<std::int64_t>;

// Selector (1,0) (0,1) (1,1) over dims [3].
StreamValue sel3() { return values({3}, {2}, {1, 0, 0, 1, 1, 1}); }

TEST(Partition, PZero) {
  Budget b;
  std::vector<StreamValue> out;
  ASSERT_TRUE(partition(seq({3}), sel3(), 2, b, out).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(format_tokens(out[0]), "1 3 D");
  EXPECT_EQ(format_tokens(out[1]), "2 3 D");
  EXPECT_EQ(out[0].dims, (Dims{2}));
}

TEST(Partition, POneRoutesRows) {
  Budget b;
  std::vector<StreamValue> out;
  ASSERT_TRUE(partition(seq({2, 3}), sel3(), 2, b, out).ok());
  EXPECT_EQ(format_tokens(out[0]), "1 2 S1 5 6 S1 D");
  EXPECT_EQ(format_tokens(out[1]), "3 4 S1 5 6 S1 D");
  EXPECT_EQ(out[1].dims, (Dims{2, 2}));
  EXPECT_EQ(b.used_total, 8);
}

TEST(Partition, SelectorDimsFoldIntoOneDynamicDim) {
  // data [2, 2, 2], selector rank 1 over dims [2, 2]: p = 1, four chunks of 2.
  Budget b;
  std::vector<StreamValue> out;
  const auto sel = values({2, 2}, {2}, {1, 0, 0, 1, 1, 0, 1, 0});
  ASSERT_TRUE(partition(seq({2, 2, 2}), sel, 2, b, out).ok());
  EXPECT_EQ(out[0].dims, (Dims{2, 3}));
  EXPECT_EQ(format_tokens(out[0]), "1 2 S1 5 6 S1 7 8 S1 D");
  EXPECT_EQ(format_tokens(out[1]), "3 4 S1 D");
}

TEST(Partition, UnselectedLaneIsEmptyAndTuplesAreRouted) {
  Budget b;
  std::vector<StreamValue> out;
  StreamValue t = seq({3});
  t.fields.push_back(Field{{2}, {10, 11, 20, 21, 30, 31}});
  ASSERT_TRUE(partition(t, values({3}, {2}, {1, 0, 0, 0, 1, 0}), 2, b, out).ok());
  EXPECT_EQ(format_tokens(out[0]), "(1, [10 11]) (3, [30 31]) D");
  EXPECT_EQ(out[1].dims, (Dims{0}));
  EXPECT_EQ(format_tokens(out[1]), "D");
}

TEST(Partition, Errors) {
  Budget b;
  std::vector<StreamValue> out;
  EXPECT_EQ(partition(seq({3}), sel3(), 3, b, out).code, "T-SEL-N");
  EXPECT_EQ(partition(seq({3}), seq({3}), 1, b, out).code, "T-SEL-TYPE");
  EXPECT_EQ(partition(seq({4}), sel3(), 2, b, out).code, "T-SEL-DIMS");
  EXPECT_EQ(partition(seq({3}), values({3, 1}, {2}, {1, 0, 0, 1, 1, 1}), 2, b, out).code, "T-SEL-DIMS");
}

TEST(Merge, SpecExample) {
  Budget b;
  SumFn f;
  StreamValue y;
  const auto y0 = values({2}, {}, {1, 3});   // A C
  const auto y1 = values({2}, {}, {2, 30});  // B C'
  ASSERT_TRUE(merge({&y0, &y1}, sel3(), f, "E4", b, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 33 D");
  EXPECT_EQ(f.calls, 4);
}

TEST(Merge, AllZeroSelectorYieldsInit) {
  Budget b;
  SumFn f({}, 7.0f);
  StreamValue y;
  const auto y0 = values({2}, {}, {1, 3});
  const auto y1 = values({2}, {}, {2, 30});
  const auto sel = values({2, 2}, {2}, {1, 0, 0, 1, 1, 1, 0, 0});  // (1,0) (0,1) S1 (1,1) (0,0) S1
  ASSERT_TRUE(merge({&y0, &y1}, sel, f, "E4", b, y).ok());
  EXPECT_EQ(format_tokens(y), "8 9 S1 40 7 S1 D");
  EXPECT_EQ(y.dims, (Dims{2, 2}));
}

TEST(Merge, ChunksInvertPartition) {
  Budget b;
  std::vector<StreamValue> parts;
  const auto data = seq({2, 3});
  ASSERT_TRUE(partition(data, sel3(), 2, b, parts).ok());
  SumFn f;
  StreamValue y;
  ASSERT_TRUE(merge({&parts[0], &parts[1]}, sel3(), f, "E3", b, y).ok());
  EXPECT_EQ(y.dims, (Dims{2, 3}));
  EXPECT_EQ(format_tokens(y), "1 2 S1 3 4 S1 10 12 S1 D");  // the duplicated row is summed
}

TEST(Merge, CountMismatchIsReportedBeforeAnyCall) {
  Budget b;
  SumFn f;
  StreamValue y;
  const auto y0 = values({3}, {}, {1, 3, 5});
  const auto y1 = values({2}, {}, {2, 30});
  const auto st = merge({&y0, &y1}, sel3(), f, "E4", b, y);
  EXPECT_EQ(st.code, "R-MERGE-COUNT");
  EXPECT_EQ(st.message, "step.Merge: stream 0 of E4 has 3 chunks but the selector selects it 2 times");
  EXPECT_EQ(f.calls, 0);
  const auto y2 = values({1}, {}, {2});
  const auto y3 = values({2}, {}, {1, 3});
  EXPECT_EQ(merge({&y3, &y2}, sel3(), f, "[A, B]", b, y).message,
            "step.Merge: stream 1 of [A, B] has 1 chunks but the selector selects it 2 times");
}

TEST(Merge, EmptyUnselectedInputIsNeverRead) {
  Budget b;
  SumFn f;
  StreamValue y;
  const auto y0 = values({3}, {}, {1, 2, 3});
  const auto y1 = values({0}, {}, {});
  ASSERT_TRUE(merge({&y0, &y1}, values({3}, {2}, {1, 0, 1, 0, 1, 0}), f, "E4", b, y).ok());
  EXPECT_EQ(format_tokens(y), "1 2 3 D");
}

TEST(Merge, Errors) {
  Budget b;
  SumFn f;
  StreamValue y;
  const auto y0 = values({2}, {}, {1, 3});
  const auto y1 = values({2, 1}, {}, {2, 30});
  EXPECT_EQ(merge({&y0, &y1}, sel3(), f, "E4", b, y).code, "T-MERGE-LIST");
  EXPECT_EQ(merge({&y0}, sel3(), f, "E4", b, y).code, "T-SEL-N");
}

TEST(Selector, AnEntryOtherThanZeroOrOneIsRMultihotNotASilentZero) {
  Budget b;
  SumFn f;
  std::vector<StreamValue> out;
  StreamValue y;
  const auto half = values({3}, {2}, {1, 0, 0, 0.5f, 1, 1});
  Status p = partition(seq({3}), half, 2, b, out);
  EXPECT_EQ(p.code, "R-MULTIHOT");
  EXPECT_NE(p.message.find("step.Partition: the selector has entry 0.5 at position 1, lane 1"), std::string::npos)
      << p.message;
  const auto y0 = values({2}, {}, {1, 3});
  const auto y1 = values({2}, {}, {2, 30});
  Status m = merge({&y0, &y1}, half, f, "E4", b, y);
  EXPECT_EQ(m.code, "R-MULTIHOT");
  EXPECT_NE(m.message.find("step.Merge: the selector has entry 0.5"), std::string::npos) << m.message;
  const auto neg = values({3}, {2}, {1, 0, -1, 1, 1, 1});
  EXPECT_EQ(partition(seq({3}), neg, 2, b, out).code, "R-MULTIHOT");
}

}  // namespace
}  // namespace sf::sim
