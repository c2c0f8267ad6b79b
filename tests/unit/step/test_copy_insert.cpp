// The guardian's deterministic Copy rewrite (step-dialect §6).
#include <gtest/gtest.h>

#include "core/step/copy_insert.hpp"
#include "core/step/printer.hpp"
#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::parse_ok;

std::string rewrite(const std::string& text) {
  Program p = insert_copies(parse_ok(text), testutil::toy_names());
  // The rewritten program is name- and affine-clean.
  Diagnostics d;
  EXPECT_TRUE(check_names(p, testutil::toy_names(), d));
  check_affine(p, testutil::toy_names(), d);
  EXPECT_TRUE(d.empty()) << d.front().code << " " << d.front().message << "\n" << print_program(p);
  return print_program(p);
}

TEST(CopyInsert, ChainForThreeUses) {
  EXPECT_EQ(rewrite("A = step.Map(fn=fn_a).apply(E0)\n"
                    "B = step.Zip().apply((A, E1))\n"
                    "C = step.Zip().apply((B, A))\n"
                    "return C, A\n"),
            "A = step.Map(fn=fn_a).apply(E0)\n"
            "A_0, A_r1 = step.Copy().apply(A)\n"
            "A_1, A_r2 = step.Copy().apply(A_r1)\n"
            "B = step.Zip().apply((A_0, E1))\n"
            "C = step.Zip().apply((B, A_1))\n"
            "return C, A_r2\n");
}

TEST(CopyInsert, TaskInputAtTheStart) {
  EXPECT_EQ(rewrite("A = step.Zip().apply((E0, E0))\nreturn A, E1\n"),
            "E0_0, E0_r1 = step.Copy().apply(E0)\n"
            "A = step.Zip().apply((E0_0, E0_r1))\n"
            "return A, E1\n");
}

TEST(CopyInsert, ListElement) {
  EXPECT_EQ(rewrite("P = step.Partition(N=2).apply((E0, E1))\n"
                    "A = step.Zip().apply((P[0], P[0]))\n"
                    "return A, P[1]\n"),
            "P = step.Partition(N=2).apply((E0, E1))\n"
            "P_0_0, P_0_r1 = step.Copy().apply(P[0])\n"
            "A = step.Zip().apply((P_0_0, P_0_r1))\n"
            "return A, P[1]\n");
}

TEST(CopyInsert, FreshNamesAvoidCollisions) {
  EXPECT_EQ(rewrite("A = step.Map(fn=fn_a).apply(E0)\n"
                    "A_0 = step.Zip().apply((A, E1))\n"
                    "B = step.Zip().apply((A_0, A))\n"
                    "return B\n"),
            "A = step.Map(fn=fn_a).apply(E0)\n"
            "A_0_2, A_r1 = step.Copy().apply(A)\n"
            "A_0 = step.Zip().apply((A_0_2, E1))\n"
            "B = step.Zip().apply((A_0, A_r1))\n"
            "return B\n");
}

TEST(CopyInsert, CleanProgramUnchangedAndSeveralStreams) {
  Program p = parse_ok(testutil::kExample54);
  EXPECT_EQ(print_program(insert_copies(p, testutil::toy_names())), print_program(p));
  // Two streams of one Copy statement, each used twice: chains in target order after the statement.
  EXPECT_EQ(rewrite("X, Y = step.Copy().apply(E0)\n"
                    "A = step.Zip().apply((Y, X))\n"
                    "B = step.Zip().apply((X, Y))\n"
                    "C = step.Zip().apply((A, B))\n"
                    "F = step.Zip().apply((C, E1))\n"
                    "return F\n"),
            "X, Y = step.Copy().apply(E0)\n"
            "X_0, X_r1 = step.Copy().apply(X)\n"
            "Y_0, Y_r1 = step.Copy().apply(Y)\n"
            "A = step.Zip().apply((Y_0, X_0))\n"
            "B = step.Zip().apply((X_r1, Y_r1))\n"
            "C = step.Zip().apply((A, B))\n"
            "F = step.Zip().apply((C, E1))\n"
            "return F\n");
  // stream_uses agrees with the rewrite: the k-th use gets the k-th copy.
  auto u = stream_uses(parse_ok("X, Y = step.Copy().apply(E0)\nA = step.Zip().apply((Y, X))\nreturn A, X, E1\n"),
                       testutil::toy_names());
  ASSERT_EQ(u.size(), 5u);  // E0, E1, X, Y, A
  EXPECT_EQ(u[2].name, "X");
  EXPECT_EQ(u[2].uses, (std::vector<Location>{{2, 26}, {3, 11}}));
}

}  // namespace
}  // namespace sf::step
