// The cost model (docs/cost-model.md): eight timing examples worked out by hand in the docs (default chip), the
// properties the spec asks for, constraints, deadlock-free Copy branches, chip profiles, and every bundled
// reference solution.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/bench/catalogue.hpp"
#include "core/cost/baseline.hpp"
#include "core/cost/cost_model.hpp"
#include "core/step/task.hpp"

using namespace sf;

namespace {

// A task document with the given size binding, inputs, fns, outputs and reference (each a YAML block).
step::TaskDoc make_task(const std::string& sizes, const std::string& inputs, const std::string& fns,
                        const std::string& outputs, const std::string& reference, const std::string& params = "") {
  std::string text = "dialect: step-v1\nid: toy/cost\ngroup: toy\ntitle: t\ndescription: d\nsizes: " + sizes +
                     "\ninputs:\n" + inputs + (params.empty() ? "" : "parameters:\n" + params) + "fns:\n" + fns +
                     "outputs:\n" + outputs + "reference: |\n" + reference;
  Diagnostics d;
  auto t = step::load_task_text(text, "toy.yaml", d);
  EXPECT_TRUE(t.has_value()) << (d.empty() ? "" : d.front().code + " " + d.front().message) << "\n" << text;
  return t ? *t : step::TaskDoc{};
}

const std::string kScalarFns =
    "  - {func_name: fn_neg, name: Neg, input_dtype: fp32, output_dtype: fp32, body: \"return -in0\\n\"}\n"
    "  - {func_name: fn_add, name: Add, input_dtype: fp32, output_dtype: fp32, init: [0], body: \"return state0 + "
    "in0\\n\"}\n"
    "  - {func_name: fn_spread, name: Spread, input_dtype: fp32, output_dtype: \"Buffer(fp32, [D])\", body: "
    "\"return full([D], 1.0) * in0\\n\"}\n";

cost::CostReport eval(const step::TaskDoc& t, const std::string& impl, const cost::ChipProfile& chip = {}) {
  cost::CostModel m(chip);
  Diagnostics d;
  auto r = m.evaluate(t, impl, {}, d);
  EXPECT_TRUE(r.has_value()) << (d.empty() ? "" : d.front().code + " " + d.front().message);
  return r ? *r : cost::CostReport{};
}

const cost::UnitReport& unit(const cost::CostReport& r, const std::string& primitive, const std::string& name) {
  for (const auto& u : r.units)
    if (u.primitive == primitive && u.name == name) return u;
  static cost::UnitReport none;
  ADD_FAILURE() << "no unit " << primitive << " " << name;
  return none;
}

step::TaskDoc vector_task(int n) {
  return make_task("{N: " + std::to_string(n) + ", D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n",
                   kScalarFns, "  - {name: S0, dtype: fp32, dims: [N]}\n", "  return E0\n");
}

}  // namespace

// ---------------------------------------------------------------------------------------- hand-worked examples
// Each number is derived step by step in docs/cost-model.md, "Worked examples".

TEST(CostExamples, MapChainPipelines) {
  auto t = make_task("{N: 4, D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n", kScalarFns,
                     "  - {name: S0, dtype: fp32, dims: [N]}\n", "  return E0\n");
  EXPECT_EQ(eval(t, "A = step.Map(fn=fn_neg).apply(E0)\nreturn A\n").cycles, 40);
  auto two = eval(t, "A = step.Map(fn=fn_neg).apply(E0)\nB = step.Map(fn=fn_neg).apply(A)\nreturn B\n");
  EXPECT_EQ(two.cycles, 42);
  EXPECT_EQ(unit(two, "Map", "A").busy, 4);
  EXPECT_EQ(unit(two, "Map", "A").stall_in, 18);
  EXPECT_EQ(unit(two, "Load", "E0").busy, 4);
  EXPECT_EQ(two.offchip_read_bytes, 64);
  EXPECT_EQ(two.offchip_write_bytes, 64);
  EXPECT_EQ(two.flops, 8);  // unary minus: 1 FLOP per element, 4 elements, 2 Maps
  EXPECT_EQ(two.allocated_compute, 2048);
}

TEST(CostExamples, AccumEmitsAtTheGroupEnd) {
  auto t = make_task("{N: 4, M: 2, D: 64}", "  - {name: E0, dtype: fp32, dims: [N, M], data_gen: randn}\n",
                     kScalarFns, "  - {name: S0, dtype: fp32, dims: [M]}\n", "  return sum(E0, axis=1)\n");
  auto r = eval(t, "A = step.Accum(fn=fn_add, b=1).apply(E0)\nreturn A\n");
  EXPECT_EQ(r.cycles, 44);
  EXPECT_EQ(unit(r, "Accum", "A").tokens_in, 8);
  EXPECT_EQ(unit(r, "Accum", "A").tokens_out, 2);
  EXPECT_EQ(unit(r, "Accum", "A").busy, 8);
}

TEST(CostExamples, BufferizeThenStreamify) {
  auto t = make_task("{N: 4, M: 2, D: 64}", "  - {name: E0, dtype: fp32, dims: [N, M], data_gen: randn}\n",
                     kScalarFns, "  - {name: S0, dtype: fp32, dims: [N, M]}\n", "  return E0\n");
  auto r = eval(t, "B = step.Bufferize(a=1).apply(E0)\nS = step.Streamify().apply(B)\nreturn S\n");
  EXPECT_EQ(r.cycles, 49);
  EXPECT_EQ(unit(r, "Bufferize", "B").busy, 8);
  EXPECT_EQ(unit(r, "Streamify", "S").busy, 8);
  EXPECT_EQ(r.onchip_bytes, 3 * 16);  // (fifo_depth + 1) buffers of 4 floats
}

TEST(CostExamples, RepeatEmitsOneCopyPerCycle) {
  auto t = make_task("{N: 2, D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n", kScalarFns,
                     "  - {name: S0, dtype: fp32, dims: [3, N]}\n", "  return unsqueeze(E0, 1) * ones([3])\n");
  auto r = eval(t, "R = step.Repeat(n=3).apply(E0)\nreturn R\n");
  EXPECT_EQ(r.cycles, 42);
  EXPECT_EQ(unit(r, "Repeat", "R").busy, 6);
  EXPECT_EQ(unit(r, "Repeat", "R").tokens_out, 6);
}

TEST(CostExamples, PartitionAndMergeLanesRunInParallel) {
  auto t = make_task("{N: 4, D: 64, E: 2}",
                     "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n"
                     "  - {name: E1, dtype: \"Multihot(fp32, E)\", dims: [N], data_gen: multihot, min: 2, max: 2}\n",
                     kScalarFns, "  - {name: S0, dtype: fp32, dims: [N]}\n", "  return -2.0 * E0\n");
  auto r = eval(t,
                "C0, C1 = step.Copy().apply(E1)\n"
                "P = step.Partition(N=E).apply((E0, C0))\n"
                "Q = [step.Map(fn=fn_neg).apply(s) for s in P]\n"
                "Y = step.Merge(fn=fn_add).apply((Q, C1))\n"
                "return Y\n");
  EXPECT_EQ(r.cycles, 53);
  EXPECT_EQ(unit(r, "Partition", "P").busy, 12);  // per position: 1 for the selector + 1 per selected lane
  EXPECT_EQ(unit(r, "Partition", "P").tokens_out, 8);
  EXPECT_EQ(unit(r, "Map", "Q[0]").busy, 4);
  EXPECT_EQ(unit(r, "Map", "Q[1]").busy, 4);
  EXPECT_EQ(unit(r, "Merge", "Y").busy, 8);
  EXPECT_EQ(unit(r, "Copy", "C0, C1").blocked_out, 6);
}

TEST(CostExamples, OffChipRequestsPackConsecutiveScalars) {
  auto t = vector_task(40);
  // A program that only moves data: 160 bytes are 3 read requests (64 + 64 + 32) and 3 write requests.
  auto r = eval(t, "A = step.Identity().apply(E0)\nreturn A\n");
  EXPECT_EQ(r.offchip_read_bytes, 192);
  EXPECT_EQ(r.offchip_write_bytes, 192);
  EXPECT_EQ(r.cycles, 75);  // 74 without the Identity's one cycle of channel latency
}

TEST(CostExamples, SlowConsumerThrottlesItsProducer) {
  auto t = make_task("{N: 4, D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n", kScalarFns,
                     "  - {name: S0, dtype: \"Buffer(fp32, [D])\", dims: [N]}\n",
                     "  return unsqueeze(E0, 1) * ones([D])\n");
  auto r = eval(t, "B = step.Map(fn=fn_spread).apply(E0)\nreturn B\n");
  EXPECT_EQ(r.cycles, 55);
  EXPECT_EQ(unit(r, "Map", "B").busy, 16);  // 4 cycles per element: writing a 256-byte buffer at 64 B/cycle
  EXPECT_EQ(unit(r, "Load", "E0").blocked_out, 3);
  EXPECT_EQ(r.offchip_write_bytes, 4 * 256);
}

TEST(CostExamples, CopyWaitsForBothOutputs) {
  auto t = make_task("{N: 4, D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n", kScalarFns,
                     "  - {name: S0, dtype: fp32, dims: [N]}\n"
                     "  - {name: S1, dtype: \"Buffer(fp32, [D])\", dims: [N]}\n",
                     "  return E0, unsqueeze(E0, 1) * ones([D])\n");
  auto r = eval(t, "A, B = step.Copy().apply(E0)\nY = step.Map(fn=fn_spread).apply(B)\nreturn A, Y\n");
  EXPECT_EQ(r.cycles, 56);
  EXPECT_EQ(unit(r, "Copy", "A, B").blocked_out, 3);
  EXPECT_EQ(unit(r, "Copy", "A, B").busy, 0);
}

// --------------------------------------------------------------------------------------------------- properties

TEST(CostProperties, AChainOfMapsCostsAboutOneMap) {
  auto t = vector_task(1000);
  auto one = eval(t, "A = step.Map(fn=fn_neg).apply(E0)\nreturn A\n");
  std::string impl, prev = "E0";
  for (int k = 0; k < 6; ++k) {
    std::string name = "A" + std::to_string(k);
    impl += name + " = step.Map(fn=fn_neg).apply(" + prev + ")\n";
    prev = name;
  }
  auto six = eval(t, impl + "return " + prev + "\n");
  EXPECT_GE(one.cycles, 1000);
  EXPECT_LE(six.cycles - one.cycles, 5 * 4) << one.cycles << " vs " << six.cycles;  // O(k), never k * n
}

TEST(CostProperties, DoublingTheSizeRoughlyDoublesAStreamingProgram) {
  const std::string impl = "A = step.Map(fn=fn_neg).apply(E0)\nB = step.Map(fn=fn_neg).apply(A)\nreturn B\n";
  auto a = eval(vector_task(2000), impl);
  auto b = eval(vector_task(4000), impl);
  double ratio = static_cast<double>(b.cycles) / static_cast<double>(a.cycles);
  EXPECT_GT(ratio, 1.9);
  EXPECT_LT(ratio, 2.1);
}

TEST(CostProperties, DeterministicAcrossModelsAndRuns) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  const auto* t = cat.find("moe_e2e/softmax_top2_ffn3");
  ASSERT_NE(t, nullptr);
  auto any = step::load_any_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + t->id + ".yaml", d);
  ASSERT_TRUE(any.solution);
  cost::CostModel m1, m2;
  Diagnostics d1, d2;
  auto a = m1.evaluate(*t, any.solution->impl, any.solution->impl_line_starts, d1);
  auto b = m2.evaluate(*t, any.solution->impl, any.solution->impl_line_starts, d2);
  auto c = m1.evaluate(*t, any.solution->impl, any.solution->impl_line_starts, d1);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->cycles, b->cycles);
  EXPECT_EQ(a->cycles, c->cycles);
  ASSERT_EQ(a->units.size(), b->units.size());
  for (std::size_t i = 0; i < a->units.size(); ++i) {
    EXPECT_EQ(a->units[i].busy, b->units[i].busy);
    EXPECT_EQ(a->units[i].stall_in, b->units[i].stall_in);
    EXPECT_EQ(a->units[i].blocked_out, b->units[i].blocked_out);
  }
}

TEST(CostProperties, CanonicallyEquivalentProgramsCostTheSame) {
  auto t = make_task("{N: 8, M: 3, D: 64}", "  - {name: E0, dtype: fp32, dims: [N, M], data_gen: randn}\n",
                     kScalarFns, "  - {name: S0, dtype: fp32, dims: [M]}\n", "  return -sum(E0, axis=1)\n");
  auto a = eval(t, "A = step.Accum(fn=fn_add, b=1).apply(E0)\nB = step.Map(fn=fn_neg).apply(A)\nreturn B\n");
  auto b = eval(t,
                "# the same program, other names and layout\n"
                "total = step.Accum(b=1, fn=fn_add).apply(E0)   # kwargs swapped\n\n"
                "negated = step.Map(fn=fn_neg).apply((total))\n"
                "return (negated,)\n");
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.onchip_bytes, b.onchip_bytes);
  EXPECT_EQ(a.flops, b.flops);
}

TEST(CostProperties, ParallelLanesBeatOneLane) {
  // 2 lanes with one-hot routing: each lane's slow Map sees about half the elements.
  const std::string fns =
      kScalarFns +
      "  - {func_name: fn_mm, name: MM, input_dtype: \"Buffer(fp32, [D])\", output_dtype: \"Buffer(fp32, [D])\", "
      "body: \"return (in0 @ W) @ W\\n\"}\n"
      "  - {func_name: fn_badd, name: BAdd, input_dtype: \"Buffer(fp32, [D])\", output_dtype: \"Buffer(fp32, [D])\", "
      "init: [0], body: \"return state0 + in0\\n\"}\n";
  auto t = make_task("{N: 64, D: 64, E: 2}",
                     "  - {name: E0, dtype: \"Buffer(fp32, [D])\", dims: [N], data_gen: randn}\n"
                     "  - {name: E1, dtype: \"Multihot(fp32, E)\", dims: [N], data_gen: multihot, min: 1, max: 1}\n",
                     fns, "  - {name: S0, dtype: \"Buffer(fp32, [D])\", dims: [N]}\n", "  return (E0 @ W) @ W\n",
                     "  - {name: W, dims: [D, D], data_gen: randn, scale: 0.1}\n");
  // Timing needs no numerics: this program is never verified here, only timed.
  auto one = eval(t, "C0, C1 = step.Copy().apply(E1)\nA = step.Map(fn=fn_mm).apply(E0)\n"
                     "P = step.Partition(N=E).apply((A, C0))\nY = step.Merge(fn=fn_badd).apply((P, C1))\nreturn Y\n");
  auto two = eval(t, "C0, C1 = step.Copy().apply(E1)\nP = step.Partition(N=E).apply((E0, C0))\n"
                     "Q = [step.Map(fn=fn_mm).apply(s) for s in P]\nY = step.Merge(fn=fn_badd).apply((Q, C1))\n"
                     "return Y\n");
  EXPECT_LT(two.cycles * 10, one.cycles * 8) << one.cycles << " vs " << two.cycles;
  EXPECT_EQ(two.allocated_compute, 3 * 1024);
}

// -------------------------------------------------------------------------------------------------- constraints

TEST(CostConstraints, TooManyComputeUnitsIsCCompute) {
  auto t = vector_task(16);
  std::string impl, prev = "E0";
  for (int k = 0; k < 9; ++k) {
    std::string name = "A" + std::to_string(k);
    impl += name + " = step.Map(fn=fn_neg).apply(" + prev + ")\n";
    prev = name;
  }
  auto r = eval(t, impl + "return " + prev + "\n");
  EXPECT_EQ(r.allocated_compute, 9 * 1024);
  EXPECT_FALSE(r.feasible);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].code, "C-COMPUTE");
  EXPECT_FALSE(cost::speedup(r, 1000).has_value());
}

TEST(CostConstraints, TooMuchOnChipMemoryIsCOnchip) {
  auto t = make_task("{N: 4, D: 64}", "  - {name: E0, dtype: fp32, dims: [N], data_gen: randn}\n", kScalarFns,
                     "  - {name: S0, dtype: \"Buffer(fp32, [D])\", dims: [N]}\n",
                     "  return unsqueeze(E0, 1) * ones([D])\n");
  cost::ChipProfile small;
  small.onchip_capacity = 512;
  auto r = eval(t, "B = step.Map(fn=fn_spread).apply(E0)\nreturn B\n", small);
  EXPECT_EQ(r.onchip_bytes, 3 * 256);
  EXPECT_FALSE(r.feasible);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].code, "C-ONCHIP");
  auto ok = eval(t, "B = step.Map(fn=fn_spread).apply(E0)\nreturn B\n");
  EXPECT_TRUE(ok.feasible);
  EXPECT_TRUE(ok.violations.empty());
}

TEST(CostModel, CopyBranchesThatMeetAgainDoNotDeadlock) {
  // x / sum(x) per row: the Copy's second branch waits for the whole row's sum, more than fifo_depth tokens.
  auto t = make_task("{N: 16, M: 3, D: 64}", "  - {name: E0, dtype: fp32, dims: [N, M], data_gen: rand}\n",
                     kScalarFns +
                         "  - {func_name: fn_div, name: Div, input_dtype: [fp32, fp32], output_dtype: fp32, body: "
                         "\"return in0 / in1\\n\"}\n",
                     "  - {name: S0, dtype: fp32, dims: [N, M]}\n", "  return E0 / sum(E0, axis=1, keepdim=True)\n");
  auto r = eval(t,
                "X0, X1 = step.Copy().apply(E0)\nS = step.Accum(fn=fn_add, b=1).apply(X0)\n"
                "R = step.Repeat(n=N).apply(S)\nZ = step.Zip().apply((X1, R))\nY = step.Map(fn=fn_div).apply(Z)\n"
                "return Y\n");
  EXPECT_GT(r.cycles, 48);
  EXPECT_GE(r.deepened_channels, 1);
  EXPECT_GT(r.buffered_bytes, 0);
  EXPECT_EQ(r.onchip_bytes, r.buffered_bytes);
}

TEST(CostModel, FeedbackNamesCyclesSpeedupAndTheBusiestUnits) {
  auto t = vector_task(64);
  auto r = eval(t, "A = step.Map(fn=fn_neg).apply(E0)\nreturn A\n");
  std::string f = cost::feedback_text(r, r.cycles * 2);
  EXPECT_NE(f.find(std::to_string(r.cycles) + " cycles"), std::string::npos) << f;
  EXPECT_NE(f.find("speedup 2.00x"), std::string::npos) << f;
  EXPECT_NE(f.find("line 1 Map"), std::string::npos) << f;
  EXPECT_LT(f.size(), 1200u);  // ~300 tokens
}

// ---------------------------------------------------------------------------------------------- chip profiles

TEST(ChipProfile, BundledDefaultIsTheSpecTable) {
  std::string err;
  auto c = cost::load_chip(std::string(SF_SOURCE_DIR) + "/resources/chips/default.json", err);
  ASSERT_TRUE(c) << err;
  cost::ChipProfile d = cost::default_chip();
  d.description = c->description;
  EXPECT_EQ(*c, d);
  auto edge = cost::find_chip("edge", std::string(SF_SOURCE_DIR) + "/resources", err);
  ASSERT_TRUE(edge) << err;
  EXPECT_LT(edge->onchip_capacity, d.onchip_capacity);
}

TEST(ChipProfile, BadProfilesAreRejectedWithTheField) {
  std::string err;
  EXPECT_FALSE(cost::parse_chip("{\"pmu_bw\": 0}", err));
  EXPECT_NE(err.find("pmu_bw"), std::string::npos) << err;
  EXPECT_FALSE(cost::parse_chip("{\"fifo_dept\": 2}", err));
  EXPECT_NE(err.find("unknown field 'fifo_dept'"), std::string::npos) << err;
  EXPECT_FALSE(cost::parse_chip("{\"hbm_latency\": 1.5}", err));
  EXPECT_NE(err.find("integer"), std::string::npos) << err;
  EXPECT_FALSE(cost::parse_chip("[1]", err));
  EXPECT_FALSE(cost::parse_chip("{", err));
  auto ok = cost::parse_chip("{\"fifo_depth\": 4}", err);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->fifo_depth, 4);
  EXPECT_EQ(ok->pmu_bw, 64);
  EXPECT_FALSE(cost::find_chip("no-such-chip", std::string(SF_SOURCE_DIR) + "/resources", err));
  EXPECT_NE(err.find("default"), std::string::npos) << err;
}

// ------------------------------------------------------------------------------------- the bundled benchmark

TEST(CostBenchmark, EveryReferenceSolutionHasAFeasibleBaseline) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  ASSERT_EQ(cat.tasks().size(), 32u);
  cost::CostModel model;
  cost::Baselines base(model, std::string(SF_SOURCE_DIR) + "/resources/solutions");
  for (const auto& t : cat.tasks()) {
    std::string why;
    auto r = base.report(t, &why);
    ASSERT_TRUE(r.has_value()) << t.id << ": " << why;
    EXPECT_TRUE(r->feasible) << t.id << ": " << (r->violations.empty() ? "" : r->violations[0].message);
    EXPECT_GT(r->cycles, 0) << t.id;
    EXPECT_LE(r->tokens, 25000) << t.id;
    EXPECT_EQ(r->sizes, t.perf_binding()) << t.id;
  }
}
