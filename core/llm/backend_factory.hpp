// make_backend: builds the backend a BackendConfig describes (with the response cache when cache_dir
// is set). The API key is read from the environment variable named by key_env, at construction time;
// it is kept in memory only.
#pragma once

#include "core/llm/backend_config.hpp"
#include "core/llm/chat_backend.hpp"

#include <memory>
#include <string>

namespace sf::llm {

struct BackendOrError {
  std::unique_ptr<ChatBackend> backend;
  std::string error;  // kind "config" problems: invalid config, key variable unset
};

BackendOrError make_backend(const BackendConfig& config, TraceSink trace = {});

}  // namespace sf::llm
