// A loopback HTTP server (cpp-httplib) that speaks OpenAI Chat Completions and Anthropic Messages and
// can be scripted to misbehave: 429 with Retry-After, 500, malformed JSON, slow answers, truncated
// bodies, empty choices, refusals. Binds 127.0.0.1 on an ephemeral port.
#pragma once

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sf::llm::testing {

enum class Mode {
  Ok, TooMany, ServerError, Malformed, Slow, Truncated, EmptyChoices, Refusal, BadRequest, EchoKey,
  Unauthorized,  // 401
  NotFound,      // 404 "model not found"
  SpendCap,      // 429 insufficient_quota
};

struct Seen {
  std::string path;
  std::string body;
  std::multimap<std::string, std::string> headers;
};

class LoopbackServer {
 public:
  // port 0: an ephemeral port; else that port (a server restarted where an earlier one listened).
  explicit LoopbackServer(int port = 0) {
    auto handler = [this](const httplib::Request& req, httplib::Response& res) { handle(req, res); };
    server_.Post("/v1/chat/completions", handler);
    server_.Post("/v1/messages", handler);
    server_.Get("/v1/models", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex_);
      seen_.push_back({req.path, req.body, {req.headers.begin(), req.headers.end()}});
      res.set_content(R"({"object":"list","data":[{"id":"test-model"},{"id":"other-model"}]})", "application/json");
    });
    if (port == 0) port_ = server_.bind_to_any_port("127.0.0.1");
    else port_ = server_.bind_to_port("127.0.0.1", port) ? port : -1;
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the accept loop runs would be lost, so wait until it is running.
    for (int i = 0; i < 2000 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~LoopbackServer() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
    if (stopper_.joinable()) stopper_.join();
  }
  int port() const { return port_; }
  // After this many chat requests the server stops listening: later connections are refused (the request
  // that crosses the limit gets no answer either).
  void refuse_after(int hits) { refuse_after_ = hits; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::string anthropic_base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // The next answers, in order; after the script runs out every answer is Mode::Ok.
  void script(std::vector<Mode> modes) {
    std::lock_guard<std::mutex> lock(mutex_);
    script_.assign(modes.begin(), modes.end());
  }
  std::string retry_after = "0";  // value sent with 429 ("" = no Retry-After header)
  std::vector<std::pair<std::string, std::string>> extra_429_headers;  // e.g. retry-after-ms, x-ratelimit-reset-*
  int slow_ms = 600;
  std::string answer_text = "impl: |\n  return E0\n";
  // Streamed answers (a request with "stream": true): answer_text in `stream_pieces` SSE deltas, with
  // `stream_gap_ms` before every event after the first piece of text (the wait ends early when the client
  // has gone).
  int stream_pieces = 3;
  int stream_gap_ms = 0;
  std::atomic<bool> client_gone{false};  // a streamed answer found the connection closed
  bool ignore_stream = false;  // answer a streaming request with a plain JSON body (servers without SSE)
  bool cut_stream = false;     // end the stream after the text, without finish reason or end marker
  // OpenAI's value for Ok answers ("length": cut at max_tokens; an Anthropic answer then says
  // stop_reason "max_tokens")
  std::string finish_reason = "stop";

  int hits() const { return hits_.load(); }
  std::vector<Seen> seen() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seen_;
  }

 private:
  void handle(const httplib::Request& req, httplib::Response& res) {
    const int hit = ++hits_;
    if (refuse_after_ >= 0 && hit > refuse_after_) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!stopper_.joinable()) stopper_ = std::thread([this] { server_.stop(); });
      res.status = 503;
      return;
    }
    Mode mode = Mode::Ok;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      seen_.push_back({req.path, req.body, {req.headers.begin(), req.headers.end()}});
      if (!script_.empty()) {
        mode = script_.front();
        script_.pop_front();
      }
    }
    bool anthropic = req.path == "/v1/messages";
    switch (mode) {
      case Mode::TooMany:
        res.status = 429;
        if (!retry_after.empty()) res.set_header("Retry-After", retry_after);
        for (const auto& [k, v] : extra_429_headers) res.set_header(k, v);
        res.set_content(R"({"error":{"message":"rate limited"}})", "application/json");
        return;
      case Mode::ServerError:
        res.status = 500;
        res.set_content(R"({"error":{"message":"internal trouble"}})", "application/json");
        return;
      case Mode::BadRequest:
        res.status = 400;
        res.set_content(R"({"error":{"message":"bad model name"}})", "application/json");
        return;
      case Mode::EchoKey: {
        std::string key = req.get_header_value(anthropic ? "x-api-key" : "Authorization");
        res.status = 401;
        res.set_content(R"({"error":{"message":"invalid key )" + key + R"("}})", "application/json");
        return;
      }
      case Mode::Unauthorized:
        res.status = 401;
        res.set_content(R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})",
                        "application/json");
        return;
      case Mode::NotFound:
        res.status = 404;
        res.set_content(R"({"error":{"message":"The model `retired-model` does not exist","code":"model_not_found"}})",
                        "application/json");
        return;
      case Mode::SpendCap:
        res.status = 429;
        res.set_content(R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota"}})",
                        "application/json");
        return;
      case Mode::Malformed:
        res.set_content(R"({"choices": [ {"message": )", "application/json");
        return;
      case Mode::Slow:
        std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
        break;
      case Mode::Truncated:
        res.set_content_provider(4000, "application/json", [](size_t offset, size_t, httplib::DataSink& sink) {
          if (offset > 0) return false;
          std::string part = R"({"choices":[{"message":{"content":"imp)";
          sink.write(part.data(), part.size());
          return false;  // the connection closes with 4000 bytes promised
        });
        return;
      case Mode::EmptyChoices:
        res.set_content(anthropic ? R"({"type":"message","content":[],"stop_reason":"end_turn"})"
                                  : R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":0}})",
                        "application/json");
        return;
      case Mode::Refusal:
        res.set_content(anthropic ? R"({"type":"message","content":[],"stop_reason":"refusal"})"
                                  : R"({"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]})",
                        "application/json");
        return;
      case Mode::Ok:
        break;
    }
    if (!ignore_stream && req.body.find("\"stream\":true") != std::string::npos) {
      stream_answer(res, anthropic);
      return;
    }
    nlohmann::json j;
    if (anthropic) {
      j = {{"type", "message"},
           {"content", {{{"type", "text"}, {"text", answer_text}}}},
           {"stop_reason", finish_reason == "length" ? "max_tokens" : "end_turn"},  // Anthropic's names
           {"usage", {{"input_tokens", 100}, {"output_tokens", 20}, {"cache_read_input_tokens", 50}}}};
    } else {
      j = {{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", answer_text}}}, {"finish_reason", finish_reason}}}},
           {"usage", {{"prompt_tokens", 120}, {"completion_tokens", 30}}}};
    }
    res.set_content(j.dump(), "application/json");
  }

  void stream_answer(httplib::Response& res, bool anthropic) {
    std::vector<std::string> events;
    auto ev = [&](const std::string& type, const nlohmann::json& data) {
      events.push_back((anthropic ? "event: " + type + "\n" : std::string()) + "data: " + data.dump() + "\n\n");
    };
    const std::string text = answer_text;
    const std::size_t n = static_cast<std::size_t>(std::max(1, stream_pieces));
    const std::size_t step = (text.size() + n - 1) / n;
    if (anthropic)
      ev("message_start", {{"type", "message_start"}, {"message", {{"usage", {{"input_tokens", 100}, {"output_tokens", 1}}}}}});
    for (std::size_t i = 0; i < text.size(); i += step) {
      const std::string piece = text.substr(i, step);
      if (anthropic)
        ev("content_block_delta", {{"type", "content_block_delta"}, {"index", 0}, {"delta", {{"type", "text_delta"}, {"text", piece}}}});
      else
        ev("", {{"choices", {{{"index", 0}, {"delta", {{"content", piece}}}}}}});
    }
    if (cut_stream) {
    } else if (anthropic) {
      ev("message_delta", {{"type", "message_delta"}, {"delta", {{"stop_reason", "end_turn"}}}, {"usage", {{"output_tokens", 20}}}});
      ev("message_stop", {{"type", "message_stop"}});
    } else {
      ev("", {{"choices", {{{"index", 0}, {"delta", nlohmann::json::object()}, {"finish_reason", "stop"}}}}});
      ev("", {{"choices", nlohmann::json::array()}, {"usage", {{"prompt_tokens", 120}, {"completion_tokens", 30}}}});
      events.push_back("data: [DONE]\n\n");
    }
    const int gap = stream_gap_ms;
    const std::size_t first_piece = anthropic ? 1 : 0;  // the gaps come after the first piece of text
    res.set_chunked_content_provider("text/event-stream", [this, events, gap, first_piece](size_t,
                                                                                         httplib::DataSink& sink) {
      for (std::size_t i = 0; i < events.size(); ++i) {
        if (i > first_piece)
          for (int w = 0; w < gap; w += 50) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            static const std::string keep_alive = ": keep-alive\n\n";  // SSE comment: finds a closed connection
            if (!sink.is_writable() || !sink.write(keep_alive.data(), keep_alive.size())) {
              client_gone = true;
              return false;
            }
          }
        if (!sink.write(events[i].data(), events[i].size())) {
          client_gone = true;
          return false;
        }
      }
      sink.done();
      return true;
    });
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::deque<Mode> script_;
  std::vector<Seen> seen_;
  std::atomic<int> hits_{0};
  std::atomic<int> refuse_after_{-1};
  std::thread stopper_;
};

}  // namespace sf::llm::testing
