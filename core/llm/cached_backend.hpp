// CachedBackend: wraps any backend with the on-disk response cache (a hit makes no call);
// ReplayBackend: answers only from a cache, a miss is a "cache-miss" error, never an invented answer.
#pragma once

#include "core/llm/chat_backend.hpp"
#include "core/llm/response_cache.hpp"

#include <memory>

namespace sf::llm {

class CachedBackend : public ChatBackend {
 public:
  CachedBackend(std::unique_ptr<ChatBackend> inner, std::filesystem::path cache_dir, TraceSink trace = {});
  ChatResult chat(const ChatRequest& request, const CancelToken& cancel) override;
  std::string identity() const override { return inner_->identity(); }
  ResponseCache& cache() { return cache_; }

 private:
  std::unique_ptr<ChatBackend> inner_;
  ResponseCache cache_;
  TraceSink trace_;
};

class ReplayBackend : public ChatBackend {
 public:
  // `recorded_identity`: the identity ("openai https://...") of the backend that filled the cache.
  ReplayBackend(std::filesystem::path cache_dir, std::string recorded_identity);
  ChatResult chat(const ChatRequest& request, const CancelToken& cancel) override;
  std::string identity() const override { return identity_; }

 private:
  ResponseCache cache_;
  std::string identity_;
};

}  // namespace sf::llm
