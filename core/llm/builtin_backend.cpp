#include "core/llm/builtin_backend.hpp"

#include <chrono>
#include <exception>
#include <map>
#include <mutex>

namespace sf::llm {

namespace {
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, ChatProvider>& registry() {
  static std::map<std::string, ChatProvider> r;
  return r;
}
}  // namespace

void register_builtin_provider(const std::string& name, ChatProvider provider) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (provider) registry()[name] = std::move(provider);
  else registry().erase(name);
}

bool has_builtin_provider(const std::string& name) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return registry().count(name) > 0;
}

BuiltinBackend::BuiltinBackend(std::string provider_name) : name_(std::move(provider_name)) {}
BuiltinBackend::BuiltinBackend(ChatProvider provider, std::string name)
    : name_(std::move(name)), provider_(std::move(provider)) {}

ChatResult BuiltinBackend::chat(const ChatRequest& request, const CancelToken& cancel) {
  if (cancel.cancelled()) return ChatResult::failure("cancelled", "request cancelled");
  ChatProvider p = provider_;
  if (!p) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto it = registry().find(name_);
    if (it != registry().end()) p = it->second;
  }
  if (!p) return ChatResult::failure("provider", "builtin provider '" + name_ + "' is not registered");
  auto start = std::chrono::steady_clock::now();
  ChatResult r;
  try {
    r = p(request, cancel);
  } catch (const std::exception& e) {
    return ChatResult::failure("provider", "builtin provider '" + name_ + "' failed: " + e.what());
  }
  if (r.ok()) {
    if (r.response->latency_s == 0.0)
      r.response->latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.response->finish_reason.empty()) r.response->finish_reason = "stop";
  }
  return r;
}

}  // namespace sf::llm
