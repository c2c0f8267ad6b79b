// BuiltinBackend: the seam for the offline synthesizer. It delegates to a provider function, given
// directly or registered by name (core/synth registers "synth"); no network, no key.
#pragma once

#include "core/llm/chat_backend.hpp"

#include <functional>
#include <string>

namespace sf::llm {

using ChatProvider = std::function<ChatResult(const ChatRequest&, const CancelToken&)>;

// The finish reason of a provider's answer when its search found no program within its budget (the built-in
// synthesizer): the answer is an explanation, not a model's failed attempt, so the proposer's verdict is
// `no-program`, not the parse failure P-NO-IMPL (issue 21).
inline constexpr const char* kFinishNoProgram = "no-program";

// Registers (or replaces, or with an empty function removes) a named provider. Thread-safe.
void register_builtin_provider(const std::string& name, ChatProvider provider);
bool has_builtin_provider(const std::string& name);

class BuiltinBackend : public ChatBackend {
 public:
  explicit BuiltinBackend(std::string provider_name);  // resolved at each call
  explicit BuiltinBackend(ChatProvider provider, std::string name = "custom");
  ChatResult chat(const ChatRequest& request, const CancelToken& cancel) override;
  std::string identity() const override { return "builtin " + name_; }

 private:
  std::string name_;
  ChatProvider provider_;
};

}  // namespace sf::llm
