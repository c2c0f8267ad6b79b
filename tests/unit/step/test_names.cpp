// Name checks (step-dialect §5.3, §15.5).
#include <gtest/gtest.h>

#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::names_of;

TEST(Names, Example54IsClean) {
  Diagnostics d;
  Program p = testutil::parse_ok(testutil::kExample54);
  EXPECT_TRUE(check_names(p, testutil::toy_names(), d));
  EXPECT_TRUE(d.empty());
}

TEST(Names, ReservedTargets) {
  // Every task-namespace name and every reserved word (that lexes as a name) is N-RESERVED as a target.
  for (const char* n : {"E0", "W", "fn_a", "S0", "D", "D_value", "step", "zip", "Map", "Partition"}) {
    Diagnostics d = names_of(std::string(n) + " = step.Identity().apply(E0)\nreturn " + n + "\n");
    ASSERT_FALSE(d.empty()) << n;
    EXPECT_EQ(d[0].code, "N-RESERVED") << n;
    EXPECT_EQ(d[0].loc, (Location{1, 1})) << n;
  }
  Diagnostics d = names_of("A, E1 = step.Copy().apply(E0)\nreturn A\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "N-RESERVED");
  EXPECT_EQ(d[0].loc, (Location{1, 4}));
  EXPECT_EQ(d[0].message, "line 1: 'E1' cannot be assigned: it is a task input; choose another name");
  EXPECT_EQ(d[0].stage(), Stage::Name);
  // Not a size constant: X_value for an unbound X is a normal name.
  EXPECT_TRUE(names_of("Q_value = step.Identity().apply(E0)\nreturn Q_value\n").empty());
}

TEST(Names, Redefinition) {
  Diagnostics d = names_of(
      "A = step.Identity().apply(E0)\n"
      "A = step.Identity().apply(E1)\n"
      "return A\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "N-REDEF");
  EXPECT_EQ(d[0].loc, (Location{2, 1}));
  EXPECT_EQ(d[0].message, "line 2: 'A' is already defined on line 1; every name is assigned exactly once");
  Diagnostics e = names_of("A, A = step.Copy().apply(E0)\nreturn A\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "N-REDEF");
  EXPECT_EQ(e[0].loc, (Location{1, 4}));
}

TEST(Names, Undefined) {
  Diagnostics d = names_of(
      "A = step.Zip().apply((E0, B))\n"
      "B = step.Identity().apply(E1)\n"
      "return Q\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].code, "N-UNDEF");
  EXPECT_EQ(d[0].loc, (Location{1, 27}));
  EXPECT_EQ(d[0].message,
            "line 1: 'B' is not defined yet (it is defined later, on line 2; uses must follow the definition)");
  EXPECT_EQ(d[1].loc, (Location{3, 8}));
  EXPECT_EQ(d[1].message, "line 3: 'Q' is not defined");
  // A self-reference is a use before the definition.
  Diagnostics s = names_of("A = step.Identity().apply(A)\nreturn A\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].code, "N-UNDEF");
  // Non-stream task names used as streams.
  Diagnostics w = names_of("A = step.Identity().apply(W)\nreturn A\n");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].code, "N-UNDEF");
  EXPECT_NE(w[0].message.find("a task parameter, not a stream"), std::string::npos);
}

TEST(Names, ParameterNamesAndFns) {
  // fn= unknown is the type checker's T-FN-UNKNOWN; other parameter names must be known.
  EXPECT_TRUE(names_of("A = step.Map(fn=nope).apply(E0)\nreturn A\n").empty());
  EXPECT_TRUE(names_of("A = step.Repeat(n=M).apply(E0)\nB = step.Partition(N=E_value).apply((A, E1))\nreturn B\n").empty());
  Diagnostics d = names_of("A = step.Repeat(n=Q).apply(E0)\nreturn A\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "N-UNDEF");
  EXPECT_EQ(d[0].loc, (Location{1, 19}));
  // Unknown keys are T-PARAM-UNKNOWN (type checker), so their values are not checked here.
  EXPECT_TRUE(names_of("A = step.Repeat(zz=Q).apply(E0)\nreturn A\n").empty());
  // A fn list names task fns; an unknown one is N-UNDEF (it is not after fn=).
  Diagnostics f = names_of("F = [fn_a, fn_zz]\nreturn E0\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "N-UNDEF");
  EXPECT_EQ(f[0].loc, (Location{1, 12}));
}

TEST(Names, ComprehensionVariables) {
  const std::string head = "P = step.Partition(N=2).apply((E0, E1))\n";
  EXPECT_TRUE(names_of(head + "Q = [step.Map(fn=fn_a).apply(s) for s in P]\n"
                               "R = [step.Map(fn=fn_a).apply(s) for s in Q]\nreturn R\n")
                  .empty());
  // Equal to another program name (even a later one): N-REDEF at the loop variable.
  Diagnostics d = names_of(head + "Q = [step.Map(fn=fn_a).apply(T) for T in P]\nT = step.Identity().apply(E0)\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "N-REDEF");
  EXPECT_EQ(d[0].loc, (Location{2, 37}));
  // Equal to a task name: N-RESERVED.
  Diagnostics e = names_of(head + "Q = [step.Map(fn=f).apply(s) for f, s in zip([fn_a, fn_b], P)]\n"
                                  "R = [step.Map(fn=fn_a).apply(M) for M in Q]\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "N-RESERVED");
  EXPECT_EQ(e[0].loc, (Location{3, 37}));
  // Unknown list / fn list.
  Diagnostics u = names_of("Q = [step.Map(fn=f).apply(s) for f, s in zip(F, P)]\n");
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0].code, "N-UNDEF");
  EXPECT_EQ(u[1].code, "N-UNDEF");
}

TEST(Names, StaticIndexRange) {
  const std::string prog =
      "P = step.Partition(N=2).apply((E0, E1))\n"
      "A = step.Identity().apply(P[0])\n"
      "B = step.Identity().apply(P[2])\n";
  Diagnostics d = names_of(prog);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "N-INDEX");
  EXPECT_EQ(d[0].loc, (Location{3, 27}));
  EXPECT_EQ(d[0].message,
            "line 3: 'P[2]' is out of range: stream list 'P' has 2 stream(s), so the index must be between 0 and 1");
  // N=E: only decidable with a size binding; comprehensions keep the length.
  const std::string sym =
      "P = step.Partition(N=E).apply((E0, E1))\n"
      "Q = [step.Map(fn=fn_a).apply(s) for s in P]\n"
      "A = step.Identity().apply(Q[3])\n";
  EXPECT_TRUE(names_of(sym).empty());
  SizeBinding b{{"E", 3}, {"D", 16}, {"M", 5}};
  Diagnostics e = names_of(sym, testutil::toy_names(), &b);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "N-INDEX");
  EXPECT_EQ(e[0].loc, (Location{3, 27}));
}

}  // namespace
}  // namespace sf::step
