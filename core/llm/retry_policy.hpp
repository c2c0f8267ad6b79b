// Retry decisions and waits: exponential backoff with jitter, Retry-After honoured (capped),
// cancellable sleeps, and an optional requests/min + tokens/min rate limiter.
#pragma once

#include "core/llm/chat_types.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <random>

namespace sf::llm {

struct RetryPolicy {
  int max_retries = 6;
  double backoff_base_s = 1.0;
  double backoff_max_s = 60.0;

  // True for statuses worth retrying: 408, 409 (lock contention), 425, 429, and every 5xx.
  static bool retryable_status(long status);
  // Delay before retry number `retry` (1-based): Retry-After (if given) capped at backoff_max_s; otherwise
  // base * 2^(retry-1) capped at backoff_max_s, times a jitter factor drawn uniformly from [0.5, 1].
  double delay_s(int retry, std::optional<double> retry_after, std::mt19937_64& rng) const;
};

// Sleeps up to `seconds`, waking early on cancellation; returns false if cancelled.
bool cancellable_sleep(double seconds, const CancelToken& cancel);

// Sliding one-minute window over request starts and token estimates. Thread-safe.
class RateLimiter {
 public:
  RateLimiter(double rpm, double tpm) : rpm_(rpm), tpm_(tpm) {}
  // Blocks until one more request of `tokens` estimated tokens fits the limits; false if cancelled.
  // A single request larger than tpm is let through alone once the window is empty.
  bool acquire(std::int64_t tokens, const CancelToken& cancel);
  // Seconds acquire() would wait now (for tests and progress displays).
  double wait_time(std::int64_t tokens);

 private:
  using Clock = std::chrono::steady_clock;
  void prune(Clock::time_point now);
  double wait_locked(std::int64_t tokens, Clock::time_point now);
  double rpm_, tpm_;
  std::mutex mutex_;
  std::deque<std::pair<Clock::time_point, std::int64_t>> window_;
};

// Requests in flight to one endpoint, adapted to its rate limits (additive increase, multiplicative decrease):
// a throttled answer (HTTP 429) halves the limit (at least 1); every `limit` successful answers in a row raise
// it by one, up to `max`. Thread-safe; one per backend, shared by every caller.
class ConcurrencyLimiter {
 public:
  explicit ConcurrencyLimiter(int max) : max_(std::max(1, max)), limit_(max_) {}
  // Blocks until fewer than `limit` requests are in flight; false if cancelled (nothing acquired).
  bool acquire(const CancelToken& cancel);
  void release();
  void on_throttled();
  void on_success();
  int limit() const;
  int in_flight() const;

 private:
  const int max_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  int limit_, in_flight_ = 0, successes_ = 0;
};

}  // namespace sf::llm
