// SHA-256 (FIPS 180-2 vectors), config JSON, request keys, the response cache, prices, redaction.
#include "core/llm/backend_config.hpp"
#include "core/llm/http_transport.hpp"
#include "core/llm/price_table.hpp"
#include "core/llm/redact.hpp"
#include "core/llm/response_cache.hpp"
#include "core/llm/retry_policy.hpp"
#include "core/common/sha256.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace sf::llm;

TEST(Sha256, FipsVectors) {
  EXPECT_EQ(sf::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sf::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sf::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sf::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(BackendConfig, RoundTripsThroughJson) {
  BackendConfig c;
  c.kind = BackendKind::Anthropic;
  c.base_url = "https://api.anthropic.com";
  c.model = "claude-sonnet-4";
  c.key_env = "ANTHROPIC_API_KEY";
  c.timeout_s = 30;
  c.max_retries = 3;
  c.in_flight = 4;
  c.rpm = 50;
  c.tpm = 40000;
  c.prompt_caching = true;
  std::string err;
  auto back = backend_config_from_json(backend_config_to_json(c), err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(backend_config_to_json(*back), backend_config_to_json(c));
  EXPECT_EQ(back->identity(), "anthropic https://api.anthropic.com");
}

TEST(BackendConfig, RequestShapeKeysRoundTripAndEnterTheIdentityOnlyWhenNotClassic) {
  BackendConfig c;
  c.model = "gpt-4o";
  EXPECT_EQ(c.identity(), "openai https://api.openai.com/v1");  // caches written before these keys keep their keys
  c.token_param = "max_completion_tokens";
  c.send_temperature = false;
  c.reasoning_effort = "high";
  c.extra_body = R"({"top_p":0.5})";
  std::string err;
  auto back = backend_config_from_json(backend_config_to_json(c), err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(backend_config_to_json(*back), backend_config_to_json(c));
  EXPECT_EQ(back->identity(),
            "openai https://api.openai.com/v1 token_param=max_completion_tokens temperature=off "
            "reasoning_effort=high extra_body={\"top_p\":0.5}");
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"token_param", "max_toks"}}, err));
  EXPECT_NE(err.find("token_param"), std::string::npos) << err;
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"reasoning_effort", "extreme"}}, err));
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"extra_body", "top_p=1"}}, err));
  EXPECT_NE(err.find("JSON object"), std::string::npos) << err;
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"send_temperature", "no"}}, err));
}

TEST(BackendConfig, APastedKeyIsRefusedAsKeyEnvAndNeverRepeated) {
  std::string err;
  const std::string pasted = "sk-proj-AbCdEf0123456789xyzXYZ0123456789";
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"key_env", pasted}}, err));
  EXPECT_NE(err.find("looks like an API key"), std::string::npos) << err;
  EXPECT_EQ(err.find(pasted), std::string::npos);
  EXPECT_EQ(err.find("AbCdEf"), std::string::npos);
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"key_env", "MY KEY"}}, err));
  EXPECT_NE(err.find("environment variable name"), std::string::npos) << err;
  EXPECT_TRUE(backend_config_from_json(nlohmann::json{{"key_env", "OPENAI_API_KEY"}}, err)) << err;
  EXPECT_TRUE(backend_config_from_json(nlohmann::json{{"key_env", "DEEPSEEK_KEY_2"}}, err)) << err;
}

TEST(BackendConfig, RejectsUnknownKeysWrongTypesAndBadRanges) {
  std::string err;
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"kind", "openai"}, {"api_key", "x"}}, err));
  EXPECT_EQ(err, "backend config: unknown key 'api_key'");
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"timeout_s", "fast"}}, err));
  EXPECT_EQ(err, "backend config: key 'timeout_s' has the wrong type");
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"kind", "gemini"}}, err));
  EXPECT_NE(err.find("unknown kind 'gemini'"), std::string::npos);
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"in_flight", 0}}, err));
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"max_retries", 1000}}, err));
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"base_url", "ftp://x"}}, err));
  EXPECT_FALSE(backend_config_from_json(nlohmann::json{{"kind", "replay"}}, err));
  EXPECT_EQ(err, "backend config: replay needs cache_dir");
  auto a = backend_config_from_json(nlohmann::json{{"kind", "anthropic"}}, err);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->base_url, "https://api.anthropic.com");
}

namespace {
ChatRequest req() {
  ChatRequest r;
  r.model = "m";
  r.messages = {{"user", "hello"}};
  r.temperature = 0.7;
  r.max_tokens = 100;
  r.seed = 1;
  r.sample_index = 0;
  return r;
}
}  // namespace

TEST(RequestKey, EveryFieldOfTheRequestAndTheBackendChangesTheKey) {
  const std::string id = "openai https://api.openai.com/v1";
  std::string k = request_key(req(), id);
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, request_key(req(), id));
  auto differs = [&](auto mutate) {
    ChatRequest r = req();
    mutate(r);
    return request_key(r, id) != k;
  };
  EXPECT_TRUE(differs([](ChatRequest& r) { r.model = "m2"; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.messages[0].content = "hello!"; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.messages[0].role = "system"; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.temperature = 0.4; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.seed = 2; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.seed.reset(); }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.sample_index = 1; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.max_tokens = 101; }));
  EXPECT_TRUE(differs([](ChatRequest& r) { r.stop = {"x"}; }));
  EXPECT_NE(request_key(req(), "openai http://localhost:8080/v1"), k);
  EXPECT_NE(request_key(req(), "anthropic https://api.openai.com/v1"), k);
  // The prompt-caching hint does not change the answer, so it is not part of the key.
  EXPECT_FALSE(differs([](ChatRequest& r) { r.cache_prefix_hint = "manual"; }));
  EXPECT_FALSE(differs([](ChatRequest& r) { r.cache_user_prefix_hint = "demos"; }));
}

TEST(ResponseCache, StoresAtomicallyAndReadsBack) {
  auto dir = std::filesystem::temp_directory_path() / ("sf_cache_basic_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ResponseCache cache(dir);
  ChatResponse r;
  r.text = "impl: |\n  return E0\n";
  r.usage = {10, 5, 0};
  r.finish_reason = "stop";
  r.latency_s = 1.5;
  std::string key = request_key(req(), "x");
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_TRUE(cache.store(key, request_key_json(req(), "x"), r));
  auto hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->text, r.text);
  EXPECT_EQ(hit->usage, r.usage);
  EXPECT_EQ(hit->finish_reason, "stop");
  EXPECT_TRUE(hit->from_cache);
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string(), key + ".json");  // no temp files left behind
    ++n;
  }
  EXPECT_EQ(n, 1);
  // A corrupt entry is a miss with an explanation, never a crash.
  { std::ofstream(cache.path_for(key)) << "{\"key\": \"" << key << "\", \"response\": 3"; }
  std::string problem;
  EXPECT_FALSE(cache.lookup(key, &problem));
  EXPECT_NE(problem.find("malformed JSON"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// The request is stored like a logged prompt: the manual once in <cache>/blobs, the entry naming it; an entry
// written before (messages inline) still answers.
TEST(ResponseCache, StoresTheRequestsMessagesAsPartsAndReadsOldEntries) {
  auto dir = std::filesystem::temp_directory_path() / ("sf_cache_parts_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ResponseCache cache(dir);
  ChatRequest a = req(), b = req();
  a.messages = {{"system", "manual\n" + std::string(5000, 'm')}, {"user", "task a"}};
  b.messages = {{"system", a.messages[0].content}, {"user", "task b"}};
  ChatResponse r;
  r.text = "answer";
  const std::string ka = request_key(a, "x"), kb = request_key(b, "x");
  ASSERT_TRUE(cache.store(ka, request_key_json(a, "x"), r));
  ASSERT_TRUE(cache.store(kb, request_key_json(b, "x"), r));
  int blobs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "blobs")) blobs += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(blobs, 1);
  std::ifstream in(cache.path_for(ka));
  auto doc = nlohmann::json::parse(in);
  EXPECT_LT(doc.dump().size(), 1000u);
  EXPECT_EQ(doc["request"]["messages"][0]["parts"][0]["blob"], sf::sha256_hex(a.messages[0].content));
  EXPECT_EQ(doc["request"]["messages"][1]["parts"][0]["text"], "task a");
  // An old entry: the request's messages inline.
  doc["request"] = request_key_json(a, "x");
  std::ofstream(cache.path_for(ka)) << doc.dump(2);
  auto hit = cache.lookup(ka);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->text, "answer");
  std::filesystem::remove_all(dir);
}

TEST(PriceTable, CostFromUsageAndPrefixLookup) {
  std::string err;
  auto t = PriceTable::from_json(nlohmann::json::parse(R"({"models": {"gpt-4o": {"input_per_mtok": 2.5,
      "output_per_mtok": 10}, "gpt-4o-mini": {"input_per_mtok": 0.15, "output_per_mtok": 0.6}}})"), err);
  ASSERT_TRUE(t) << err;
  // 1,000,000 in at 2.5 + 200,000 out at 10 = 2.5 + 2.0
  EXPECT_DOUBLE_EQ(*t->cost("gpt-4o", Usage{1000000, 200000, 0}), 4.5);
  // The longest prefix wins: gpt-4o-mini-2024 prices as gpt-4o-mini: 0.15 * 2 + 0.6 * 1 = 0.9
  EXPECT_DOUBLE_EQ(*t->cost("gpt-4o-mini-2024-07-18", Usage{2000000, 1000000, 0}), 0.9);
  EXPECT_FALSE(t->cost("llama-3-8b", Usage{1, 1, 0}));
  EXPECT_FALSE(PriceTable::from_json(nlohmann::json::parse(R"({"models": {"x": {"input_per_mtok": -1,
      "output_per_mtok": 1}}})"), err));
}

TEST(PriceTable, CachedAndCacheWriteTokensHaveTheirOwnRates) {
  std::string err;
  auto t = PriceTable::from_json(nlohmann::json::parse(R"({"models": {"claude-x": {"input_per_mtok": 3.0,
      "output_per_mtok": 15.0, "cached_input_per_mtok": 0.3, "cache_write_per_mtok": 3.75},
      "plain": {"input_per_mtok": 2.0, "output_per_mtok": 8.0}}})"),
                                 err);
  ASSERT_TRUE(t) << err;
  Usage u;
  u.input_tokens = 1'000'000;  // of which 600k read from the cache and 100k written to it
  u.cached_input_tokens = 600'000;
  u.cache_write_input_tokens = 100'000;
  u.output_tokens = 10'000;
  // 300k plain x 3.0 + 600k x 0.3 + 100k x 3.75 + 10k x 15 = 0.9 + 0.18 + 0.375 + 0.15
  EXPECT_NEAR(*t->cost("claude-x", u), 1.605, 1e-9);
  // Without cache rates every input token costs the input price.
  EXPECT_NEAR(*t->cost("plain", u), 2.0 + 0.08, 1e-9);
  EXPECT_FALSE(PriceTable::from_json(nlohmann::json::parse(R"({"models": {"x": {"input_per_mtok": 1,
      "output_per_mtok": 1, "cached_input_per_mtok": "cheap"}}})"),
                                     err));
  EXPECT_NE(err.find("cached_input_per_mtok"), std::string::npos) << err;
}

TEST(PriceTable, ShippedTableLoads) {
  std::string err;
  auto t = PriceTable::load(std::string(SF_SOURCE_DIR) + "/resources/configs/prices.json", err);
  ASSERT_TRUE(t) << err;
  EXPECT_GE(t->size(), 5u);
  EXPECT_TRUE(t->find("gpt-4o"));
  EXPECT_TRUE(t->find("deepseek-chat"));
  EXPECT_TRUE(t->find("claude-sonnet-4-20250514"));
  // Current ids, with their prompt-cache rates (a dated id finds its family by prefix).
  auto sonnet = t->find("claude-sonnet-4-5-20250929");
  ASSERT_TRUE(sonnet);
  EXPECT_DOUBLE_EQ(sonnet->cache_write_per_mtok.value_or(0), 3.75);
  EXPECT_DOUBLE_EQ(sonnet->cached_input_per_mtok.value_or(0), 0.30);
  auto mini = t->find("gpt-5-mini");
  ASSERT_TRUE(mini);
  EXPECT_DOUBLE_EQ(mini->input_per_mtok, 0.25);
  EXPECT_TRUE(t->find("claude-haiku-4-5"));
  EXPECT_TRUE(t->find("o4-mini"));
}

TEST(Redact, SecretHeadersAndSecretsAreReplaced) {
  EXPECT_EQ(redact_header_line("Authorization: Bearer abc"), "Authorization: [REDACTED]");
  EXPECT_EQ(redact_header_line("x-api-key: abc"), "x-api-key: [REDACTED]");
  EXPECT_EQ(redact_header_line("X-Api-Key:abc"), "X-Api-Key: [REDACTED]");
  EXPECT_EQ(redact_header_line("Content-Type: application/json"), "Content-Type: application/json");
  EXPECT_EQ(redact("POST u\r\nauthorization: Bearer k1\r\nbody k1 and k1", {"k1"}),
            "POST u\r\nauthorization: [REDACTED]\r\nbody [REDACTED] and [REDACTED]");
  HttpRequest h;
  h.url = "http://x/v1/chat/completions";
  h.headers = {{"Authorization", "Bearer sk-123"}, {"x-api-key", "sk-123"}};
  h.body = "{}";
  std::string d = dump_request(h);
  EXPECT_EQ(d.find("sk-123"), std::string::npos);
  EXPECT_NE(d.find("Authorization: [REDACTED]"), std::string::npos);
}

TEST(RetryPolicy, BackoffGrowsIsCappedAndJittered) {
  RetryPolicy p{5, 1.0, 6.0};
  std::mt19937_64 rng(1);
  for (int i = 0; i < 50; ++i) {
    double d1 = p.delay_s(1, std::nullopt, rng);
    double d3 = p.delay_s(3, std::nullopt, rng);
    double d9 = p.delay_s(9, std::nullopt, rng);
    EXPECT_GE(d1, 0.5);
    EXPECT_LE(d1, 1.0);
    EXPECT_GE(d3, 2.0);
    EXPECT_LE(d3, 4.0);
    EXPECT_GE(d9, 3.0);
    EXPECT_LE(d9, 6.0);
  }
  EXPECT_DOUBLE_EQ(p.delay_s(1, 2.0, rng), 2.0);
  EXPECT_DOUBLE_EQ(p.delay_s(1, 100.0, rng), 6.0);
  EXPECT_TRUE(RetryPolicy::retryable_status(429));
  EXPECT_TRUE(RetryPolicy::retryable_status(503));
  EXPECT_FALSE(RetryPolicy::retryable_status(400));
  EXPECT_FALSE(RetryPolicy::retryable_status(401));
}

TEST(RetryAfter, ParsesSecondsAndDates) {
  EXPECT_DOUBLE_EQ(*parse_retry_after("7"), 7.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after(" 0.5 "), 0.5);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0);  // in the past
  EXPECT_FALSE(parse_retry_after("soon"));
  EXPECT_FALSE(parse_retry_after("-3"));
}

TEST(RateLimiter, RequestsPerMinuteAndTokensPerMinute) {
  RateLimiter rpm(2, 0);
  CancelToken c;
  EXPECT_TRUE(rpm.acquire(1, c));
  EXPECT_TRUE(rpm.acquire(1, c));
  EXPECT_GT(rpm.wait_time(1), 59.0);  // the third request must wait for the window
  RateLimiter tpm(0, 1000);
  EXPECT_TRUE(tpm.acquire(600, c));
  EXPECT_DOUBLE_EQ(tpm.wait_time(300), 0.0);
  EXPECT_GT(tpm.wait_time(500), 59.0);
  CancelToken cancelled;
  cancelled.cancel();
  EXPECT_FALSE(rpm.acquire(1, cancelled));  // a cancelled wait returns at once
  RateLimiter none(0, 0);
  EXPECT_DOUBLE_EQ(none.wait_time(1000000), 0.0);
}
