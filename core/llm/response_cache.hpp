// On-disk response cache: one JSON file per request, keyed by the SHA-256 of the whole request
// (backend identity, model, messages, temperature, seed, sample index, max_tokens, stop; never the key).
// Files are written atomically (temp file + rename), so a crash never leaves a half-written entry. The request
// is stored for reference like a logged prompt: its messages as parts naming blobs in <dir>/blobs (the content
// store, core/store/content_store.hpp), so the manual and the demonstrations are stored once; lookups read only
// the key and the response, so entries written before (messages inline) still answer.
#pragma once

#include "core/llm/chat_types.hpp"
#include "core/store/content_store.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

namespace sf::llm {

// The canonical JSON of a request as hashed for the cache (also stored in the cache file).
nlohmann::json request_key_json(const ChatRequest& r, const std::string& backend_identity);
// Hex SHA-256 of request_key_json(r, identity).dump().
std::string request_key(const ChatRequest& r, const std::string& backend_identity);

nlohmann::json response_to_json(const ChatResponse& r);
std::optional<ChatResponse> response_from_json(const nlohmann::json& j);

class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path dir);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path path_for(const std::string& key) const;

  // A recorded answer (from_cache = true, attempts = 0), or nullopt; `problem` explains a corrupt entry.
  std::optional<ChatResponse> lookup(const std::string& key, std::string* problem = nullptr) const;
  // Writes the entry atomically; returns false (with `error`) when the directory is not writable.
  bool store(const std::string& key, const nlohmann::json& request_json, const ChatResponse& response,
             std::string* error = nullptr);

 private:
  std::filesystem::path dir_;
  store::ContentStore blobs_;
  mutable std::mutex mutex_;
  unsigned long counter_ = 0;
};

}  // namespace sf::llm
