#include "core/llm/cached_backend.hpp"

namespace sf::llm {

CachedBackend::CachedBackend(std::unique_ptr<ChatBackend> inner, std::filesystem::path cache_dir, TraceSink trace)
    : inner_(std::move(inner)), cache_(std::move(cache_dir)), trace_(std::move(trace)) {}

ChatResult CachedBackend::chat(const ChatRequest& request, const CancelToken& cancel) {
  std::string id = inner_->identity();
  std::string key = request_key(request, id);
  std::string problem;
  if (auto hit = cache_.lookup(key, &problem)) return ChatResult::success(std::move(*hit));
  if (!problem.empty() && trace_) trace_("cache: ignoring " + problem);
  ChatResult r = inner_->chat(request, cancel);
  if (r.ok()) {
    std::string error;
    if (!cache_.store(key, request_key_json(request, id), *r.response, &error) && trace_) trace_("cache: " + error);
  }
  return r;
}

ReplayBackend::ReplayBackend(std::filesystem::path cache_dir, std::string recorded_identity)
    : cache_(std::move(cache_dir)), identity_(std::move(recorded_identity)) {}

ChatResult ReplayBackend::chat(const ChatRequest& request, const CancelToken& cancel) {
  if (cancel.cancelled()) return ChatResult::failure("cancelled", "request cancelled");
  std::string key = request_key(request, identity_);
  std::string problem;
  if (auto hit = cache_.lookup(key, &problem)) return ChatResult::success(std::move(*hit));
  return ChatResult::failure("cache-miss", problem.empty() ? "replay: no recorded answer for request " + key.substr(0, 16) +
                                                                 " (sample " + std::to_string(request.sample_index) + ")"
                                                           : "replay: " + problem);
}

}  // namespace sf::llm
