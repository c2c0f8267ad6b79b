#include "core/llm/backend_factory.hpp"

#include "core/llm/builtin_backend.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/llm/http_chat_backend.hpp"

#include <cstdlib>

namespace sf::llm {

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
        if (!v || !*v) {
          out.error = "the API key variable " + config.key_env + " is not set";
          return out;
        }
        key = v;
        // A key pasted with its newline or spaces would fail as "authentication failed".
        auto first = key.find_first_not_of(" \t\r\n");
        auto last = key.find_last_not_of(" \t\r\n");
        key = first == std::string::npos ? std::string() : key.substr(first, last - first + 1);
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
