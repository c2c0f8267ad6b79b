// The calibration programs as v2 documents (tests/data/step25/K*.yaml) through the front end's checker and
// the cost model: the same bytes and cycles as the hand-built graphs, the task's facts (reference reads,
// baseline) joined in by task_perf.
#include <gtest/gtest.h>

#include "core/step/task.hpp"
#include "core/step2/perf/task_perf.hpp"

namespace sf::step2::perf {
namespace {

const std::string kYamlData = std::string(SF_TEST_DATA_DIR) + "/step25/";
const std::string kYamlRes = std::string(SF_SOURCE_DIR) + "/resources";

step::TaskDoc load(const std::string& file) {
  Diagnostics ds;
  auto t = step::load_task_file(kYamlData + file, ds);
  EXPECT_TRUE(t) << file << ": " << (ds.empty() ? "" : ds[0].code + " " + ds[0].message);
  return t ? *t : step::TaskDoc{};
}

struct DocRow {
  const char* file;
  const char* chip;  // a profile that lets the program be feasible
  std::int64_t offchip, onchip, recorded;
  bool feasible_on_accelopt;
};

TEST(Step2YamlCalibration, KDocumentsGiveTheRecordedNumbers) {
  const DocRow rows[] = {
      {"K1_gemm.yaml", "accelopt-step", 1310720, 262144, 16938, true},
      {"K2_gemm_silu.yaml", "chips/budget-8192.json", 1310720, 262144, 17963, false},
      {"K3_swish_scaling.yaml", "chips/budget-12288.json", 786432, 327680, 9804, false},
      {"K4_swish_scaling.yaml", "accelopt-step", 786432, 327680, 9900, true},
      {"K5_sdpa.yaml", "chips/budget-24576.json", 131072, 196608, 2354, false},
      {"K6_sdpa.yaml", "accelopt-step", 131072, 196608, 2926, true},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.file);
    step::TaskDoc t = load(row.file);
    ASSERT_TRUE(t.impl);
    std::string err;
    auto own = chip_for(t, "", kYamlRes, err);
    ASSERT_TRUE(own) << err;
    EXPECT_EQ(own->name, "accelopt-step");
    ProgramPerf p = perf_program(t, *t.impl, t.impl_line_starts, *own);
    ASSERT_TRUE(p.report) << (p.diags.empty() ? "" : p.diags[0].code + " " + p.diags[0].message);
    const Report& r = *p.report;
    EXPECT_EQ(r.offchip_read_bytes + r.offchip_write_bytes, row.offchip);
    EXPECT_EQ(r.onchip_bytes, row.onchip);
    EXPECT_EQ(r.cycles, row.recorded);
    EXPECT_EQ(r.feasible, row.feasible_on_accelopt);
    if (!row.feasible_on_accelopt) {
      ASSERT_FALSE(r.violations.empty());
      EXPECT_EQ(r.violations[0].code, "C-COMPUTE");
    }
    std::string chip = row.chip;
    if (chip.starts_with("chips/")) chip = kYamlData + chip;
    auto c = chip_for(t, chip, kYamlRes, err);
    ASSERT_TRUE(c) << err;
    ProgramPerf q = perf_program(t, *t.impl, t.impl_line_starts, *c);
    ASSERT_TRUE(q.report);
    EXPECT_TRUE(q.report->feasible);
    EXPECT_EQ(q.report->cycles, row.recorded);
    // Nodes carry their source lines (the impl's lines in the document).
    for (const auto& n : q.report->nodes) EXPECT_GT(n.line, 0) << n.op;
  }
}

TEST(Step2YamlCalibration, ReferenceReadsAndPeak) {
  step::TaskDoc t = load("K4_swish_scaling.yaml");
  auto reads = reference_reads(t);
  EXPECT_EQ(reads, (std::vector<std::string>{"x", "W"}));  // the scale tensor S is never read
  ProgramPerf p = perf_program(t, *t.impl, t.impl_line_starts, accelopt_step());
  ASSERT_TRUE(p.report);
  EXPECT_EQ(p.report->min_offchip_bytes, 4 * (128 * 256 + 256 * 256 + 128 * 256));
  // FLOPs: matmul 2·128·256·256 + silu 8·128·256 + mul 128·256 → 4168 cycles at 4096 FLOP/cycle.
  EXPECT_EQ(p.report->flops, 2LL * 128 * 256 * 256 + 8 * 128 * 256 + 128 * 256);
  EXPECT_EQ(p.report->peak_cycles, 4168);
  step::TaskDoc s = load("K6_sdpa.yaml");
  EXPECT_EQ(reference_reads(s), (std::vector<std::string>{"Qs", "K", "V"}));
}

TEST(Step2YamlCalibration, ACheckErrorIsADiagnosticNotAReport) {
  step::TaskDoc t = load("K1_gemm.yaml");
  std::string bad = *t.impl;
  bad.replace(bad.find("compute_bw=4096"), 15, "compute_bw=0");
  ProgramPerf p = perf_program(t, bad, {}, accelopt_step());
  EXPECT_FALSE(p.report);
  ASSERT_FALSE(p.diags.empty());
  EXPECT_EQ(p.diags[0].code, "C-BW");
}

TEST(Step2YamlCalibration, BaselineOfABenchmarkTask) {
  Diagnostics ds;
  auto t = step::load_task_file(kYamlRes + "/benchmark_v2/gemm/small.yaml", ds);
  if (!t) GTEST_SKIP() << "the v2 benchmark is not bundled";
  EXPECT_EQ(baseline_path(*t, kYamlRes), kYamlRes + "/solutions_v2/gemm/small.yaml");
  std::string why;
  auto b = baseline_cycles(*t, kYamlRes, accelopt_step(), why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(*b, 16938);
  step::TaskDoc k1 = load("K1_gemm.yaml");
  EXPECT_FALSE(baseline_cycles(k1, kYamlRes, accelopt_step(), why));
  EXPECT_NE(why.find("no baseline"), std::string::npos);
}

}  // namespace
}  // namespace sf::step2::perf

namespace sf::step2::perf {
namespace {

// The SwiGLU sweep point (m, n) as a v2 document (the program of the STeP authors' expert_tiling_sweep.py).
std::string swiglu_doc(int m, int n) {
  auto S = [](int v) { return std::to_string(v); };
  return "dialect: step-v2\nid: calib/H_swiglu\ntitle: t\ndescription: d\nsizes: {B: 64, D: 256, I: 512}\n"
         "inputs:\n  - {name: X, shape: [B, D], data_gen: randn}\n  - {name: Wg, shape: [D, I], data_gen: randn}\n"
         "  - {name: Wu, shape: [D, I], data_gen: randn}\n  - {name: Wd, shape: [I, D], data_gen: randn}\n"
         "outputs:\n  - {name: Y, shape: [B, D]}\nreference: |\n  return (silu(X @ Wg) * (X @ Wu)) @ Wd\n"
         "chip: step-hdl\nimpl: |\n"
         "  x = step.OffChipLoad(tile=[" + S(m) + ", 256], stride=[1, 0, 1], shape=[" + S(64 / m) + ", " + S(512 / n) +
         ", 1], par_dispatch=4).apply(X)\n"
         "  wg = step.OffChipLoad(tile=[256, " + S(n) + "], stride=[0, 1, " + S(512 / n) + "], shape=[" + S(64 / m) +
         ", " + S(512 / n) + ", 1], par_dispatch=4).apply(Wg)\n"
         "  gate = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=0, compute_bw=4096).apply((x, wg))\n"
         "  wu = step.OffChipLoad(tile=[256, " + S(n) + "], stride=[0, 1, " + S(512 / n) + "], shape=[" + S(64 / m) +
         ", " + S(512 / n) + ", 1], par_dispatch=4).apply(Wu)\n"
         "  up = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=0, compute_bw=4096).apply((x, wu))\n"
         "  act = step.UnaryMap(fn=silu, write_back_mu=0, compute_bw=4096).apply(gate)\n"
         "  h = step.BinaryMap(fn=mul, write_back_mu=0, compute_bw=4096).apply((act, up))\n"
         "  hr = step.Reshape(chunk=1, rank=1).apply(h)\n"
         "  wd = step.OffChipLoad(tile=[" + S(n) + ", 256], stride=[0, 1, 1], shape=[" + S(64 / m) + ", 1, " +
         S(512 / n) + "], par_dispatch=4).apply(Wd)\n"
         "  y = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((hr, wd))\n"
         "  Y = step.OffChipStore(par_dispatch=4).apply(y)\n";
}

// The checker's graph of every sweep point gives the off-chip bytes of the recorded formula and the same cycles
// as the hand-built graph (test_calibration's regression baseline).
TEST(Step2YamlCalibration, SwigluSweepDocumentsMatchTheFormulaAndTheBaseline) {
  const std::int64_t baseline[15] = {33289, 29400, 27503, 26993, 27509, 21223, 17097, 15277,
                                     14773, 15305, 15218, 11188, 9537,  9260,  11088};
  int k = 0;
  for (int m : {16, 32, 64})
    for (int n : {16, 32, 64, 128, 256}) {
      SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(n));
      Diagnostics ds;
      auto t = step::load_task_text(swiglu_doc(m, n), "H.yaml", ds);
      ASSERT_TRUE(t && t->impl) << (ds.empty() ? "" : ds[0].code + " " + ds[0].message);
      std::string err;
      auto chip = chip_for(*t, "", kYamlRes, err);
      ASSERT_TRUE(chip) << err;
      ProgramPerf p = perf_program(*t, *t->impl, t->impl_line_starts, *chip);
      ASSERT_TRUE(p.report) << (p.diags.empty() ? "" : p.diags[0].code + " " + p.diags[0].message);
      std::int64_t tiles = (64 / m) * (512 / n);
      EXPECT_EQ(p.report->offchip_read_bytes + p.report->offchip_write_bytes,
                tiles * 1024 * m + 3 * tiles * 1024 * n + 64 * 1024);
      EXPECT_EQ(p.report->cycles, baseline[k++]);
      EXPECT_TRUE(p.report->feasible);
    }
}

}  // namespace
}  // namespace sf::step2::perf
