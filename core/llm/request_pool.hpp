// RequestPool: runs many chat requests concurrently with an in-flight limit. results[i] always
// answers requests[i] whatever the completion order, so callers that list samples by index get
// deterministic output; an optional callback reports each completion as it happens.
#pragma once

#include "core/llm/chat_backend.hpp"

#include <functional>
#include <vector>

namespace sf::llm {

class RequestPool {
 public:
  using Callback = std::function<void(std::size_t index, const ChatResult& result)>;

  RequestPool(ChatBackend& backend, int in_flight);
  // Blocks until every request finished or was cancelled (requests not started when `cancel` fires
  // come back as "cancelled" errors). The callback is called from worker threads, one at a time.
  std::vector<ChatResult> run(const std::vector<ChatRequest>& requests, const CancelToken& cancel,
                              const Callback& on_done = {});
  int in_flight() const { return in_flight_; }

 private:
  ChatBackend& backend_;
  int in_flight_;
};

}  // namespace sf::llm
