// BackendConfig: which chat backend to use and how to talk to it (JSON round-trip, validation).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace sf::llm {

enum class BackendKind { OpenAi, Anthropic, Builtin, Replay };

std::string backend_kind_name(BackendKind k);  // "openai", "anthropic", "builtin", "replay"
std::optional<BackendKind> parse_backend_kind(const std::string& name);

struct BackendConfig {
  BackendKind kind = BackendKind::OpenAi;
  std::string base_url = "https://api.openai.com/v1";  // for OpenAI-compatible: ".../v1"; Anthropic: "https://api.anthropic.com"
  std::string model;
  std::string key_env;          // name of the environment variable holding the API key; empty = no key
  double timeout_s = 120.0;     // per HTTP attempt
  int max_retries = 4;          // retries after the first attempt (429, 5xx, timeouts, network errors)
  double backoff_base_s = 1.0;  // first backoff; doubles per retry, full jitter in [0.5, 1] x
  double backoff_max_s = 60.0;  // cap for backoff and for Retry-After
  int in_flight = 8;            // concurrent requests in a RequestPool
  double rpm = 0.0;             // requests per minute; 0 = unlimited
  double tpm = 0.0;             // tokens per minute (estimated input + max_tokens); 0 = unlimited
  std::string anthropic_version = "2023-06-01";
  bool prompt_caching = false;  // Anthropic: mark the static prompt prefix cacheable
  std::string cache_dir;        // on-disk response cache; empty = no cache
  std::string builtin_provider = "synth";  // builtin: name of the registered provider
  // replay: the backend whose recorded answers are replayed (the cache key includes kind + base URL).
  BackendKind replay_kind = BackendKind::OpenAi;
  std::size_t max_body_bytes = 8u << 20;   // response body cap

  // The identity that goes into cache keys: "<kind> <base_url>" (replay uses replay_kind).
  std::string identity() const;
};

// Parses a config object. Unknown keys and wrong types are errors; returns the error text in `error`.
std::optional<BackendConfig> backend_config_from_json(const nlohmann::json& j, std::string& error);
nlohmann::json backend_config_to_json(const BackendConfig& c);
// Checks ranges (timeouts > 0, retries 0..20, in_flight 1..256, ...); empty string = valid.
std::string validate(const BackendConfig& c);

}  // namespace sf::llm
