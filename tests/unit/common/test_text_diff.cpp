#include "core/common/text_diff.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using sf::text::DiffLine;
using sf::text::DiffOp;

// Applies a script: the old side and the new side it describes.
std::pair<std::vector<std::string>, std::vector<std::string>> sides(const std::vector<DiffLine>& s) {
  std::vector<std::string> a, b;
  for (const auto& l : s) {
    if (l.op != DiffOp::Insert) a.push_back(l.text);
    if (l.op != DiffOp::Delete) b.push_back(l.text);
  }
  return {a, b};
}

std::size_t lcs_length(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

}  // namespace

TEST(TextDiff, SplitLines) {
  using sf::text::split_lines;
  EXPECT_TRUE(split_lines("").empty());
  EXPECT_EQ(split_lines("a\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split_lines("a\r\nb"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split_lines("a\n\n"), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(split_lines("\n"), (std::vector<std::string>{""}));
}

TEST(TextDiff, ScriptWithLineNumbers) {
  auto s = sf::text::diff_texts("a\nb\nc\nd\n", "a\nx\nc\nd\ne\n");
  std::vector<DiffLine> want = {{DiffOp::Equal, 1, 1, "a"},  {DiffOp::Delete, 2, 0, "b"},
                                {DiffOp::Insert, 0, 2, "x"}, {DiffOp::Equal, 3, 3, "c"},
                                {DiffOp::Equal, 4, 4, "d"},  {DiffOp::Insert, 0, 5, "e"}};
  EXPECT_EQ(s, want);
  auto st = sf::text::diff_stats(s);
  EXPECT_EQ(st.inserted, 2);
  EXPECT_EQ(st.deleted, 1);
  EXPECT_EQ(st.equal, 3);
  EXPECT_FALSE(st.identical());
  EXPECT_TRUE(sf::text::diff_stats(sf::text::diff_texts("a\nb", "a\nb\n")).identical());
}

TEST(TextDiff, EmptySides) {
  auto s = sf::text::diff_texts("", "x\ny\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], (DiffLine{DiffOp::Insert, 0, 1, "x"}));
  s = sf::text::diff_texts("x\n", "");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], (DiffLine{DiffOp::Delete, 1, 0, "x"}));
  EXPECT_TRUE(sf::text::diff_texts("", "").empty());
}

TEST(TextDiff, MinimalOnRandomInputsAndDeletionsFirst) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<std::string> a, b;
    int na = static_cast<int>(rng() % 12), nb = static_cast<int>(rng() % 12);
    for (int i = 0; i < na; ++i) a.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
    for (int i = 0; i < nb; ++i) b.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
    auto s = sf::text::diff_lines(a, b);
    auto [sa, sb] = sides(s);
    ASSERT_EQ(sa, a);
    ASSERT_EQ(sb, b);
    auto st = sf::text::diff_stats(s);
    ASSERT_EQ(static_cast<std::size_t>(st.equal), lcs_length(a, b)) << "iteration " << iter;
    for (std::size_t i = 1; i < s.size(); ++i)
      ASSERT_FALSE(s[i - 1].op == DiffOp::Insert && s[i].op == DiffOp::Delete) << "insert before delete";
  }
}

TEST(TextDiff, OverTheEditLimitStillCorrect) {
  std::vector<std::string> a, b;
  for (int i = 0; i < 50; ++i) a.push_back("a" + std::to_string(i)), b.push_back("b" + std::to_string(i));
  a.push_back("same"), b.push_back("same");
  auto s = sf::text::diff_lines(a, b, 10);
  auto [sa, sb] = sides(s);
  EXPECT_EQ(sa, a);
  EXPECT_EQ(sb, b);
  EXPECT_EQ(s.back().op, DiffOp::Equal);
  EXPECT_EQ(s.front().op, DiffOp::Delete);
}

TEST(TextDiff, HunksAndUnified) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += "l" + std::to_string(i) + "\n";
    b += (i == 3 ? "L3" : i == 15 ? "L15" : "l" + std::to_string(i)) + "\n";
  }
  b += "l21\n";
  auto hunks = sf::text::make_hunks(sf::text::diff_texts(a, b), 2);
  ASSERT_EQ(hunks.size(), 3u);  // the gap of 5 equal lines before l21 is more than 2·2
  EXPECT_EQ(hunks[0].old_start, 1);
  EXPECT_EQ(hunks[0].old_count, 5);  // l1 l2 [l3] l4 l5
  EXPECT_EQ(hunks[0].new_count, 5);
  EXPECT_EQ(hunks[1].old_start, 13);
  EXPECT_EQ(hunks[1].old_count, 5);  // l13 l14 [l15] l16 l17
  EXPECT_EQ(hunks[2].old_start, 19);
  EXPECT_EQ(hunks[2].old_count, 2);  // l19 l20
  EXPECT_EQ(hunks[2].new_start, 19);
  EXPECT_EQ(hunks[2].new_count, 3);  // + l21
  // With context 6 the gaps (11 and 5 equal lines) are ≤ 12: one hunk.
  EXPECT_EQ(sf::text::make_hunks(sf::text::diff_texts(a, b), 6).size(), 1u);

  EXPECT_EQ(sf::text::unified_diff("a\nb\nc\n", "a\nB\nc\n", "old", "new", 1),
            "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
  EXPECT_EQ(sf::text::unified_diff("a\n", "a\n"), "");
  // An insertion into an empty file: the old side starts at 0.
  EXPECT_EQ(sf::text::unified_diff("", "x\n", "a", "b", 3), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
}

TEST(TextDiff, CompactAndSideBySide) {
  EXPECT_EQ(sf::text::compact_diff("a\nb", "a\nB"), "- b\n+ B\n");
  EXPECT_EQ(sf::text::compact_diff("a\nb\n", "a\nb\n"), "");
  auto rows = sf::text::side_by_side(sf::text::diff_texts("a\nb\nc\nd\n", "a\nB\nd\ne\n"));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].kind, sf::text::RowKind::Equal);
  EXPECT_EQ(rows[1].kind, sf::text::RowKind::Changed);
  EXPECT_EQ(rows[1].old_text, "b");
  EXPECT_EQ(rows[1].new_text, "B");
  EXPECT_EQ(rows[2].kind, sf::text::RowKind::Deleted);
  EXPECT_EQ(rows[2].old_line, 3);
  EXPECT_EQ(rows[2].new_line, 0);
  EXPECT_EQ(rows[3].kind, sf::text::RowKind::Equal);
  EXPECT_EQ(rows[4].kind, sf::text::RowKind::Inserted);
  EXPECT_EQ(rows[4].new_line, 4);
}
