// Canonical form and program length (step-dialect §9).
#include <gtest/gtest.h>

#include "core/step/printer.hpp"
#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::parse_ok;

const char* kCanon54 =
    "_l1 = [fn_a, fn_b]\n"
    "_v1 = step.Bufferize(a=1).apply(E0)\n"
    "_v2, _v3 = step.Copy().apply(E1)\n"
    "_v4 = step.Partition(N=3).apply((_v1, _v2))\n"
    "_v5 = [step.Map(fn=_f).apply(_s) for _f, _s in zip(_l1, _v4)]\n"
    "_v6 = step.Merge(fn=fn_sum).apply((_v5, _v3))\n"
    "_v7 = step.Streamify().apply(_v6)\n"
    "return _v7";

TEST(Canonical, Example54Text) {
  Program p = parse_ok(testutil::kExample54);
  SizeBinding b{{"D", 16}, {"M", 5}, {"E", 3}};
  EXPECT_EQ(canonical_text(p, &b), kCanon54);
  // Without a binding N= keeps the symbol as written.
  std::string no_binding = canonical_text(p);
  EXPECT_NE(no_binding.find("step.Partition(N=E_value)"), std::string::npos) << no_binding;
  EXPECT_EQ(canonical_key(p, &b), "52013767a93cb2544001798a8ea43e3145a40a46f5f86c366a798512fa955b46");
  EXPECT_EQ(program_length(p), 8);
}

TEST(Canonical, NSpellingsAreEqualUnderABinding) {
  SizeBinding b{{"E", 3}};
  Program a = parse_ok("P = step.Partition(N=E_value).apply((E0, E1))\nreturn P[0], P[1], P[2]\n");
  Program c = parse_ok("P = step.Partition(N=E).apply((E0, E1))\nreturn P[0], P[1], P[2]\n");
  Program d = parse_ok("P = step.Partition(N=3).apply((E0, E1))\nreturn P[0], P[1], P[2]\n");
  EXPECT_EQ(canonical_text(a, &b), canonical_text(d, &b));
  EXPECT_EQ(canonical_text(c, &b), canonical_text(d, &b));
  EXPECT_NE(canonical_text(a), canonical_text(d));
}

// Programs that differ only in names, comments, whitespace, line breaks, trailing commas, tuple vs list in L=,
// kwarg order or the zip order are equal.
TEST(Canonical, EqualVariants) {
  const std::string base =
      "fns = [fn_a, fn_b]\n"
      "X = step.Accum(fn=fn_sum, b=1).apply(E0)\n"
      "Y = step.Flatten(L=[1]).apply(X)\n"
      "P = step.Partition(N=2).apply((Y, E1))\n"
      "Q = [step.Map(fn=f).apply(s) for f, s in zip(fns, P)]\n"
      "return Q[0], Q[1]\n";
  const std::string variant =
      "# a comment\n"
      "my_fns = [fn_a,\n"
      "          fn_b,]   # trailing comma\n"
      "\n"
      "acc   =   step.Accum( b=1 , fn=fn_sum ).apply( E0 )\r\n"
      "flat = step.Flatten(L=(1,)).apply(acc)\n"
      "(parts,) = step.Partition(N=2).apply(\n   (flat, E1)\n)\n"
      "mapped = [step.Map(fn=g).apply(t) for t, g in zip(parts, my_fns)]\n"
      "return (mapped[0], mapped[1],)\n";
  EXPECT_EQ(canonical_text(parse_ok(base)), canonical_text(parse_ok(variant)));
  EXPECT_EQ(canonical_key(parse_ok(base)), canonical_key(parse_ok(variant)));
}

TEST(Canonical, DifferentPrograms) {
  const std::string a =
      "A = step.Map(fn=fn_a).apply(E0)\nB = step.Map(fn=fn_b).apply(E1)\nC = step.Zip().apply((A, B))\nreturn C\n";
  // Reordering statements changes the canonical text.
  const std::string reordered =
      "B = step.Map(fn=fn_b).apply(E1)\nA = step.Map(fn=fn_a).apply(E0)\nC = step.Zip().apply((A, B))\nreturn C\n";
  // Swapping the Zip operands is a different program.
  const std::string swapped =
      "A = step.Map(fn=fn_a).apply(E0)\nB = step.Map(fn=fn_b).apply(E1)\nC = step.Zip().apply((B, A))\nreturn C\n";
  const std::string other_fn =
      "A = step.Map(fn=fn_b).apply(E0)\nB = step.Map(fn=fn_b).apply(E1)\nC = step.Zip().apply((A, B))\nreturn C\n";
  const std::string ca = canonical_text(parse_ok(a));
  EXPECT_EQ(ca,
            "_v1 = step.Map(fn=fn_a).apply(E0)\n_v2 = step.Map(fn=fn_b).apply(E1)\n"
            "_v3 = step.Zip().apply((_v1, _v2))\nreturn _v3");
  EXPECT_NE(ca, canonical_text(parse_ok(reordered)));
  EXPECT_NE(ca, canonical_text(parse_ok(swapped)));
  EXPECT_NE(ca, canonical_text(parse_ok(other_fn)));
  EXPECT_NE(canonical_key(parse_ok(a)), canonical_key(parse_ok(reordered)));
}

TEST(Canonical, KwargOrderAndUndefinedNames) {
  Program p = parse_ok("A = step.Reshape(zz=1, S=4, L=[0], N=2, n=M, b=1, a=2, fn=fn_a).apply(Nope)\nreturn A\n");
  EXPECT_EQ(canonical_text(p),
            "_v1 = step.Reshape(fn=fn_a, a=2, b=1, n=M, L=[0], S=4, N=2, zz=1).apply(Nope)\nreturn _v1");
}

TEST(Canonical, ComprehensionWithoutZipAndLiteralFns) {
  Program p = parse_ok(
      "P = step.Partition(N=2).apply((E0, E1))\n"
      "Q = [step.Promote(b=1).apply(x) for x in P]\n"
      "R = [step.Map(fn=h).apply(y) for y, h in zip(Q, [fn_b, fn_a])]\n"
      "return R[0], R[1]\n");
  EXPECT_EQ(canonical_text(p),
            "_v1 = step.Partition(N=2).apply((E0, E1))\n"
            "_v2 = [step.Promote(b=1).apply(_s) for _s in _v1]\n"
            "_v3 = [step.Map(fn=_f).apply(_s) for _f, _s in zip([fn_b, fn_a], _v2)]\n"
            "return _v3[0], _v3[1]");
}

TEST(Canonical, EmptyProgram) {
  EXPECT_EQ(canonical_text(parse_ok("# nothing\n")), "");
  EXPECT_EQ(canonical_key(parse_ok("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(program_length(parse_ok("")), 0);
}

}  // namespace
}  // namespace sf::step
