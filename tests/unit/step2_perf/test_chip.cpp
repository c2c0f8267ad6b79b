// v2 chip profiles: the three bundled ones, a custom file, and clear errors for bad files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/cost/chip.hpp"
#include "core/step2/perf/chip.hpp"

namespace sf::step2::perf {
namespace {

const std::string kChipRes = std::string(SF_SOURCE_DIR) + "/resources";

TEST(Step2Chip, BundledProfiles) {
  std::string err;
  auto a = find_chip("accelopt-step", kChipRes, err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(*a, accelopt_step());
  auto capped = find_chip("accelopt-step-capped", kChipRes, err);
  ASSERT_TRUE(capped) << err;
  EXPECT_EQ(capped->max_compute_nodes, 16);
  EXPECT_EQ(capped->compute_budget, 4096);
  auto h = find_chip("step-hdl", kChipRes, err);
  ASSERT_TRUE(h) << err;
  EXPECT_EQ(h->pmu_bw, 256);
  EXPECT_EQ(h->hbm_channels, 8);
  EXPECT_EQ(h->fifo_depth, 1);
  EXPECT_EQ(h->compute_budget, 20480);
  EXPECT_EQ(h->tail, 1);
  EXPECT_DOUBLE_EQ(h->peak_bytes_per_cycle(), 256.0);
}

TEST(Step2Chip, V1ReadsV2ProfilesAndIgnoresTheirFields) {
  std::string err;
  auto v1 = cost::find_chip("step-hdl", kChipRes, err);
  ASSERT_TRUE(v1) << err;
  EXPECT_EQ(v1->pmu_bw, 256);
  EXPECT_FALSE(cost::parse_chip(R"({"hbm_startup": 1.5, "bogus": 1})", err));
}

TEST(Step2Chip, BadProfilesAreClearErrors) {
  std::string err;
  EXPECT_FALSE(parse_chip("{", err));
  EXPECT_NE(err.find("JSON"), std::string::npos) << err;
  EXPECT_FALSE(parse_chip(R"({"pmu_bw": 64})", err));
  EXPECT_NE(err.find("missing"), std::string::npos) << err;
  EXPECT_NE(err.find("hbm_startup"), std::string::npos) << err;
  const std::string full = R"("pmu_bw": 64, "hbm_channels": 32, "hbm_request_bytes": 64, "hbm_interval": 2,
      "hbm_latency": 2, "hbm_startup": 14, "fifo_depth": 2, "compute_budget": 4096, "tail": 2)";
  EXPECT_FALSE(parse_chip("{" + full + R"(, "tail": -1})", err));
  EXPECT_FALSE(parse_chip("{" + full + R"(, "max_compute_nodes": "many"})", err));
  EXPECT_NE(err.find("max_compute_nodes"), std::string::npos) << err;
  EXPECT_FALSE(parse_chip("{" + full + R"(, "hbm_lanes": 3})", err));
  EXPECT_NE(err.find("hbm_lanes"), std::string::npos) << err;
  auto ok = parse_chip("{" + full + R"(, "max_compute_nodes": 4, "name": "mine"})", err);
  ASSERT_TRUE(ok) << err;
  EXPECT_EQ(ok->max_compute_nodes, 4);
  EXPECT_EQ(ok->name, "mine");
  EXPECT_FALSE(find_chip("no-such-chip", kChipRes, err));
  EXPECT_NE(err.find("accelopt-step"), std::string::npos) << err;  // lists the bundled ones
  EXPECT_FALSE(find_chip("default", kChipRes, err));                   // a v1 profile lacks the v2 fields
  EXPECT_NE(err.find("default.json"), std::string::npos) << err;
}

TEST(Step2Chip, TestDataProfilesLoad) {
  std::string err;
  for (const char* f : {"budget-8192.json", "budget-12288.json", "budget-24576.json"}) {
    auto c = find_chip(std::string(SF_TEST_DATA_DIR) + "/step25/chips/" + f, kChipRes, err);
    ASSERT_TRUE(c) << err;
    EXPECT_EQ(c->pmu_bw, 64);
    EXPECT_EQ(c->tail, 2);
  }
}

}  // namespace
}  // namespace sf::step2::perf
