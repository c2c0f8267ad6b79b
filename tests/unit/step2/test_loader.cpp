// step-v2 task documents through the shared loader: keys, defaults, D-DIALECT and D-KEY for v1 keys.
#include <gtest/gtest.h>

#include "core/step/task.hpp"
#include "tests/unit/step2/test_util.hpp"

using namespace sf;
using sf::step2::test::replace;

namespace {

const std::string kDoc = R"(dialect: step-v2
id: gemm/t
title: t
description: d
sizes: {M: 256, K: 128}
inputs:
  - {name: A, shape: [M, K], data_gen: randn, scale: 0.5}
  - {name: W, shape: [K, K], data_gen: {uniform_fan_in: K}}
  - {name: S, shape: [M, K], data_gen: {full: 2.0}}
outputs:
  - {name: C, shape: [M, K]}
reference: |
  return A @ W
verify: {alt_sizes: {M: 512}, input_sets: [{A: 32}, {A: 0.001}]}
baseline: baseline.yaml
meta: {origin: "StepBench/gemm@small", calibration: K1}
)";


Diagnostic first(const std::string& text) {
  Diagnostics d;
  auto t = step::load_any_text(text, "t.yaml", d);
  EXPECT_FALSE(t.task.has_value());
  sort_and_cap(d);
  return d.empty() ? Diagnostic{} : d[0];
}

}  // namespace

TEST(Step2Loader, ReadsEveryV2Key) {
  Diagnostics d;
  auto t = step::load_task_text(kDoc, "t.yaml", d);
  ASSERT_TRUE(t) << (d.empty() ? "" : d[0].message);
  EXPECT_TRUE(t->is_v2());
  EXPECT_EQ(t->group, "gemm");
  ASSERT_EQ(t->tensor_inputs.size(), 3u);
  EXPECT_EQ(step::dims_str(t->tensor_inputs[0].shape), "[M, K]");
  EXPECT_EQ(t->tensor_inputs[0].scale, 0.5);
  EXPECT_EQ(t->tensor_inputs[1].gen, step::TensorDecl::Gen::UniformFanIn);
  EXPECT_EQ(t->tensor_inputs[1].fan_in.str(), "K");
  EXPECT_EQ(t->tensor_inputs[2].gen, step::TensorDecl::Gen::Full);
  EXPECT_EQ(t->tensor_inputs[2].full, 2.0);
  EXPECT_EQ(t->tensor_outputs.size(), 1u);
  EXPECT_TRUE(t->inputs.empty());
  EXPECT_EQ(t->verify.atol, 1e-3);
  EXPECT_EQ(t->verify.rtol, 1e-3);
  EXPECT_EQ((std::vector<std::uint64_t>{42, 43}), t->verify.seeds);
  ASSERT_TRUE(t->verify.alt_sizes);
  EXPECT_EQ(t->verify.alt_sizes->at("M"), 512);
  ASSERT_EQ(t->verify.input_sets.size(), 2u);
  EXPECT_EQ(t->verify.input_sets[0].at("A"), 32.0);
  EXPECT_EQ(t->chip, "accelopt-step");
  EXPECT_EQ(t->baseline, "baseline.yaml");
  EXPECT_EQ(t->meta_v2.at("calibration"), "K1");
  EXPECT_EQ(t->raw_text_without_impl.find("baseline"), std::string::npos);
}

TEST(Step2Loader, UnknownDialectIsDDialect) {
  auto d = first(replace(kDoc, "step-v2", "step-v9"));
  EXPECT_EQ(d.code, "D-DIALECT");
  EXPECT_EQ(d.loc.line, 1);
  EXPECT_EQ(d.loc.column, 10);
  EXPECT_NE(d.message.find("step-v1 or step-v2"), std::string::npos) << d.message;
}

TEST(Step2Loader, V1KeysGiveDKeyNamingTheV2Key) {
  auto d = first(replace(kDoc, "{name: A, shape: [M, K],", "{name: A, dims: [K, M],"));
  EXPECT_EQ(d.code, "D-KEY");
  EXPECT_EQ(d.loc.line, 7);
  EXPECT_NE(d.message.find("shape"), std::string::npos) << d.message;
  d = first(replace(kDoc, "outputs:", "parameters:\n  - {name: W2, dims: [K], data_gen: randn}\noutputs:"));
  EXPECT_EQ(d.code, "D-KEY");
  EXPECT_EQ(d.loc.line, 10);
  EXPECT_NE(d.message.find("inputs"), std::string::npos) << d.message;
  d = first(replace(kDoc, "outputs:", "fns: []\noutputs:"));
  EXPECT_EQ(d.code, "D-KEY");
  EXPECT_NE(d.message.find("fn="), std::string::npos) << d.message;
  d = first(replace(kDoc, "{name: C, shape: [M, K]}", "{name: C, dtype: fp32, shape: [M, K]}"));
  EXPECT_EQ(d.code, "D-KEY");
  EXPECT_NE(d.message.find("fp32"), std::string::npos) << d.message;
}

TEST(Step2Loader, ValueErrorsAreLocated) {
  auto d = first(replace(kDoc, "data_gen: randn, scale", "data_gen: gauss, scale"));
  EXPECT_EQ(d.code, "D-VALUE");
  EXPECT_EQ(d.loc.line, 7);
  d = first(replace(kDoc, "{full: 2.0}", "{fill: 2.0}"));
  EXPECT_EQ(d.code, "D-KEY");
  d = first(replace(kDoc, "[{A: 32}", "[{Q: 32}"));
  EXPECT_EQ(d.code, "D-KEY");
  d = first(replace(kDoc, "shape: [M, K], data_gen: randn", "shape: [M, Q], data_gen: randn"));
  EXPECT_EQ(d.code, "D-UNBOUND");
  d = first(replace(kDoc, "id: gemm/t", "id: gemm"));
  EXPECT_EQ(d.code, "D-VALUE");
}

TEST(Step2Loader, SolutionFilesAndV1AreUnchanged) {
  Diagnostics d;
  auto any = step::load_any_text("task: gemm/small\nimpl: |\n  x = step.Broadcast(n=2).apply(y)\n", "s.yaml", d);
  ASSERT_TRUE(any.solution);
  EXPECT_EQ(any.solution->task_id, "gemm/small");
  EXPECT_EQ(any.solution->impl_line_starts.at(0).line, 3);
}
