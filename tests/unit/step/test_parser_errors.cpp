// Impl parser: every P-* path with its exact location; hostile input never crashes or hangs.
#include <gtest/gtest.h>

#include <random>

#include "test_parser_util.hpp"

namespace sf::step {
namespace {

struct ErrCase {
  const char* text;
  const char* code;
  int line, col;
  const char* fragment;  // must appear in the message
};

class ParseErrors : public ::testing::TestWithParam<ErrCase> {};

TEST_P(ParseErrors, CodeLocationAndMessage) {
  const ErrCase& c = GetParam();
  Diagnostic d = testutil::parse_err(c.text);
  EXPECT_EQ(d.code, c.code) << d.message;
  EXPECT_EQ(d.loc, (Location{c.line, c.col})) << d.message;
  EXPECT_NE(d.message.find(c.fragment), std::string::npos) << d.message;
  EXPECT_EQ(d.message.rfind("line " + std::to_string(c.line) + ": ", 0), 0u) << d.message;
  EXPECT_EQ(d.stage(), c.code[0] == 'P' ? Stage::Parse : Stage::Limit);
}

const ErrCase kCases[] = {
    // Lexical errors.
    {"A = step.Map(fn=\"fn_a\").apply(E0)\n", "P-SYNTAX", 1, 17, "string literal is not STeP syntax"},
    {"A = step.Map(fn='fn_a').apply(E0)\n", "P-SYNTAX", 1, 17, "string literal is not STeP syntax"},
    {"A = step.Repeat(n=1.5).apply(E0)\n", "P-SYNTAX", 1, 19, "float literal '1.5' is not STeP syntax"},
    {"A = step.Repeat(n=1e5).apply(E0)\n", "P-SYNTAX", 1, 19, "float literal '1e5' is not STeP syntax"},
    {"A = step.Repeat(n=.5).apply(E0)\n", "P-SYNTAX", 1, 19, "float literal '.5' is not STeP syntax"},
    {"A = step.Promote(b=-1).apply(E0)\n", "P-SYNTAX", 1, 20, "operator '-' is not STeP syntax"},
    {"A = step.Map(fn=fn_a).apply(E0 + E1)\n", "P-SYNTAX", 1, 32, "operator '+' is not STeP syntax"},
    {"A = step.Map(fn=fn_a).apply(E0)\nB = A == A\n", "P-SYNTAX", 2, 7, "operator '=='"},
    {"A = step.Identity().apply(E0); return A\n", "P-SYNTAX", 1, 30, "';' is not STeP syntax"},
    {"A = step.Identity() \\\n  .apply(E0)\n", "P-SYNTAX", 1, 21, "line continuation"},
    {"A = {}\n", "P-SYNTAX", 1, 5, "'{' is not STeP syntax"},
    {"A\xff = step.Identity().apply(E0)\n", "P-SYNTAX", 1, 2, "invalid UTF-8 byte 0xFF"},
    {"# ok: \xc3\xa9\n# bad: \xc3\x28\n", "P-SYNTAX", 2, 8, "invalid UTF-8 byte 0xC3"},
    {"\xc3\xa9 = step.Identity().apply(E0)\n", "P-SYNTAX", 1, 1, "U+00E9"},
    {"A = step.Repeat(n=12abc).apply(E0)\n", "P-SYNTAX", 1, 19, "cannot start with a digit"},
    {"A = step.Repeat(n=99999999999).apply(E0)\n", "P-INT", 1, 19, "2147483647"},
    // Python constructs that are not STeP.
    {"A = E0\n", "P-SYNTAX", 1, 5, "alias 'A = E0' is not STeP syntax"},
    {"A = foo(E0)\n", "P-SYNTAX", 1, 5, "Python call 'foo(...)' is not STeP syntax"},
    {"def f(x):\n  return x\n", "P-SYNTAX", 1, 1, "function definition (def) is not STeP syntax"},
    {"A = lambda x: x\n", "P-SYNTAX", 1, 5, "lambda is not STeP syntax"},
    {"A = 5\n", "P-SYNTAX", 1, 5, "literal (5) is not STeP syntax"},
    {"if A:\n", "P-SYNTAX", 1, 1, "Python keyword 'if' is not STeP syntax"},
    {"for = step.Identity().apply(E0)\n", "P-SYNTAX", 1, 1, "Python keyword 'for'"},
    {"A, lambda = step.Copy().apply(E0)\n", "P-SYNTAX", 1, 4, "Python keyword 'lambda'"},
    {"A = step.Map(fn=None).apply(E0)\n", "P-SYNTAX", 1, 17, "Python keyword 'None'"},
    {"print(A)\n", "P-SYNTAX", 1, 1, "Python call or attribute 'print(...'"},
    {"step.Identity().apply(E0)\n", "P-SYNTAX", 1, 1, "bare primitive call"},
    {"A = (E0, E1)\n", "P-SYNTAX", 1, 5, "expected step.<Primitive>(...).apply(...)"},
    // The expected-what texts the parser joins only on an error.
    {"A = step.Map fn_a\n", "P-SYNTAX", 1, 14, "'(' after step.Map"},
    {"A = step.Map(fn=fn_a).call(E0)\n", "P-SYNTAX", 1, 23, "'apply' after step.Map(...)."},
    {"A = step.Map(fn=fn_a).apply(E0]\n", "P-SYNTAX", 1, 31, "')' to close .apply(...)"},
    {"A = step.(E0)\n", "P-SYNTAX", 1, 10, "a primitive name after 'step.'"},
    // Grammar violations.
    {"A = step.Map(fn_a).apply(E0)\n", "P-SYNTAX", 1, 14, "positional arguments are not STeP syntax"},
    {"A = step.Map(fn=fn_a, fn=fn_b).apply(E0)\n", "P-SYNTAX", 1, 23, "fn= twice"},
    {"A = step.Map(fn=fn_a)(E0)\n", "P-SYNTAX", 1, 22, "'.apply(...)'"},
    {"A = step.Map(fn=fn_a).run(E0)\n", "P-SYNTAX", 1, 23, "'apply'"},
    {"A = step.Identity().apply()\n", "P-SYNTAX", 1, 27, "apply needs an argument"},
    {"A = step.Identity().apply((E0,))\n", "P-SYNTAX", 1, 31, "one-element tuple"},
    {"A = step.Flatten(L=(1)).apply(E0)\n", "P-SYNTAX", 1, 22, "needs a comma"},
    {"A = step.Flatten(L=[]).apply(E0)\n", "P-SYNTAX", 1, 21, "an integer in the integer list"},
    {"A = step.Flatten(L=[1, x]).apply(E0)\n", "P-SYNTAX", 1, 24, "an integer in the integer list"},
    {"A = step.Identity().apply(L[i])\n", "P-SYNTAX", 1, 29, "integer index"},
    {"A = step.Identity().apply(E0\nreturn A\n", "P-SYNTAX", 2, 1, "'return'"},
    {"A = step.Identity().apply(E0))\n", "P-SYNTAX", 1, 30, "after the end of the statement"},
    {"A = step.Identity().apply(E0) B = step.Identity().apply(E1)\n", "P-SYNTAX", 1, 31, "one statement per line"},
    {"A B = step.Copy().apply(E0)\n", "P-SYNTAX", 1, 3, "'='"},
    {"fns = []\n", "P-SYNTAX", 1, 8, "empty list"},
    {"a, b = [fn_a, fn_b]\n", "P-SYNTAX", 1, 8, "exactly one name"},
    {"return\n", "P-SYNTAX", 1, 7, "stream(s) to return"},
    {"return (A, B\n", "P-SYNTAX", 1, 8, "'(' is never closed"},
    {"A = step.Map(fn=fn_a).apply([E0,\n  [E1]\n", "P-SYNTAX", 1, 29, "'[' is never closed"},
    {"return A B\n", "P-SYNTAX", 1, 10, "after the end of the statement"},
    {"return 3\n", "P-SYNTAX", 1, 8, "literal (3)"},
    {"A = [step.Map(fn=f).apply(s) for f, s in E3]\n", "P-SYNTAX", 1, 42, "two loop variables need zip"},
    {"A = [step.Map(fn=f).apply(s) for s in zip(F, E3)]\n", "P-SYNTAX", 1, 39, "needs two loop variables"},
    {"A = [step.Map(fn=fn_a).apply(s) for s in [E0, E1]]\n", "P-SYNTAX", 1, 42, "not over a list literal"},
    {"A = [step.Map(fn=fn_a).apply(s) for s of L]\n", "P-SYNTAX", 1, 39, "'in'"},
    {"A = [step.Map(fn=fn_a).apply(s) in L]\n", "P-SYNTAX", 1, 33, "'for'"},
    {"A = [step.Map(fn=f).apply(s) for f, s in zip(F, E3, E4)]\n", "P-SYNTAX", 1, 51, "')' to close zip"},
};

INSTANTIATE_TEST_SUITE_P(All, ParseErrors, ::testing::ValuesIn(kCases));

TEST(ParserHostile, NulByteIsReportedAtTheByte) {
  const std::string text("A = step.Identity().apply(E0)\nreturn A\0\n", 40);
  Diagnostic d = testutil::parse_err(text);
  EXPECT_EQ(d.code, "P-SYNTAX");
  EXPECT_EQ(d.loc, (Location{2, 9}));
  EXPECT_NE(d.message.find("control byte 0x00"), std::string::npos) << d.message;
}

TEST(ParserHostile, JunkNeverCrashes) {
  std::mt19937 rng(1234);
  const std::string alphabet = "step.Map()[]=, \n\r\t#AEx0129_applyforinzipreturn\"';\\+-*{}\x00\xff\xc3";
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 300);
    for (int i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
    Diagnostics d;
    auto p = parse_impl(text, {}, d);
    if (p) {
      EXPECT_TRUE(d.empty());
    } else {
      ASSERT_EQ(d.size(), 1u) << text;
      EXPECT_GE(d[0].loc.line, 1);
      EXPECT_GE(d[0].loc.column, 1);
    }
  }
}

TEST(ParserHostile, LargeJunkIsBoundedAndFast) {
  ParseOptions opt;
  opt.max_bytes = 2 * 1024 * 1024;
  std::string junk;
  for (int i = 0; i < (1 << 20) / 8; ++i) junk += "A, B, C,";
  Diagnostics d;
  EXPECT_FALSE(parse_impl(junk, opt, d).has_value());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "P-SYNTAX");
  std::string brackets = "return " + std::string(1 << 20, '[');
  Diagnostics d2;
  EXPECT_FALSE(parse_impl(brackets, opt, d2).has_value());
  EXPECT_EQ(d2.at(0).code, "P-NESTING");
}

}  // namespace
}  // namespace sf::step
