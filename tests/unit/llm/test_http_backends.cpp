// The HTTP backends against a loopback server: retries, failures and cancellation exactly as configured.
#include "core/llm/backend_factory.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/llm/http_chat_backend.hpp"
#include "core/llm/preflight.hpp"
#include "tests/support/loopback_server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace sf::llm;
using sf::llm::testing::LoopbackServer;
using sf::llm::testing::Mode;

namespace {

constexpr const char* kSecret = "sk-test-SECRET-0123456789abcdef";

BackendConfig fast_config(BackendKind kind, const LoopbackServer& s) {
  BackendConfig c;
  c.kind = kind;
  c.base_url = kind == BackendKind::Anthropic ? s.anthropic_base_url() : s.base_url();
  c.model = "test-model";
  c.timeout_s = 0.2;
  c.max_retries = 2;
  c.backoff_base_s = 0.01;
  c.backoff_max_s = 0.05;
  return c;
}

ChatRequest sample_request() {
  ChatRequest r;
  r.model = "test-model";
  r.messages = {{"system", "MANUAL. Task follows."}, {"user", "write the impl"}};
  r.temperature = 0.5;
  r.max_tokens = 256;
  r.seed = 7;
  r.stop = {"</answer>"};
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST(OpenAiBackend, SuccessParsesTextUsageAndSendsTheRequest) {
  LoopbackServer s;
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), kSecret);
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->text, "impl: |\n  return E0\n");
  EXPECT_EQ(r.response->usage.input_tokens, 120);
  EXPECT_EQ(r.response->usage.output_tokens, 30);
  EXPECT_EQ(r.response->finish_reason, "stop");
  EXPECT_EQ(r.response->attempts, 1);
  EXPECT_FALSE(r.response->from_cache);
  EXPECT_GT(r.response->latency_s, 0.0);
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].path, "/v1/chat/completions");
  auto auth = seen[0].headers.find("Authorization");
  ASSERT_NE(auth, seen[0].headers.end());
  EXPECT_EQ(auth->second, std::string("Bearer ") + kSecret);
  auto body = nlohmann::json::parse(seen[0].body);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["seed"], 7);
  EXPECT_EQ(body["max_tokens"], 256);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.5);
  EXPECT_EQ(body["stop"][0], "</answer>");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["content"], "write the impl");
}

TEST(OpenAiBackend, ReasoningModelsGetMaxCompletionTokensAndNoTemperature) {
  LoopbackServer s;
  auto cfg = fast_config(BackendKind::OpenAi, s);
  OpenAiBackend b(cfg, kSecret);
  for (const char* model : {"o3-mini", "o1", "gpt-5-mini", "openai/o4-mini"}) {
    auto req = sample_request();
    req.model = model;
    auto body = nlohmann::json::parse(b.build_request(req).body);
    EXPECT_EQ(body["max_completion_tokens"], 256) << model;
    EXPECT_FALSE(body.contains("max_tokens")) << model;
    EXPECT_FALSE(body.contains("temperature")) << model;
  }
  for (const char* model : {"gpt-4o", "deepseek-chat", "omni-7b", "test-model"}) {
    auto req = sample_request();
    req.model = model;
    auto body = nlohmann::json::parse(b.build_request(req).body);
    EXPECT_EQ(body["max_tokens"], 256) << model;
    EXPECT_TRUE(body.contains("temperature")) << model;
  }
  // Explicit keys win over the automatic defaults; reasoning_effort and extra_body are sent.
  cfg.token_param = "max_completion_tokens";
  cfg.send_temperature = false;
  cfg.reasoning_effort = "low";
  cfg.extra_body = R"({"top_p": 0.9, "metadata": {"run": "x"}})";
  OpenAiBackend shaped(cfg, kSecret);
  auto r = shaped.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  auto seen = s.seen();
  auto body = nlohmann::json::parse(seen.back().body);
  EXPECT_EQ(body["max_completion_tokens"], 256);
  EXPECT_FALSE(body.contains("temperature"));
  EXPECT_EQ(body["reasoning_effort"], "low");
  EXPECT_DOUBLE_EQ(body["top_p"].get<double>(), 0.9);
  EXPECT_EQ(body["metadata"]["run"], "x");
}

TEST(OpenAiBackend, RetriesAfter429HonouringRetryAfterThenSucceeds) {
  LoopbackServer s;
  s.retry_after = "0.3";
  s.script({Mode::TooMany});
  auto c = fast_config(BackendKind::OpenAi, s);
  c.backoff_max_s = 1.0;
  OpenAiBackend b(c, "");
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), CancelToken{});
  double took = seconds_since(t0);
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->attempts, 2);
  EXPECT_EQ(s.hits(), 2);
  EXPECT_GE(took, 0.3);  // waited the Retry-After, not the 10 ms backoff
}

TEST(OpenAiBackend, RetryAfterIsCappedAtBackoffMax) {
  LoopbackServer s;
  s.retry_after = "3600";
  s.script({Mode::TooMany});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");  // backoff_max_s = 0.05
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok());
  EXPECT_LT(seconds_since(t0), 2.0);
}

TEST(OpenAiBackend, Persistent500FailsAfterExactlyMaxRetriesPlusOne) {
  LoopbackServer s;
  s.script({Mode::ServerError, Mode::ServerError, Mode::ServerError, Mode::ServerError});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "http");
  EXPECT_EQ(r.error.http_status, 500);
  EXPECT_EQ(r.error.attempts, 3);
  EXPECT_EQ(s.hits(), 3);
  EXPECT_NE(r.error.message.find("internal trouble"), std::string::npos);
}

TEST(OpenAiBackend, ZeroRetriesMeansOneAttempt) {
  LoopbackServer s;
  s.script({Mode::ServerError});
  auto c = fast_config(BackendKind::OpenAi, s);
  c.max_retries = 0;
  OpenAiBackend b(c, "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(s.hits(), 1);
  EXPECT_EQ(r.error.attempts, 1);
}

TEST(OpenAiBackend, ClientErrorIsNotRetried) {
  LoopbackServer s;
  s.script({Mode::BadRequest});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "http");
  EXPECT_EQ(r.error.http_status, 400);
  EXPECT_EQ(s.hits(), 1);
  EXPECT_NE(r.error.message.find("bad model name"), std::string::npos);
}

TEST(OpenAiBackend, MalformedJsonIsAParseErrorWithoutRetry) {
  LoopbackServer s;
  s.script({Mode::Malformed});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "parse");
  EXPECT_NE(r.error.message.find("malformed JSON"), std::string::npos);
  EXPECT_EQ(s.hits(), 1);
}

TEST(OpenAiBackend, SlowAnswerTimesOutAndIsRetriedThenFails) {
  LoopbackServer s;
  s.slow_ms = 500;
  s.script({Mode::Slow, Mode::Slow});
  auto c = fast_config(BackendKind::OpenAi, s);
  c.max_retries = 1;
  OpenAiBackend b(c, "");
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "timeout");
  EXPECT_EQ(r.error.attempts, 2);
  EXPECT_LT(seconds_since(t0), 2.0);
}

TEST(OpenAiBackend, SlowAnswerThenFastSucceeds) {
  LoopbackServer s;
  s.slow_ms = 500;
  s.script({Mode::Slow});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->attempts, 2);
}

TEST(OpenAiBackend, TruncatedBodyIsANetworkErrorAfterRetries) {
  LoopbackServer s;
  s.script({Mode::Truncated, Mode::Truncated, Mode::Truncated});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "network");
  EXPECT_EQ(r.error.attempts, 3);
}

TEST(OpenAiBackend, EmptyChoiceListIsAClearParseError) {
  LoopbackServer s;
  s.script({Mode::EmptyChoices});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "parse");
  EXPECT_EQ(r.error.message, "the answer has no choices");
}

TEST(OpenAiBackend, RefusalIsReportedAsRefused) {
  LoopbackServer s;
  s.script({Mode::Refusal});
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "refused");
  EXPECT_NE(r.error.message.find("I can't help with that."), std::string::npos);
}

TEST(OpenAiBackend, ConnectionRefusedFailsWithoutHanging) {
  int port;
  {
    LoopbackServer s;
    port = std::stoi(s.base_url().substr(s.base_url().rfind(':') + 1));
  }
  BackendConfig c;
  c.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  c.timeout_s = 0.2;
  c.max_retries = 1;
  c.backoff_base_s = 0.01;
  OpenAiBackend b(c, "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "network");
  EXPECT_EQ(r.error.attempts, 2);
}

TEST(OpenAiBackend, OversizedBodyIsRejected) {
  LoopbackServer s;
  s.answer_text = std::string(4096, 'x');
  auto c = fast_config(BackendKind::OpenAi, s);
  c.max_body_bytes = 1024;
  OpenAiBackend b(c, "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "parse");
  EXPECT_NE(r.error.message.find("larger than 1024"), std::string::npos);
}

TEST(OpenAiBackend, CancellationAbortsAnInFlightRequest) {
  LoopbackServer s;
  s.slow_ms = 2500;
  s.script({Mode::Slow});
  auto c = fast_config(BackendKind::OpenAi, s);
  c.timeout_s = 10.0;
  OpenAiBackend b(c, "");
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), cancel);
  double took = seconds_since(t0);
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "cancelled");
  EXPECT_LT(took, 2.0);  // the xferinfo callback runs at least about once a second
}

TEST(OpenAiBackend, CancellationDuringBackoffStopsRetrying) {
  LoopbackServer s;
  s.retry_after = "5";
  s.script({Mode::TooMany});
  auto c = fast_config(BackendKind::OpenAi, s);
  c.backoff_max_s = 10.0;
  OpenAiBackend b(c, "");
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    cancel.cancel();
  });
  auto t0 = std::chrono::steady_clock::now();
  auto r = b.chat(sample_request(), cancel);
  canceller.join();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "cancelled");
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(s.hits(), 1);
}

TEST(AnthropicBackend, SendsHeadersSystemAndParsesUsage) {
  LoopbackServer s;
  auto c = fast_config(BackendKind::Anthropic, s);
  AnthropicBackend b(c, kSecret);
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->text, "impl: |\n  return E0\n");
  EXPECT_EQ(r.response->finish_reason, "stop");
  EXPECT_EQ(r.response->usage.input_tokens, 150);  // 100 + 50 read from the prompt cache
  EXPECT_EQ(r.response->usage.cached_input_tokens, 50);
  EXPECT_EQ(r.response->usage.output_tokens, 20);
  auto seen = s.seen();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].path, "/v1/messages");
  EXPECT_EQ(seen[0].headers.find("x-api-key")->second, kSecret);
  EXPECT_EQ(seen[0].headers.find("anthropic-version")->second, "2023-06-01");
  EXPECT_EQ(seen[0].headers.count("Authorization"), 0u);
  auto body = nlohmann::json::parse(seen[0].body);
  EXPECT_EQ(body["system"], "MANUAL. Task follows.");
  ASSERT_EQ(body["messages"].size(), 1u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
  EXPECT_EQ(body["stop_sequences"][0], "</answer>");
  EXPECT_FALSE(body.contains("seed"));
}

TEST(AnthropicBackend, PromptCachingIsOnByDefaultWithBreakpointsAfterTheManualAndTheDemonstrations) {
  BackendConfig c;
  c.kind = BackendKind::Anthropic;
  c.base_url = "https://api.anthropic.com";
  EXPECT_TRUE(c.prompt_caching);  // the default
  AnthropicBackend b(c, "k");
  auto req = sample_request();
  req.messages[1].content = "DEMOS. write the impl";
  req.cache_prefix_hint = "MANUAL.";
  req.cache_user_prefix_hint = "DEMOS.";
  auto h = b.build_request(req);
  EXPECT_EQ(h.url, "https://api.anthropic.com/v1/messages");
  auto body = nlohmann::json::parse(h.body);
  ASSERT_TRUE(body["system"].is_array());
  ASSERT_EQ(body["system"].size(), 2u);
  EXPECT_EQ(body["system"][0]["text"], "MANUAL.");
  EXPECT_EQ(body["system"][0]["cache_control"]["type"], "ephemeral");
  EXPECT_EQ(body["system"][1]["text"], " Task follows.");
  EXPECT_FALSE(body["system"][1].contains("cache_control"));
  const auto& user = body["messages"][0]["content"];
  ASSERT_TRUE(user.is_array());
  ASSERT_EQ(user.size(), 2u);
  EXPECT_EQ(user[0]["text"], "DEMOS.");
  EXPECT_EQ(user[0]["cache_control"]["type"], "ephemeral");
  EXPECT_EQ(user[1]["text"], " write the impl");
  EXPECT_FALSE(user[1].contains("cache_control"));
  // No hints (distiller, guardian): no breakpoint; a hint that is not the text's start is ignored.
  auto plain_req = sample_request();
  plain_req.cache_user_prefix_hint = "not the start";
  auto unmarked = nlohmann::json::parse(b.build_request(plain_req).body);
  EXPECT_TRUE(unmarked["system"].is_string());
  EXPECT_TRUE(unmarked["messages"][0]["content"].is_string());
  // `prompt_caching: false` in the config turns it off.
  std::string err;
  auto off = backend_config_from_json({{"kind", "anthropic"}, {"prompt_caching", false}}, err);
  ASSERT_TRUE(off) << err;
  AnthropicBackend plain(*off, "k");
  auto pb = nlohmann::json::parse(plain.build_request(req).body);
  EXPECT_TRUE(pb["system"].is_string());
  EXPECT_TRUE(pb["messages"][0]["content"].is_string());
  EXPECT_TRUE(backend_config_from_json({{"kind", "anthropic"}}, err)->prompt_caching);
}

TEST(AnthropicBackend, RetriesOn429ThenFailsOnRefusal) {
  LoopbackServer s;
  s.script({Mode::TooMany, Mode::Refusal});
  AnthropicBackend b(fast_config(BackendKind::Anthropic, s), "");
  auto r = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "refused");
  EXPECT_EQ(s.hits(), 2);
}

TEST(AnthropicBackend, EmptyContentIsAnEmptyAnswerAndMalformedAParseError) {
  LoopbackServer s;
  s.script({Mode::EmptyChoices, Mode::Malformed});
  AnthropicBackend b(fast_config(BackendKind::Anthropic, s), "");
  auto r1 = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error.kind, "empty-answer");
  EXPECT_EQ(r1.error.message, "the model's answer is empty (stop reason: end_turn)");
  auto r2 = b.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error.kind, "parse");
}

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

TEST(OpenAiBackend, DeepSeekCacheHitTokensAreCachedInput) {
  LoopbackServer s;
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), kSecret);
  auto r = b.parse_answer(R"({"choices": [{"message": {"content": "x"}, "finish_reason": "stop"}],
      "usage": {"prompt_tokens": 900, "completion_tokens": 10, "prompt_cache_hit_tokens": 640,
                "prompt_cache_miss_tokens": 260}})");
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->usage.input_tokens, 900);
  EXPECT_EQ(r.response->usage.cached_input_tokens, 640);
}

TEST(AnthropicBackend, CacheCreationTokensAreCacheWrites) {
  LoopbackServer s;
  AnthropicBackend b(fast_config(BackendKind::Anthropic, s), kSecret);
  auto r = b.parse_answer(R"({"content": [{"type": "text", "text": "x"}], "stop_reason": "end_turn",
      "usage": {"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 50,
                "cache_creation_input_tokens": 30}})");
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->usage.input_tokens, 180);
  EXPECT_EQ(r.response->usage.cached_input_tokens, 50);
  EXPECT_EQ(r.response->usage.cache_write_input_tokens, 30);
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

TEST(OpenAiBackend, AConfiguredProxyCarriesTheRequest) {
  LoopbackServer s;
  auto cfg = fast_config(BackendKind::OpenAi, s);
  cfg.max_retries = 0;
  OpenAiBackend direct(cfg, kSecret);
  ASSERT_TRUE(direct.chat(sample_request(), CancelToken{}).ok());
  cfg.proxy = "http://127.0.0.1:1";  // nothing listens there: the request must fail through the proxy
  OpenAiBackend proxied(cfg, kSecret);
  auto r = proxied.chat(sample_request(), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "network");
  EXPECT_EQ(s.hits(), 1);  // only the direct call reached the server
  std::string err;
  auto back = backend_config_from_json(backend_config_to_json(cfg), err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->proxy, "http://127.0.0.1:1");
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"proxy", "proxy.example:3128"}}, err));
  EXPECT_NE(err.find("proxy must be a URL"), std::string::npos) << err;
  auto ca = backend_config_from_json(nlohmann::json{{"ca_bundle", "/etc/ssl/certs/ca-certificates.crt"}}, err);
  ASSERT_TRUE(ca) << err;
  EXPECT_EQ(ca->ca_bundle, "/etc/ssl/certs/ca-certificates.crt");
}

TEST(OpenAiBackend, BlankContentIsAnEmptyAnswerAndReasoningIsKeptApart) {
  LoopbackServer s;
  OpenAiBackend b(fast_config(BackendKind::OpenAi, s), kSecret);
  auto empty = b.parse_answer(R"({"choices": [{"message": {"content": "  \n"}, "finish_reason": "length"}]})");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error.kind, "empty-answer");
  EXPECT_EQ(empty.error.message, "the model's answer is empty (finish reason: length)");
  auto r = b.parse_answer(R"({"choices": [{"message": {"content": "impl: |\n  return E0\n",
      "reasoning_content": "first I think"}, "finish_reason": "stop"}]})");
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->reasoning, "first I think");
  EXPECT_EQ(r.response->text.find("think"), std::string::npos);
  AnthropicBackend a(fast_config(BackendKind::Anthropic, s), kSecret);
  auto t = a.parse_answer(R"({"content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "x"}],
      "stop_reason": "end_turn"})");
  ASSERT_TRUE(t.ok()) << t.error.message;
  EXPECT_EQ(t.response->text, "x");
  EXPECT_EQ(t.response->reasoning, "hmm");
}
