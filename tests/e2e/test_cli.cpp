// stepforge-cli end to end: exit codes, compiler-style diagnostics, the bad-input corpus, the benchmark.
#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <vector>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/cli_test_util.hpp"

namespace fs = std::filesystem;

using sf::e2e::cli;
using sf::e2e::CliRun;

namespace {

std::string data(const std::string& rel) { return std::string(SF_TEST_DATA_DIR) + "/" + rel; }
std::string src(const std::string& rel) { return std::string(SF_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST(Cli, VerifyAcceptsASolutionAndRejectsAMutant) {
  CliRun ok = cli("verify " + src("resources/solutions/attention/online_softmax_fused.yaml"));
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("PASS"), std::string::npos);

  fs::path tmp = fs::temp_directory_path() / "sf_e2e_bad.yaml";
  {
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    std::fputs(
        "task: attention/online_softmax_fused\n"
        "impl: |\n"
        "  E2 = step.Zip().apply((E0, E1))\n"
        "  E3 = step.Accum(fn=fn_maxsum, b=2).apply(E2)\n"
        "  E4 = step.Map(fn=fn_getthird).apply(E3)\n"
        "  E5 = step.Streamify().apply(E4)\n"
        "  return E5\n",
        f);
    std::fclose(f);
  }
  CliRun bad = cli("verify " + tmp.string());
  EXPECT_EQ(bad.code, 1);
  // Compiler-style, file-relative location of the b= value on line 4.
  EXPECT_NE(bad.out.find(tmp.string() + ":4:35: error: line 4: step.Accum(b=2)"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("[T-RANK]"), std::string::npos);
  fs::remove(tmp);
}

TEST(Cli, VerifyJsonReportsStageCodeAndErrors) {
  CliRun r = cli("verify --json " + src("resources/solutions/norm/rmsnorm_streaming.yaml"), false);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["pass"].get<bool>());
  EXPECT_EQ(j["reward"], 1);
  EXPECT_EQ(j["input_sets"].size(), 4u);  // 2 seeds x {sizes, alt_sizes}
  EXPECT_LT(j["max_abs_error"].get<double>(), 1e-4);
  EXPECT_EQ(j["canonical_key"].get<std::string>().size(), 64u);
}

// Every file of the bad-input corpus is named <CODE>__<what>.yaml: it must give that code with a location and a
// non-zero exit, and never crash or hang.
TEST(Cli, BadInputCorpusGivesLocatedDiagnostics) {
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("bad"))) {
    if (e.path().extension() != ".yaml") continue;
    std::string name = e.path().filename().string();
    std::string code = name.substr(0, name.find("__"));
    ++files;
    CliRun r = cli("verify --json " + e.path().string(), false);
    EXPECT_EQ(r.code, 1) << name << "\n" << r.out;
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << name << ": " << r.out;
    bool found = false, located = true;
    for (const auto& d : j["diagnostics"]) {
      if (d["code"] == code) {
        found = true;
        located = d["line"].get<int>() > 0 && d["column"].get<int>() > 0;
      }
    }
    EXPECT_TRUE(found) << name << ": expected " << code << ", got " << j["diagnostics"].dump();
    EXPECT_TRUE(located) << name << ": " << code << " has no location";
  }
  EXPECT_GE(files, 40);
}

TEST(Cli, GeneratedBombsAreRejectedQuickly) {
  fs::path tmp = fs::temp_directory_path() / "sf_e2e_bomb.yaml";
  std::string impl = "task: bmm/outer_product\nimpl: |\n";
  for (int i = 0; i < 100000; ++i) impl += "  # filler comment line to grow the file\n";
  {
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    std::fputs(impl.c_str(), f);
    std::fclose(f);
  }
  CliRun r = cli("check " + tmp.string());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out.substr(0, 500);
  fs::remove(tmp);
}

TEST(Cli, TasksListShowAndValidate) {
  CliRun l = cli("tasks list");
  ASSERT_EQ(l.code, 0) << l.out;
  EXPECT_NE(l.out.find("32 task(s)"), std::string::npos);
  EXPECT_NE(l.out.find("norm/layernorm_buffer"), std::string::npos);
  CliRun g = cli("tasks list --group rope");
  EXPECT_NE(g.out.find("3 task(s)"), std::string::npos) << g.out;
  CliRun s = cli("tasks show bmm/row_wise");
  ASSERT_EQ(s.code, 0);
  EXPECT_EQ(s.out.find("impl:"), std::string::npos);  // agents never see solutions
  EXPECT_NE(s.out.find("fn_mul"), std::string::npos);
  CliRun u = cli("tasks show nope/nope");
  EXPECT_EQ(u.code, 1);
  CliRun v = cli("tasks validate");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("solutions: 32/32"), std::string::npos) << v.out;
  // The STeP-25 benchmark (issue 32): its lines follow the v1 ones.
  EXPECT_NE(v.out.find("v2 tasks: 13/13 sound"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("v2 baselines: 13/13 pass and are feasible"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("v2 mutants: 48/48 rejected"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("v2 reward hacks: 6/6"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("v2 manual examples: 12/12"), std::string::npos) << v.out;
  CliRun l2 = cli("tasks list --dialect step-v2");
  ASSERT_EQ(l2.code, 0) << l2.out;
  EXPECT_NE(l2.out.find("13 step-v2 task(s)"), std::string::npos) << l2.out;
  EXPECT_EQ(l2.out.find("norm/layernorm_buffer"), std::string::npos) << l2.out;
  EXPECT_NE(l.out.find("32 task(s)\n\nid"), std::string::npos) << l.out;  // v2 table appended after the v1 one
  CliRun s2 = cli("tasks show attention/sdpa");
  ASSERT_EQ(s2.code, 0) << s2.out;
  EXPECT_EQ(s2.out.find("impl:"), std::string::npos);
  EXPECT_EQ(s2.out.find("baseline:"), std::string::npos);
  EXPECT_NE(s2.out.find("Qs: [BH, S, D]"), std::string::npos) << s2.out;
}

TEST(Cli, RunShowsTokenViewOfAStream) {
  CliRun r = cli("run " + src("resources/solutions/rope/neox_halves.yaml") + " --show P --max-tokens 8");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("stream P"), std::string::npos) << r.out;
  CliRun bad = cli("run " + src("resources/solutions/rope/neox_halves.yaml") + " --show nope");
  EXPECT_EQ(bad.code, 2);
}

// A small adaptive campaign end to end on the builtin synthesizer through the CLI: run, report, resume of a
// finished workspace (no new work), and the per-iteration table.
TEST(Cli, SmallAdaptiveCampaignOnTheBuiltinBackend) {
  fs::path out = fs::temp_directory_path() / "sf_e2e_campaign";
  fs::remove_all(out);
  std::string cfg = std::string(SF_SOURCE_DIR) + "/resources/configs/demo.json";
  CliRun r = cli("campaign run " + cfg + " --out " + out.string() +
                 " --set n=2 --set tasks=rope/neox_halves,moe_index/mlp_score_threshold,extra/exclusive_cumsum");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(out / "campaign.json"));
  EXPECT_TRUE(fs::exists(out / "events.jsonl"));
  CliRun rep = cli("campaign report " + out.string() + " --json", false);
  ASSERT_EQ(rep.code, 0) << rep.out;
  auto j = nlohmann::json::parse(rep.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << rep.out;
  EXPECT_EQ(j["tasks_total"], 3);
  EXPECT_GE(j["tasks_solved"].get<int>(), 2);  // neox_halves and mlp_score_threshold are solved at T=0
  EXPECT_TRUE(j.contains("pass_at_1"));
  EXPECT_TRUE(j.contains("pass_at_n"));
  EXPECT_FALSE(j["iterations"].empty());
  CliRun again = cli("campaign resume " + out.string());
  EXPECT_EQ(again.code, 0) << again.out;
  fs::remove_all(out);
}

// Cost in campaigns (docs/campaign.md "Cost"): a chip set with --set makes the objective performance; the
// report has the speed metrics (JSON, text, CSV); an unknown chip is a config error before anything runs.
TEST(Cli, CampaignWithAChipReportsSpeed) {
  fs::path out = fs::temp_directory_path() / "sf_e2e_campaign_cost";
  fs::remove_all(out);
  std::string cfg = std::string(SF_SOURCE_DIR) + "/resources/configs/demo.json";
  CliRun bad = cli("campaign run " + cfg + " --out " + out.string() + " --set chip=no-such-chip");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("config key 'chip'"), std::string::npos) << bad.out;
  fs::remove_all(out);
  CliRun r = cli("campaign run " + cfg + " --out " + out.string() +
                 " --set n=1 --set mode=agent --set chip=edge --set tasks=rope/neox_halves");
  ASSERT_EQ(r.code, 0) << r.out;
  CliRun rep = cli("campaign report " + out.string() + " --json", false);
  ASSERT_EQ(rep.code, 0) << rep.out;
  auto j = nlohmann::json::parse(rep.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << rep.out;
  EXPECT_TRUE(j.contains("fast_1"));
  EXPECT_TRUE(j.contains("fast_1_5"));
  EXPECT_TRUE(j.contains("median_speedup"));
  if (j["tasks"][0]["solved"].get<bool>()) {
    ASSERT_TRUE(j["tasks"][0].contains("fastest")) << rep.out;
    EXPECT_GT(j["tasks"][0]["fastest"]["cycles"].get<long long>(), 0);
    EXPECT_TRUE(j["tasks"][0]["fastest"].contains("suspicious"));
    EXPECT_TRUE(j["median_speedup"].is_number());
  }
  CliRun text = cli("campaign report " + out.string(), false);
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("speed: fast_1 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("distinct programs (all/fail/pass, summed over tasks): "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("speedup"), std::string::npos) << text.out;
  CliRun csv = cli("campaign report " + out.string() + " --csv", false);
  ASSERT_EQ(csv.code, 0) << csv.out;
  EXPECT_NE(csv.out.find(",fast_1,fast_1_5,median_speedup\n"), std::string::npos) << csv.out;
  std::ifstream cj(out / "campaign.json");
  auto written = nlohmann::json::parse(cj, nullptr, false);
  EXPECT_EQ(written["config"]["chip"], "edge");
  EXPECT_EQ(written["config"]["objective"], "performance");
  fs::remove_all(out);
}

TEST(Cli, PerfJsonHasExactlyTheDocumentedKeys) {
  CliRun r = cli("perf --json " + src("resources/solutions/norm/rmsnorm_streaming.yaml"), false);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> want{"allocated_compute", "baseline_cycles", "bottleneck",          "cycles",
                                "feasible",          "file",            "flops",               "offchip_read_bytes",
                                "offchip_write_bytes", "onchip_bytes",  "speedup",             "task",
                                "units",             "utilisation",     "violations"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(keys, want);
  EXPECT_EQ(j["task"], "norm/rmsnorm_streaming");
  EXPECT_GT(j["cycles"].get<long long>(), 0);
  EXPECT_EQ(j["cycles"], j["baseline_cycles"]);  // the reference solution is its own baseline
  EXPECT_DOUBLE_EQ(j["speedup"].get<double>(), 1.0);
  EXPECT_TRUE(j["feasible"].get<bool>());
  EXPECT_TRUE(j["violations"].empty());
  ASSERT_FALSE(j["units"].empty());
  for (const auto& u : j["units"]) {
    std::vector<std::string> uk;
    for (auto it = u.begin(); it != u.end(); ++it) uk.push_back(it.key());
    std::sort(uk.begin(), uk.end());
    EXPECT_EQ(uk, (std::vector<std::string>{"blocked_out", "busy", "line", "primitive", "stall_in", "tokens_in",
                                            "tokens_out"}));
  }
  EXPECT_TRUE(j["bottleneck"].contains("line"));
  EXPECT_TRUE(j["bottleneck"].contains("primitive"));
}

TEST(Cli, PerfRefusesAProgramThatDoesNotVerify) {
  fs::path tmp = fs::temp_directory_path() / "sf_e2e_perf_wrong.yaml";
  {
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    // Type-correct but wrong: the row sum of squares instead of the RMS normalisation.
    std::fputs(
        "task: norm/rmsnorm_streaming\n"
        "impl: |\n"
        "  Y = step.Map(fn=fn_square).apply(E0)\n"
        "  return Y\n",
        f);
    std::fclose(f);
  }
  CliRun r = cli("perf " + tmp.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("does not verify"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("cycles:"), std::string::npos) << r.out;
  fs::remove(tmp);
}

TEST(Cli, VerifyPerfAndBenchPerf) {
  CliRun v = cli("verify --perf " + src("resources/solutions/rope/neox_halves.yaml"));
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find(" cycles, speedup 1.000x"), std::string::npos) << v.out;
  CliRun b = cli("bench perf --reps 3 " + src("resources/solutions/rope/neox_halves.yaml"));
  EXPECT_EQ(b.code, 0) << b.out;
  EXPECT_NE(b.out.find("median over files: "), std::string::npos) << b.out;
  EXPECT_NE(b.out.find(" us per cost evaluation"), std::string::npos) << b.out;
  CliRun chip = cli("perf --chip no-such-chip " + src("resources/solutions/rope/neox_halves.yaml"));
  EXPECT_EQ(chip.code, 2) << chip.out;
  EXPECT_NE(chip.out.find("no chip profile 'no-such-chip'"), std::string::npos) << chip.out;
}

TEST(Cli, BenchVerifyTimesOnlyProgramsThatVerify) {
  fs::path tmp = fs::temp_directory_path() / "sf_e2e_bench_wrong.yaml";
  {
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    std::fputs("task: norm/rmsnorm_streaming\nimpl: |\n  Y = step.Map(fn=fn_square).apply(E0)\n  return Y\n", f);
    std::fclose(f);
  }
  std::string good = src("resources/solutions/rope/neox_halves.yaml");
  CliRun both = cli("bench verify --reps 3 " + good + " " + tmp.string());
  EXPECT_EQ(both.code, 1) << both.out;
  EXPECT_NE(both.out.find("FAILS: stage numeric, V-MISMATCH (not timed)"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("1 file(s) do not verify and are left out of the median"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("median over files: "), std::string::npos) << both.out;
  CliRun ok = cli("bench verify --reps 3 " + good);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("instr"), std::string::npos) << ok.out;
  // The allocator the CLI was linked with (mimalloc unless a sanitizer build) is named next to the numbers.
  EXPECT_NE(ok.out.find("; " SF_CLI_ALLOCATOR), std::string::npos) << ok.out;
  fs::remove(tmp);
}

TEST(Cli, LlmCheckNamesTheCauseAndExits3) {
  CliRun refused = cli("llm check --model m --base-url http://127.0.0.1:1/v1 --no-models");
  EXPECT_EQ(refused.code, 3) << refused.out;
  EXPECT_NE(refused.out.find("error: cannot reach http://127.0.0.1:1/v1"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("is the server running"), std::string::npos) << refused.out;
  CliRun pasted = cli("llm check --model m --key-env sk-live-0123456789abcdefghijklmnop");
  EXPECT_EQ(pasted.code, 2) << pasted.out;
  EXPECT_NE(pasted.out.find("looks like an API key"), std::string::npos) << pasted.out;
  EXPECT_EQ(pasted.out.find("0123456789abcdefghijklmnop"), std::string::npos) << pasted.out;
  CliRun builtin = cli("llm check --backend builtin");
  EXPECT_EQ(builtin.code, 0) << builtin.out;
  EXPECT_NE(builtin.out.find("offline synthesizer"), std::string::npos) << builtin.out;
}
