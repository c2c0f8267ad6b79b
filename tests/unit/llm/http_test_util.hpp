// The HTTP backend tests' set-up against the loopback server (test_http_backends.cpp,
// test_http_keys_and_limits.cpp, test_sse.cpp): a backend config pointing at the server, the fast retry
// settings, a sample request and the test key.
#pragma once

#include <chrono>

#include "core/llm/backend_config.hpp"
#include "core/llm/chat_types.hpp"
#include "tests/support/loopback_server.hpp"

namespace sf::llm::testing {

inline constexpr const char* kSecret = "sk-test-SECRET-0123456789abcdef";

// `kind` at the loopback server `s`, model "test-model"; the other settings are the defaults.
inline BackendConfig loopback_config(BackendKind kind, const LoopbackServer& s) {
  BackendConfig c;
  c.kind = kind;
  c.base_url = kind == BackendKind::Anthropic ? s.anthropic_base_url() : s.base_url();
  c.model = "test-model";
  return c;
}

// Short timeouts and backoffs, two retries: a failing exchange ends within a second.
inline BackendConfig fast_config(BackendKind kind, const LoopbackServer& s) {
  BackendConfig c = loopback_config(kind, s);
  c.timeout_s = 0.2;
  c.max_retries = 2;
  c.backoff_base_s = 0.01;
  c.backoff_max_s = 0.05;
  return c;
}

inline ChatRequest sample_request() {
  ChatRequest r;
  r.model = "test-model";
  r.messages = {{"system", "MANUAL. Task follows."}, {"user", "write the impl"}};
  r.temperature = 0.5;
  r.max_tokens = 256;
  r.seed = 7;
  r.stop = {"</answer>"};
  return r;
}

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace sf::llm::testing
