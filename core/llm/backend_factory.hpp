// make_backend: builds the backend a BackendConfig describes (with the response cache when cache_dir
// is set). The API key is read from the environment variable named by key_env (else a session key the GUI
// took from the OS keyring), at construction time; it is kept in memory only.
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

// A key for the variable `key_env` that did not come from the environment: the GUI reads it from the OS
// keyring (docs/gui.md) and hands it over as a string. make_backend uses it when the environment does not
// set `key_env` (the environment wins). Kept in this process's memory only, never written; trimmed like an
// environment value; an empty value forgets it. Thread-safe.
void set_session_key(const std::string& key_env, const std::string& value);
bool has_session_key(const std::string& key_env);

}  // namespace sf::llm
