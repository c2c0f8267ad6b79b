#include "core/llm/request_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace sf::llm {

RequestPool::RequestPool(ChatBackend& backend, int in_flight) : backend_(backend), in_flight_(std::max(1, in_flight)) {}

std::vector<ChatResult> RequestPool::run(const std::vector<ChatRequest>& requests, const CancelToken& cancel,
                                         const Callback& on_done) {
  std::vector<ChatResult> results(requests.size());
  std::atomic<std::size_t> next{0};
  std::mutex callback_mutex;
  auto worker = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= requests.size()) return;
      ChatResult r;
      if (cancel.cancelled()) {
        r = ChatResult::failure("cancelled", "request cancelled before it started");
      } else {
        try {
          r = backend_.chat(requests[i], cancel);
        } catch (const std::exception& e) {
          r = ChatResult::failure("provider", std::string("backend failed: ") + e.what());
        }
      }
      results[i] = std::move(r);
      if (on_done) {
        std::lock_guard<std::mutex> lock(callback_mutex);
        on_done(i, results[i]);
      }
    }
  };
  std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(in_flight_), requests.size());
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace sf::llm
