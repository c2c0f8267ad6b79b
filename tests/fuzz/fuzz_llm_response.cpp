// libFuzzer: the response JSON of both HTTP backends (OpenAI Chat Completions, Anthropic Messages) and the
// provider error message of a non-2xx body. The first byte picks the backend. Invariants: no crash or hang;
// the result is a response or an error, never both; an error has a kind.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/llm/http_chat_backend.hpp"

namespace {

const sf::llm::OpenAiBackend& openai() {
  static const sf::llm::OpenAiBackend b([] {
    sf::llm::BackendConfig c;
    c.kind = sf::llm::BackendKind::OpenAi;
    c.model = "gpt-test";
    return c;
  }(), "");
  return b;
}

const sf::llm::AnthropicBackend& anthropic() {
  static const sf::llm::AnthropicBackend b([] {
    sf::llm::BackendConfig c;
    c.kind = sf::llm::BackendKind::Anthropic;
    c.base_url = "https://api.anthropic.com";
    c.model = "claude-test";
    return c;
  }(), "");
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const sf::llm::HttpChatBackend& b = (data[0] & 1) ? static_cast<const sf::llm::HttpChatBackend&>(anthropic())
                                                    : static_cast<const sf::llm::HttpChatBackend&>(openai());
  sf::llm::ChatResult r = b.parse_answer(body);
  if (r.ok() == !r.error.kind.empty()) std::abort();
  (void)sf::llm::HttpChatBackend::error_message_of(body);
  return 0;
}
