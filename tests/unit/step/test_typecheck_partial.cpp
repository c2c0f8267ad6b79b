// The type checker keeps the types of the statements before the first error (TypecheckOptions::partial), with
// the same diagnostics as without it; statements_before_error finds the statement an error is in.
#include <gtest/gtest.h>

#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

using namespace sf;
using namespace sf::step;

namespace partial_test {

const char* kTask = R"YAML(dialect: step-v1
id: test/partial
group: test
title: partial types
description: test
sizes: {M: 5, N: 7, D: 16}
inputs:
  - {name: X, dtype: fp32, dims: [D, N, M], data_gen: rand}
fns:
  - {func_name: fn_sum, name: Sum, input_dtype: fp32, output_dtype: fp32, init: [0], body: "return state0 + in0"}
  - {func_name: fn_sq, name: Sq, input_dtype: fp32, output_dtype: fp32, body: "return in0 * in0"}
outputs:
  - {name: S0, dtype: fp32, dims: [N, M]}
reference: |
  return sum(X, axis=2)
verify: {alt_sizes: {M: 4, N: 6, D: 8}}
)YAML";

struct Run {
  std::optional<Program> prog;
  std::optional<TypedProgram> typed;
  TypedProgram partial;
  Diagnostics diags, diags_without;
};

Run check(const std::string& impl) {
  Run r;
  Diagnostics ds;
  auto task = load_task_text(kTask, "t.yaml", ds);
  EXPECT_TRUE(task) << (ds.empty() ? "" : ds[0].message);
  if (!task) return r;
  r.prog = parse_impl(impl, {}, r.diags);
  EXPECT_TRUE(r.prog);
  if (!r.prog || !check_names(*r.prog, task_names(*task), r.diags, &task->sizes)) return r;
  typecheck(*r.prog, *task, r.diags_without);
  TypecheckOptions opt;
  opt.partial = &r.partial;
  r.typed = typecheck(*r.prog, *task, r.diags, opt);
  return r;
}

std::string type_of(const TypedProgram& tp, std::size_t i) {
  const auto& t = tp.stmts.at(i).outs.at(0);
  return t.dtype.str() + " " + dims_str(t.dims);
}

void expect_same_diagnostics(const Diagnostics& a, const Diagnostics& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].code, b[i].code);
    EXPECT_EQ(a[i].message, b[i].message);
    EXPECT_EQ(a[i].loc.line, b[i].loc.line);
    EXPECT_EQ(a[i].loc.column, b[i].loc.column);
  }
}

}  // namespace partial_test

using partial_test::check;
using partial_test::expect_same_diagnostics;
using partial_test::type_of;

TEST(TypecheckPartial, KeepsTheTypesOfTheStatementsBeforeTheError) {
  auto r = check(
      "a = step.Accum(fn=fn_sum, b=1).apply(X)\n"   // line 1: [N, M]
      "b = step.Bufferize(a=1).apply(a)\n"          // line 2: [M] of Buffer(fp32, [N])
      "c = step.Accum(fn=fn_sum, b=7).apply(b)\n"   // line 3: b=7 is beyond the rank: an error
      "d = step.Map(fn=fn_sq).apply(X)\n"           // line 4: types, but after the error
      "return c\n");
  ASSERT_FALSE(r.typed);
  ASSERT_FALSE(r.diags.empty());
  EXPECT_EQ(r.diags.front().loc.line, 3);
  expect_same_diagnostics(r.diags, r.diags_without);
  ASSERT_EQ(r.partial.stmts.size(), 5u);
  EXPECT_EQ(type_of(r.partial, 0), "fp32 [N, M]");
  EXPECT_EQ(type_of(r.partial, 1), "Buffer(fp32, [N]) [M]");
  EXPECT_TRUE(r.partial.stmts[2].outs.empty());
  EXPECT_TRUE(r.partial.stmts[3].outs.empty());  // lines from the error on keep nothing
  EXPECT_TRUE(r.partial.returns.empty());
}

TEST(TypecheckPartial, AnErrorUnderTheOtherBindingStillKeepsTheLinesAbove) {
  // Reshape of N by S=7 divides N=7 (sizes) but not N=6 (verify.alt_sizes): the error comes from that binding.
  auto r = check(
      "a = step.Map(fn=fn_sq).apply(X)\n"
      "b = step.Reshape(L=[1], S=7).apply(a)\n"
      "return b\n");
  ASSERT_FALSE(r.typed);
  expect_same_diagnostics(r.diags, r.diags_without);
  bool alt = false;
  for (const auto& d : r.diags) alt = alt || (d.is_error() && d.message.find("alt_sizes") != std::string::npos);
  EXPECT_TRUE(alt) << r.diags.front().message;
  ASSERT_EQ(r.partial.stmts.size(), 3u);
  EXPECT_EQ(type_of(r.partial, 0), "fp32 [D, N, M]");
  EXPECT_TRUE(r.partial.stmts[1].outs.empty());
}

TEST(TypecheckPartial, StatementsBeforeErrorFindsTheStatementTheErrorIsIn) {
  const std::vector<int> lines{3, 4, 7, 9};  // statement 2 spans lines 7-8
  auto at = [](int line, Severity s = Severity::Error) {
    Diagnostic d;
    d.severity = s;
    d.code = "T-X";
    d.loc = {line, 1};
    return d;
  };
  EXPECT_EQ(statements_before_error(lines, {}), 4u);
  EXPECT_EQ(statements_before_error(lines, {at(8)}), 2u);
  EXPECT_EQ(statements_before_error(lines, {at(9), at(4)}), 1u);
  EXPECT_EQ(statements_before_error(lines, {at(3)}), 0u);
  EXPECT_EQ(statements_before_error(lines, {at(1)}), 4u);                     // before the program: not in one
  EXPECT_EQ(statements_before_error(lines, {at(4, Severity::Warning)}), 4u);  // warnings do not stop types
  EXPECT_EQ(statements_before_error({}, {at(4)}), 0u);
}
