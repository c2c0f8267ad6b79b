#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"

using namespace sf::learn;
using nlohmann::json;

namespace {
json base() { return {{"backend", {{"kind", "builtin"}, {"model", "synth"}}}}; }
}  // namespace

TEST(Config, DefaultsAreThePapers) {
  std::string err;
  auto c = config_from_json(base(), err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->mode, Mode::Adaptive);
  EXPECT_EQ(c->n, 64);
  EXPECT_DOUBLE_EQ(c->temperature0, 0.5);
  EXPECT_EQ(c->temperatures, (std::vector<double>{0.4, 0.7, 1.0}));
  EXPECT_EQ(c->m, 3);
  EXPECT_EQ(c->selection, Selection::Mixed);
  EXPECT_EQ(c->backend.kind, sf::llm::BackendKind::Builtin);
}

TEST(Config, RoundTripAndStrictKeys) {
  std::string err;
  json j = base();
  j["n"] = 8;
  j["mode"] = "agent";
  j["budget"] = {{"tokens", 1000}};
  auto c = config_from_json(j, err);
  ASSERT_TRUE(c) << err;
  auto c2 = config_from_json(config_to_json(*c), err);
  ASSERT_TRUE(c2) << err;
  EXPECT_EQ(config_to_json(*c2), config_to_json(*c));
  EXPECT_EQ(c2->budget.tokens, 1000);

  j["nn"] = 3;
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("unknown config key 'nn'"), std::string::npos) << err;
  j.erase("nn");
  j["n"] = "many";
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("config key 'n': expected an integer"), std::string::npos) << err;
  j["n"] = 0;
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("'n'"), std::string::npos);
  j["n"] = 4;
  j["selection"] = "best";
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("unknown selection 'best'"), std::string::npos);
  j["selection"] = "hard-only";
  j["budget"] = {{"money", 1}};
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("budget.money"), std::string::npos);
  j["budget"] = json::object();
  j["version"] = 9;
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("newer"), std::string::npos);
}

TEST(Config, Overrides) {
  std::string err;
  json j = base();
  ASSERT_TRUE(apply_override(j, "n=16", err));
  ASSERT_TRUE(apply_override(j, "mode=agent", err));
  ASSERT_TRUE(apply_override(j, "temperatures=0.2,0.9", err));
  ASSERT_TRUE(apply_override(j, "tasks=rope,bmm/row_wise", err));
  ASSERT_TRUE(apply_override(j, "backend.model=gpt-4o", err));
  ASSERT_TRUE(apply_override(j, "budget.cost_usd=2.5", err));
  auto c = config_from_json(j, err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->n, 16);
  EXPECT_EQ(c->mode, Mode::Agent);
  EXPECT_EQ(c->temperatures, (std::vector<double>{0.2, 0.9}));
  EXPECT_EQ(c->tasks, (std::vector<std::string>{"rope", "bmm/row_wise"}));
  EXPECT_EQ(c->backend.model, "gpt-4o");
  EXPECT_DOUBLE_EQ(c->budget.cost_usd, 2.5);

  EXPECT_FALSE(apply_override(j, "colour=blue", err));
  EXPECT_NE(err.find("unknown config key 'colour'"), std::string::npos);
  EXPECT_FALSE(apply_override(j, "n", err));
  EXPECT_NE(err.find("key=value"), std::string::npos);
  ASSERT_TRUE(apply_override(j, "mode=greedy", err));
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("unknown mode 'greedy'"), std::string::npos);
  ASSERT_TRUE(apply_override(j, "mode=single", err));
  ASSERT_TRUE(apply_override(j, "backend.colour=1", err));
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("unknown key 'colour'"), std::string::npos) << err;
}

TEST(Config, ResolveTasksAndTags) {
  sf::Diagnostics d;
  auto cat = sf::bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  std::string err;
  CampaignConfig c;
  c.backend.model = "m";
  auto all = resolve_tasks(c, cat.tasks(), err);
  ASSERT_TRUE(all) << err;
  EXPECT_EQ(all->size(), 26u);
  c.tasks = {"rope", "bmm/row_wise", "rope/neox_halves"};
  auto some = resolve_tasks(c, cat.tasks(), err);
  ASSERT_TRUE(some);
  ASSERT_EQ(some->size(), 4u);
  EXPECT_EQ((*some)[3]->id, "bmm/row_wise");
  EXPECT_EQ(difficulty_tag(*(*some)[3]), "Once-CS");
  c.order = TaskOrder::Shuffled;
  auto sh1 = resolve_tasks(c, cat.tasks(), err), sh2 = resolve_tasks(c, cat.tasks(), err);
  EXPECT_EQ(*sh1, *sh2);
  std::set<const sf::step::TaskDoc*> a(some->begin(), some->end()), b(sh1->begin(), sh1->end());
  EXPECT_EQ(a, b);
  c.tasks = {"nope/missing"};
  EXPECT_FALSE(resolve_tasks(c, cat.tasks(), err));
  EXPECT_NE(err.find("unknown task or group 'nope/missing'"), std::string::npos);
}

TEST(Config, SampleSeedDependsOnEveryField) {
  auto s = sample_seed(42, "rope/neox_halves", 1, 0.7, 3);
  EXPECT_EQ(s, sample_seed(42, "rope/neox_halves", 1, 0.7, 3));
  EXPECT_LT(s, 1ULL << 31);
  std::set<std::uint64_t> seen = {s, sample_seed(43, "rope/neox_halves", 1, 0.7, 3),
                                  sample_seed(42, "rope/gptj_interleaved", 1, 0.7, 3),
                                  sample_seed(42, "rope/neox_halves", 2, 0.7, 3),
                                  sample_seed(42, "rope/neox_halves", 1, 0.4, 3),
                                  sample_seed(42, "rope/neox_halves", 1, 0.7, 4)};
  EXPECT_EQ(seen.size(), 6u);
}

TEST(Config, Novelty) {
  std::string err;
  json j = base();
  auto off = config_from_json(j, err);
  ASSERT_TRUE(off) << err;
  EXPECT_EQ(off->novelty, 0);
  EXPECT_FALSE(config_to_json(*off).contains("novelty"));  // old configs stay byte-identical
  j["novelty"] = true;
  auto on = config_from_json(j, err);
  ASSERT_TRUE(on) << err;
  EXPECT_EQ(on->novelty, kDefaultNovelty);
  EXPECT_EQ(config_to_json(*on)["novelty"], kDefaultNovelty);
  j["novelty"] = 5;
  ASSERT_TRUE(config_from_json(j, err)) << err;
  EXPECT_EQ(config_from_json(j, err)->novelty, 5);
  j["novelty"] = 17;
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("novelty"), std::string::npos) << err;
  j["novelty"] = "yes";
  EXPECT_FALSE(config_from_json(j, err));
  nlohmann::json o = base();
  ASSERT_TRUE(apply_override(o, "novelty=true", err)) << err;
  EXPECT_EQ(config_from_json(o, err)->novelty, kDefaultNovelty);
}

TEST(Config, VerifyExtraSeeds) {
  std::string err;
  json j = base();
  auto off = config_from_json(j, err);
  ASSERT_TRUE(off) << err;
  EXPECT_EQ(off->extra_seeds, 0);
  EXPECT_FALSE(config_to_json(*off).contains("verify"));  // old configs stay byte-identical
  j["verify"] = {{"extra_seeds", 3}};
  auto c = config_from_json(j, err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->extra_seeds, 3);
  auto c2 = config_from_json(config_to_json(*c), err);
  ASSERT_TRUE(c2) << err;
  EXPECT_EQ(c2->extra_seeds, 3);
  j["verify"] = {{"extra_seeds", 65}};
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("verify.extra_seeds"), std::string::npos) << err;
  j["verify"] = {{"seeds", 2}};
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("unknown config key 'verify.seeds'"), std::string::npos) << err;
  nlohmann::json o = base();
  ASSERT_TRUE(apply_override(o, "verify.extra_seeds=2", err)) << err;
  auto c3 = config_from_json(o, err);
  ASSERT_TRUE(c3) << err;
  EXPECT_EQ(c3->extra_seeds, 2);
}

// Issue 17 item 3: every shipped preset loads; the paper presets say why their model is not the paper's where
// the paper's is retired, and none names a model its provider no longer serves.
TEST(Config, ShippedPresetsLoadAndNameServedModels) {
  const std::set<std::string> retired = {"claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20240620",
                                         "claude-3-5-sonnet-latest", "claude-3-opus-20240229",
                                         "claude-3-sonnet-20240229"};
  int presets = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(SF_SOURCE_DIR) + "/resources/configs")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name == "prices.json") continue;
    ++presets;
    std::ifstream in(entry.path());
    const json j = json::parse(in, nullptr, false, true);
    ASSERT_FALSE(j.is_discarded()) << name;
    std::string err;
    auto c = config_from_json(j, err);
    ASSERT_TRUE(c) << name << ": " << err;
    EXPECT_FALSE(retired.count(c->backend.model)) << name << " names the retired model " << c->backend.model;
    if (name.starts_with("paper-")) {
      EXPECT_NE(c->note.find("claude-3-5-sonnet-20241022"), std::string::npos) << name;  // the paper's model, named
      EXPECT_EQ(config_to_json(*c)["note"], c->note);
    }
  }
  EXPECT_GE(presets, 5);
  // The note is free text, bounded, and absent from configs that have none.
  std::string err;
  EXPECT_FALSE(config_to_json(*config_from_json(base(), err)).contains("note"));
  json long_note = base();
  long_note["note"] = std::string(5000, 'x');
  EXPECT_FALSE(config_from_json(long_note, err));
  EXPECT_NE(err.find("note"), std::string::npos) << err;
}
