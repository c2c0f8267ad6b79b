// stepforge-cli end to end for STeP-25 optimisation campaigns (issue 36 items 1 and 5): `campaign run` of the
// shipped optimise-sage config cut to 2 tasks x 3 proposals, `campaign report` as text, JSON (the keys the issue
// names) and CSV, a resume of the finished workspace that changes nothing, and `campaign sweep` of the config's
// four variants over two seeds with `sweep-report` (median speedup, AUC, Fast_1.5, paired intervals).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/cli_test_util.hpp"
#include "tests/support/files.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using sf::e2e::cli;

const std::string kOpt2Config = std::string(SF_SOURCE_DIR) + "/resources/configs/optimise-sage.json";
const std::string kOpt2Small = " --set memory.rounds=3 --set tasks=gemm/small,norm/rmsnorm";

fs::path opt2_scratch(const std::string& name) { return sf::test_support::scratch_dir("sf_e2e_opt2_" + name, false); }

std::string text_of(const fs::path& p) { return sf::test_support::read_text(p); }

}  // namespace

TEST(CliOpt2Campaign, RunReportJsonCsvAndResume) {
  const fs::path ws = opt2_scratch("run");
  auto run = cli("campaign run " + kOpt2Config + " --out " + ws.string() + kOpt2Small + " --quiet");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("Fast_1.5"), std::string::npos) << run.out;
  EXPECT_TRUE(fs::exists(ws / "opt2_bank.json"));

  auto rep = cli("campaign report " + ws.string() + " --json", false);
  ASSERT_EQ(rep.code, 0) << rep.out;
  const json r = json::parse(rep.out);
  for (const char* k : {"fast_1", "fast_1_5", "median_speedup", "fast_2", "geomean_speedup"})
    ASSERT_TRUE(r.contains(k) && r[k].is_number()) << k;
  ASSERT_EQ(r["tasks"].size(), 2u);
  for (const auto& t : r["tasks"]) {
    for (const char* k : {"baseline_cycles", "best_cycles", "speedup", "pct_of_peak"})
      EXPECT_TRUE(t[k].is_number()) << t["id"] << " " << k;
    EXPECT_TRUE(t.contains("best_round"));
    EXPECT_LE(t["best_cycles"].get<std::int64_t>(), t["baseline_cycles"].get<std::int64_t>());
    EXPECT_EQ(t["rounds"], 3);
  }
  EXPECT_EQ(r["tasks"][0]["id"], "gemm/small");
  EXPECT_EQ(r["finished"], "done");

  auto text = cli("campaign report " + ws.string());
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("STeP-25 optimisation"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("norm/rmsnorm"), std::string::npos) << text.out;
  auto csv = cli("campaign report " + ws.string() + " --csv", false);
  ASSERT_EQ(csv.code, 0);
  EXPECT_EQ(csv.out.rfind("task,round,verdict,detail,cycles,best_cycles,best_speedup\n", 0), 0u) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 7);  // header + 2 tasks x 3 rounds

  // A finished campaign resumes to itself: nothing is appended.
  const std::string before = text_of(ws / "events.jsonl");
  auto res = cli("campaign resume " + ws.string() + " --quiet");
  ASSERT_EQ(res.code, 0) << res.out;
  EXPECT_EQ(text_of(ws / "events.jsonl"), before);
  fs::remove_all(ws);
}

TEST(CliOpt2Campaign, SweepOfTheConfigsFourVariantsAndItsReport) {
  const fs::path out = opt2_scratch("sweep");
  auto sw = cli("campaign sweep " + kOpt2Config + " --seeds 1-2 --out " + out.string() +
                " --set memory.rounds=2 --set tasks=gemm/small,norm/rmsnorm");
  ASSERT_EQ(sw.code, 0) << sw.out;
  for (const char* v : {"random", "uniform", "sage", "sage-frozen"})
    EXPECT_TRUE(fs::exists(out / "cells" / v / "seed-2" / "events.jsonl")) << v;
  // The sweep plan is no part of a cell's config; the variants' overrides are.
  const json cell = json::parse(text_of(out / "cells" / "sage-frozen" / "seed-1" / "campaign.json"))["config"];
  EXPECT_FALSE(cell.contains("sweep"));
  EXPECT_EQ(cell["memory"]["transfer_from"], "odd");
  EXPECT_EQ(cell["memory"]["frozen"], true);
  EXPECT_NE(text_of(out / "cells" / "sage-frozen" / "seed-1" / "events.jsonl").find("\"source\":\"transfer odd\""),
            std::string::npos);

  auto rep = cli("campaign sweep-report " + out.string() + " --json", false);
  ASSERT_EQ(rep.code, 0) << rep.out;
  const json r = json::parse(rep.out);
  ASSERT_EQ(r["variants"].size(), 4u);
  EXPECT_EQ(r["reference"], "random");
  for (const auto& v : r["variants"]) {
    EXPECT_EQ(v["seeds_done"], 2) << v["name"];
    for (const char* k : {"median_speedup", "auc", "fast_1_5"}) EXPECT_TRUE(v[k].is_number()) << v["name"] << " " << k;
  }
  const json& d = r["variants"][2]["vs_reference"]["auc"];
  EXPECT_EQ(d["n"], 2);
  EXPECT_LE(d["lo"].get<double>(), d["mean_diff"].get<double>());
  EXPECT_GE(d["hi"].get<double>(), d["mean_diff"].get<double>());

  auto text = cli("campaign sweep-report " + out.string());
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("median speedup"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("sage-frozen"), std::string::npos) << text.out;
  auto md = cli("campaign sweep-report " + out.string() + " --md", false);
  ASSERT_EQ(md.code, 0) << md.out;
  EXPECT_NE(md.out.find("| variant | median speedup |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("| sage | (the base config) |"), std::string::npos) << md.out;
  // Sage against uniform credit: the differences taken against another variant; an unknown one is refused.
  auto vs = cli("campaign sweep-report " + out.string() + " --json --reference uniform", false);
  ASSERT_EQ(vs.code, 0) << vs.out;
  const json u = json::parse(vs.out);
  EXPECT_EQ(u["reference"], "uniform");
  EXPECT_FALSE(u["variants"][1].contains("vs_reference"));
  EXPECT_EQ(u["variants"][2]["vs_reference"]["median_speedup"]["n"], 2);
  auto bad = cli("campaign sweep-report " + out.string() + " --reference nope");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("no such variant in this sweep (random, uniform, sage, sage-frozen)"), std::string::npos)
      << bad.out;
  fs::remove_all(out);
}
