// `stepforge-cli campaign` against a loopback OpenAI-compatible server that fails the way real endpoints do
// (issue 17): a wrong key, a retired model, a rejected request, a spend cap and a server that goes away are
// never samples; the campaign pauses with exit status 3 and one message naming the cause and the fix, and
// `campaign resume` after the fix ends with the report of an uninterrupted run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/cli_test_util.hpp"
#include "tests/support/loopback_server.hpp"
#include "tests/support/files.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using sf::llm::testing::LoopbackServer;
using sf::llm::testing::Mode;

// A fresh folder for one test's workspaces and config.
fs::path ep_scratch(const std::string& name) {
  return sf::test_support::scratch_dir("sf_e2e_endpoint_" + name);
}

// Mode single, 2 tasks x 2 samples, one request at a time, no retries (so failures are quick).
fs::path ep_write_config(const fs::path& dir, const std::string& base_url, const std::string& key_env = "",
                         const std::string& kind = "openai") {
  json c = {{"version", 1},
            {"name", "endpoint"},
            {"mode", "single"},
            {"backend",
             {{"kind", kind},
              {"base_url", base_url},
              {"model", "test-model"},
              {"key_env", key_env},
              {"max_retries", 0},
              {"backoff_base_s", 0},
              {"timeout_s", 10}}},
            {"n", 2},
            {"temperature0", 0.5},
            {"tasks", {"rope", "bmm"}},
            {"order", "given"},
            {"seed", 7},
            {"in_flight", 1},
            {"verify_threads", 1},
            {"max_tokens", 256}};
  fs::path p = dir / "config.json";
  std::ofstream(p) << c.dump(2);
  return p;
}

int ep_count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (auto i = hay.find(needle); i != std::string::npos; i = hay.find(needle, i + 1)) ++n;
  return n;
}

// The report without wall-clock times (the only thing two runs may differ in).
json ep_report(const fs::path& ws) {
  const std::string out = sf::e2e::cli("campaign report " + ws.string() + " --json", false).out;
  json r = json::parse(out, nullptr, false);
  std::function<void(json&)> strip = [&](json& j) {
    if (j.is_object()) {
      j.erase("wall_s");
      for (auto& [k, v] : j.items()) strip(v);
    } else if (j.is_array()) {
      for (auto& v : j) strip(v);
    }
  };
  strip(r);
  return r;
}

json ep_reference_report(const fs::path& dir) {
  LoopbackServer server;
  fs::path cfg = ep_write_config(dir, server.base_url());
  sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ref").string() + " --quiet");
  EXPECT_EQ(r.code, 0) << r.out;
  return ep_report(dir / "ref");
}

}  // namespace

TEST(CliCampaignEndpoint, WrongKeyStopsBeforeTheFirstSample) {
  fs::path dir = ep_scratch("401");
  LoopbackServer server;
  server.script({Mode::Unauthorized});
  fs::path cfg = ep_write_config(dir, server.base_url(), "SF_E2E_ENDPOINT_KEY");
  ::setenv("SF_E2E_ENDPOINT_KEY", "wrong-key-value", 1);
  sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws").string() + " --quiet");
  ::unsetenv("SF_E2E_ENDPOINT_KEY");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("authentication failed (HTTP 401)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check SF_E2E_ENDPOINT_KEY"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("campaign resume"), std::string::npos) << r.out;
  EXPECT_EQ(server.hits(), 1);  // the preflight request only
  EXPECT_EQ(ep_count(sf::test_support::read_text(dir / "ws" / "events.jsonl"), "\"verdict\""), 0);
  fs::remove_all(dir);
}

TEST(CliCampaignEndpoint, RetiredModelStopsBeforeTheFirstSample) {
  fs::path dir = ep_scratch("404");
  LoopbackServer server;
  server.script({Mode::NotFound});
  fs::path cfg = ep_write_config(dir, server.base_url());
  sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws").string() + " --quiet");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("model or route not found (HTTP 404) for model 'test-model'"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// A rejected request (400) and a spend cap (429 insufficient_quota) after the preflight: the campaign pauses at
// the first one, logs no verdict for it, and resume finishes with the uninterrupted run's report.
TEST(CliCampaignEndpoint, NonRetryableErrorsMidCampaignPauseAndResumeExactly) {
  fs::path dir = ep_scratch("mid");
  const json ref = ep_reference_report(dir);
  ASSERT_FALSE(ref.is_discarded());
  struct Case {
    Mode mode;
    const char* message;
  };
  for (const Case& c : {Case{Mode::BadRequest, "the request was rejected (HTTP 400)"},
                        Case{Mode::SpendCap, "spend cap or quota reached (HTTP 429)"}}) {
    LoopbackServer server;
    server.script({Mode::Ok, Mode::Ok, c.mode});  // preflight, sample 1, then the failure
    fs::path cfg = ep_write_config(dir, server.base_url());
    fs::path ws = dir / ("ws" + std::to_string(static_cast<int>(c.mode)));
    sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + ws.string() + " --quiet");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << r.out;
    const std::string log = sf::test_support::read_text(ws / "events.jsonl");
    EXPECT_EQ(ep_count(log, "\"type\":\"verdict\""), 1) << log;
    EXPECT_EQ(ep_count(log, "\"stage\":\"llm\""), 0);
    EXPECT_EQ(ep_count(log, "\"type\":\"campaign_paused\""), 1);
    sf::e2e::CliRun res = sf::e2e::cli("campaign resume " + ws.string() + " --quiet");
    EXPECT_EQ(res.code, 0) << res.out;
    EXPECT_EQ(ep_report(ws), ref);
  }
  fs::remove_all(dir);
}

// The server goes away after the preflight and two samples: connection refused; after
// backend.max_consecutive_failures (3) samples in a row the campaign pauses; a server on the same port comes
// back and resume ends with the report of an uninterrupted run (every sample answered once, nothing twice).
TEST(CliCampaignEndpoint, ConnectionRefusedMidCampaignThenResumeGivesTheSameReport) {
  fs::path dir = ep_scratch("refused");
  const json ref = ep_reference_report(dir);
  std::optional<LoopbackServer> server(std::in_place);
  const int port = server->port();
  server->refuse_after(3);
  fs::path cfg = ep_write_config(dir, server->base_url());
  sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws").string() + " --quiet");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("samples in a row"), std::string::npos) << r.out;
  EXPECT_EQ(ep_count(sf::test_support::read_text(dir / "ws" / "events.jsonl"), "\"type\":\"verdict\""), 2);
  server.reset();
  LoopbackServer back(port);
  ASSERT_EQ(back.port(), port);
  sf::e2e::CliRun res = sf::e2e::cli("campaign resume " + (dir / "ws").string() + " --quiet");
  EXPECT_EQ(res.code, 0) << res.out;
  const json got = ep_report(dir / "ws");
  EXPECT_EQ(got, ref) << got.dump(1) << "\nvs\n" << ref.dump(1);
  std::int64_t samples = 0;
  for (const auto& t : got["tasks"]) samples += t["samples"].get<std::int64_t>();
  EXPECT_GT(samples, 2);
  EXPECT_EQ(back.hits(), 1 + samples - 2);  // the preflight and exactly the unanswered samples
  fs::remove_all(dir);
}

// An answer cut at max_tokens (OpenAI finish_reason "length", Anthropic stop_reason "max_tokens") is the verdict
// `truncated`, whatever the fragment parses to; every call event records its finish reason.
TEST(CliCampaignEndpoint, AnswersCutAtMaxTokensAreTruncatedVerdicts) {
  for (const std::string kind : {"openai", "anthropic"}) {
    SCOPED_TRACE(kind);
    fs::path dir = ep_scratch("length_" + kind);
    LoopbackServer server;
    server.finish_reason = "length";
    fs::path cfg = ep_write_config(dir, kind == "openai" ? server.base_url() : server.anthropic_base_url(), "", kind);
    sf::e2e::CliRun r = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws").string() + " --quiet");
    EXPECT_EQ(r.code, 0) << r.out;
    int verdicts = 0, truncated = 0, calls = 0, with_reason = 0;
    std::istringstream log(sf::test_support::read_text(dir / "ws" / "events.jsonl"));
    for (std::string line; std::getline(log, line);) {
      json e = json::parse(line, nullptr, false);
      if (e.value("type", "") == "verdict") {
        ++verdicts;
        if (e.value("stage", "") == "truncated") ++truncated;
        EXPECT_NE(e.value("error", "").find("max_tokens = 256"), std::string::npos) << line;
      }
      if (e.value("type", "") == "llm_call") {
        ++calls;
        if (e.dump().find("\"finish_reason\":\"length\"") != std::string::npos) ++with_reason;
      }
    }
    EXPECT_GT(verdicts, 0);
    EXPECT_EQ(truncated, verdicts);
    EXPECT_EQ(with_reason, calls);
    fs::remove_all(dir);
  }
}

// With budget.cost_usd set, a model without a price is refused before anything is sent, unless --prices FILE
// (copied into the workspace as prices.json) prices it.
TEST(CliCampaignEndpoint, AnUnpricedModelIsRefusedUnderACostBudgetUnlessPricesPriceIt) {
  fs::path dir = ep_scratch("prices");
  LoopbackServer server;
  fs::path cfg = ep_write_config(dir, server.base_url());
  sf::e2e::CliRun bad = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws1").string() +
                      " --quiet --set budget.cost_usd=1");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("model 'test-model' has no price"), std::string::npos) << bad.out;
  EXPECT_EQ(server.hits(), 0);
  std::ofstream(dir / "prices.json")
      << R"({"version": 1, "currency": "USD", "models": {"test-model": {"input_per_mtok": 1, "output_per_mtok": 2}}})";
  sf::e2e::CliRun ok = sf::e2e::cli("campaign run " + cfg.string() + " --out " + (dir / "ws2").string() + " --quiet --set budget.cost_usd=1 --prices " +
                     (dir / "prices.json").string());
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_TRUE(fs::exists(dir / "ws2" / "prices.json"));
  const json rep = ep_report(dir / "ws2");
  EXPECT_GT(rep["cost_usd"].get<double>(), 0.0);
  fs::remove_all(dir);
}

// An interactive round (`ask --instruction`) whose call fails for the endpoint's reason is no verdict: exit 3
// with the cause and the fix, and nothing is logged in the session.
TEST(CliCampaignEndpoint, InteractiveAskReportsAnEndpointFailureWithExitThree) {
  fs::path dir = ep_scratch("ask");
  LoopbackServer server;
  server.script({Mode::NotFound});
  sf::e2e::CliRun r = sf::e2e::cli("ask --backend openai --model test-model --base-url " + server.base_url() +
                                   " --task extra/exclusive_cumsum --instruction shorter --session " + (dir / "session").string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("error: model or route not found (HTTP 404) for model 'test-model'"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("verdict:"), std::string::npos) << r.out;
  EXPECT_EQ(ep_count(sf::test_support::read_text(dir / "session" / "events.jsonl"), "\"verdict\""), 0);
  fs::remove_all(dir);
}
