// compile_task: fns and the reference compiled per size binding, shapes, X-DIM and fnlang errors.
#include <gtest/gtest.h>

#include "core/step/task_compile.hpp"

using namespace sf;
using namespace sf::step;

namespace {

const std::string kTask = R"YAML(dialect: step-v1
id: toy/rowsum
group: toy
title: Row sums scaled by a weight
description: x
sizes: {M: 5, N: 7, D: 16}
inputs:
  - {name: E0, dtype: "Buffer(fp32, [D])", dims: [M, N], data_gen: rand}
parameters:
  - {name: W, dims: [D, M], data_gen: randn}
fns:
  - func_name: fn_acc
    name: Acc
    input_dtype: "Buffer(fp32, [D])"
    output_dtype: "Buffer(fp32, [D])"
    init: [0]
    body: |
      return state0 + in0
  - func_name: fn_pair
    name: Pair
    input_dtype: ["Buffer(fp32, [D])", fp32]
    output_dtype: [fp32, "Buffer(fp32, [D/4])"]
    body: |
      return in1 * sum(in0), in0[0:D//4]
outputs:
  - {name: S0, dtype: fp32, dims: [D, N]}
reference: |
  return sum(E0, axis=1)
verify: {alt_sizes: {M: 4, N: 6, D: 8}}
)YAML";

TaskDoc load_ok(const std::string& text) {
  Diagnostics d;
  auto t = load_task_text(text, "", d);
  EXPECT_TRUE(t) << (d.empty() ? "" : d[0].message);
  return t ? *t : TaskDoc{};
}

}  // namespace

TEST(TaskCompile, CompilesFnsAndReferenceWithShapes) {
  TaskDoc t = load_ok(kTask);
  Diagnostics d;
  auto c = compile_task(t, t.sizes, d);
  ASSERT_TRUE(c) << (d.empty() ? "" : d[0].code + " " + d[0].message);
  EXPECT_EQ(c->doc, &t);
  EXPECT_EQ(c->param_shapes.at("W"), (fnlang::Shape{5, 16}));  // dims [D, M] -> tensor (M, D)
  ASSERT_EQ(c->fns.size(), 2u);
  const CompiledFn& acc = c->fns.at("fn_acc");
  EXPECT_EQ(acc.decl, &t.fns[0]);
  EXPECT_EQ(acc.in_esh, (std::vector<fnlang::Shape>{{16}}));
  EXPECT_EQ(acc.out_esh, (std::vector<fnlang::Shape>{{16}}));
  // args: in0, state0, then the parameter W
  EXPECT_EQ(acc.program->arg_count(), 3u);
  const CompiledFn& pair = c->fns.at("fn_pair");
  EXPECT_EQ(pair.in_esh, (std::vector<fnlang::Shape>{{16}, {}}));
  EXPECT_EQ(pair.out_esh, (std::vector<fnlang::Shape>{{}, {4}}));
  EXPECT_EQ(pair.program->arg_count(), 3u);  // in0, in1, W
  ASSERT_TRUE(c->reference);
  EXPECT_EQ(c->reference->output_shapes(), (std::vector<fnlang::Shape>{{7, 16}}));
  EXPECT_EQ(c->reference->arg_count(), 2u);  // E0 as (N, M, D), W

  // evaluate the stateful fn once: state0 + in0
  std::vector<float> in(16), st(16, 1.0f), w(5 * 16, 0.0f), out(16);
  for (int i = 0; i < 16; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
  const float* args[] = {in.data(), st.data(), w.data()};
  float* outs[] = {out.data()};
  fnlang::Workspace<float> ws(*acc.program);
  fnlang::EvalReport rep;
  ASSERT_TRUE(acc.program->eval(args, outs, ws, &rep));
  EXPECT_FLOAT_EQ(out[0], 1.0f);
  EXPECT_FLOAT_EQ(out[15], 16.0f);
}

TEST(TaskCompile, AltSizesGiveOtherShapes) {
  TaskDoc t = load_ok(kTask);
  Diagnostics d;
  auto c = compile_task(t, *t.verify.alt_sizes, d);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->param_shapes.at("W"), (fnlang::Shape{4, 8}));
  EXPECT_EQ(c->fns.at("fn_pair").out_esh[1], (fnlang::Shape{2}));
  EXPECT_EQ(c->reference->output_shapes(), (std::vector<fnlang::Shape>{{6, 8}}));
}

TEST(TaskCompile, DimThatIsNotAPositiveIntegerIsXDim) {
  TaskDoc t = load_ok(kTask);
  SizeBinding b = t.sizes;
  b["D"] = 6;  // D/4 = 1.5
  Diagnostics d;
  EXPECT_FALSE(compile_task(t, b, d));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].code, "X-DIM");
  EXPECT_EQ(d[0].message, "dim D/4 evaluates to 1.5, which is not a positive integer");
  EXPECT_EQ(d[0].loc, (Location{19, 16}));  // the fn's func_name
}

TEST(TaskCompile, FnErrorsAreFileRelative) {
  std::string text = kTask;
  text.replace(text.find("return state0 + in0"), 19, "return state0 + in0 + nope");
  TaskDoc t = load_ok(text);
  Diagnostics d;
  EXPECT_FALSE(compile_task(t, t.sizes, d));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].code.rfind("X-FN-", 0), 0u) << d[0].code;
  EXPECT_EQ(d[0].loc.line, 18);
  EXPECT_EQ(d[0].loc.column, 29);  // "nope" in "      return state0 + in0 + nope"

  std::string r = kTask;
  r.replace(r.find("return sum(E0, axis=1)"), 22, "return sum(E0, axis=2)");
  TaskDoc t2 = load_ok(r);
  Diagnostics d2;
  EXPECT_FALSE(compile_task(t2, t2.sizes, d2));
  ASSERT_FALSE(d2.empty());
  EXPECT_EQ(d2[0].code, "X-REF-SHAPE") << d2[0].message;
  EXPECT_EQ(d2[0].loc, (Location{28, 3}));  // "  return sum(E0, axis=2)"
}
