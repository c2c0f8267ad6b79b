// Server-sent events (the streaming form of OpenAI Chat Completions and Anthropic Messages): an incremental
// parser for the text/event-stream framing, and per-provider accumulators that turn the events into text
// deltas and, at the end, the same ChatResult a non-streamed answer gives. Pure functions of their input:
// the transport feeds bytes as libcurl delivers them.
#pragma once

#include "core/llm/chat_types.hpp"
#include "core/llm/http_transport.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::llm {

struct SseEvent {
  std::string event;  // the `event:` field ("" = message)
  std::string data;   // `data:` lines joined with '\n'
};

// Feeds bytes in any chunking; complete events (ended by a blank line; LF, CRLF or CR line ends) come out
// in order. Comment lines (":") and unknown fields are ignored. A line longer than `max_line` bytes makes
// the stream invalid (error()).
class SseParser {
 public:
  explicit SseParser(std::size_t max_line = 4u << 20) : max_line_(max_line) {}
  std::vector<SseEvent> feed(std::string_view bytes);
  // The event left unterminated at the end of the stream, if any (a server that closes without a blank line).
  std::optional<SseEvent> finish();
  const std::string& error() const { return error_; }

 private:
  void line(std::string_view l, std::vector<SseEvent>& out);
  std::size_t max_line_;
  std::string buf_;
  SseEvent cur_;
  bool has_data_ = false;
  bool last_cr_ = false;
  std::string error_;
};

enum class StreamFormat { OpenAi, Anthropic };

// Turns a built request into a streaming one: `"stream": true` in the JSON body (OpenAI-compatible also
// `"stream_options": {"include_usage": true}`, so the last event carries the usage) and an
// `Accept: text/event-stream` header.
void enable_streaming(HttpRequest& http, StreamFormat format);

// Folds a provider's stream events into deltas (StreamDelta, chat_types.hpp) and, at the end, the JSON body
// the provider would have sent without streaming — so the backend's own parse_answer judges it (refusals,
// empty answers, usage, finish reasons: one set of rules for both forms).
class StreamAccumulator {
 public:
  StreamAccumulator(StreamFormat format, StreamCallback on_delta) : format_(format), on_delta_(std::move(on_delta)) {}
  void add(const SseEvent& e);
  // The non-streamed equivalent of everything received (also after an error event: it carries the error).
  std::string assembled_body() const;
  const std::string& text() const { return text_; }
  bool finished() const { return finished_; }  // [DONE] / message_stop seen
  // At least one event was added (false: the server ignored "stream": true and sent a plain answer).
  bool any_event() const { return events_ > 0; }
  // The answer came to its end: an end marker ([DONE] / message_stop), a finish or stop reason, or an error
  // event. False for a stream cut off mid-answer (the connection closed cleanly before the end).
  bool complete() const { return finished_ || !finish_reason_.empty() || !error_.is_null(); }
  // Sends the final `done` delta (once).
  void close();

 private:
  void add_openai(const nlohmann::json& j);
  void add_anthropic(const nlohmann::json& j);
  void deliver(const std::string& text, const std::string& reasoning, bool done);
  StreamFormat format_;
  StreamCallback on_delta_;
  std::string text_, reasoning_, refusal_, finish_reason_;
  nlohmann::json usage_ = nlohmann::json::object();
  nlohmann::json error_;
  bool finished_ = false, closed_ = false;
  std::size_t events_ = 0;
};

}  // namespace sf::llm
