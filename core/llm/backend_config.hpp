// BackendConfig: which chat backend to use and how to talk to it (JSON round-trip, validation).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace sf::llm {

enum class BackendKind { OpenAi, Anthropic, Builtin, Replay };

std::string backend_kind_name(BackendKind k);
// The endpoint a kind talks to unless base_url says otherwise: OpenAI's for openai (and every other kind),
// https://api.anthropic.com for anthropic.
std::string default_base_url(BackendKind k);  // "openai", "anthropic", "builtin", "replay"
std::optional<BackendKind> parse_backend_kind(const std::string& name);

struct BackendConfig {
  BackendKind kind = BackendKind::OpenAi;
  std::string base_url = "https://api.openai.com/v1";  // for OpenAI-compatible: ".../v1"; Anthropic: "https://api.anthropic.com"
  std::string model;
  std::string key_env;          // name of the environment variable holding the API key; empty = no key
  double timeout_s = 120.0;     // per HTTP attempt
  int max_retries = 6;          // retries after the first attempt (429, 5xx, timeouts, network errors)
  // A campaign pauses after this many samples in a row whose call failed after all its retries (429, 5xx,
  // timeouts, network); a non-retryable endpoint error (401, 404, 400, spend cap, TLS) pauses it at once.
  int max_consecutive_failures = 3;
  double backoff_base_s = 1.0;  // first backoff; doubles per retry, full jitter in [0.5, 1] x
  double backoff_max_s = 60.0;  // cap for backoff and for Retry-After
  int in_flight = 8;            // concurrent requests in a RequestPool
  double rpm = 0.0;             // requests per minute; 0 = unlimited
  double tpm = 0.0;             // tokens per minute (estimated input + max_tokens); 0 = unlimited
  std::string anthropic_version = "2023-06-01";
  // Anthropic: cache breakpoints after the request's static prefixes (ChatRequest::cache_prefix_hint, the
  // manual, and cache_user_prefix_hint, the demonstrations); false sends the prompt without cache_control.
  bool prompt_caching = true;
  std::string cache_dir;        // on-disk response cache; empty = no cache
  std::string builtin_provider = "synth";  // builtin: name of the registered provider
  // replay: the backend whose recorded answers are replayed (the cache key includes kind + base URL).
  BackendKind replay_kind = BackendKind::OpenAi;
  std::size_t max_body_bytes = 8u << 20;   // response body cap
  // Request shape (OpenAI-compatible; Anthropic uses send_temperature and extra_body). Empty / unset = the
  // automatic default for the model family: OpenAI o-series and gpt-5 models take max_completion_tokens and
  // no temperature; every other model max_tokens and a temperature.
  std::string token_param;                 // "", "max_tokens" or "max_completion_tokens"
  std::optional<bool> send_temperature;    // unset: automatic
  std::string reasoning_effort;            // "" (not sent), "minimal", "low", "medium" or "high"
  std::string extra_body;                  // "" or the JSON text of an object merged into every request body
  // TLS and proxies: a CA bundle file for the endpoint's certificate, and a proxy URL ("" = libcurl's own
  // environment variables, https_proxy / no_proxy, which keep working).
  std::string ca_bundle;
  std::string proxy;

  // The identity that goes into cache keys: "<kind> <base_url>" (replay uses replay_kind), plus the request
  // shape wherever it differs from the classic one (max_tokens, a temperature, nothing extra), so caches
  // written before these keys existed keep their keys.
  std::string identity() const;
  // The token parameter and whether a temperature is sent, with the automatic defaults applied for `model`.
  std::string effective_token_param(const std::string& model) const;
  bool effective_send_temperature(const std::string& model) const;
};

// True for OpenAI reasoning models that reject max_tokens and temperature: o1, o3, o4-mini, ..., gpt-5*.
bool is_openai_reasoning_model(const std::string& model);
// Why `name` cannot be the name of an environment variable holding a key ("" when it can). A value that looks
// like a key itself is refused without repeating it.
std::string key_env_problem(const std::string& name);

// Parses a config object. Unknown keys and wrong types are errors; returns the error text in `error`.
std::optional<BackendConfig> backend_config_from_json(const nlohmann::json& j, std::string& error);
nlohmann::json backend_config_to_json(const BackendConfig& c);
// Checks ranges (timeouts > 0, retries 0..20, in_flight 1..256, ...); empty string = valid.
std::string validate(const BackendConfig& c);

}  // namespace sf::llm
