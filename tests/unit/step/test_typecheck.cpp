// Type checker: typing of every primitive on hand-worked examples (step-dialect §7) and each error path.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

using namespace sf;
using namespace sf::step;

namespace {

const char* kTypecheckTask = R"YAML(dialect: step-v1
id: test/types
group: test
title: typing
description: test
sizes: {M: 5, N: 7, K: 9, D: 16, E: 2}
inputs:
  - {name: X, dtype: fp32, dims: [D, N, M], data_gen: rand}
  - {name: B, dtype: "Buffer(fp32, [D])", dims: [N, M], data_gen: rand}
  - {name: C, dtype: "Multihot(fp32, E)", dims: [N, M], data_gen: multihot, min: 1, max: 1}
  - {name: R0, dtype: fp32, dims: [M], data_gen: rand}
fns:
  - {func_name: fn_mul, name: Mul, input_dtype: [fp32, fp32], output_dtype: fp32, body: "return in0 * in1"}
  - {func_name: fn_sum, name: Sum, input_dtype: fp32, output_dtype: fp32, init: [0], body: "return state0 + in0"}
  - {func_name: fn_bsum, name: BSum, input_dtype: "Buffer(fp32, [D])", output_dtype: "Buffer(fp32, [D])", init: [0], body: "return state0 + in0"}
  - {func_name: fn_id, name: Id, input_dtype: "Buffer(fp32, [D])", output_dtype: "Buffer(fp32, [D])", body: "return in0"}
  - {func_name: fn_sq, name: Sq, input_dtype: fp32, output_dtype: fp32, body: "return in0 * in0"}
outputs:
  - {name: S0, dtype: fp32, dims: [N, M]}
reference: |
  return sum(X, axis=2)
verify: {alt_sizes: {M: 4, N: 6, K: 5, D: 8}}
)YAML";

struct Checked {
  std::optional<Program> prog;
  std::optional<TypedProgram> typed;
  Diagnostics diags;
};

class TypecheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Diagnostics ds;
    auto t = load_task_text(kTypecheckTask, "t.yaml", ds);
    ASSERT_TRUE(t) << (ds.empty() ? "" : ds[0].message);
    task_ = std::move(*t);
  }
  Checked check(const std::string& impl) {
    Checked c;
    c.prog = parse_impl(impl, {}, c.diags);
    if (!c.prog) return c;
    if (!check_names(*c.prog, task_names(task_), c.diags, &task_.sizes)) return c;
    c.typed = typecheck(*c.prog, task_, c.diags);
    return c;
  }
  // The type of the stream defined by statement i (first target).
  std::string type_of(const Checked& c, std::size_t i, std::size_t out = 0) {
    const auto& t = c.typed->stmts.at(i).outs.at(out);
    return t.dtype.str() + " " + dims_str(t.dims);
  }
  std::string first_code(const Checked& c) {
    for (const auto& d : c.diags)
      if (d.is_error()) return d.code;
    return "";
  }
  TaskDoc task_;
};

}  // namespace

TEST_F(TypecheckTest, AccumBufferizeStreamifyShapes) {
  auto c = check(
      "a = step.Accum(fn=fn_sum, b=1).apply(X)\n"  // [N, M]
      "b = step.Bufferize(a=1).apply(a)\n"         // [M] of Buffer(fp32, [N])
      "s = step.Streamify().apply(b)\n"            // [N, M]
      "return s\n");
  ASSERT_TRUE(c.typed) << c.diags[0].message;
  EXPECT_EQ(type_of(c, 0), "fp32 [N, M]");
  EXPECT_EQ(type_of(c, 1), "Buffer(fp32, [N]) [M]");
  EXPECT_EQ(type_of(c, 2), "fp32 [N, M]");
}

TEST_F(TypecheckTest, BufferizeOfBufferKeepsExistingDimsInnermost) {
  auto c = check(
      "b = step.Bufferize(a=1).apply(B)\n"  // Buffer(fp32, [D, N]) [M]
      "s = step.Streamify().apply(b)\n"
      "a = step.Map(fn=fn_sq).apply(s)\n"
      "r = step.Accum(fn=fn_sum, b=1).apply(a)\n"
      "return r\n");
  ASSERT_TRUE(c.typed) << c.diags[0].message;
  EXPECT_EQ(type_of(c, 0), "Buffer(fp32, [D, N]) [M]");
  EXPECT_EQ(type_of(c, 1), "fp32 [D, N, M]");
}

TEST_F(TypecheckTest, PromoteRepeatFlattenReshape) {
  auto c = check(
      "p = step.Promote(b=0).apply(X)\n"          // [1, D, N, M]
      "q = step.Promote(b=4).apply(p)\n"          // [1, D, N, M, 1]
      "f = step.Flatten(L=[1]).apply(q)\n"        // [D, N, M, 1]
      "r = step.Reshape(L=[0], S=4).apply(f)\n"   // [4, D/4, N, M, 1]
      "t = step.Repeat(n=K).apply(r)\n"           // [K, 4, D/4, N, M, 1]
      "u = step.Flatten(L=[1, 2]).apply(t)\n"     // [D*K, N, M, 1]
      "v = step.Accum(fn=fn_sum, b=1).apply(u)\n" // [N, M, 1]
      "w = step.Flatten(L=(2,)).apply(v)\n"       // [N, M]
      "return w\n");
  ASSERT_TRUE(c.typed) << c.diags[0].message;
  EXPECT_EQ(type_of(c, 0), "fp32 [1, D, N, M]");
  EXPECT_EQ(type_of(c, 1), "fp32 [1, D, N, M, 1]");
  EXPECT_EQ(type_of(c, 2), "fp32 [D, N, M, 1]");
  EXPECT_EQ(type_of(c, 3), "fp32 [4, D/4, N, M, 1]");
  EXPECT_EQ(type_of(c, 4), "fp32 [K, 4, D/4, N, M, 1]");
  EXPECT_EQ(type_of(c, 5), "fp32 [D*K, N, M, 1]");
  EXPECT_EQ(type_of(c, 7), "fp32 [N, M]");
}

TEST_F(TypecheckTest, ZipAndAutoZipMap) {
  auto c = check(
      "y = step.Map(fn=fn_sq).apply(X)\n"
      "X2 = step.Accum(fn=fn_sum, b=1).apply(y)\n"
      "z = step.Zip().apply((X2, X2b))\n"
      "return z\n");
  EXPECT_FALSE(c.typed);  // X2b undefined: a name error stops typing
  auto d = check(
      "a, b = step.Copy().apply(X)\n"
      "m = step.Map(fn=fn_mul).apply((a, b))\n"
      "r = step.Accum(fn=fn_sum, b=1).apply(m)\n"
      "return r\n");
  ASSERT_TRUE(d.typed) << d.diags[0].message;
  EXPECT_EQ(type_of(d, 0), "fp32 [D, N, M]");
  EXPECT_EQ(type_of(d, 0, 1), "fp32 [D, N, M]");
  EXPECT_EQ(type_of(d, 1), "fp32 [D, N, M]");
}

TEST_F(TypecheckTest, RankErrorsCarryTheSpecHints) {
  auto c = check("a = step.Accum(fn=fn_sum, b=3).apply(X)\nreturn a\n");
  ASSERT_EQ(first_code(c), "T-RANK");
  EXPECT_NE(c.diags[0].message.find("add an outer placeholder with step.Promote(b=3)"), std::string::npos)
      << c.diags[0].message;
  EXPECT_EQ(c.diags[0].loc.line, 1);
  EXPECT_EQ(c.diags[0].message.rfind("line 1: step.Accum(b=3) reduces the 3 innermost dimension(s)", 0), 0u)
      << c.diags[0].message;
  auto r0 = check("a = step.Accum(fn=fn_sum, b=1).apply(R0)\nreturn a\n");
  ASSERT_EQ(first_code(r0), "T-RANK");
  EXPECT_NE(r0.diags[0].message.find("A rank-0 stream has nothing to reduce"), std::string::npos);
}

TEST_F(TypecheckTest, FnErrors) {
  EXPECT_EQ(first_code(check("a = step.Map(fn=fn_nope).apply(X)\nreturn a\n")), "T-FN-UNKNOWN");
  EXPECT_EQ(first_code(check("a = step.Map(fn=fn_sum).apply(X)\nreturn a\n")), "T-FN-KIND");
  EXPECT_EQ(first_code(check("a = step.Accum(fn=fn_sq, b=1).apply(X)\nreturn a\n")), "T-FN-KIND");
  auto c = check("a = step.Map(fn=fn_id).apply(X)\nreturn a\n");
  ASSERT_EQ(first_code(c), "T-FN-INPUT");
  EXPECT_NE(c.diags[0].message.find("fn_id works on whole buffers: Bufferize first."), std::string::npos)
      << c.diags[0].message;
  auto s = check("a = step.Map(fn=fn_sq).apply(B)\nreturn a\n");
  ASSERT_EQ(first_code(s), "T-FN-INPUT");
  EXPECT_NE(s.diags[0].message.find("fn_sq works on single elements: Streamify first."), std::string::npos);
}

TEST_F(TypecheckTest, ParameterErrors) {
  EXPECT_EQ(first_code(check("a = step.Accum(fn=fn_sum).apply(X)\nreturn a\n")), "T-PARAM-MISSING");
  EXPECT_EQ(first_code(check("a = step.Streamify(a=1).apply(B)\nreturn a\n")), "T-PARAM-UNKNOWN");
  auto c = check("a = step.Repeat(n=M_value).apply(R0)\nreturn a\n");
  ASSERT_EQ(first_code(c), "T-PARAM-VALUE");
  EXPECT_NE(c.diags[0].message.find("use the symbol M so the shape stays symbolic"), std::string::npos);
  EXPECT_EQ(first_code(check("a = step.Promote(b=5).apply(X)\nreturn a\n")), "T-PARAM-VALUE");
  EXPECT_EQ(first_code(check("a = step.Flatten(L=[1, 3]).apply(X)\nreturn a\n")), "T-PARAM-VALUE");
  EXPECT_EQ(first_code(check("a = step.Reshape(L=[1], S=2).apply(X)\nreturn a\n")), "T-RESHAPE-DIV");  // N=7
}

TEST_F(TypecheckTest, ZipDimsHints) {
  auto c = check(
      "a = step.Accum(fn=fn_sum, b=1).apply(X)\n"
      "z = step.Zip().apply((a, R0))\n"
      "return z\n");
  ASSERT_EQ(first_code(c), "T-ZIP-DIMS");
  EXPECT_NE(c.diags[0].message.find("more dimension(s): Accum, Repeat or RepeatRef can align them"), std::string::npos)
      << c.diags[0].message;
  EXPECT_EQ(c.diags[0].loc.line, 2);
}

TEST_F(TypecheckTest, UnknownPrimitiveListsTheKnownOnesInTableOrder) {
  const std::string known =
      "(known: Map, Zip, Accum, Scan, Bufferize, Streamify, Promote, Repeat, RepeatRef, Flatten, Reshape, Copy, "
      "Partition, Merge, Identity)";
  auto c = check("a = step.Frob(n=2).apply(X)\nreturn a\n");
  ASSERT_FALSE(c.diags.empty());
  EXPECT_EQ(first_code(c), "P-PRIM");
  EXPECT_NE(c.diags[0].message.find("unknown primitive 'step.Frob' " + known), std::string::npos)
      << c.diags[0].message;
  EXPECT_EQ(c.diags[0].loc.line, 1);
  auto d = check(
      "C0, C1 = step.Copy().apply(C)\n"
      "P = step.Partition(N=E_value).apply((B, C0))\n"
      "F = [step.Mapp(fn=fn_id).apply(s) for s in P]\n"
      "return F\n");
  ASSERT_FALSE(d.diags.empty());
  EXPECT_EQ(first_code(d), "P-PRIM");
  const auto e = std::find_if(d.diags.begin(), d.diags.end(), [](const auto& x) { return x.code == "P-PRIM"; });
  EXPECT_NE(e->message.find("unknown primitive 'step.Mapp' " + known), std::string::npos) << e->message;
  EXPECT_EQ(e->loc.line, 3);
}

TEST_F(TypecheckTest, PartitionAndMerge) {
  auto c = check(
      "P = step.Partition(N=E).apply((B, C))\n"
      "F = [step.Map(fn=fn_id).apply(s) for s in P]\n"
      "Y = step.Merge(fn=fn_bsum).apply((F, C2))\n"
      "return Y\n");
  EXPECT_FALSE(c.typed);  // C2 undefined
  auto d = check(
      "C0, C1 = step.Copy().apply(C)\n"
      "P = step.Partition(N=E_value).apply((B, C0))\n"
      "F = [step.Map(fn=fn_id).apply(s) for s in P]\n"
      "Y = step.Merge(fn=fn_bsum).apply((F, C1))\n"
      "S = step.Streamify().apply(Y)\n"
      "r = step.Accum(fn=fn_sum, b=1).apply(S)\n"
      "return r\n");
  ASSERT_TRUE(d.typed) << d.diags[0].message;
  EXPECT_EQ(type_of(d, 1, 0), "Buffer(fp32, [D]) [P#0]");
  EXPECT_EQ(type_of(d, 1, 1), "Buffer(fp32, [D]) [P#1]");
  EXPECT_EQ(type_of(d, 3), "Buffer(fp32, [D]) [N, M]");
  auto n = check("P = step.Partition(N=3).apply((B, C))\nreturn P[0]\n");
  EXPECT_EQ(first_code(n), "T-SEL-N");
  auto t = check("P = step.Partition(N=2).apply((B, X))\nreturn P[0]\n");
  EXPECT_EQ(first_code(t), "T-SEL-TYPE");
}

TEST_F(TypecheckTest, OutputChecks) {
  auto c = check("a = step.Accum(fn=fn_sum, b=1).apply(X)\nreturn a, a\n");
  EXPECT_EQ(first_code(c), "O-COUNT");
  auto d = check("return X\n");
  ASSERT_EQ(first_code(d), "O-DIMS");
  EXPECT_EQ(d.diags[0].message, "line 1: output S0 must have dims [N, M], but 'X' has dims [D, N, M]");
  auto e = check("b = step.Bufferize(a=1).apply(X)\nreturn b\n");
  EXPECT_EQ(first_code(e), "O-DTYPE");
}

TEST_F(TypecheckTest, StaticElementLimit) {
  auto c = check(
      "a = step.Repeat(n=1000).apply(X)\n"
      "b = step.Repeat(n=1000).apply(a)\n"
      "c = step.Repeat(n=1000).apply(b)\n"
      "d = step.Accum(fn=fn_sum, b=4).apply(c)\n"
      "return d\n");
  ASSERT_EQ(first_code(c), "L-ELEMENTS");
  EXPECT_EQ(c.diags[0].loc.line, 2);  // 1000*1000*560 > 4e6 at the second Repeat
}

// §15.11: every size-dependent rule under every binding, the binding named in the message.
TEST(TypecheckBindings, SizeDependentRulesRunUnderEveryBinding) {
  std::string text = kTypecheckTask;
  text.replace(text.find("verify: {alt_sizes: {M: 4, N: 6, K: 5, D: 8}}"), 46,
               "verify: {alt_sizes: {M: 4, N: 6, K: 5, D: 8}, general_sizes: {D: 6, E: 3}}");
  Diagnostics ds;
  auto task = load_task_text(text, "t.yaml", ds);
  ASSERT_TRUE(task) << (ds.empty() ? "" : ds[0].message);
  ASSERT_TRUE(task->verify.general_sizes);
  EXPECT_EQ(task->verify.general_sizes->at("E"), 3);
  EXPECT_EQ(task->verify.general_sizes->at("M"), 5);  // completed from sizes
  ASSERT_EQ(task->static_bindings().size(), 3u);
  EXPECT_EQ(task->static_bindings()[2].name, "verify.general_sizes");
  auto run = [&](const std::string& impl, Diagnostics& d) {
    auto prog = parse_impl(impl, {}, d);
    EXPECT_TRUE(prog);
    EXPECT_TRUE(check_names(*prog, task_names(*task), d, &task->sizes));
    return typecheck(*prog, *task, d).has_value();
  };
  // N=E is general; a literal N=2 matches `sizes` only.
  Diagnostics good;
  EXPECT_TRUE(run("C0, C1 = step.Copy().apply(C)\n"
                  "P = step.Partition(N=E).apply((B, C0))\n"
                  "F = [step.Map(fn=fn_id).apply(s) for s in P]\n"
                  "Y = step.Merge(fn=fn_bsum).apply((F, C1))\n"
                  "S = step.Streamify().apply(Y)\n"
                  "r = step.Accum(fn=fn_sum, b=1).apply(S)\n"
                  "return r\n",
                  good))
      << (good.empty() ? "" : good[0].message);
  Diagnostics lit;
  EXPECT_FALSE(run("C0, C1 = step.Copy().apply(C)\n"
                   "P = step.Partition(N=2).apply((B, C0))\n"
                   "F = [step.Map(fn=fn_id).apply(s) for s in P]\n"
                   "Y = step.Merge(fn=fn_bsum).apply((F, C1))\n"
                   "S = step.Streamify().apply(Y)\n"
                   "r = step.Accum(fn=fn_sum, b=1).apply(S)\n"
                   "return r\n",
                   lit));
  ASSERT_FALSE(lit.empty());
  EXPECT_EQ(lit[0].code, "T-SEL-N");
  EXPECT_EQ(lit[0].loc.line, 2);
  EXPECT_NE(lit[0].message.find("under verify.general_sizes: D=6, E=3"), std::string::npos) << lit[0].message;
  // Two names for the list: the lane count is baked in.
  Diagnostics two;
  EXPECT_FALSE(run("C0, C1 = step.Copy().apply(C)\n"
                   "P0, P1 = step.Partition(N=E).apply((B, C0))\n"
                   "Y = step.Merge(fn=fn_bsum).apply(([P0, P1], C1))\n"
                   "S = step.Streamify().apply(Y)\n"
                   "r = step.Accum(fn=fn_sum, b=1).apply(S)\n"
                   "return r\n",
                   two));
  ASSERT_FALSE(two.empty());
  EXPECT_EQ(two[0].code, "T-TARGETS");
  EXPECT_NE(two[0].message.find("verify.general_sizes"), std::string::npos);
  // S=8 divides D under sizes (16) and alt_sizes (8) but not under general_sizes (6).
  Diagnostics div;
  EXPECT_FALSE(run("a = step.Reshape(L=[0], S=8).apply(X)\nreturn a\n", div));
  auto it = std::find_if(div.begin(), div.end(), [](const Diagnostic& d) { return d.code == "T-RESHAPE-DIV"; });
  ASSERT_NE(it, div.end());
  EXPECT_NE(it->message.find("under verify.general_sizes"), std::string::npos) << it->message;
  // Under one binding alone (the verifier's runs), the Partition follows that binding.
  Diagnostics one;
  auto prog = parse_impl(
      "C0, C1 = step.Copy().apply(C)\n"
      "P = step.Partition(N=E).apply((B, C0))\n"
      "F = [step.Map(fn=fn_id).apply(s) for s in P]\n"
      "Y = step.Merge(fn=fn_bsum).apply((F, C1))\n"
      "S = step.Streamify().apply(Y)\n"
      "r = step.Accum(fn=fn_sum, b=1).apply(S)\n"
      "return r\n",
      {}, one);
  ASSERT_TRUE(prog);
  TypecheckOptions to;
  to.only_binding = &*task->verify.general_sizes;
  auto typed = typecheck(*prog, *task, one, to);
  ASSERT_TRUE(typed) << (one.empty() ? "" : one[0].message);
  ASSERT_EQ(typed->stmts.size(), 7u);
  typed->stmts[0] = typed->stmts[1];
  EXPECT_EQ(typed->stmts[0].call.N, 3);
  EXPECT_EQ(typed->stmts[0].outs.size(), 3u);
}
