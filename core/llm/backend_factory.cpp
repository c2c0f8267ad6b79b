#include "core/llm/backend_factory.hpp"

#include "core/llm/builtin_backend.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/llm/http_chat_backend.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

namespace sf::llm {

namespace {

std::string trim_key(const std::string& v) {
  auto first = v.find_first_not_of(" \t\r\n");
  auto last = v.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? std::string() : v.substr(first, last - first + 1);
}

std::mutex& session_keys_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::string>& session_keys() {
  static std::map<std::string, std::string> keys;
  return keys;
}

}  // namespace

void set_session_key(const std::string& key_env, const std::string& value) {
  std::lock_guard lock(session_keys_mutex());
  const std::string key = trim_key(value);
  if (key.empty()) session_keys().erase(key_env);
  else session_keys()[key_env] = key;
}

bool has_session_key(const std::string& key_env) {
  std::lock_guard lock(session_keys_mutex());
  return session_keys().count(key_env) > 0;
}

BackendOrError make_backend(const BackendConfig& config, TraceSink trace) {
  BackendOrError out;
  out.error = validate(config);
  if (!out.error.empty()) return out;
  std::unique_ptr<ChatBackend> b;
  switch (config.kind) {
    case BackendKind::OpenAi:
    case BackendKind::Anthropic: {
      std::string key;
      if (!config.key_env.empty()) {
        const char* v = std::getenv(config.key_env.c_str());
        if (v && *v) {
          key = v;
        } else {  // not in the environment: a session key (the GUI's keyring), else an error
          std::lock_guard lock(session_keys_mutex());
          auto it = session_keys().find(config.key_env);
          if (it == session_keys().end()) {
            out.error = "the API key variable " + config.key_env + " is not set";
            return out;
          }
          key = it->second;
        }
        // A key pasted with its newline or spaces would fail as "authentication failed".
        key = trim_key(key);
        if (key.empty()) {
          out.error = "the API key variable " + config.key_env + " holds only white space";
          return out;
        }
      }
      if (config.kind == BackendKind::OpenAi) b = std::make_unique<OpenAiBackend>(config, std::move(key), trace);
      else b = std::make_unique<AnthropicBackend>(config, std::move(key), trace);
      break;
    }
    case BackendKind::Builtin:
      b = std::make_unique<BuiltinBackend>(config.builtin_provider);
      break;
    case BackendKind::Replay:
      out.backend = std::make_unique<ReplayBackend>(config.cache_dir, config.identity());
      return out;
  }
  if (!config.cache_dir.empty()) b = std::make_unique<CachedBackend>(std::move(b), config.cache_dir, trace);
  out.backend = std::move(b);
  return out;
}

}  // namespace sf::llm
