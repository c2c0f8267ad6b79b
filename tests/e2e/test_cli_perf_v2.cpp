// stepforge-cli perf on step-v2 files: the JSON interface of docs/step25.md on the calibration programs, chip
// selection, infeasible programs, a program that does not verify.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/e2e/cli_test_util.hpp"
#include "tests/support/files.hpp"

namespace sf::e2e {
namespace {

const std::string kV2Data = std::string(SF_TEST_DATA_DIR) + "/step25/";

TEST(CliPerfV2, CalibrationProgramsAsJson) {
  auto r = cli("perf " + kV2Data + "K1_gemm.yaml " + kV2Data + "K2_gemm_silu.yaml " + kV2Data + "K6_sdpa.yaml --json",
               false);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 3u);
  for (const char* k : {"file", "task", "chip", "cycles", "offchip_read_bytes", "offchip_write_bytes", "onchip_bytes",
                        "flops", "feasible", "violations", "compute_nodes", "peak_cycles", "pct_of_peak", "suspicious",
                        "units"})
    EXPECT_TRUE(j[0].contains(k)) << k;
  EXPECT_FALSE(j[0].contains("baseline_cycles"));  // the calibration documents name no baseline
  EXPECT_EQ(j[0]["chip"], "accelopt-step");
  EXPECT_EQ(j[0]["cycles"], 16938);
  EXPECT_EQ(j[0]["offchip_read_bytes"].get<std::int64_t>() + j[0]["offchip_write_bytes"].get<std::int64_t>(), 1310720);
  EXPECT_EQ(j[0]["onchip_bytes"], 262144);
  EXPECT_EQ(j[0]["peak_cycles"], 8192);
  EXPECT_EQ(j[0]["feasible"], true);
  EXPECT_EQ(j[0]["compute_nodes"], 1);
  EXPECT_EQ(j[0]["fits_capped"], true);
  ASSERT_EQ(j[0]["units"].size(), 4u);
  for (const char* k : {"line", "op", "busy", "stall_in", "blocked_out", "tokens_in", "tokens_out"})
    EXPECT_TRUE(j[0]["units"][0].contains(k)) << k;
  EXPECT_EQ(j[0]["units"][2]["op"], "BinaryMapAccum");
  // K2 exceeds today's budget: not feasible, cycles and bytes still reported.
  EXPECT_EQ(j[1]["feasible"], false);
  EXPECT_EQ(j[1]["violations"], nlohmann::json::array({"C-COMPUTE"}));
  EXPECT_EQ(j[1]["cycles"], 17963);
  EXPECT_EQ(j[2]["cycles"], 2926);
  EXPECT_EQ(j[2]["onchip_bytes"], 196608);
  int implicit = 0;
  for (const auto& u : j[2]["units"]) implicit += u["op"] == "Broadcast";
  EXPECT_EQ(implicit, 1);  // e is used twice: the implicit Broadcast is a timed node
}

TEST(CliPerfV2, ChipByFileAndByName) {
  auto r = cli("perf " + kV2Data + "K5_sdpa.yaml --chip " + kV2Data + "chips/budget-24576.json --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["feasible"], true);
  EXPECT_EQ(j["cycles"], 2354);
  auto h = cli("perf " + kV2Data + "K1_gemm.yaml --chip step-hdl --json", false);
  ASSERT_EQ(h.code, 0) << h.out;
  EXPECT_EQ(nlohmann::json::parse(h.out)["chip"], "step-hdl");
  auto bad = cli("perf " + kV2Data + "K1_gemm.yaml --chip default");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.out.find("missing hbm_startup"), std::string::npos) << bad.out;
}

TEST(CliPerfV2, BaselineAndSpeedupOfABenchmarkSolution) {
  auto p = cli("perf " + std::string(SF_SOURCE_DIR) + "/resources/solutions_v2/gemm/small.yaml --json", false);
  ASSERT_EQ(p.code, 0) << p.out;
  auto j = nlohmann::json::parse(p.out);
  EXPECT_EQ(j["baseline_cycles"], 16938);
  EXPECT_DOUBLE_EQ(j["speedup"].get<double>(), 1.0);
}

TEST(CliPerfV2, AProgramThatDoesNotVerifyIsNotTimed) {
  auto dir = test_support::scratch_dir("perf_v2_e2e");
  std::string text = test_support::read_text(kV2Data + "K1_gemm.yaml");
  auto at = text.find("stride=[0, 1, N/128]");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 20, "stride=[0, 0, N/128]");  // reads the wrong tiles of B: checks, but computes the wrong C
  std::string f = (dir / "wrong.yaml").string();
  test_support::write_text(f, text);
  auto r = cli("perf " + f);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(r.out.find("cycles"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sf::e2e

namespace sf::e2e {
namespace {

TEST(CliPerfV2, VerifyPerfAndBenchPerf) {
  auto v = cli("verify --perf " + kV2Data + "K1_gemm.yaml");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("; 16938 cycles"), std::string::npos) << v.out;
  auto b = cli("bench perf " + kV2Data + "K6_sdpa.yaml --reps 3");
  EXPECT_EQ(b.code, 0) << b.out;
  EXPECT_NE(b.out.find("step-v2: 1 file(s)"), std::string::npos) << b.out;
}

// bench verify on a STeP-25 file measures against the v2 target (50 ms per verification of the GEMM 256^3
// baseline), not v1's 50 us, and names no Python figure for it.
TEST(CliPerfV2, BenchVerifyUsesTheStep25Target) {
  auto r = cli("bench verify --reps 2 " + kV2Data + "K1_gemm.yaml", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("median over STeP-25 files: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("target 50 ms (ratio "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("target 50 us"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Python"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sf::e2e
