// Impl parser: grammar constructs (step-dialect §5.2) and lexical rules (§5.1, §15.8).
#include <gtest/gtest.h>

#include "test_parser_util.hpp"

namespace sf::step {
namespace {

using testutil::kExample54;
using testutil::parse_ok;

TEST(Parser, Example54) {
  Program p = parse_ok(kExample54);
  ASSERT_EQ(p.stmts.size(), 8u);
  EXPECT_EQ(p.stmts[0].kind, Statement::Kind::FnList);
  EXPECT_EQ(p.stmts[0].targets, std::vector<std::string>{"expert_fns"});
  EXPECT_EQ(p.stmts[0].fn_names, (std::vector<std::string>{"fn_a", "fn_b"}));
  EXPECT_EQ(p.stmts[0].fn_name_locs[1], (Location{1, 21}));

  const Statement& bz = p.stmts[1];
  EXPECT_EQ(bz.kind, Statement::Kind::Assign);
  EXPECT_EQ(bz.call.prim, "Bufferize");
  EXPECT_EQ(bz.call.loc, (Location{2, 6}));
  EXPECT_EQ(bz.call.prim_loc, (Location{2, 11}));
  ASSERT_EQ(bz.call.kwargs.size(), 1u);
  EXPECT_EQ(bz.call.kwargs[0].key, "a");
  EXPECT_EQ(bz.call.kwargs[0].value.kind, KwVal::Kind::Int);
  EXPECT_EQ(bz.call.kwargs[0].value.integer, 1);
  EXPECT_EQ(bz.call.kwargs[0].loc, (Location{2, 21}));
  EXPECT_FALSE(bz.call.arg.tuple);
  ASSERT_EQ(bz.call.arg.refs.size(), 1u);
  EXPECT_EQ(bz.call.arg.refs[0].name, "E0");
  EXPECT_EQ(bz.call.arg.refs[0].loc, (Location{2, 32}));

  EXPECT_EQ(p.stmts[2].targets, (std::vector<std::string>{"E1_0", "E1_1"}));
  EXPECT_EQ(p.stmts[2].target_locs[1], (Location{3, 7}));
  EXPECT_TRUE(p.stmts[2].call.kwargs.empty());

  const Statement& part = p.stmts[3];
  EXPECT_EQ(part.call.kwargs[0].value.kind, KwVal::Kind::Name);
  EXPECT_EQ(part.call.kwargs[0].value.name, "E_value");
  EXPECT_TRUE(part.call.arg.tuple);
  EXPECT_EQ(part.call.arg.refs.size(), 2u);
  EXPECT_EQ(part.call.arg.refs[1].name, "E1_0");

  const Statement& comp = p.stmts[4];
  EXPECT_EQ(comp.kind, Statement::Kind::Comprehension);
  EXPECT_TRUE(comp.comp.zipped);
  EXPECT_TRUE(comp.comp.fns_first);
  EXPECT_EQ(comp.comp.fn_var, "f");
  EXPECT_EQ(comp.comp.stream_var, "s");
  EXPECT_EQ(comp.comp.fns_name, "expert_fns");
  EXPECT_EQ(comp.comp.list_name, "E3");
  EXPECT_EQ(comp.comp.body.prim, "Map");
  EXPECT_EQ(comp.comp.stream_var_loc, (Location{5, 38}));
  EXPECT_EQ(comp.comp.list_loc, (Location{5, 59}));

  EXPECT_EQ(p.stmts[7].kind, Statement::Kind::Return);
  ASSERT_EQ(p.stmts[7].returns.size(), 1u);
  EXPECT_EQ(p.stmts[7].returns[0].name, "E6");
  EXPECT_EQ(p.stmts[7].loc, (Location{8, 1}));
  EXPECT_EQ(p.last_line, 8);
}

TEST(Parser, ZipOrderAndForms) {
  Program p = parse_ok(
      "A = [step.Map(fn=f).apply(s) for s, f in zip(L, fns)]\n"
      "B = [step.Map(fn=g).apply(t) for (g, t) in zip([fn_a, fn_b], L)]\n"
      "C = [step.Promote(b=1).apply(x) for x in L]\n"
      "D = [step.Accum(fn=fn_sum, b=1).apply(y) for y, g in zip([P, Q], fns)]\n");
  const auto& a = p.stmts[0].comp;
  EXPECT_FALSE(a.fns_first);
  EXPECT_EQ(a.stream_var, "s");
  EXPECT_EQ(a.fn_var, "f");
  EXPECT_EQ(a.list_name, "L");
  EXPECT_EQ(a.fns_name, "fns");
  const auto& b = p.stmts[1].comp;
  EXPECT_TRUE(b.fns_first);
  EXPECT_EQ(b.fns_literal, (std::vector<std::string>{"fn_a", "fn_b"}));
  EXPECT_EQ(b.fns_literal_locs[1], (Location{2, 55}));
  EXPECT_EQ(b.stream_var, "t");
  const auto& c = p.stmts[2].comp;
  EXPECT_FALSE(c.zipped);
  EXPECT_TRUE(c.fn_var.empty());
  EXPECT_EQ(c.stream_var, "x");
  EXPECT_EQ(c.list_name, "L");
  const auto& d = p.stmts[3].comp;  // the stream variable is the apply argument
  EXPECT_FALSE(d.fns_first);
  EXPECT_EQ(d.stream_var, "y");
  EXPECT_EQ(d.fn_var, "g");
  EXPECT_EQ(d.list_literal, (std::vector<std::string>{"P", "Q"}));
}

TEST(Parser, KwargsRefsAndTrailingCommas) {
  Program p = parse_ok(
      "(A, B,) = step.Copy().apply((X))\n"
      "C = step.Flatten(L=(1,),).apply(A)\n"
      "D = step.Reshape(L=[0, 2,], S=4).apply(B)\n"
      "E = step.Merge(fn=fn_sum).apply(([P[0], P[1],], sel))\n"
      "return (C, D, E,)\n");
  EXPECT_EQ(p.stmts[0].targets, (std::vector<std::string>{"A", "B"}));
  EXPECT_FALSE(p.stmts[0].call.arg.tuple);
  EXPECT_EQ(p.stmts[0].call.arg.refs[0].name, "X");
  EXPECT_EQ(p.stmts[1].call.kwargs[0].value.kind, KwVal::Kind::IntList);
  EXPECT_EQ(p.stmts[1].call.kwargs[0].value.list, std::vector<std::int64_t>{1});
  EXPECT_EQ(p.stmts[2].call.kwargs[0].value.list, (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(p.stmts[2].call.kwargs[1].value.integer, 4);
  const auto& m = p.stmts[3].call.arg;
  EXPECT_TRUE(m.tuple);
  ASSERT_EQ(m.refs.size(), 2u);
  EXPECT_EQ(m.refs[0].kind, Ref::Kind::List);
  ASSERT_EQ(m.refs[0].items.size(), 2u);
  EXPECT_EQ(m.refs[0].items[1].kind, Ref::Kind::Index);
  EXPECT_EQ(m.refs[0].items[1].name, "P");
  EXPECT_EQ(m.refs[0].items[1].index, 1);
  EXPECT_EQ(m.refs[0].items[1].loc, (Location{4, 41}));
  EXPECT_EQ(p.stmts[4].returns.size(), 3u);
}

TEST(Parser, ImplicitJoiningCommentsAndWhitespace) {
  // CRLF ends lines, a lone CR and tabs are whitespace; newlines inside brackets join lines.
  Program p = parse_ok(
      "# header comment\r\n"
      "\r\n"
      "\tA = step.Map(\r\n"
      "      fn=fn_a,   # the fn\n"
      "  ).apply(\rE0)\n"
      "   \t  # only a comment\n"
      "return A  # done\n");
  ASSERT_EQ(p.stmts.size(), 2u);
  EXPECT_EQ(p.stmts[0].loc, (Location{3, 2}));  // the tab is one column
  EXPECT_EQ(p.stmts[0].end_line, 5);
  EXPECT_EQ(p.stmts[0].call.kwargs[0].loc, (Location{4, 7}));
  EXPECT_EQ(p.stmts[0].call.arg.refs[0].loc, (Location{5, 12}));
  EXPECT_EQ(p.stmts[1].loc, (Location{7, 1}));
  EXPECT_EQ(p.last_line, 7);
}

TEST(Parser, LineStartsMapLocations) {
  ParseOptions opt;
  opt.line_starts = {{10, 5}, {11, 5}, {12, 3}};
  Program p = parse_ok("A = step.Map(fn=fn_a).apply(E0)\n  return A\n", opt);
  EXPECT_EQ(p.stmts[0].loc, (Location{10, 5}));
  EXPECT_EQ(p.stmts[0].call.arg.refs[0].loc, (Location{10, 33}));
  EXPECT_EQ(p.stmts[1].loc, (Location{11, 7}));
  EXPECT_EQ(p.last_line, 11);

  Diagnostic d = testutil::parse_err("A = step.Map(fn=fn_a).apply(E0)\nB = 1.5\n", opt);
  EXPECT_EQ(d.code, "P-SYNTAX");
  EXPECT_EQ(d.loc, (Location{11, 9}));
  EXPECT_EQ(d.message.rfind("line 11: ", 0), 0u) << d.message;
}

TEST(Parser, EmptyAndCommentOnlyPrograms) {
  Program p = parse_ok("");
  EXPECT_TRUE(p.stmts.empty());
  Program q = parse_ok("# nothing\n\n# here\n");
  EXPECT_TRUE(q.stmts.empty());
  EXPECT_EQ(q.last_line, 3);
}

TEST(Parser, IntLimits) {
  Program p = parse_ok("A = step.Repeat(n=2147483647).apply(E0)\n");
  EXPECT_EQ(p.stmts[0].call.kwargs[0].value.integer, 2147483647);
  Diagnostic d = testutil::parse_err("A = step.Repeat(n=2147483648).apply(E0)\n");
  EXPECT_EQ(d.code, "P-INT");
  EXPECT_EQ(d.loc, (Location{1, 19}));
  Diagnostic e = testutil::parse_err("return L[99999999999999999999999999999]\n");
  EXPECT_EQ(e.code, "P-INT");
  EXPECT_EQ(e.loc, (Location{1, 10}));
}

TEST(Parser, NestingLimit) {
  std::string ok = "return " + std::string(64, '[') + "A" + std::string(64, ']') + "\n";
  parse_ok(ok);
  std::string deep = "return " + std::string(65, '[') + "A" + std::string(65, ']') + "\n";
  Diagnostic d = testutil::parse_err(deep);
  EXPECT_EQ(d.code, "P-NESTING");
  EXPECT_EQ(d.loc, (Location{1, 72}));  // the 65th bracket
  // 100k brackets: bounded (no deep recursion), reported at the 65th.
  std::string hostile = "return " + std::string(100000, '[');
  ParseOptions big;
  big.max_bytes = 1 << 20;
  Diagnostic h = testutil::parse_err(hostile, big);
  EXPECT_EQ(h.code, "P-NESTING");
  EXPECT_EQ(h.loc, (Location{1, 72}));
  // 100k '(' at the start of a statement: the nesting limit wins over the earlier grammar error (a bracket
  // bomb is always P-NESTING, at the 65th bracket).
  Diagnostic h2 = testutil::parse_err(std::string(100000, '('), big);
  EXPECT_EQ(h2.code, "P-NESTING");
  EXPECT_EQ(h2.loc, (Location{1, 65}));
  ParseOptions small;
  small.max_nesting = 2;
  Diagnostic s = testutil::parse_err("A = step.Map(fn=f).apply((B, [C]))\n", small);
  EXPECT_EQ(s.code, "P-NESTING");
  EXPECT_EQ(s.loc, (Location{1, 30}));
}

TEST(Parser, StatementLimit) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "A" + std::to_string(i) + " = step.Identity().apply(E0)\n";
  EXPECT_EQ(parse_ok(text).stmts.size(), 200u);
  text += "return A0\n";
  Diagnostic d = testutil::parse_err(text);
  EXPECT_EQ(d.code, "L-STATEMENTS");
  EXPECT_EQ(d.loc, (Location{201, 1}));
  EXPECT_EQ(d.stage(), Stage::Limit);
  ParseOptions opt;
  opt.max_statements = 2;
  Diagnostic e = testutil::parse_err("# c\nA = step.Identity().apply(E0)\n\nB = [fn_a]\n  return A\n", opt);
  EXPECT_EQ(e.code, "L-STATEMENTS");
  EXPECT_EQ(e.loc, (Location{5, 3}));
}

TEST(Parser, SizeLimit) {
  ParseOptions opt;
  opt.max_bytes = 10;
  Diagnostic d = testutil::parse_err("return ABCDEFGHIJ\n", opt);
  EXPECT_EQ(d.code, "L-SIZE");
  EXPECT_EQ(d.stage(), Stage::Limit);
  EXPECT_EQ(d.loc, (Location{1, 1}));
  parse_ok("return AB\n", opt);
  std::string big(64 * 1024 + 1, ' ');
  EXPECT_EQ(testutil::parse_err(big).code, "L-SIZE");
}

TEST(Parser, ProgramLengthCountsBracketedStatementsOnce) {
  Program p = parse_ok("fns = [fn_a,\n  fn_b]\nA = step.Map(\n fn=fn_a).apply(E0)\nreturn A\n");
  EXPECT_EQ(p.stmts.size(), 3u);
  EXPECT_EQ(p.stmts[0].end_line, 2);
}

}  // namespace
}  // namespace sf::step
