#include "core/llm/http_chat_backend.hpp"

#include "core/llm/sse.hpp"

#include "core/llm/redact.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace sf::llm {

namespace {
std::int64_t estimate_tokens(const ChatRequest& r) {
  std::size_t chars = 0;
  for (const auto& m : r.messages) chars += m.content.size();
  return static_cast<std::int64_t>(chars / 4) + std::max(r.max_tokens, 0);
}
}  // namespace

HttpChatBackend::HttpChatBackend(BackendConfig config, std::string api_key, TraceSink trace)
    : config_(std::move(config)),
      api_key_(std::move(api_key)),
      trace_(std::move(trace)),
      limiter_(config_.rpm, config_.tpm),
      gate_(config_.in_flight),
      rng_(std::random_device{}()) {}

std::string HttpChatBackend::base_url() const {
  std::string u = config_.base_url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  return u;
}

std::string HttpChatBackend::scrub(const std::string& text) const { return redact(text, {api_key_}); }

std::optional<std::vector<std::string>> HttpChatBackend::list_models(const CancelToken& cancel,
                                                                     std::string& error) const {
  HttpRequest h = models_request();
  h.timeout_s = std::min(config_.timeout_s, 30.0);
  h.max_body_bytes = config_.max_body_bytes;
  h.ca_bundle = config_.ca_bundle;
  h.proxy = config_.proxy;
  HttpResponse resp = http_post(h, cancel);
  if (resp.outcome != HttpOutcome::Ok) {
    error = scrub(resp.error);
    return std::nullopt;
  }
  if (resp.status < 200 || resp.status >= 300) {
    error = "HTTP " + std::to_string(resp.status) + ": " + scrub(error_message_of(resp.body));
    return std::nullopt;
  }
  auto j = nlohmann::json::parse(resp.body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("data") || !j["data"].is_array()) {
    error = "the model list is not the expected JSON ({\"data\": [{\"id\": ...}]})";
    return std::nullopt;
  }
  std::vector<std::string> ids;
  for (const auto& m : j["data"])
    if (m.is_object() && m.contains("id") && m["id"].is_string() && ids.size() < 10000) ids.push_back(m["id"]);
  return ids;
}

void HttpChatBackend::merge_extra_body(nlohmann::json& body) const {
  if (config_.extra_body.empty()) return;
  auto extra = nlohmann::json::parse(config_.extra_body, nullptr, false);
  if (!extra.is_object()) return;  // validated when the config was read
  for (auto it = extra.begin(); it != extra.end(); ++it) body[it.key()] = it.value();
}

void HttpChatBackend::trace(const std::string& text) const {
  if (trace_) trace_(scrub(text));
}

std::string HttpChatBackend::error_message_of(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  std::string msg;
  if (!j.is_discarded() && j.is_object() && j.contains("error")) {
    const auto& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string()) msg = e["message"].get<std::string>();
    else if (e.is_string()) msg = e.get<std::string>();
  }
  if (msg.empty()) msg = body.substr(0, 300);
  if (msg.size() > 500) msg = msg.substr(0, 500) + "...";
  return msg;
}

ChatResult HttpChatBackend::chat(const ChatRequest& request, const CancelToken& cancel) {
  using Clock = std::chrono::steady_clock;
  if (!limiter_.acquire(estimate_tokens(request), cancel))
    return ChatResult::failure("cancelled", "cancelled while waiting for the rate limit");
  RetryPolicy policy{config_.max_retries, config_.backoff_base_s, config_.backoff_max_s};
  HttpRequest http = build_request(request);
  http.timeout_s = config_.timeout_s;
  http.max_body_bytes = config_.max_body_bytes;
  http.ca_bundle = config_.ca_bundle;
  http.proxy = config_.proxy;
  // Streaming (server-sent events, core/llm/sse): each attempt parses the stream into deltas; the assembled
  // answer goes through parse_answer like a non-streamed one.
  const StreamFormat format = config_.kind == BackendKind::Anthropic ? StreamFormat::Anthropic : StreamFormat::OpenAi;
  std::optional<SseParser> sse;
  std::optional<StreamAccumulator> stream;
  if (request.on_delta) enable_streaming(http, format);
  auto start = Clock::now();
  ChatResult last = ChatResult::failure("network", "no attempt made");
  for (int attempt = 1; attempt <= config_.max_retries + 1; ++attempt) {
    trace("--> attempt " + std::to_string(attempt) + "\n" + dump_request(http));
    if (!gate_.acquire(cancel)) return ChatResult::failure("cancelled", "request cancelled", 0, attempt);
    if (request.on_delta) {
      sse.emplace();
      stream.emplace(format, request.on_delta);
      http.on_chunk = [&](std::string_view bytes) {
        for (const auto& e : sse->feed(bytes)) stream->add(e);
        return sse->error().empty();  // an invalid stream stops the transfer (a parse error below)
      };
    }
    HttpResponse resp = http_post(http, cancel);
    gate_.release();
    if (resp.outcome == HttpOutcome::Ok && resp.status == 429) gate_.on_throttled();
    if (resp.outcome == HttpOutcome::Ok && resp.status >= 200 && resp.status < 300) gate_.on_success();
    trace("<-- status " + std::to_string(resp.status) + (resp.error.empty() ? "" : " (" + resp.error + ")") + "\n" +
          resp.body.substr(0, 2000));
    std::optional<double> retry_after;
    bool retry = false;
    switch (resp.outcome) {
      case HttpOutcome::Cancelled:
        if (sse && !sse->error().empty())
          return ChatResult::failure("parse", "invalid event stream: " + sse->error(), static_cast<int>(resp.status),
                                     attempt);
        return ChatResult::failure("cancelled", "request cancelled", 0, attempt);
      case HttpOutcome::Timeout:
        last = ChatResult::failure("timeout", "timeout: " + resp.error, 0, attempt);
        retry = true;
        break;
      case HttpOutcome::Network:
        last = ChatResult::failure("network", "network error: " + scrub(resp.error), 0, attempt);
        retry = true;
        break;
      case HttpOutcome::TooLarge:
        return ChatResult::failure("parse", resp.error, static_cast<int>(resp.status), attempt);
      case HttpOutcome::Ok:
        if (resp.status >= 200 && resp.status < 300) {
          if (stream)
            if (auto tail = sse->finish()) stream->add(*tail);
          // A server that ignored "stream": true sent a plain answer: it is judged as such.
          const bool streamed = stream && stream->any_event();
          if (streamed && !stream->complete()) {  // cut off mid-answer: like a truncated body
            last = ChatResult::failure("network", "network error: the event stream ended before the answer did", 0,
                                       attempt);
            retry = true;
            break;
          }
          ChatResult r = parse_answer(streamed ? stream->assembled_body() : resp.body);
          if (stream) stream->close();
          if (r.ok()) {
            r.response->latency_s = std::chrono::duration<double>(Clock::now() - start).count();
            r.response->attempts = attempt;
          } else {
            r.error.attempts = attempt;
            r.error.http_status = static_cast<int>(resp.status);
            r.error.message = scrub(r.error.message);
          }
          return r;
        }
        last = ChatResult::failure("http",
                                   "HTTP " + std::to_string(resp.status) + ": " + scrub(error_message_of(resp.body)),
                                   static_cast<int>(resp.status), attempt);
        retry = RetryPolicy::retryable_status(resp.status);
        retry_after = server_requested_wait(resp);
        break;
    }
    if (!retry || attempt > config_.max_retries) break;
    double delay;
    {
      std::lock_guard<std::mutex> lock(rng_mutex_);
      delay = policy.delay_s(attempt, retry_after, rng_);
    }
    trace("... retrying in " + std::to_string(delay) + " s");
    if (!cancellable_sleep(delay, cancel)) return ChatResult::failure("cancelled", "request cancelled", 0, attempt);
  }
  if (last.error.attempts > 1) last.error.message += " (after " + std::to_string(last.error.attempts) + " attempts)";
  return last;
}

}  // namespace sf::llm
