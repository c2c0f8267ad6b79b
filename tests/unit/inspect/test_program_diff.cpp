// The program diff (core/inspect/program_diff): statements aligned whatever the streams are called, changed
// tokens marked, inserted and deleted statements, step-v2, the line-by-line fallback and its limits.
#include "core/inspect/program_diff.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

using namespace sf::inspect;

namespace {

// resources/solutions/attention/online_softmax_fused.yaml
const std::string kFused =
    "E2 = step.Zip().apply((E0, E1))                    # [M, N] of [fp32, Buffer(fp32, [D])]\n"
    "E3 = step.Accum(fn=fn_maxsum, b=1).apply(E2)       # [N] of [fp32, fp32, Buffer(fp32, [D])]\n"
    "E4 = step.Map(fn=fn_getthird).apply(E3)            # [N] of Buffer(fp32, [D])\n"
    "E5 = step.Streamify().apply(E4)                    # [D, N] of fp32\n"
    "return E5\n";
// The same program, every stream renamed, laid out differently, no comments.
const std::string kFusedRenamed =
    "pairs = step.Zip().apply((E0,E1))\n"
    "acc = step.Accum(fn=fn_maxsum, b=1).apply(pairs)\n"
    "third = step.Map(fn=fn_getthird).apply(\n"
    "    acc)\n"
    "out = step.Streamify().apply(third)\n"
    "return out\n";

// resources/solutions_v2/activation/softmax.known_opt_1.yaml (first two branches' statements)
const std::string kSoftmax2 =
    "xa = step.OffChipLoad(tile=[8, 4096], stride=[1, 0], shape=[R/8, 1], par_dispatch=16).apply(x)\n"
    "xf = step.Flatten(min=1, max=2).apply(xa)\n"
    "x0, x1 = step.Parallelize(n=2, rank=1).apply(xf)\n"
    "m0 = step.UnaryMap(fn=row_max, write_back_mu=0, compute_bw=256).apply(x0)\n"
    "d0 = step.BinaryMap(fn=sub, write_back_mu=0, compute_bw=256).apply((x0, m0))\n"
    "e0 = step.UnaryMap(fn=exp, write_back_mu=0, compute_bw=1024).apply(d0)\n"
    "m1 = step.UnaryMap(fn=row_max, write_back_mu=0, compute_bw=256).apply(x1)\n"
    "d1 = step.BinaryMap(fn=sub, write_back_mu=0, compute_bw=256).apply((x1, m1))\n"
    "e1 = step.UnaryMap(fn=exp, write_back_mu=0, compute_bw=1024).apply(d1)\n"
    "y = step.StaticReassemble(rank=1).apply([e0, e1])\n"
    "Y = step.OffChipStore(par_dispatch=16).apply(y)\n";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The texts of one side's marked ranges of a kind.
std::vector<std::string> marked(const DiffSide& s, TokenMark kind) {
  std::vector<std::string> out;
  for (const auto& m : s.marks)
    if (m.mark == kind) out.push_back(s.text.substr(static_cast<std::size_t>(m.begin), static_cast<std::size_t>(m.end - m.begin)));
  return out;
}

}  // namespace

TEST(ProgramDiff, PureRenameChangesNoStatement) {
  const ProgramDiff d = diff_programs(kFused, kFusedRenamed);
  ASSERT_TRUE(d.aligned) << d.note;
  EXPECT_EQ(d.dialect, "step-v1");
  EXPECT_TRUE(d.same_statements());
  EXPECT_EQ(d.equal, 5);
  EXPECT_EQ(d.changed + d.inserted + d.deleted, 0);
  const std::vector<StreamRename> want = {{"E2", "pairs"}, {"E3", "acc"}, {"E4", "third"}, {"E5", "out"}};
  EXPECT_EQ(d.renames, want);
  EXPECT_EQ(renames_text(d.renames), "E2\u2192pairs, E3\u2192acc, E4\u2192third, E5\u2192out");
  // The statement spanning two lines is one row; the text is as a person reads it, comments dropped.
  ASSERT_EQ(d.rows.size(), 5u);
  EXPECT_EQ(d.rows[2].new_side.first_line, 3);
  EXPECT_EQ(d.rows[2].new_side.last_line, 4);
  EXPECT_EQ(d.rows[2].new_side.text, "third = step.Map(fn=fn_getthird).apply( acc)");
  EXPECT_EQ(d.rows[2].old_side.text, "E4 = step.Map(fn=fn_getthird).apply(E3)");
  // The renamed names are marked as renamed, nothing as changed.
  EXPECT_EQ(marked(d.rows[2].old_side, TokenMark::Renamed), (std::vector<std::string>{"E4", "E3"}));
  EXPECT_EQ(marked(d.rows[2].new_side, TokenMark::Renamed), (std::vector<std::string>{"third", "acc"}));
  for (const auto& r : d.rows) EXPECT_TRUE(marked(r.new_side, TokenMark::Changed).empty()) << r.new_side.text;
  // The same texts: no rename, no change.
  const ProgramDiff same = diff_programs(kFused, kFused);
  EXPECT_TRUE(same.same_statements());
  EXPECT_TRUE(same.renames.empty());
}

TEST(ProgramDiff, SwappedNamesAreRenamesNotChanges) {
  // E3 and E4 trade names: a definition-order renaming would also hide this; a rename of the first
  // statement's stream into a name the program used later must not confuse the matching.
  std::string swapped = replaced(replaced(replaced(kFused, "E3", "Q"), "E4", "E3"), "Q", "E4");
  swapped = replaced(swapped, "E2", "E5x");
  const ProgramDiff d = diff_programs(kFused, swapped);
  ASSERT_TRUE(d.aligned) << d.note;
  EXPECT_TRUE(d.same_statements()) << format_program_diff(d);
  const std::vector<StreamRename> want = {{"E2", "E5x"}, {"E3", "E4"}, {"E4", "E3"}};
  EXPECT_EQ(d.renames, want);
}

TEST(ProgramDiff, OneChangedArgumentIsOneChangedStatement) {
  const std::string changed = replaced(kFusedRenamed, "b=1", "b=2");
  const ProgramDiff d = diff_programs(kFused, changed);
  ASSERT_TRUE(d.aligned) << d.note;
  EXPECT_EQ(d.changed, 1);
  EXPECT_EQ(d.equal, 4);
  EXPECT_EQ(d.inserted + d.deleted, 0);
  EXPECT_EQ(d.renames.size(), 4u);  // the changed statement's stream is still matched: acc is E3
  ASSERT_EQ(d.rows[1].kind, RowChange::Changed);
  EXPECT_EQ(marked(d.rows[1].old_side, TokenMark::Changed), (std::vector<std::string>{"1"}));
  EXPECT_EQ(marked(d.rows[1].new_side, TokenMark::Changed), (std::vector<std::string>{"2"}));
  EXPECT_EQ(marked(d.rows[1].new_side, TokenMark::Renamed), (std::vector<std::string>{"acc", "pairs"}));
  const std::string text = format_program_diff(d);
  EXPECT_NE(text.find("renamed: E2\u2192pairs"), std::string::npos) << text;
  EXPECT_NE(text.find("+~acc = step.Accum(fn=fn_maxsum, b=[2]).apply(pairs)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 changed"), std::string::npos) << text;
}

TEST(ProgramDiff, InsertedAndDeletedStatements) {
  // A statement inserted before the end: the streams after it keep their match (a definition-order renaming
  // would shift every later name and show a rewrite).
  std::string inserted = replaced(kFusedRenamed, "out = step.Streamify().apply(third)",
                                  "t2 = step.Map(fn=fn_identity).apply(third)\nout = step.Streamify().apply(t2)");
  inserted = replaced(inserted, "pairs = step.Zip", "e0 = step.Map(fn=fn_pre).apply(E0)\npairs = step.Zip");
  ProgramDiff d = diff_programs(kFused, inserted);
  ASSERT_TRUE(d.aligned) << d.note;
  EXPECT_EQ(d.inserted, 2) << format_program_diff(d);
  EXPECT_EQ(d.changed, 1);  // Streamify now reads t2
  EXPECT_EQ(d.deleted, 0);
  EXPECT_EQ(d.equal, 4);
  ASSERT_EQ(d.rows.size(), 7u);
  EXPECT_EQ(d.rows[0].kind, RowChange::Inserted);
  EXPECT_FALSE(d.rows[0].old_side.present());
  EXPECT_EQ(d.rows[4].kind, RowChange::Inserted);
  EXPECT_EQ(d.rows[5].kind, RowChange::Changed);
  EXPECT_EQ(marked(d.rows[5].new_side, TokenMark::Changed), (std::vector<std::string>{"t2"}));
  EXPECT_EQ(marked(d.rows[5].old_side, TokenMark::Changed), (std::vector<std::string>{"E4"}));

  // The other way round: the same statements deleted.
  d = diff_programs(inserted, kFused);
  EXPECT_EQ(d.deleted, 2);
  EXPECT_EQ(d.changed, 1);
  EXPECT_EQ(d.inserted, 0);
  EXPECT_EQ(d.rows[0].kind, RowChange::Deleted);
  EXPECT_FALSE(d.rows[0].new_side.present());

  // From nothing (a proposal for an empty editor): every statement inserted, still aligned.
  d = diff_programs("", kFused);
  EXPECT_TRUE(d.aligned);
  EXPECT_EQ(d.inserted, 5);
  EXPECT_TRUE(d.renames.empty());
}

TEST(ProgramDiff, StepV2RenamesAndOneChange) {
  // Every stream renamed (the two branches' names swapped as well), one kwarg changed.
  std::string v = kSoftmax2;
  for (const char* n : {"xa", "xf", "m0", "d0", "e0", "m1", "d1", "e1"})
    v = replaced(v, std::string(n) + " ", std::string("s_") + n + " ");
  v = replaced(replaced(v, "(xa)", "(s_xa)"), "(xf)", "(s_xf)");
  v = replaced(replaced(v, "x0, m0", "x0, s_m0"), "x1, m1", "x1, s_m1");
  v = replaced(replaced(v, "(d0)", "(s_d0)"), "(d1)", "(s_d1)");
  v = replaced(v, "[e0, e1]", "[s_e0, s_e1]");
  v = replaced(v, "fn=exp, write_back_mu=0, compute_bw=1024).apply(s_d1)", "fn=exp, write_back_mu=0, compute_bw=512).apply(s_d1)");
  const ProgramDiff d = diff_programs(kSoftmax2, v, {.dialect = DiffDialect::V2});
  ASSERT_TRUE(d.aligned) << d.note;
  EXPECT_EQ(d.dialect, "step-v2");
  EXPECT_EQ(d.changed, 1) << format_program_diff(d);
  EXPECT_EQ(d.equal, 10);
  EXPECT_EQ(d.renames.size(), 8u);
  ASSERT_EQ(d.rows[8].kind, RowChange::Changed);
  EXPECT_EQ(marked(d.rows[8].new_side, TokenMark::Changed), (std::vector<std::string>{"512"}));
  // Auto finds a dialect both sides parse in.
  EXPECT_TRUE(diff_programs(kSoftmax2, v).aligned);
}

TEST(ProgramDiff, ASideThatDoesNotParseIsComparedLineByLine) {
  const std::string broken = "E2 = step.Zip().apply((E0, E1))\nE3 = step.Accum(fn=fn_maxsum, b=2.apply(E2)\nreturn E3\n";
  const ProgramDiff d = diff_programs(kFused, broken, {.dialect = DiffDialect::V1});
  EXPECT_FALSE(d.aligned);
  EXPECT_NE(d.note.find("the new program does not parse as step-v1 (line "), std::string::npos) << d.note;
  EXPECT_NE(d.note.find("compared line by line"), std::string::npos);
  EXPECT_TRUE(d.renames.empty());
  // Lines: the first is equal apart from its comment, so it is a changed line here; tokens are marked.
  ASSERT_FALSE(d.rows.empty());
  EXPECT_EQ(d.rows[0].kind, RowChange::Changed);
  EXPECT_EQ(marked(d.rows[0].old_side, TokenMark::Changed), (std::vector<std::string>{"# [M, N] of [fp32, Buffer(fp32, [D])]"}));
  EXPECT_TRUE(marked(d.rows[0].new_side, TokenMark::Changed).empty());
  EXPECT_NE(format_program_diff(d).find("note: the new program does not parse"), std::string::npos);
}

TEST(ProgramDiff, LimitsFallBackInsteadOfGrowing) {
  auto fallsBack = [](ProgramDiffOptions opt, const std::string& why) {
    const ProgramDiff d = diff_programs(kFused, kFusedRenamed, opt);
    EXPECT_FALSE(d.aligned) << why;
    EXPECT_NE(d.note.find(why), std::string::npos) << d.note;
  };
  fallsBack({.max_statements = 3}, "over 3 statements");
  fallsBack({.max_tokens = 8}, "over 8 tokens");
  fallsBack({.max_bytes = 64}, "over 64 bytes");
  ProgramDiff d;
  // Unbalanced brackets, stray bytes and an unterminated string: a located fallback, never a crash.
  d = diff_programs("a = f((((\n\xff\xfe 'x\n", kFused);
  EXPECT_FALSE(d.aligned);
  EXPECT_FALSE(d.rows.empty());
}

TEST(ProgramDiff, AutoNamesTheDialectTheProgramsParseIn) {
  EXPECT_EQ(diff_programs(kFused, kFusedRenamed).dialect, "step-v1");
  EXPECT_EQ(diff_programs(kSoftmax2, kSoftmax2).dialect, "step-v2");
  EXPECT_EQ(diff_programs("", kSoftmax2).dialect, "step-v2");
}

TEST(ProgramDiff, MangledProgramsKeepTheInvariants) {
  // Deterministic mutations of both programs (bytes dropped, duplicated, swapped, brackets and newlines
  // inserted): whatever the result, rows and counts agree, marks lie inside their text in order, renames are
  // one-to-one, and a text compared with itself has no change.
  const std::string pool = "()[]{},=.\n #'\"x0_9";
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&seed] {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return seed;
  };
  for (int round = 0; round < 400; ++round) {
    std::string a = round % 2 ? kFused : kSoftmax2, b = round % 3 ? kFusedRenamed : kSoftmax2;
    for (std::string* s : {&a, &b})
      for (int k = static_cast<int>(next() % 4); k > 0 && !s->empty(); --k) {
        const std::size_t at = next() % s->size();
        switch (next() % 4) {
          case 0: s->erase(at, 1 + next() % 6); break;
          case 1: s->insert(at, 1, pool[next() % pool.size()]); break;
          case 2: s->insert(at, s->substr(at, next() % 40)); break;
          default: std::swap((*s)[at], (*s)[next() % s->size()]); break;
        }
      }
    const ProgramDiff d = diff_programs(a, b);
    ASSERT_EQ(d.equal + d.changed + d.inserted + d.deleted, static_cast<int>(d.rows.size()));
    for (const auto& r : d.rows) {
      EXPECT_EQ(r.old_side.present(), r.kind != RowChange::Inserted);
      EXPECT_EQ(r.new_side.present(), r.kind != RowChange::Deleted);
      for (const DiffSide* s : {&r.old_side, &r.new_side}) {
        int at = 0;
        for (const auto& m : s->marks) {
          EXPECT_LE(at, m.begin);
          EXPECT_LT(m.begin, m.end);
          EXPECT_LE(m.end, static_cast<int>(s->text.size()));
          at = m.end;
        }
      }
    }
    std::set<std::string> from, to;
    for (const auto& r : d.renames) {
      EXPECT_TRUE(from.insert(r.from).second);
      EXPECT_TRUE(to.insert(r.to).second);
    }
    const ProgramDiff self = diff_programs(a, a);
    EXPECT_TRUE(self.same_statements()) << a;
    EXPECT_TRUE(self.renames.empty()) << a;
  }
}
