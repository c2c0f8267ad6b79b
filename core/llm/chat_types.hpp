// Chat-model request/response value types shared by every backend (core/llm).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <functional>
#include <string>
#include <vector>

namespace sf::llm {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
  friend bool operator==(const ChatMessage&, const ChatMessage&) = default;
};

// What a streaming caller sees as the answer arrives.
struct StreamDelta {
  std::string text;                // the new answer text ("" for a usage-only or progress update)
  std::string reasoning;           // new reasoning text (reasoning_content / thinking deltas)
  std::string progress;            // a status line instead of text (the builtin synthesizer's search)
  std::int64_t output_tokens = 0;  // so far: the provider's count when sent, else estimated (characters / 4)
  std::int64_t input_tokens = 0;   // when known
  bool done = false;               // the last delta of the answer
};
using StreamCallback = std::function<void(const StreamDelta&)>;

struct ChatRequest {
  std::string model;
  std::vector<ChatMessage> messages;
  double temperature = 0.0;
  int max_tokens = 1024;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> stop;
  int sample_index = 0;
  // Cache breakpoints for Anthropic prompt caching (BackendConfig::prompt_caching, on by default); neither is
  // part of the cache key (they do not change the answer). cache_prefix_hint: the static prefix of the system
  // prompt (e.g. the role statement and the manual); the system prompt is split after it and the prefix
  // marked cacheable (without a system prompt, the first user message is split after it instead).
  // cache_user_prefix_hint: the static start of the first user message (e.g. the demonstrations, shared by
  // every sample of an iteration); a second breakpoint after it. An empty hint sets no breakpoint.
  std::string cache_prefix_hint;
  std::string cache_user_prefix_hint;
  // Streaming (server-sent events) when set: called with every piece of the answer as it arrives, then once
  // with done = true. Not part of the cache key (it does not change the answer). The HTTP backends stream
  // (core/llm/sse); the builtin backend reports its search progress; cache hits and replays do not call it.
  StreamCallback on_delta;
};

struct Usage {
  std::int64_t input_tokens = 0;   // all prompt tokens, including those read from a provider's prompt cache
  std::int64_t output_tokens = 0;
  std::int64_t cached_input_tokens = 0;  // part of input_tokens served from a provider prompt cache
  std::int64_t cache_write_input_tokens = 0;  // part of input_tokens written to a provider prompt cache (Anthropic)
  friend bool operator==(const Usage&, const Usage&) = default;
};

struct ChatResponse {
  std::string text;
  Usage usage;
  double latency_s = 0.0;
  std::string finish_reason;  // provider's reason, normalised: "stop", "length", "refusal", ... or as given
  std::string reasoning;      // the model's separate reasoning, when the provider returns it (not parsed)
  bool from_cache = false;
  int attempts = 1;           // HTTP attempts it took (0 for cache hits)
};

// Kinds: "http" (non-success status), "network" (connection failed, truncated body), "timeout",
// "cancelled", "parse" (malformed or unexpected answer), "refused" (the model refused),
// "config" (bad configuration, missing key), "cache-miss" (replay without a recorded answer),
// "provider" (a builtin provider failed or is not registered).
struct LlmError {
  std::string kind;
  int http_status = 0;
  std::string message;
  int attempts = 0;
};

// A chat result: a response or an error (never both).
struct ChatResult {
  std::optional<ChatResponse> response;
  LlmError error;

  bool ok() const { return response.has_value(); }
  static ChatResult success(ChatResponse r) { return ChatResult{std::move(r), {}}; }
  static ChatResult failure(std::string kind, std::string message, int http_status = 0, int attempts = 0) {
    return ChatResult{std::nullopt, LlmError{std::move(kind), http_status, std::move(message), attempts}};
  }
};

// Shared cancellation flag: copies observe the same state. Cancelling aborts in-flight transfers
// (through the libcurl progress callback) and backoff waits.
class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true); }
  bool cancelled() const { return flag_->load(); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace sf::llm
