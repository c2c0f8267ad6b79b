// The HTTP backends against a loopback server: retries, failures and cancellation exactly as configured, and
// what each protocol (OpenAI, Anthropic) sends and parses. Keys, the cache, rate limits and the preflight are
// in test_http_keys_and_limits.cpp.
#include "core/llm/http_chat_backend.hpp"
#include "tests/unit/llm/http_test_util.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace sf::llm;
using namespace sf::llm::testing;

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
