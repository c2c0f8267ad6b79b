// learn::launch_campaign, the one launch sequence of the CLI and the GUI, against a loopback OpenAI-compatible
// server: each outcome (ready, config / setup / log error, halted by the preflight request) and the preflight
// request made only for an unfinished campaign.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/bench/catalogue.hpp"
#include "core/learn/launcher.hpp"
#include "core/store/workspace.hpp"
#include "learn_test_util.hpp"
#include "tests/support/loopback_server.hpp"

namespace launcher_test {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace sf::learn;
using sf::llm::testing::LoopbackServer;

fs::path launcher_scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sf_launcher_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

// Mode single, one task, one sample, against `base_url` without retries.
CampaignConfig launcher_config(const std::string& base_url) {
  CampaignConfig c;
  c.mode = Mode::Single;
  c.n = 1;
  c.tasks = {sf::learn::testing::kA};
  c.seed = 7;
  c.in_flight = 1;
  c.verify_threads = 1;
  c.backend.kind = sf::llm::BackendKind::OpenAi;
  c.backend.base_url = base_url;
  c.backend.model = "test-model";
  c.backend.max_retries = 0;
  c.backend.backoff_base_s = 0;
  c.backend.timeout_s = 10;
  return c;
}

Launch launch_in(const fs::path& dir) {
  std::string err;
  auto ws = sf::store::Workspace::open(dir, err);
  EXPECT_TRUE(ws) << err;
  if (!ws) return {};
  return launch_campaign(*ws, sf::bench::resource_dir());
}

}  // namespace launcher_test

using namespace launcher_test;

TEST(Launcher, ReadyEngineIsLoadedNotStartedAndAFinishedCampaignMakesNoPreflight) {
  LoopbackServer server;
  const fs::path dir = launcher_scratch("ready");
  const CampaignConfig cfg = launcher_config(server.base_url());
  std::string err;
  auto ws = sf::store::Workspace::create(dir, config_to_json(cfg), err);
  ASSERT_TRUE(ws) << err;
  {
    Launch l = launch_campaign(*ws, sf::bench::resource_dir());
    ASSERT_EQ(l.outcome, LaunchOutcome::Ok) << l.error;
    EXPECT_TRUE(l.ok());
    EXPECT_TRUE(l.error.empty());
    ASSERT_TRUE(l.setup && l.engine);
    EXPECT_EQ(l.config.n, 1);
    EXPECT_EQ(server.hits(), 1);  // the preflight request
    EXPECT_FALSE(l.engine->progress().running);
    EXPECT_FALSE(l.engine->state().started);
    RunResult r = l.engine->run();
    EXPECT_EQ(r.status, RunStatus::Finished) << r.error;
  }
  ws.reset();
  const int hits = server.hits();
  EXPECT_EQ(hits, 2);  // and the one sample
  Launch again = launch_in(dir);
  ASSERT_EQ(again.outcome, LaunchOutcome::Ok) << again.error;
  EXPECT_TRUE(again.engine->state().finished);
  EXPECT_EQ(server.hits(), hits);  // finished: no preflight request
  fs::remove_all(dir);
}

TEST(Launcher, AnEndpointThatFailsThePreflightHaltsBeforeTheFirstSample) {
  LoopbackServer server;
  server.script({sf::llm::testing::Mode::Unauthorized});
  const fs::path dir = launcher_scratch("halted");
  std::string err;
  auto ws = sf::store::Workspace::create(dir, config_to_json(launcher_config(server.base_url())), err);
  ASSERT_TRUE(ws) << err;
  Launch l = launch_campaign(*ws, sf::bench::resource_dir());
  EXPECT_EQ(l.outcome, LaunchOutcome::Halted);
  EXPECT_FALSE(l.ok());
  EXPECT_NE(l.error.find("HTTP 401"), std::string::npos) << l.error;
  EXPECT_TRUE(l.file.empty());
  EXPECT_FALSE(l.engine);
  EXPECT_FALSE(l.setup);
  EXPECT_EQ(server.hits(), 1);
  EXPECT_TRUE(ws->loaded_events().empty());
  fs::remove_all(dir);
}

TEST(Launcher, ConfigSetupAndLogErrorsNameTheirFile) {
  LoopbackServer server;
  std::string err;
  // campaign.json with a config that does not parse.
  const fs::path bad_cfg = launcher_scratch("config");
  json j = config_to_json(launcher_config(server.base_url()));
  j["n"] = "many";
  ASSERT_TRUE(sf::store::Workspace::create(bad_cfg, j, err)) << err;
  Launch c = launch_in(bad_cfg);
  EXPECT_EQ(c.outcome, LaunchOutcome::ConfigError);
  EXPECT_FALSE(c.error.empty());
  EXPECT_EQ(c.file, bad_cfg / "campaign.json");
  EXPECT_FALSE(c.engine);

  // A task the catalogue does not have.
  const fs::path bad_task = launcher_scratch("setup");
  CampaignConfig t = launcher_config(server.base_url());
  t.tasks = {"no/such-task"};
  ASSERT_TRUE(sf::store::Workspace::create(bad_task, config_to_json(t), err)) << err;
  Launch s = launch_in(bad_task);
  EXPECT_EQ(s.outcome, LaunchOutcome::SetupError);
  EXPECT_NE(s.error.find("no/such-task"), std::string::npos) << s.error;
  EXPECT_TRUE(s.file.empty());
  EXPECT_FALSE(s.engine);

  // A log written with another seed than campaign.json now says.
  const fs::path other_seed = launcher_scratch("log");
  {
    auto ws = sf::store::Workspace::create(other_seed, config_to_json(launcher_config(server.base_url())), err);
    ASSERT_TRUE(ws) << err;
    Launch l = launch_campaign(*ws, sf::bench::resource_dir());
    ASSERT_TRUE(l.ok()) << l.error;
    ASSERT_EQ(l.engine->run().status, RunStatus::Finished);
  }
  {
    std::ifstream in(other_seed / "campaign.json");
    std::stringstream ss;
    ss << in.rdbuf();
    json doc = json::parse(ss.str());
    doc["config"]["seed"] = 8;
    std::ofstream(other_seed / "campaign.json") << doc.dump(2);
  }
  const int hits = server.hits();
  Launch g = launch_in(other_seed);
  EXPECT_EQ(g.outcome, LaunchOutcome::LogError);
  EXPECT_NE(g.error.find("'seed'"), std::string::npos) << g.error;
  EXPECT_EQ(g.file, other_seed / "events.jsonl");
  EXPECT_FALSE(g.engine);
  EXPECT_EQ(server.hits(), hits);  // errors come before the preflight request
  for (const auto& d : {bad_cfg, bad_task, other_seed}) fs::remove_all(d);
}
