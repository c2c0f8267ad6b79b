// One blocking HTTP POST (or GET, see HttpRequest::method) over a libcurl easy handle, bounded (body and header sizes, timeout) and
// cancellable (the transfer is polled every 20 ms and aborted as soon as the CancelToken fires).
#pragma once

#include "core/llm/chat_types.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace sf::llm {

struct HttpRequest {
  std::string method = "POST";  // or "GET" (no body)
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  double timeout_s = 60.0;
  std::size_t max_body_bytes = 8u << 20;
  std::size_t max_header_bytes = 64u << 10;
  std::string ca_bundle;  // CURLOPT_CAINFO when set
  std::string proxy;      // CURLOPT_PROXY when set (else libcurl reads https_proxy / no_proxy itself)
  // Streaming: every piece of the body as it arrives (it is also kept in HttpResponse::body, within
  // max_body_bytes). Returning false aborts the transfer (outcome Cancelled).
  std::function<bool(std::string_view)> on_chunk;
};

enum class HttpOutcome { Ok, Timeout, Cancelled, Network, TooLarge };

struct HttpResponse {
  HttpOutcome outcome = HttpOutcome::Ok;
  long status = 0;
  std::string body;
  std::optional<std::string> retry_after;     // raw Retry-After header value
  std::optional<std::string> retry_after_ms;  // raw retry-after-ms (OpenAI, Azure): milliseconds
  // raw x-ratelimit-reset-requests / x-ratelimit-reset-tokens (OpenAI: "1s", "6m0s", "20ms")
  std::optional<std::string> reset_requests, reset_tokens;
  std::string error;                       // transport error text (no credentials)
};

HttpResponse http_post(const HttpRequest& req, const CancelToken& cancel);

// A multi-line dump "POST url\nHeader: value\n...\n\n<body (first `max_body` bytes)>" with secret
// headers redacted.
std::string dump_request(const HttpRequest& req, std::size_t max_body = 2000);

// Parses a Retry-After value (delta-seconds, possibly fractional, or an HTTP-date) into seconds from
// now (>= 0); nullopt if unparseable.
std::optional<double> parse_retry_after(const std::string& value);
// Parses OpenAI's reset durations ("20ms", "1s", "1.5s", "6m0s", "1h2m3s") into seconds; nullopt if unparseable.
std::optional<double> parse_reset_duration(const std::string& value);
// The wait a throttled answer asks for, in seconds: retry-after-ms, else Retry-After, else (429 only) the
// later of OpenAI's x-ratelimit-reset-* headers; nullopt when the answer names none.
std::optional<double> server_requested_wait(const HttpResponse& resp);

}  // namespace sf::llm
