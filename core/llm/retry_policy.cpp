#include "core/llm/retry_policy.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

namespace sf::llm {

bool RetryPolicy::retryable_status(long status) {
  return status == 408 || status == 409 || status == 425 || status == 429 || (status >= 500 && status <= 599);
}

double RetryPolicy::delay_s(int retry, std::optional<double> retry_after, std::mt19937_64& rng) const {
  if (retry_after) return std::clamp(*retry_after, 0.0, backoff_max_s);
  double exp = backoff_base_s * std::pow(2.0, std::clamp(retry - 1, 0, 30));
  double capped = std::min(exp, backoff_max_s);
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return capped * jitter(rng);
}

bool cancellable_sleep(double seconds, const CancelToken& cancel) {
  using namespace std::chrono;
  auto end = steady_clock::now() + duration_cast<steady_clock::duration>(duration<double>(std::max(seconds, 0.0)));
  while (steady_clock::now() < end) {
    if (cancel.cancelled()) return false;
    auto left = end - steady_clock::now();
    std::this_thread::sleep_for(std::min<steady_clock::duration>(left, milliseconds(10)));
  }
  return !cancel.cancelled();
}

void RateLimiter::prune(Clock::time_point now) {
  while (!window_.empty() && now - window_.front().first >= std::chrono::seconds(60)) window_.pop_front();
}

double RateLimiter::wait_locked(std::int64_t tokens, Clock::time_point now) {
  prune(now);
  if (window_.empty()) return 0.0;
  auto age_s = [&](std::size_t i) { return std::chrono::duration<double>(now - window_[i].first).count(); };
  double wait = 0.0;
  if (rpm_ > 0.0) {
    auto limit = static_cast<std::size_t>(std::max(1.0, std::floor(rpm_)));
    if (window_.size() >= limit) wait = std::max(wait, 60.0 - age_s(window_.size() - limit));
  }
  if (tpm_ > 0.0) {
    std::int64_t used = 0;
    for (const auto& e : window_) used += e.second;
    // Drop the oldest entries until the new request fits (or the window is empty).
    std::size_t i = 0;
    while (i < window_.size() && static_cast<double>(used + tokens) > tpm_) {
      used -= window_[i].second;
      wait = std::max(wait, 60.0 - age_s(i));
      ++i;
    }
  }
  return std::max(wait, 0.0);
}

double RateLimiter::wait_time(std::int64_t tokens) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (rpm_ <= 0.0 && tpm_ <= 0.0) return 0.0;
  return wait_locked(tokens, Clock::now());
}

bool RateLimiter::acquire(std::int64_t tokens, const CancelToken& cancel) {
  if (rpm_ <= 0.0 && tpm_ <= 0.0) return !cancel.cancelled();
  for (;;) {
    double wait = 0.0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto now = Clock::now();
      wait = wait_locked(tokens, now);
      if (wait <= 0.0) {
        window_.emplace_back(now, tokens);
        return true;
      }
    }
    if (!cancellable_sleep(std::min(wait, 0.25), cancel)) return false;
  }
}

bool ConcurrencyLimiter::acquire(const CancelToken& cancel) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (in_flight_ >= limit_) {
    if (cancel.cancelled()) return false;
    cv_.wait_for(lock, std::chrono::milliseconds(10));
  }
  if (cancel.cancelled()) return false;
  ++in_flight_;
  return true;
}

void ConcurrencyLimiter::release() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    in_flight_ = std::max(0, in_flight_ - 1);
  }
  cv_.notify_all();
}

void ConcurrencyLimiter::on_throttled() {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = std::max(1, limit_ / 2);
  successes_ = 0;
}

void ConcurrencyLimiter::on_success() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (limit_ >= max_) return;
    if (++successes_ >= limit_) {
      ++limit_;
      successes_ = 0;
    }
  }
  cv_.notify_all();
}

int ConcurrencyLimiter::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

int ConcurrencyLimiter::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_flight_;
}

}  // namespace sf::llm
