#include "core/llm/backend_config.hpp"

#include <nlohmann/json.hpp>

#include <set>

namespace sf::llm {

std::string backend_kind_name(BackendKind k) {
  switch (k) {
    case BackendKind::OpenAi: return "openai";
    case BackendKind::Anthropic: return "anthropic";
    case BackendKind::Builtin: return "builtin";
    case BackendKind::Replay: return "replay";
  }
  return "openai";
}

std::optional<BackendKind> parse_backend_kind(const std::string& name) {
  for (auto k : {BackendKind::OpenAi, BackendKind::Anthropic, BackendKind::Builtin, BackendKind::Replay}) {
    if (backend_kind_name(k) == name) return k;
  }
  return std::nullopt;
}

std::string BackendConfig::identity() const {
  BackendKind k = kind == BackendKind::Replay ? replay_kind : kind;
  std::string url = base_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return backend_kind_name(k) + " " + url;
}

namespace {

template <typename T>
bool read(const nlohmann::json& j, const char* key, T& out, std::string& error) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  try {
    out = it->get<T>();
    return true;
  } catch (const nlohmann::json::exception&) {
    error = std::string("backend config: key '") + key + "' has the wrong type";
    return false;
  }
}

bool read_kind(const nlohmann::json& j, const char* key, BackendKind& out, std::string& error) {
  std::string name;
  if (!j.contains(key)) return true;
  if (!read(j, key, name, error)) return false;
  auto k = parse_backend_kind(name);
  if (!k) {
    error = std::string("backend config: unknown ") + key + " '" + name +
            "' (expected openai, anthropic, builtin or replay)";
    return false;
  }
  out = *k;
  return true;
}

}  // namespace

std::optional<BackendConfig> backend_config_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "backend config: expected a JSON object";
    return std::nullopt;
  }
  static const std::set<std::string> known = {
      "kind", "base_url", "model", "key_env", "timeout_s", "max_retries", "backoff_base_s", "backoff_max_s",
      "in_flight", "rpm", "tpm", "anthropic_version", "prompt_caching", "cache_dir", "builtin_provider",
      "replay_kind", "max_body_bytes"};
  for (const auto& [k, v] : j.items()) {
    if (!known.count(k)) {
      error = "backend config: unknown key '" + k + "'";
      return std::nullopt;
    }
  }
  BackendConfig c;
  if (j.contains("kind") && j["kind"] == "anthropic") c.base_url = "https://api.anthropic.com";
  bool ok = read_kind(j, "kind", c.kind, error) && read(j, "base_url", c.base_url, error) &&
            read(j, "model", c.model, error) && read(j, "key_env", c.key_env, error) &&
            read(j, "timeout_s", c.timeout_s, error) && read(j, "max_retries", c.max_retries, error) &&
            read(j, "backoff_base_s", c.backoff_base_s, error) && read(j, "backoff_max_s", c.backoff_max_s, error) &&
            read(j, "in_flight", c.in_flight, error) && read(j, "rpm", c.rpm, error) && read(j, "tpm", c.tpm, error) &&
            read(j, "anthropic_version", c.anthropic_version, error) &&
            read(j, "prompt_caching", c.prompt_caching, error) && read(j, "cache_dir", c.cache_dir, error) &&
            read(j, "builtin_provider", c.builtin_provider, error) && read_kind(j, "replay_kind", c.replay_kind, error) &&
            read(j, "max_body_bytes", c.max_body_bytes, error);
  if (!ok) return std::nullopt;
  error = validate(c);
  if (!error.empty()) return std::nullopt;
  return c;
}

nlohmann::json backend_config_to_json(const BackendConfig& c) {
  return nlohmann::json{{"kind", backend_kind_name(c.kind)},
                        {"base_url", c.base_url},
                        {"model", c.model},
                        {"key_env", c.key_env},
                        {"timeout_s", c.timeout_s},
                        {"max_retries", c.max_retries},
                        {"backoff_base_s", c.backoff_base_s},
                        {"backoff_max_s", c.backoff_max_s},
                        {"in_flight", c.in_flight},
                        {"rpm", c.rpm},
                        {"tpm", c.tpm},
                        {"anthropic_version", c.anthropic_version},
                        {"prompt_caching", c.prompt_caching},
                        {"cache_dir", c.cache_dir},
                        {"builtin_provider", c.builtin_provider},
                        {"replay_kind", backend_kind_name(c.replay_kind)},
                        {"max_body_bytes", c.max_body_bytes}};
}

std::string validate(const BackendConfig& c) {
  if (!(c.timeout_s > 0.0 && c.timeout_s <= 3600.0)) return "backend config: timeout_s must be in (0, 3600]";
  if (c.max_retries < 0 || c.max_retries > 20) return "backend config: max_retries must be in [0, 20]";
  if (!(c.backoff_base_s >= 0.0 && c.backoff_base_s <= 600.0)) return "backend config: backoff_base_s must be in [0, 600]";
  if (!(c.backoff_max_s >= 0.0 && c.backoff_max_s <= 3600.0)) return "backend config: backoff_max_s must be in [0, 3600]";
  if (c.in_flight < 1 || c.in_flight > 256) return "backend config: in_flight must be in [1, 256]";
  if (!(c.rpm >= 0.0) || !(c.tpm >= 0.0)) return "backend config: rpm and tpm must be >= 0";
  if (c.max_body_bytes < 1024 || c.max_body_bytes > (256u << 20)) return "backend config: max_body_bytes must be in [1 KiB, 256 MiB]";
  if ((c.kind == BackendKind::OpenAi || c.kind == BackendKind::Anthropic) &&
      c.base_url.rfind("http://", 0) != 0 && c.base_url.rfind("https://", 0) != 0)
    return "backend config: base_url must start with http:// or https://";
  if (c.kind == BackendKind::Replay && c.cache_dir.empty()) return "backend config: replay needs cache_dir";
  if (c.kind == BackendKind::Replay && c.replay_kind == BackendKind::Replay) return "backend config: replay_kind cannot be replay";
  return {};
}

}  // namespace sf::llm
