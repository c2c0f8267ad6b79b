// Syntax, names, nesting and locations (step-dialect §10.3, §15.1, §15.3).
#include <string>

#include "tests/unit/fnlang/fn_test_util.hpp"

namespace sf::fnlang::test {
namespace {

const std::vector<In> kIn0 = {{"in0", {3}, {}}};

TEST(FnlangParse, SyntaxErrorLocation) {
  auto d = compile_error("x = in0 +\nreturn x", options(kIn0));
  EXPECT_EQ(d.code, "X-FN-SYNTAX");
  EXPECT_EQ(d.loc, (sf::Location{1, 10}));
  EXPECT_EQ(d.message.rfind("fn fn_t line 1: ", 0), 0u) << d.message;
}

TEST(FnlangParse, UnclosedBracketIsReportedAtTheBracket) {
  // The bracket joins every later line, so the end of the body is not where the mistake is.
  auto d = compile_error("x = in0 * (in0 +\n  1\nreturn x\n", options(kIn0));
  EXPECT_EQ(d.code, "X-FN-SYNTAX");
  EXPECT_EQ(d.loc, (sf::Location{1, 11}));
  EXPECT_NE(d.message.find("'(' is never closed"), std::string::npos) << d.message;
  auto s = compile_error("return in0[0\n", options(kIn0));
  EXPECT_EQ(s.loc, (sf::Location{1, 11}));
  EXPECT_NE(s.message.find("'[' is never closed"), std::string::npos) << s.message;
}

TEST(FnlangParse, LineStartsMakeLocationsFileRelative) {
  auto o = options(kIn0);
  o.line_starts = {{10, 7}, {11, 7}};
  auto d = compile_error("y = in0\nreturn y $", o);
  EXPECT_EQ(d.code, "X-FN-SYNTAX");
  EXPECT_EQ(d.loc, (sf::Location{11, 7 + 9}));
  EXPECT_EQ(d.message.rfind("fn fn_t line 11: ", 0), 0u) << d.message;
}

TEST(FnlangParse, UnknownNameIsXFnNameOrXRefName) {
  auto d = compile_error("return E0", options(kIn0));
  EXPECT_EQ(d.code, "X-FN-NAME");
  EXPECT_EQ(d.loc, (sf::Location{1, 8}));
  auto r = compile_error("return E9 + E0", options({{"E0", {2}, {}}}, {}, {}, Mode::Reference));
  EXPECT_EQ(r.code, "X-REF-NAME");
  EXPECT_EQ(r.message.rfind("reference line 1: ", 0), 0u) << r.message;
}

TEST(FnlangParse, NoComparisonChaining) {
  EXPECT_EQ(compile_error("return 0 < in0 < 1", options(kIn0)).code, "X-FN-SYNTAX");
}

TEST(FnlangParse, Precedence) {
  auto r = run<double>("return -in0 ** 2, 2 * 3 + 4 * 2 ** 2, (1 + 2) * 3 - 4 / 2 / 2", {{"in0", {1}, {3}}});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0][0], -9);
  EXPECT_EQ(r[1][0], 22);
  EXPECT_EQ(r[2][0], 8);
}

TEST(FnlangParse, CommentsJoiningCrlf) {
  auto r = run<float>("# leading comment\r\nx = concat([in0,  # inside brackets\r\n    in0], axis=0)\r\n\r\nreturn x  # done\r\n",
                      {{"in0", {1}, {2}}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (std::vector<double>{2, 2}));
  auto d = compile_error("x = in0\r\nreturn x +\r\n", options(kIn0));
  EXPECT_EQ(d.loc, (sf::Location{2, 11}));
}

TEST(FnlangParse, NameRules) {
  auto o = options({{"in0", {3}, {}}, {"W", {3}, {}}}, {{"D", 3}});
  EXPECT_EQ(compile_error("a = in0\na = in0\nreturn a", o).code, "X-FN-REDEF");
  EXPECT_EQ(compile_error("exp = in0\nreturn exp", o).code, "X-FN-REDEF");
  EXPECT_EQ(compile_error("in1 = in0\nreturn in1", o).code, "X-FN-REDEF");
  EXPECT_EQ(compile_error("W = in0\nreturn W", o).code, "X-FN-REDEF");
  EXPECT_EQ(compile_error("D = in0\nreturn D", o).code, "X-FN-REDEF");
  EXPECT_EQ(compile_error("lambda = in0\nreturn in0", o).code, "X-FN-SYNTAX");
  EXPECT_EQ(compile_error("return exp", o).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return foo(in0)", o).code, "X-FN-NAME");
}

TEST(FnlangParse, ReturnRules) {
  EXPECT_EQ(compile_error("x = in0", options(kIn0)).code, "X-FN-RETURN");
  EXPECT_EQ(compile_error("", options(kIn0)).code, "X-FN-RETURN");
  auto d = compile_error("return in0\nx = in0", options(kIn0));
  EXPECT_EQ(d.code, "X-FN-RETURN");
  EXPECT_EQ(d.loc.line, 2);
  EXPECT_EQ(compile_error("return in0, in0", options(kIn0, {}, {{3}})).code, "X-FN-RETURN");
}

TEST(FnlangParse, ArgumentErrors) {
  EXPECT_EQ(compile_error("return sum(axis=0, in0)", options(kIn0)).code, "X-FN-SYNTAX");
  EXPECT_EQ(compile_error("return sum(in0, axes=0)", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return sum(in0, axis=in0)", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return sum(in0, axis=1)", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return einsum('ij,jk', in0, in0)", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return einsum('ii->i', in0)", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("a = chunk(in0, 3)\nreturn a", options(kIn0)).code, "X-FN-ARG");
  EXPECT_EQ(compile_error("return in0[in0]", options(kIn0)).code, "X-FN-ARG");
}

TEST(FnlangParse, IntegerLiteralLimit) {
  auto d = compile_error("return in0 + 2147483648", options(kIn0));
  EXPECT_EQ(d.code, "P-INT");
  EXPECT_EQ(d.loc, (sf::Location{1, 14}));
  EXPECT_EQ(compile_error("return in0 + 2147483647", options(kIn0)).code, "");
}

TEST(FnlangShape, ShapeErrors) {
  auto o = options({{"in0", {3}, {}}, {"in1", {4}, {}}}, {}, {{4}});
  auto d = compile_error("return in0", o);
  EXPECT_EQ(d.code, "X-FN-SHAPE");
  EXPECT_EQ(d.message, "fn fn_t line 1: returns shape (3) for output field 0, declared (4)");
  EXPECT_EQ(compile_error("return in0 + in1", o).code, "X-FN-SHAPE");
  EXPECT_EQ(compile_error("return in0 @ in1", o).code, "X-FN-SHAPE");
  EXPECT_EQ(compile_error("a, b = chunk(in0, 2)\nreturn in1", o).code, "X-FN-SHAPE");
  EXPECT_EQ(compile_error("return in1[4] + in1", o).code, "X-FN-SHAPE");
  EXPECT_EQ(compile_error("return reshape(in0, [2, -1])", o).code, "X-FN-SHAPE");
  EXPECT_EQ(compile_error("return zeros([100000, 100000])", o).code, "X-FN-LIMIT");
  auto r = options({{"E0", {3}, {}}}, {}, {{2, 3}}, Mode::Reference);
  EXPECT_EQ(compile_error("return E0", r).code, "X-REF-SHAPE");
  EXPECT_EQ(compile_error("return E0", r).message, "reference line 1: returns shape (3) for output field 0, declared (2, 3)");
}

TEST(FnlangNesting, SixtyFourLevelsAreFine) {
  std::string body = "return " + std::string(64, '(') + "in0" + std::string(64, ')');
  EXPECT_EQ(compile_error(body, options(kIn0)).code, "");
}

TEST(FnlangNesting, SixtyFifthBracketIsPNesting) {
  std::string body = "x = 1\nreturn in0 + " + std::string(65, '(') + "1" + std::string(65, ')');
  auto d = compile_error(body, options(kIn0));
  EXPECT_EQ(d.code, "P-NESTING");
  EXPECT_EQ(d.loc, (sf::Location{2, 13 + 65}));
  std::string lists = "return in0 + sum(" + std::string(70, '[') + "1" + std::string(70, ']') + ")";
  EXPECT_EQ(compile_error(lists, options(kIn0)).code, "P-NESTING");
}

TEST(FnlangNesting, HostileInputDoesNotOverflowTheStack) {
  std::string parens = "return " + std::string(100000, '(') + "in0" + std::string(100000, ')');
  EXPECT_EQ(compile_error(parens, options(kIn0)).code, "P-NESTING");
  std::string minus = "return " + std::string(100000, '-') + "in0";
  EXPECT_EQ(compile_error(minus, options(kIn0)).code, "P-NESTING");
  std::string pw = "return in0";
  for (int i = 0; i < 100000; ++i) pw += "**in0";
  EXPECT_EQ(compile_error(pw, options(kIn0)).code, "P-NESTING");
  std::string chain = "return in0";
  for (int i = 0; i < 100000; ++i) chain += "+in0";
  EXPECT_EQ(compile_error(chain, options(kIn0)).code, "P-NESTING");
  std::string open = "return " + std::string(100000, '[');
  EXPECT_EQ(compile_error(open, options(kIn0)).code, "P-NESTING");
}

}  // namespace
}  // namespace sf::fnlang::test
