// HttpChatBackend: the shared machinery of the HTTP backends (rate limits, retries with backoff and
// jitter, Retry-After, per-attempt timeout, cancellation, redacted tracing). Subclasses only build the
// provider's request and parse its answer: OpenAiBackend (Chat Completions) and AnthropicBackend (Messages).
#pragma once

#include "core/llm/backend_config.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/llm/http_transport.hpp"
#include "core/llm/retry_policy.hpp"

#include <nlohmann/json_fwd.hpp>

#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sf::llm {

class HttpChatBackend : public ChatBackend {
 public:
  HttpChatBackend(BackendConfig config, std::string api_key, TraceSink trace = {});
  ChatResult chat(const ChatRequest& request, const CancelToken& cancel) override;
  std::string identity() const override { return config_.identity(); }
  const BackendConfig& config() const { return config_; }
  // Requests this backend lets into flight now (halved by each 429, recovering additively).
  int concurrency_limit() const { return gate_.limit(); }

  // Provider specifics (public for tests: they are pure functions of their inputs).
  virtual HttpRequest build_request(const ChatRequest& request) const = 0;
  virtual ChatResult parse_answer(const std::string& body) const = 0;
  // The provider's error message inside a non-2xx body, if any.
  static std::string error_message_of(const std::string& body);
  // The model ids the endpoint lists (GET .../models), one attempt; nullopt with `error` where it fails or
  // the server has no such route (llama.cpp server, some proxies).
  std::optional<std::vector<std::string>> list_models(const CancelToken& cancel, std::string& error) const;
  virtual HttpRequest models_request() const = 0;

 protected:
  std::string base_url() const;  // without trailing '/'
  const std::string& api_key() const { return api_key_; }
  // Merges the config's extra_body object into a request body (its keys win).
  void merge_extra_body(nlohmann::json& body) const;

 private:
  void trace(const std::string& text) const;
  std::string scrub(const std::string& text) const;
  BackendConfig config_;
  std::string api_key_;
  TraceSink trace_;
  RateLimiter limiter_;
  ConcurrencyLimiter gate_;
  std::mutex rng_mutex_;
  std::mt19937_64 rng_;
};

class OpenAiBackend : public HttpChatBackend {
 public:
  using HttpChatBackend::HttpChatBackend;
  HttpRequest build_request(const ChatRequest& request) const override;
  HttpRequest models_request() const override;
  ChatResult parse_answer(const std::string& body) const override;
};

class AnthropicBackend : public HttpChatBackend {
 public:
  using HttpChatBackend::HttpChatBackend;
  HttpRequest build_request(const ChatRequest& request) const override;
  HttpRequest models_request() const override;
  ChatResult parse_answer(const std::string& body) const override;
};

}  // namespace sf::llm
