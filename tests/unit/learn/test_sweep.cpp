// Campaign sweeps (issue 19 item 6): seed lists, the variant grid, the paired bootstrap on hand-computed
// cases, per-cell metrics and the report.
#include <gtest/gtest.h>

#include "core/learn/sweep.hpp"

using namespace sf::learn;
using nlohmann::json;

TEST(Sweep, ParsesSeedLists) {
  std::string err;
  EXPECT_EQ(*parse_seed_list("1-5", err), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(*parse_seed_list("7,3,3-4,9", err), (std::vector<std::int64_t>{7, 3, 4, 9}));
  EXPECT_FALSE(parse_seed_list("5-1", err));
  EXPECT_NE(err.find("descending"), std::string::npos);
  EXPECT_FALSE(parse_seed_list("a", err));
  EXPECT_FALSE(parse_seed_list("", err));
  EXPECT_FALSE(parse_seed_list("1-5000", err));
}

TEST(Sweep, VariantsAreTheGridThenOneAblationEach) {
  std::string err;
  auto v = sweep_variants({"memory.credit=atu,uniform", "memory.enabled=true,false"}, {"memory.ugc=random"}, err);
  ASSERT_TRUE(v) << err;
  ASSERT_EQ(v->size(), 5u);
  EXPECT_EQ((*v)[0].name, "v0");
  EXPECT_EQ((*v)[0].overrides, (std::vector<std::string>{"memory.credit=atu", "memory.enabled=true"}));
  EXPECT_EQ((*v)[1].overrides, (std::vector<std::string>{"memory.credit=atu", "memory.enabled=false"}));
  EXPECT_EQ((*v)[3].overrides, (std::vector<std::string>{"memory.credit=uniform", "memory.enabled=false"}));
  EXPECT_EQ((*v)[4].overrides,
            (std::vector<std::string>{"memory.credit=atu", "memory.enabled=true", "memory.ugc=random"}));
  auto plain = sweep_variants({}, {"memory.enabled=false"}, err);
  ASSERT_TRUE(plain);
  ASSERT_EQ(plain->size(), 2u);
  EXPECT_TRUE((*plain)[0].overrides.empty());
  EXPECT_FALSE(sweep_variants({"memory.credit"}, {}, err));
  EXPECT_FALSE(sweep_variants({"memory.credit=a,,b"}, {}, err));
  EXPECT_FALSE(sweep_variants({}, {"=x"}, err));
}

// Hand-computed: with diffs {0, 1} a resampled mean of two is 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4,
// so among 10000 sorted means the 250th is 0 and the 9750th is 1 (anything else has probability < 1e-30);
// the mean is 0.5. A constant difference gives a zero-width interval; a single seed is its own interval.
TEST(Sweep, PairedBootstrapOnHandComputedCases) {
  auto b = paired_bootstrap({0.0, 1.0});
  EXPECT_EQ(b.n, 2);
  EXPECT_DOUBLE_EQ(b.mean, 0.5);
  EXPECT_DOUBLE_EQ(b.lo, 0.0);
  EXPECT_DOUBLE_EQ(b.hi, 1.0);
  auto c = paired_bootstrap({0.25, 0.25, 0.25});
  EXPECT_DOUBLE_EQ(c.lo, 0.25);
  EXPECT_DOUBLE_EQ(c.hi, 0.25);
  auto one = paired_bootstrap({-0.1});
  EXPECT_DOUBLE_EQ(one.lo, -0.1);
  EXPECT_DOUBLE_EQ(one.hi, -0.1);
  EXPECT_EQ(paired_bootstrap({}).n, 0);
  // Fixed seed: the same input gives the same interval; it contains the mean.
  std::vector<double> d{0.1, -0.05, 0.2, 0.0, 0.15};
  auto x = paired_bootstrap(d), y = paired_bootstrap(d);
  EXPECT_EQ(x.lo, y.lo);
  EXPECT_EQ(x.hi, y.hi);
  EXPECT_LE(x.lo, x.mean);
  EXPECT_GE(x.hi, x.mean);
  EXPECT_GE(x.lo, -0.05);
  EXPECT_LE(x.hi, 0.2);
}

TEST(Sweep, CellMetricsAndReport) {
  // Task a: episode 0 fails after 4 rounds, episode 1 solves in round 1 → 4 + 2 = 6 samples; task b: 1.
  json rep = {{"er", 0.5},
              {"rounds_to_first_correct", 1.5},
              {"fast_1", 0.25},
              {"episodes",
               {{{"task", "a"}, {"rounds", 4}, {"first_correct_round", -1}, {"solved", false}},
                {{"task", "b"}, {"rounds", 1}, {"first_correct_round", 0}, {"solved", true}},
                {{"task", "a"}, {"rounds", 2}, {"first_correct_round", 1}, {"solved", true}},
                {{"task", "b"}, {"rounds", 3}, {"first_correct_round", 2}, {"solved", true}}}}};
  CellMetrics m = cell_metrics(rep, false);
  EXPECT_DOUBLE_EQ(m.er, 0.5);
  EXPECT_DOUBLE_EQ(*m.rounds_to_first_correct, 1.5);
  EXPECT_DOUBLE_EQ(*m.samples_to_first_correct, 3.5);
  EXPECT_FALSE(m.fast_1);  // no cost model
  EXPECT_DOUBLE_EQ(*cell_metrics(rep, true).fast_1, 0.25);
  EXPECT_DOUBLE_EQ(cell_metrics({{"tasks_total", 4}, {"tasks_solved", 3}}, false).er, 0.75);

  std::string err;
  auto vars = *sweep_variants({}, {"memory.enabled=false"}, err);
  std::vector<std::map<std::int64_t, CellMetrics>> cells(2);
  cells[0][1].er = 0.8;
  cells[0][2].er = 0.6;
  cells[1][1].er = 0.7;
  cells[1][2].er = 0.6;
  cells[1][3].er = 0.1;  // no reference for seed 3: not paired
  json r = sweep_report_json(vars, {1, 2, 3}, cells);
  EXPECT_EQ(r["reference"], "v0");
  EXPECT_DOUBLE_EQ(r["variants"][0]["er"].get<double>(), 0.7);
  EXPECT_FALSE(r["variants"][0].contains("vs_reference"));
  const json& d = r["variants"][1]["vs_reference"]["er"];
  EXPECT_EQ(d["n"], 2);
  EXPECT_NEAR(d["mean_diff"].get<double>(), -0.05, 1e-12);
  EXPECT_NEAR(d["lo"].get<double>(), -0.1, 1e-12);
  EXPECT_NEAR(d["hi"].get<double>(), 0.0, 1e-12);
  std::string md = sweep_report_markdown(r);
  EXPECT_NE(md.find("| v1 | `memory.enabled=false` | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("-0.050 [-0.100, +0.000]"), std::string::npos) << md;
  // A partly finished sweep names its missing cells (v0 seed 3); a finished one has no "missing" key.
  ASSERT_TRUE(r.contains("missing"));
  EXPECT_EQ(r["missing"], json::parse(R"([{"variant": "v0", "seed": 3}])"));
  EXPECT_NE(md.find("missing (not finished, left out; intervals over complete pairs only): v0 seed 3"),
            std::string::npos) << md;
  cells[0][3].er = 0.5;
  json full = sweep_report_json(vars, {1, 2, 3}, cells);
  EXPECT_FALSE(full.contains("missing"));
  EXPECT_EQ(full["variants"][1]["vs_reference"]["er"]["n"], 3);
  EXPECT_EQ(sweep_missing_text(full), "");
  // Another reference (sweep-report --reference v1): the differences are taken against it, v0 gets them.
  json other = sweep_report_json(vars, {1, 2, 3}, cells, 1);
  EXPECT_EQ(other["reference"], "v1");
  EXPECT_FALSE(other["variants"][1].contains("vs_reference"));
  const json& o = other["variants"][0]["vs_reference"]["er"];
  EXPECT_EQ(o["n"], 3);
  EXPECT_NEAR(o["mean_diff"].get<double>(), (0.1 + 0.0 + 0.4) / 3, 1e-12);
  const std::string omd = sweep_report_markdown(other);
  EXPECT_NE(omd.find("| v0 | (the base config) | 3 |"), std::string::npos) << omd;
  EXPECT_NE(omd.find("ΔER vs v1"), std::string::npos) << omd;
}
