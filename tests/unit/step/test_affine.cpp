// Affine rule (step-dialect §6, §15.4, §15.6): exact messages and locations.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::affine;

Diagnostics only(const Diagnostics& d, const std::string& code) {
  Diagnostics out;
  std::copy_if(d.begin(), d.end(), std::back_inserter(out), [&](const Diagnostic& x) { return x.code == code; });
  return out;
}

TEST(Affine, Example54IsClean) {
  Diagnostics d = affine(testutil::kExample54);
  EXPECT_TRUE(d.empty()) << d.front().code << " " << d.front().message;
}

TEST(Affine, MultiUseMessageWithCopyHint) {
  Diagnostics d = affine(
      "A = step.Map(fn=fn_a).apply(E0)\n"
      "B = step.Map(fn=fn_b).apply(A)\n"
      "C = step.Zip().apply((A, E1))\n"
      "return (B, C)\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "A-MULTI");
  EXPECT_EQ(d[0].stage(), Stage::Affine);
  EXPECT_EQ(d[0].loc, (Location{3, 23}));
  EXPECT_EQ(d[0].message,
            "line 3: stream 'A' (defined on line 1) is used again; it was already used on line 2. Each stream is "
            "used exactly once: write `A_0, A_1 = step.Copy().apply(A)` after line 1 and give each use its own "
            "copy (k uses need k\u22121 Copies).");
}

TEST(Affine, TupleMembersAndReturnAreUses) {
  // Both members of one tuple.
  Diagnostics t = affine("A = step.Zip().apply((E0, E0))\nB = step.Identity().apply(E1)\nreturn (A, B)\n");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].code, "A-MULTI");
  EXPECT_EQ(t[0].loc, (Location{1, 27}));
  EXPECT_EQ(t[0].message.substr(0, 47), "line 1: task input 'E0' is used again; it was a");
  // Returned and consumed: the return is the second use.
  Diagnostics r = affine("A = step.Zip().apply((E0, E1))\nB = step.Identity().apply(A)\nreturn (A, B)\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].code, "A-MULTI");
  EXPECT_EQ(r[0].loc, (Location{3, 9}));
  // Returned twice.
  Diagnostics rr = affine("A = step.Zip().apply((E0, E1))\nreturn A, A\n");
  ASSERT_EQ(rr.size(), 1u);
  EXPECT_EQ(rr[0].loc, (Location{2, 11}));
}

TEST(Affine, DeadStreamsAndInputs) {
  Diagnostics d = affine("A, B = step.Copy().apply(E0)\nreturn (A, E1)\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "A-DEAD");
  EXPECT_EQ(d[0].loc, (Location{1, 4}));
  EXPECT_EQ(d[0].message,
            "line 1: stream 'B' is never used. Every stream must be consumed by exactly one primitive or returned.");

  Diagnostics in = affine("A = step.Identity().apply(E0)\n\n  return A\n");
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].code, "A-DEAD");
  EXPECT_EQ(in[0].loc, (Location{3, 3}));  // at the return statement
  EXPECT_EQ(in[0].message,
            "line 3: task input 'E1' is never used. Every stream must be consumed by exactly one primitive or "
            "returned.");
}

TEST(Affine, ListUsedWholeAndElementWise) {
  Diagnostics all = affine(
      "P = step.Partition(N=2).apply((E0, E1))\n"
      "A = step.Identity().apply(P[1])\n"
      "Q = [step.Map(fn=fn_a).apply(s) for s in P]\n"
      "return A, Q[0], Q[1]\n");
  Diagnostics d = only(all, "A-LIST");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].loc, (Location{3, 42}));
  EXPECT_EQ(d[0].message, "line 3: stream list 'P' is used both as a whole (line 3) and element-wise (P[1]).");
  EXPECT_TRUE(only(all, "A-DEAD").empty());
  EXPECT_TRUE(only(all, "A-MULTI").empty());
}

TEST(Affine, ListElementsUsedOnceEach) {
  const std::string head = "P = step.Partition(N=3).apply((E0, E1))\n";
  EXPECT_TRUE(affine(head + "return P[0], P[1], P[2]\n").empty());
  Diagnostics m = affine(head + "A = step.Zip().apply((P[0], P[0]))\nreturn A, P[1], P[2]\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].code, "A-MULTI");
  EXPECT_EQ(m[0].loc, (Location{2, 29}));
  EXPECT_NE(m[0].message.find("stream 'P[0]' (defined on line 1)"), std::string::npos) << m[0].message;
  EXPECT_NE(m[0].message.find("`P_0_0, P_0_1 = step.Copy().apply(P[0])`"), std::string::npos) << m[0].message;
  Diagnostics dead = affine(head + "return P[0], P[2]\n");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].code, "A-DEAD");
  EXPECT_EQ(dead[0].loc, (Location{1, 1}));
  EXPECT_EQ(dead[0].message.substr(0, 35), "line 1: stream 'P[1]' is never used");
}

TEST(Affine, ComprehensionOverList) {
  // The iterable uses the list once; the comprehension's result list must be used.
  Diagnostics d = affine(
      "P = step.Partition(N=2).apply((E0, E1))\n"
      "Q = [step.Map(fn=fn_a).apply(s) for s in P]\n");
  ASSERT_EQ(only(d, "A-DEAD").size(), 1u);
  EXPECT_EQ(only(d, "A-DEAD")[0].loc, (Location{2, 1}));
  EXPECT_EQ(only(d, "A-DEAD")[0].message.substr(0, 32), "line 2: stream list 'Q' is never");
  EXPECT_EQ(only(d, "O-RETURN").size(), 1u);
  // Twice as a whole.
  Diagnostics t = affine(
      "P = step.Partition(N=2).apply((E0, E1))\n"
      "Q = [step.Map(fn=fn_a).apply(s) for s in P]\n"
      "R = [step.Map(fn=fn_b).apply(s) for s in P]\n"
      "return Q[0], Q[1], R[0], R[1]\n");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].code, "A-MULTI");
  EXPECT_EQ(t[0].loc, (Location{3, 42}));
}

TEST(Affine, LoopBody) {
  const std::string head = "P = step.Partition(N=2).apply((E0, E1))\n";
  Diagnostics other = affine(head + "Q = [step.Zip().apply((s, E1)) for s in P]\nreturn Q[0], Q[1]\n");
  Diagnostics l = only(other, "A-LOOP");
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].loc, (Location{2, 27}));
  EXPECT_EQ(l[0].message,
            "line 2: in a list comprehension the stream variable 's' must be used exactly once and no other stream "
            "may appear (it would be consumed once per iteration).");
  Diagnostics twice = affine(head + "Q = [step.Zip().apply((s, s)) for s in P]\nreturn Q[0], Q[1]\n");
  ASSERT_EQ(twice.size(), 1u);
  EXPECT_EQ(twice[0].code, "A-LOOP");
  EXPECT_EQ(twice[0].loc, (Location{2, 27}));
}

TEST(Affine, ReturnPlacementAndLists) {
  Diagnostics none = affine("A = step.Zip().apply((E0, E1))\n# trailing comment\n");
  Diagnostics r = only(none, "O-RETURN");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].loc.line, 2);
  EXPECT_EQ(r[0].message, "the program must end with exactly one return statement");
  EXPECT_EQ(r[0].stage(), Stage::Output);

  Diagnostics after = affine("A = step.Zip().apply((E0, E1))\nreturn A\nreturn A\n");
  Diagnostics a = only(after, "O-RETURN");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].loc, (Location{3, 1}));

  Diagnostics list = affine("P = step.Partition(N=2).apply((E0, E1))\nreturn P\n");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].code, "O-LIST");
  EXPECT_EQ(list[0].loc, (Location{2, 8}));
  EXPECT_EQ(list[0].message, "a stream list cannot be returned; Merge it first");
}

TEST(Affine, StreamUsesListsDefinitionsAndUses) {
  Program p = testutil::parse_ok(
      "A = step.Map(fn=fn_a).apply(E0)\n"
      "B = step.Zip().apply((A, A))\n"
      "return B, A, E1\n");
  auto u = stream_uses(p, testutil::toy_names());
  ASSERT_EQ(u.size(), 4u);
  EXPECT_EQ(u[0].name, "E0");
  EXPECT_EQ(u[0].uses, std::vector<Location>{(Location{1, 29})});
  EXPECT_EQ(u[2].name, "A");
  EXPECT_EQ(u[2].def, (Location{1, 1}));
  EXPECT_EQ(u[2].uses, (std::vector<Location>{{2, 23}, {2, 26}, {3, 11}}));
  EXPECT_EQ(u[3].name, "B");
}

}  // namespace
}  // namespace sf::step
