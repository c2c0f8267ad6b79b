// The HTTP backends against a loopback server, around the exchange: the response cache, the key (never in a
// trace, a cache file or an error; where it comes from), rate limits and the endpoint preflight. The protocol
// tests are in test_http_backends.cpp.
#include "core/llm/backend_factory.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/llm/http_chat_backend.hpp"
#include "core/llm/preflight.hpp"
#include "tests/unit/llm/http_test_util.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace sf::llm;
using namespace sf::llm::testing;

TEST(CachedBackend, HitMakesNoNetworkCall) {
  LoopbackServer s;
  auto dir = std::filesystem::temp_directory_path() / ("sf_llm_cache_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  CachedBackend b(std::make_unique<OpenAiBackend>(fast_config(BackendKind::OpenAi, s), ""), dir);
  auto r1 = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r1.ok());
  EXPECT_FALSE(r1.response->from_cache);
  auto r2 = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2.response->from_cache);
  EXPECT_EQ(r2.response->text, r1.response->text);
  EXPECT_EQ(r2.response->usage, r1.response->usage);
  EXPECT_EQ(s.hits(), 1);
  auto other = sample_request();
  other.sample_index = 1;  // a different sample is a different request
  ASSERT_TRUE(b.chat(other, CancelToken{}).ok());
  EXPECT_EQ(s.hits(), 2);
  std::filesystem::remove_all(dir);
}

TEST(Secrets, KeyNeverAppearsInTracesCacheFilesOrErrors) {
  LoopbackServer s;
  auto dir = std::filesystem::temp_directory_path() / ("sf_llm_secret_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ::setenv("SF_TEST_LLM_KEY", kSecret, 1);
  std::string log;
  std::mutex log_mutex;
  TraceSink trace = [&](const std::string& t) {
    std::lock_guard<std::mutex> lock(log_mutex);
    log += t + "\n";
  };
  for (auto kind : {BackendKind::OpenAi, BackendKind::Anthropic}) {
    auto c = fast_config(kind, s);
    c.key_env = "SF_TEST_LLM_KEY";
    c.cache_dir = dir.string();
    auto made = make_backend(c, trace);
    ASSERT_TRUE(made.backend) << made.error;
    auto ok = made.backend->chat(sample_request(), CancelToken{});
    ASSERT_TRUE(ok.ok()) << ok.error.message;
    s.script({Mode::EchoKey});  // a hostile server echoes the key back in its error
    auto req = sample_request();
    req.sample_index = 5;
    auto bad = made.backend->chat(req, CancelToken{});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error.http_status, 401);
    EXPECT_EQ(bad.error.message.find("SECRET"), std::string::npos) << bad.error.message;
  }
  EXPECT_NE(log.find("[REDACTED]"), std::string::npos);
  EXPECT_NE(log.find("POST "), std::string::npos);
  EXPECT_EQ(log.find("SECRET"), std::string::npos) << log;
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str().find("SECRET"), std::string::npos) << e.path();
    ++files;
  }
  EXPECT_EQ(files, 2);  // one success per backend; failures are not cached
  ::unsetenv("SF_TEST_LLM_KEY");
  std::filesystem::remove_all(dir);
}

TEST(BackendFactory, MissingKeyVariableIsAConfigError) {
  BackendConfig c;
  c.key_env = "SF_TEST_SURELY_UNSET_KEY";
  ::unsetenv("SF_TEST_SURELY_UNSET_KEY");
  auto made = make_backend(c);
  EXPECT_FALSE(made.backend);
  EXPECT_EQ(made.error, "the API key variable SF_TEST_SURELY_UNSET_KEY is not set");
}

TEST(BackendFactory, KeyValuesAreTrimmedAndBlankKeysRefused) {
  LoopbackServer s;
  BackendConfig c = fast_config(BackendKind::OpenAi, s);
  c.key_env = "SF_TEST_PADDED_KEY";
  ::setenv("SF_TEST_PADDED_KEY", "  sk-padded-key-123\n", 1);
  auto made = make_backend(c);
  ASSERT_TRUE(made.backend) << made.error;
  auto r = made.backend->chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  auto seen = s.seen();
  auto auth = seen.back().headers.find("Authorization");
  ASSERT_NE(auth, seen.back().headers.end());
  EXPECT_EQ(auth->second, "Bearer sk-padded-key-123");
  ::setenv("SF_TEST_PADDED_KEY", " \n", 1);
  auto blank = make_backend(c);
  EXPECT_FALSE(blank.backend);
  EXPECT_EQ(blank.error, "the API key variable SF_TEST_PADDED_KEY holds only white space");
  ::unsetenv("SF_TEST_PADDED_KEY");
}

TEST(BackendFactory, ASessionKeyServesWhenTheVariableIsUnsetAndTheEnvironmentWins) {
  LoopbackServer s;
  BackendConfig c = fast_config(BackendKind::OpenAi, s);
  c.key_env = "SF_TEST_SESSION_KEY";
  ::unsetenv("SF_TEST_SESSION_KEY");
  EXPECT_FALSE(make_backend(c).backend);
  set_session_key("SF_TEST_SESSION_KEY", "  sk-from-the-keyring-42\n");  // trimmed like an environment value
  EXPECT_TRUE(has_session_key("SF_TEST_SESSION_KEY"));
  std::vector<std::string> traces;
  auto made = make_backend(c, [&](const std::string& t) { traces.push_back(t); });
  ASSERT_TRUE(made.backend) << made.error;
  ASSERT_TRUE(made.backend->chat(sample_request(), CancelToken{}).ok());
  EXPECT_EQ(s.seen().back().headers.find("Authorization")->second, "Bearer sk-from-the-keyring-42");
  for (const auto& t : traces) EXPECT_EQ(t.find("sk-from-the-keyring-42"), std::string::npos) << t;
  ::setenv("SF_TEST_SESSION_KEY", "sk-from-the-environment", 1);
  auto env = make_backend(c);
  ASSERT_TRUE(env.backend);
  ASSERT_TRUE(env.backend->chat(sample_request(), CancelToken{}).ok());
  EXPECT_EQ(s.seen().back().headers.find("Authorization")->second, "Bearer sk-from-the-environment");
  ::unsetenv("SF_TEST_SESSION_KEY");
  set_session_key("SF_TEST_SESSION_KEY", "");  // forgotten
  EXPECT_FALSE(has_session_key("SF_TEST_SESSION_KEY"));
  EXPECT_EQ(make_backend(c).error, "the API key variable SF_TEST_SESSION_KEY is not set");
}

TEST(RateLimits, ServerRequestedWaitsFromEveryHeaderKind) {
  EXPECT_DOUBLE_EQ(*parse_reset_duration("20ms"), 0.02);
  EXPECT_DOUBLE_EQ(*parse_reset_duration("1s"), 1.0);
  EXPECT_DOUBLE_EQ(*parse_reset_duration("1.5s"), 1.5);
  EXPECT_DOUBLE_EQ(*parse_reset_duration("6m0s"), 360.0);
  EXPECT_DOUBLE_EQ(*parse_reset_duration("1h2m3s"), 3723.0);
  EXPECT_FALSE(parse_reset_duration("soon"));
  EXPECT_FALSE(parse_reset_duration("5"));
  HttpResponse r;
  r.status = 429;
  r.retry_after = "3";
  r.retry_after_ms = "250";
  EXPECT_DOUBLE_EQ(*server_requested_wait(r), 0.25);  // the precise header wins
  r.retry_after_ms.reset();
  EXPECT_DOUBLE_EQ(*server_requested_wait(r), 3.0);
  r.retry_after.reset();
  r.reset_requests = "1s";
  r.reset_tokens = "2.5s";
  EXPECT_DOUBLE_EQ(*server_requested_wait(r), 2.5);  // the later of the two resets
  r.status = 503;
  EXPECT_FALSE(server_requested_wait(r));  // resets describe quotas, they only explain a 429
}

TEST(RateLimits, RetryAfterMsIsHonoured) {
  LoopbackServer s;
  s.retry_after = "";
  s.extra_429_headers = {{"retry-after-ms", "150"}};
  s.script({Mode::TooMany});
  auto cfg = fast_config(BackendKind::OpenAi, s);
  cfg.backoff_max_s = 5.0;
  cfg.backoff_base_s = 2.0;  // without the header the first backoff would be 1-2 s
  OpenAiBackend b(cfg, kSecret);
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), CancelToken{});
  double took = seconds_since(t0);
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_GE(took, 0.14);
  EXPECT_LT(took, 0.9);
}

TEST(RateLimits, A429BurstHalvesConcurrencyThenItRecoversAdditively) {
  LoopbackServer s;
  s.script({Mode::TooMany, Mode::TooMany});
  auto cfg = fast_config(BackendKind::OpenAi, s);
  cfg.in_flight = 8;
  OpenAiBackend b(cfg, kSecret);
  EXPECT_EQ(b.concurrency_limit(), 8);
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(b.concurrency_limit(), 2);  // 8 -> 4 -> 2, then one success (needs 2 for +1)
  ASSERT_TRUE(b.chat(sample_request(), CancelToken{}).ok());
  EXPECT_EQ(b.concurrency_limit(), 3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(b.chat(sample_request(), CancelToken{}).ok());
  EXPECT_EQ(b.concurrency_limit(), 4);
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(b.chat(sample_request(), CancelToken{}).ok());
  EXPECT_EQ(b.concurrency_limit(), 8);  // never above in_flight
}

TEST(RateLimits, TheLimitBoundsRequestsInFlight) {
  ConcurrencyLimiter g(4);
  CancelToken c;
  g.on_throttled();  // 2
  ASSERT_TRUE(g.acquire(c));
  ASSERT_TRUE(g.acquire(c));
  EXPECT_EQ(g.in_flight(), 2);
  std::atomic<bool> third{false};
  std::thread t([&] { third = g.acquire(c); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(third.load());  // waits for a slot
  g.release();
  t.join();
  EXPECT_TRUE(third.load());
  CancelToken cancelled;
  cancelled.cancel();
  EXPECT_FALSE(g.acquire(cancelled));
}

TEST(Preflight, AWorkingEndpointRepliesAndListsItsModels) {
  LoopbackServer s;
  auto cfg = fast_config(BackendKind::OpenAi, s);
  OpenAiBackend b(cfg, kSecret);
  auto r = preflight(cfg, b, CancelToken{});
  ASSERT_TRUE(r.ok) << r.failure.message;
  EXPECT_EQ(r.reply, "impl: |\n  return E0\n");
  ASSERT_TRUE(r.models);
  EXPECT_EQ(*r.models, (std::vector<std::string>{"test-model", "other-model"}));
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].path, "/v1/models");
  EXPECT_EQ(seen[1].headers.find("Authorization")->second, std::string("Bearer ") + kSecret);
  // Anthropic lists its models under /v1/models with x-api-key.
  auto acfg = fast_config(BackendKind::Anthropic, s);
  AnthropicBackend a(acfg, kSecret);
  std::string err;
  auto models = a.list_models(CancelToken{}, err);
  ASSERT_TRUE(models) << err;
  EXPECT_EQ(models->size(), 2u);
}

TEST(Preflight, AWrongKeyNamesTheVariableAndNeverTheKey) {
  LoopbackServer s;
  s.script({Mode::EchoKey});
  auto cfg = fast_config(BackendKind::OpenAi, s);
  cfg.key_env = "OPENAI_API_KEY";
  OpenAiBackend b(cfg, kSecret);
  auto r = preflight(cfg, b, CancelToken{}, false);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.failure.infrastructure);
  EXPECT_EQ(r.failure.message.rfind("authentication failed (HTTP 401) for openai at " + cfg.base_url +
                                        ": check OPENAI_API_KEY",
                                    0),
            0u)
      << r.failure.message;
  EXPECT_EQ(r.failure.message.find(kSecret), std::string::npos);
}

TEST(Preflight, EveryInfrastructureFailureHasACauseAndAFix) {
  BackendConfig c;
  c.kind = BackendKind::Anthropic;
  c.base_url = "https://api.anthropic.com";
  c.key_env = "ANTHROPIC_API_KEY";
  auto msg = [&](const std::string& kind, int status, const std::string& text) {
    LlmError e{kind, status, text, 3};
    return diagnose_failure(c, "claude-old-1", e);
  };
  EXPECT_EQ(msg("http", 403, "forbidden").message,
            "authentication failed (HTTP 403) for anthropic at https://api.anthropic.com: check ANTHROPIC_API_KEY");
  EXPECT_NE(msg("http", 404, "not_found_error: model").message.find("model or route not found (HTTP 404) for model "
                                                                    "'claude-old-1'"),
            std::string::npos);
  EXPECT_NE(msg("http", 400, "bad").message.find("token_param"), std::string::npos);
  EXPECT_NE(msg("http", 429, "You exceeded your current quota").message.find("spend cap or quota"), std::string::npos);
  EXPECT_NE(msg("http", 429, "slow down").message.find("after 3 attempt(s)"), std::string::npos);
  EXPECT_NE(msg("network", 0, "SSL certificate problem").message.find("ca_bundle"), std::string::npos);
  EXPECT_NE(msg("network", 0, "Couldn't connect to server").message.find("is the server running"), std::string::npos);
  EXPECT_NE(msg("timeout", 0, "timeout").message.find("timeout_s"), std::string::npos);
  for (auto [k, st] : {std::pair{"http", 401}, {"http", 404}, {"http", 400}, {"http", 500}, {"network", 0},
                       {"timeout", 0}})
    EXPECT_TRUE(msg(k, st, "x").infrastructure) << k << " " << st;
  EXPECT_FALSE(msg("parse", 0, "no choices").infrastructure);  // about the answer: a sample like any other
  EXPECT_FALSE(msg("refused", 0, "no").infrastructure);
}
