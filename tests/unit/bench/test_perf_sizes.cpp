// perf_sizes, the realistic size binding of a task document that the cost model runs under: the loader's
// diagnostics and fallback, and every bundled task's perf_sizes (its reference solution verifies under them
// on the first seed and moves at most 25000 tokens).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "core/bench/catalogue.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task.hpp"
#include "core/step/task_compile.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/verifier.hpp"
#include "tests/support/catalogue.hpp"

using namespace sf;
using namespace sf::step;

namespace {

// ------------------------------------------------------------------------------------------ loader
const std::string kDoc = R"YAML(dialect: step-v1
id: toy/perf
group: toy
title: Perf sizes
description: d
sizes: {M: 5, N: 7, D: 16}
perf_sizes: {M: 64, D: 128}
inputs:
  - {name: E0, dtype: fp32, dims: [M, N], data_gen: rand}
  - {name: E1, dtype: "Multihot(fp32, D)", dims: [N], data_gen: multihot, min: 1, max: 2}
outputs:
  - {name: S0, dtype: fp32, dims: [N]}
reference: |
  return sum(E0, axis=1)
verify: {seeds: [1, 2], alt_sizes: {M: 4}}
)YAML";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

// The document fails with `code` first (in file order) at line:col, with `fragment` in its message.
void expect_first(const std::string& text, const std::string& code, int line, int col,
                  const std::string& fragment) {
  Diagnostics d;
  auto doc = load_task_text(text, "t.yaml", d);
  EXPECT_FALSE(doc.has_value());
  ASSERT_FALSE(d.empty());
  sort_and_cap(d);
  EXPECT_EQ(d[0].code, code) << d[0].message;
  EXPECT_EQ(d[0].loc, (Location{line, col})) << d[0].code << " " << d[0].message;
  EXPECT_NE(d[0].message.find(fragment), std::string::npos) << d[0].message;
}

// ------------------------------------------------------------------------------------------ benchmark
const bench::Catalogue& cat() { return test_support::catalogue(); }

// The task as the cost model sees it: sizes = perf_binding(), no alternative sizes, the first seed only.
TaskDoc perf_task(const TaskDoc& t) {
  TaskDoc p = t;
  p.sizes = t.perf_binding();
  p.perf_sizes.reset();
  p.verify.alt_sizes.reset();
  p.verify.seeds = {t.verify.seeds.front()};
  return p;
}

// Tokens a program moves: over every named stream (task inputs, every statement's outputs, list elements),
// the number of positions (a Buffer element is one position). -1 if the program does not run.
std::int64_t tokens_moved(const TaskDoc& task, const SolutionDoc& sol, std::string& err) {
  auto cr = verify::check_program(task, sol.impl, sol.impl_line_starts);
  if (!cr.ok()) {
    err = cr.diags.empty() ? "check failed" : cr.diags[0].code + " " + cr.diags[0].message;
    return -1;
  }
  Diagnostics d;
  auto ct = compile_task(task, task.sizes, d);
  auto in = ct ? sim::make_input_set(task, task.sizes, task.verify.seeds.front(), d) : std::nullopt;
  if (!ct || !in) {
    err = d.empty() ? "prepare failed" : d[0].code + " " + d[0].message;
    return -1;
  }
  sim::RunOptions ro;
  ro.keep_streams = true;
  sim::RunResult rr = sim::run_program(*cr.program, *cr.typed, *ct, *in, ro);
  if (rr.error) {
    err = rr.error->code + " " + rr.error->message;
    return -1;
  }
  std::int64_t total = 0;
  for (const auto& [name, v] : rr.streams) total += v.positions();
  return total;
}

std::string binding_str(const SizeBinding& b) {
  std::string s;
  for (const auto& [k, v] : b) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

}  // namespace

TEST(PerfSizes, LoaderReadsACompleteBindingAndKeepsItVisible) {
  Diagnostics d;
  auto t = load_task_text(kDoc, "t.yaml", d);
  ASSERT_TRUE(t) << (d.empty() ? "" : d[0].message);
  EXPECT_TRUE(d.empty());
  ASSERT_TRUE(t->perf_sizes);
  EXPECT_EQ(*t->perf_sizes, (SizeBinding{{"M", 64}, {"N", 7}, {"D", 128}}));
  EXPECT_EQ(t->perf_binding(), *t->perf_sizes);
  EXPECT_EQ(t->sizes, (SizeBinding{{"M", 5}, {"N", 7}, {"D", 16}}));
  // perf_sizes is not a verification binding
  EXPECT_EQ(t->bindings(), (std::vector<SizeBinding>{t->sizes, *t->verify.alt_sizes}));
  // agents see it
  EXPECT_NE(t->raw_text_without_impl.find("perf_sizes: {M: 64, D: 128}"), std::string::npos);
  // the block form works too, and an empty mapping is the task's sizes
  auto block =
      load_task_text(replace(kDoc, "perf_sizes: {M: 64, D: 128}", "perf_sizes:\n  N: 32"), "t.yaml", d);
  ASSERT_TRUE(block);
  EXPECT_EQ(block->perf_binding(), (SizeBinding{{"M", 5}, {"N", 32}, {"D", 16}}));
  auto empty = load_task_text(replace(kDoc, "{M: 64, D: 128}", "{}"), "t.yaml", d);
  ASSERT_TRUE(empty && empty->perf_sizes);
  EXPECT_EQ(empty->perf_binding(), empty->sizes);
}

TEST(PerfSizes, PerfBindingFallsBackToSizes) {
  Diagnostics d;
  auto t = load_task_text(replace(kDoc, "perf_sizes: {M: 64, D: 128}\n", ""), "t.yaml", d);
  ASSERT_TRUE(t) << (d.empty() ? "" : d[0].message);
  EXPECT_FALSE(t->perf_sizes);
  EXPECT_EQ(t->perf_binding(), t->sizes);
  TaskDoc bare;
  bare.sizes = {{"N", 3}};
  EXPECT_EQ(bare.perf_binding(), bare.sizes);
}

TEST(PerfSizes, LoaderDiagnosticsMatchAltSizes) {
  // line 7 is `perf_sizes: {M: 64, D: 128}`: M at column 14, 64 at 17, D at 21, 128 at 24
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{Q: 64, D: 128}"), "D-KEY", 7, 14,
               "unknown key 'Q' in perf_sizes: not a size symbol of the task");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 64, DD: 128}"), "D-KEY", 7, 21, "did you mean 'D'?");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 64, M: 128}"), "D-KEY", 7, 21,
               "duplicate key 'M' in perf_sizes");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 0, D: 128}"), "D-VALUE", 7, 17, "perf size M");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 64, D: -8}"), "D-VALUE", 7, 24, "perf size D");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 2.5, D: 128}"), "D-TYPE", 7, 17,
               "perf size M must be an integer");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: [64], D: 128}"), "D-TYPE", 7, 17, "perf size M");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "[M, D]"), "D-TYPE", 7, 13,
               "perf_sizes must be a mapping of size symbols to positive integers, not a list");
  expect_first(replace(kDoc, "{M: 64, D: 128}", "64"), "D-TYPE", 7, 13, "not a scalar");
  expect_first(replace(kDoc, " {M: 64, D: 128}", ""), "D-TYPE", 7, 1, "not a null");
  // the same checks as verify.alt_sizes, with the same codes
  expect_first(replace(kDoc, "alt_sizes: {M: 4}", "alt_sizes: {Q: 4}"), "D-KEY", 15, 37,
               "unknown key 'Q' in verify.alt_sizes");
  expect_first(replace(kDoc, "alt_sizes: {M: 4}", "alt_sizes: {M: 0}"), "D-VALUE", 15, 40, "alt size M");
  // a top-level key near perf_sizes gets a hint
  expect_first(replace(kDoc, "perf_sizes:", "perf_size:"), "D-KEY", 7, 1, "did you mean 'perf_sizes'?");
  // multihot lanes are checked under perf_sizes too
  expect_first(replace(kDoc, "{M: 64, D: 128}", "{M: 64, D: 1}"), "D-VALUE", 10, 88, "lane count D = 1");
}

TEST(PerfSizes, EveryBenchmarkTaskHasPerfSizes) {
  ASSERT_GE(cat().tasks().size(), 32u);
  for (const auto& t : cat().tasks()) {
    ASSERT_TRUE(t.perf_sizes) << t.id;
    EXPECT_EQ(t.perf_sizes->size(), t.sizes.size()) << t.id;
    EXPECT_NE(*t.perf_sizes, t.sizes) << t.id;
    Diagnostics d;
    EXPECT_TRUE(compile_task(t, t.perf_binding(), d)) << t.id << ": " << (d.empty() ? "" : d[0].message);
  }
}

TEST(PerfSizes, ReferenceSolutionsVerifyUnderPerfSizesAndMoveAtMost25000Tokens) {
  verify::VerifyOptions opt;
  opt.use_alt_sizes = false;
  verify::Verifier v(opt);
  for (const auto& t : cat().tasks()) {
    SCOPED_TRACE(t.id);
    Diagnostics d;
    step::AnyDoc any =
        step::load_any_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + t.id + ".yaml", d);
    if (!any.solution) {
      ADD_FAILURE() << "no reference solution: " << (d.empty() ? "" : d[0].message);
      continue;
    }
    TaskDoc p = perf_task(t);
    verify::Report r = v.verify(p, any.solution->impl, any.solution->impl_line_starts);
    EXPECT_TRUE(r.pass) << r.code << ": " << (r.diags.empty() ? "" : r.diags[0].message);
    EXPECT_EQ(r.sets.size(), 1u);
    if (!r.sets.empty()) {
      EXPECT_EQ(r.sets[0].sizes, t.perf_binding());
    }
    // The task data is sound under perf_sizes (no X-DIM, no NaN). X-FRAGILE is only reported: a near-tie in a
    // reference top-k does not matter to the cost model (moe_e2e/softmax_top2_ffn3 has many at any realistic
    // K).
    auto prep = v.prepare(p, p.sizes, p.verify.seeds.front(), d);
    EXPECT_TRUE(prep) << (d.empty() ? "" : d[0].code + " " + d[0].message);
    if (prep && !prep->task_diags.empty()) {
      std::cout << "[ perf     ] " << t.id << ": " << prep->task_diags.size()
                << " warning(s), first: " << prep->task_diags[0].code << " " << prep->task_diags[0].message
                << "\n";
    }
    std::string err;
    std::int64_t tokens = tokens_moved(p, *any.solution, err);
    EXPECT_GT(tokens, 0) << err;
    EXPECT_LE(tokens, 25000);
    std::cout << "[ perf     ] " << t.id << ": " << binding_str(p.sizes) << ": " << tokens << " tokens\n";
  }
}
