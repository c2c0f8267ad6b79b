// The calibration table of the STeP-25 cost model (docs/cost-model.md): K1–K6 bytes exactly and cycles within
// ±1 % of the recorded step-perf numbers (this model is expected to land on recorded − 2 before the tail, so
// the exact numbers are asserted too), the SwiGLU sweep's off-chip bytes by formula and its cycles as a
// regression baseline, determinism.
#include <gtest/gtest.h>

#include <cmath>

#include "core/step2/perf/perf.hpp"
#include "tests/support/step2_graphs.hpp"

namespace sf::step2::perf {
namespace {

Chip with_budget(std::int64_t budget) {
  Chip c = accelopt_step();
  c.compute_budget = budget;
  return c;
}

Chip step_hdl() {
  Chip c;
  c.name = "step-hdl";
  c.pmu_bw = 256;
  c.hbm_channels = 8;
  c.fifo_depth = 1;
  c.compute_budget = 20480;
  c.tail = 1;
  return c;
}

struct Row {
  const char* name;
  Graph g;
  Chip chip;
  std::int64_t offchip, onchip, recorded;
};

std::vector<Row> rows() {
  const std::int64_t bw5[6] = {4096, 4096, 4096, 4096, 4096, 4096};
  const std::int64_t bw6[6] = {1024, 256, 1024, 512, 256, 1024};
  return {
      {"K1", test::gemm_256(false), accelopt_step(), 1310720, 262144, 16938},
      {"K2", test::gemm_256(true), with_budget(8192), 1310720, 262144, 17963},
      {"K3", test::swish_scaling(4096, 4096, 4096), with_budget(12288), 786432, 327680, 9804},
      {"K4", test::swish_scaling(2048, 1024, 1024), accelopt_step(), 786432, 327680, 9900},
      {"K5", test::sdpa(bw5), with_budget(24576), 131072, 196608, 2354},
      {"K6", test::sdpa(bw6), accelopt_step(), 131072, 196608, 2926},
  };
}

TEST(Step2Calibration, KRowsBytesExactCyclesWithinOnePercent) {
  for (const auto& row : rows()) {
    SCOPED_TRACE(row.name);
    Report r = evaluate(row.g, row.chip);
    EXPECT_EQ(r.offchip_read_bytes + r.offchip_write_bytes, row.offchip);
    EXPECT_EQ(r.onchip_bytes, row.onchip);
    EXPECT_TRUE(r.simulated);
    EXPECT_TRUE(r.feasible) << (r.violations.empty() ? "" : r.violations[0].message);
    EXPECT_LE(std::abs(static_cast<double>(r.cycles - row.recorded)), 0.01 * static_cast<double>(row.recorded))
        << r.cycles;
    EXPECT_EQ(r.cycles, row.recorded) << "the independent model of the event rules lands on the recorded number";
  }
}

TEST(Step2Calibration, K1Details) {
  Report r = evaluate(test::gemm_256(false), accelopt_step());
  EXPECT_EQ(r.offchip_read_bytes, 1048576);
  EXPECT_EQ(r.offchip_write_bytes, 262144);
  EXPECT_EQ(r.hbm_requests, 20480);
  EXPECT_EQ(r.flops, 2LL * 256 * 256 * 256);
  EXPECT_EQ(r.compute_nodes, 1);
  EXPECT_EQ(r.peak_cycles, 8192);  // 2·256³ FLOPs / 4096
  EXPECT_NEAR(r.pct_of_peak, 100.0 * 8192 / 16938, 1e-9);
  EXPECT_FALSE(r.suspicious);
  ASSERT_EQ(r.nodes.size(), 4u);
  EXPECT_EQ(r.nodes[0].op, "OffChipLoad");
  EXPECT_EQ(r.nodes[0].tokens_out, 8);
  EXPECT_EQ(r.nodes[0].requests, 8192);
  EXPECT_EQ(r.nodes[0].first_issue, 1);
  EXPECT_EQ(r.nodes[2].tokens_in, 16);
  EXPECT_EQ(r.nodes[2].tokens_out, 4);
  EXPECT_EQ(r.nodes[2].busy, 8 * 2048);  // Σld = 2·⌈65536/64⌉ bounds every call
  EXPECT_EQ(r.nodes[2].limit, Limit::PmuRead);
  EXPECT_EQ(r.nodes[3].tokens_in, 4);
  EXPECT_GT(r.nodes[3].last_response, r.nodes[3].first_issue);
}

TEST(Step2Calibration, InfeasibleProgramsStillReportCyclesAndBytes) {
  Report r = evaluate(test::gemm_256(true), accelopt_step());  // Σ compute_bw 8192 > 4096
  EXPECT_FALSE(r.feasible);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].code, "C-COMPUTE");
  EXPECT_NE(r.violations[0].message.find("8,192"), std::string::npos) << r.violations[0].message;
  EXPECT_NE(r.violations[0].message.find("4,096"), std::string::npos) << r.violations[0].message;
  EXPECT_EQ(r.cycles, 17963);
  EXPECT_EQ(r.onchip_bytes, 262144);
}

std::int64_t swiglu_offchip(std::int64_t m, std::int64_t n) {
  std::int64_t t = (64 / m) * (512 / n);
  return t * 1024 * m + 2 * t * 1024 * n + t * 1024 * n + 64 * 1024;
}

// Cycles of the 15 sweep points on step-hdl as this model gives them: a regression baseline, nothing was
// fitted to them (their recorded HDL numbers are not step-perf outputs).
TEST(Step2Calibration, SwigluSweepBytesByFormulaAndCyclesAsRegressionBaseline) {
  const std::int64_t baseline[15] = {33289, 29400, 27503, 26993, 27509, 21223, 17097, 15277,
                                     14773, 15305, 15218, 11188, 9537,  9260,  11088};
  int k = 0;
  for (auto [m, n] : test::swiglu_points()) {
    SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(n));
    Report r = evaluate(test::swiglu(m, n), step_hdl());
    EXPECT_EQ(r.offchip_read_bytes + r.offchip_write_bytes, swiglu_offchip(m, n));
    EXPECT_TRUE(r.simulated);
    EXPECT_TRUE(r.violations.empty()) << r.violations[0].message;
    EXPECT_EQ(r.cycles, baseline[k]);
    ++k;
  }
  EXPECT_EQ(swiglu_offchip(16, 16), 8454144);
  EXPECT_EQ(swiglu_offchip(64, 256), 1769472);
}

// Task 13 (ffn/swiglu) on accelopt-step: the baseline and two known optimisations, whose cycles the
// design's independent model of the same rules predicted before the tail (65,970; 19,061; 20,761).
TEST(Step2Calibration, SwigluTaskMatchesTheIndependentModel) {
  Report base = evaluate(test::swiglu(16, 16, {1024, 1024, 512, 512, 1024}), accelopt_step());
  Report m64n64 = evaluate(test::swiglu(64, 64, {1024, 1024, 512, 512, 1024}), accelopt_step());
  Report m64n128 = evaluate(test::swiglu(64, 128, {1280, 1280, 256, 256, 1024}), accelopt_step());
  EXPECT_EQ(base.cycles - 2, 65970);
  EXPECT_EQ(m64n64.cycles - 2, 19061);
  EXPECT_EQ(m64n128.cycles - 2, 20761);
  EXPECT_EQ(base.offchip_read_bytes + base.offchip_write_bytes, 8454144);
}

TEST(Step2Calibration, Deterministic) {
  const std::int64_t bw6[6] = {1024, 256, 1024, 512, 256, 1024};
  for (const Graph& g : {test::gemm_256(false), test::sdpa(bw6), test::swiglu(16, 32)}) {
    Report a = evaluate(g, accelopt_step());
    Report b = evaluate(g, accelopt_step());
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.events, b.events);
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
      EXPECT_EQ(a.nodes[i].busy, b.nodes[i].busy);
      EXPECT_EQ(a.nodes[i].stall_in, b.nodes[i].stall_in);
      EXPECT_EQ(a.nodes[i].blocked_out, b.nodes[i].blocked_out);
    }
  }
}

}  // namespace
}  // namespace sf::step2::perf
