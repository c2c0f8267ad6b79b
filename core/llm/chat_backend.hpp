// ChatBackend: the one chat-model interface every role talks to.
#pragma once

#include "core/llm/chat_types.hpp"

#include <functional>
#include <string>

namespace sf::llm {

// Receives human-readable dumps of HTTP exchanges; credentials are already redacted.
using TraceSink = std::function<void(const std::string&)>;

class ChatBackend {
 public:
  virtual ~ChatBackend() = default;
  // Thread-safe: a RequestPool calls it from several threads at once. Never throws for user-causable
  // problems (network, bad answers, cancellation): they come back as ChatResult errors.
  virtual ChatResult chat(const ChatRequest& request, const CancelToken& cancel) = 0;
  // "<kind> <base_url>": part of every cache key.
  virtual std::string identity() const = 0;
};

}  // namespace sf::llm
