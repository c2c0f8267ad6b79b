// print_program: readable output that parses back to the same canonical form.
#include <gtest/gtest.h>

#include "core/step/printer.hpp"
#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::parse_ok;

TEST(Printer, KeepsNamesAndOrder) {
  Program p = parse_ok(
      "(A, B,) = step.Copy().apply((E0))   # c\n"
      "C = step.Flatten(L=(1, 2)).apply(A)\n"
      "D = step.Merge(fn=fn_sum).apply(([P[0], P[1]], B))\n"
      "R = [step.Map(fn=f).apply(s) for s, f in zip(L, fns)]\n"
      "return (C, D)\n");
  EXPECT_EQ(print_program(p),
            "A, B = step.Copy().apply(E0)\n"
            "C = step.Flatten(L=[1, 2]).apply(A)\n"
            "D = step.Merge(fn=fn_sum).apply(([P[0], P[1]], B))\n"
            "R = [step.Map(fn=f).apply(s) for s, f in zip(L, fns)]\n"
            "return C, D\n");
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, PrintParseCanonical) {
  Program p = parse_ok(GetParam());
  const std::string printed = print_program(p);
  Program q = parse_ok(printed);
  EXPECT_EQ(canonical_text(p), canonical_text(q)) << printed;
  EXPECT_EQ(print_program(q), printed);
  EXPECT_EQ(program_length(p), program_length(q));
  // The canonical text is itself a program with the same canonical text.
  Program c = parse_ok(canonical_text(p));
  EXPECT_EQ(canonical_text(c), canonical_text(p));
}

INSTANTIATE_TEST_SUITE_P(
    Programs, RoundTrip,
    ::testing::Values(
        std::string(testutil::kExample54),
        "return E0\n",
        "A = step.Accum(fn=fn_sum, b=2).apply(E0)\nB = step.Scan(fn=fn_sum, b=1).apply(A)\nreturn B\n",
        "A = step.Repeat(n=M).apply(E0)\nB = step.RepeatRef().apply((E1, A))\nreturn B\n",
        "A = step.Reshape(L=(0,), S=4).apply(E0)\nB = step.Promote(b=0).apply(A)\nreturn B\n",
        "P = step.Partition(N=E).apply((E0, E1))\nQ = [step.Bufferize(a=1).apply(s) for s in P]\n"
        "R = [step.Map(fn=f).apply(s) for s, f in zip(Q, [fn_a, fn_b, fn_a])]\n"
        "S = step.Merge(fn=fn_sum).apply((R, E2))\nreturn S\n",
        "A, B, C = step.Partition(N=3).apply((E0, E1))\nD = step.Merge(fn=fn_sum).apply(([A, B, C], E2))\nreturn D\n",
        "A = step.Zip().apply((E0, E1, E2,))\nB = step.Map(fn=fn_a).apply((A, E3))\nreturn (B,)\n",
        "A = step.Unknown(fn=x, q=[1]).apply(L[3])\nreturn A, [B, C]\n"));

}  // namespace
}  // namespace sf::step
