#include "core/llm/backend_config.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
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
  // The builtin backend names itself by its provider (BuiltinBackend::identity): so the keys it recorded
  // replay (it sends no request shape and has no URL).
  if (k == BackendKind::Builtin) return "builtin " + builtin_provider;
  std::string url = base_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  std::string id = backend_kind_name(k) + " " + url;
  if (!token_param.empty() && token_param != "max_tokens") id += " token_param=" + token_param;
  if (send_temperature && !*send_temperature) id += " temperature=off";
  if (!reasoning_effort.empty()) id += " reasoning_effort=" + reasoning_effort;
  if (!extra_body.empty()) id += " extra_body=" + extra_body;
  return id;
}

bool is_openai_reasoning_model(const std::string& model) {
  std::string m = model;
  if (auto slash = m.rfind('/'); slash != std::string::npos) m = m.substr(slash + 1);  // "openai/o3-mini"
  if (m.rfind("gpt-5", 0) == 0) return true;
  return m.size() >= 2 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9';
}

std::string BackendConfig::effective_token_param(const std::string& model) const {
  if (!token_param.empty()) return token_param;
  return kind == BackendKind::OpenAi && is_openai_reasoning_model(model) ? "max_completion_tokens" : "max_tokens";
}

bool BackendConfig::effective_send_temperature(const std::string& model) const {
  if (send_temperature) return *send_temperature;
  return !(kind == BackendKind::OpenAi && is_openai_reasoning_model(model));
}

std::string key_env_problem(const std::string& name) {
  if (name.empty()) return {};
  bool word = (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') && name.size() <= 128;
  bool lower = false, digit = false;
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    if (!(std::isalnum(c) || ch == '_')) word = false;
    if (std::islower(c)) lower = true;
    if (std::isdigit(c)) digit = true;
  }
  // Keys look like sk-..., sk-ant-..., or long mixed-case/digit strings; variable names are short words.
  bool looks_like_key = name.rfind("sk-", 0) == 0 || name.rfind("sk_", 0) == 0 ||
                        (name.size() >= 24 && lower && digit) || (!word && name.size() >= 20);
  if (looks_like_key)
    return "key_env must name an environment variable (e.g. OPENAI_API_KEY), but its value looks like an API key; "
           "it was not stored: put the key in an environment variable and give that variable's name";
  if (!word) return "key_env must be an environment variable name ([A-Za-z_][A-Za-z0-9_]*)";
  return {};
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

std::string default_base_url(BackendKind k) {
  return k == BackendKind::Anthropic ? "https://api.anthropic.com" : "https://api.openai.com/v1";
}

std::optional<BackendConfig> backend_config_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "backend config: expected a JSON object";
    return std::nullopt;
  }
  static const std::set<std::string> known = {
      "kind", "base_url", "model", "key_env", "timeout_s", "max_retries", "max_consecutive_failures", "backoff_base_s", "backoff_max_s",
      "in_flight", "rpm", "tpm", "anthropic_version", "prompt_caching", "cache_dir", "builtin_provider",
      "replay_kind", "max_body_bytes", "token_param", "send_temperature", "reasoning_effort", "extra_body",
      "ca_bundle", "proxy"};
  for (const auto& [k, v] : j.items()) {
    if (!known.count(k)) {
      error = "backend config: unknown key '" + k + "'";
      return std::nullopt;
    }
  }
  BackendConfig c;
  if (j.contains("kind") && j["kind"] == "anthropic") c.base_url = default_base_url(BackendKind::Anthropic);
  bool ok = read_kind(j, "kind", c.kind, error) && read(j, "base_url", c.base_url, error) &&
            read(j, "model", c.model, error) && read(j, "key_env", c.key_env, error) &&
            read(j, "timeout_s", c.timeout_s, error) && read(j, "max_retries", c.max_retries, error) &&
            read(j, "max_consecutive_failures", c.max_consecutive_failures, error) &&
            read(j, "backoff_base_s", c.backoff_base_s, error) && read(j, "backoff_max_s", c.backoff_max_s, error) &&
            read(j, "in_flight", c.in_flight, error) && read(j, "rpm", c.rpm, error) && read(j, "tpm", c.tpm, error) &&
            read(j, "anthropic_version", c.anthropic_version, error) &&
            read(j, "prompt_caching", c.prompt_caching, error) && read(j, "cache_dir", c.cache_dir, error) &&
            read(j, "builtin_provider", c.builtin_provider, error) && read_kind(j, "replay_kind", c.replay_kind, error) &&
            read(j, "max_body_bytes", c.max_body_bytes, error) && read(j, "token_param", c.token_param, error) &&
            read(j, "reasoning_effort", c.reasoning_effort, error) && read(j, "ca_bundle", c.ca_bundle, error) &&
            read(j, "proxy", c.proxy, error);
  if (!ok) return std::nullopt;
  if (j.contains("send_temperature")) {
    if (!j["send_temperature"].is_boolean()) {
      error = "backend config: 'send_temperature' must be true or false";
      return std::nullopt;
    }
    c.send_temperature = j["send_temperature"].get<bool>();
  }
  if (j.contains("extra_body")) {
    if (!j["extra_body"].is_object()) {
      error = "backend config: 'extra_body' must be a JSON object";
      return std::nullopt;
    }
    if (!j["extra_body"].empty()) c.extra_body = j["extra_body"].dump();
  }
  error = validate(c);
  if (!error.empty()) return std::nullopt;
  return c;
}

nlohmann::json backend_config_to_json(const BackendConfig& c) {
  nlohmann::json j{{"kind", backend_kind_name(c.kind)},
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
  if (c.max_consecutive_failures != 3) j["max_consecutive_failures"] = c.max_consecutive_failures;
  if (!c.token_param.empty()) j["token_param"] = c.token_param;
  if (c.send_temperature) j["send_temperature"] = *c.send_temperature;
  if (!c.reasoning_effort.empty()) j["reasoning_effort"] = c.reasoning_effort;
  if (!c.extra_body.empty()) j["extra_body"] = nlohmann::json::parse(c.extra_body);
  if (!c.ca_bundle.empty()) j["ca_bundle"] = c.ca_bundle;
  if (!c.proxy.empty()) j["proxy"] = c.proxy;
  return j;
}

std::string validate(const BackendConfig& c) {
  if (!(c.timeout_s > 0.0 && c.timeout_s <= 3600.0)) return "backend config: timeout_s must be in (0, 3600]";
  if (c.max_retries < 0 || c.max_retries > 20) return "backend config: max_retries must be in [0, 20]";
  if (c.max_consecutive_failures < 1 || c.max_consecutive_failures > 1000)
    return "backend config: max_consecutive_failures must be in [1, 1000]";
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
  if (!c.token_param.empty() && c.token_param != "max_tokens" && c.token_param != "max_completion_tokens")
    return "backend config: token_param must be max_tokens or max_completion_tokens";
  if (!c.reasoning_effort.empty() && c.reasoning_effort != "minimal" && c.reasoning_effort != "low" &&
      c.reasoning_effort != "medium" && c.reasoning_effort != "high")
    return "backend config: reasoning_effort must be minimal, low, medium or high";
  if (auto why = key_env_problem(c.key_env); !why.empty()) return "backend config: " + why;
  if (!c.proxy.empty() && c.proxy.find("://") == std::string::npos)
    return "backend config: proxy must be a URL such as http://proxy.example:3128";
  return {};
}

}  // namespace sf::llm
