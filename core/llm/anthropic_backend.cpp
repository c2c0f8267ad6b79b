// Anthropic Messages API (x-api-key, anthropic-version, system prompt, prompt caching breakpoints).
#include "core/llm/http_chat_backend.hpp"

#include <nlohmann/json.hpp>

namespace sf::llm {

namespace {

nlohmann::json text_block(const std::string& text, bool cache) {
  nlohmann::json b{{"type", "text"}, {"text", text}};
  if (cache) b["cache_control"] = {{"type", "ephemeral"}};
  return b;
}

// Splits `text` after `prefix` (non-empty, a prefix of `text`) into [prefix (cacheable), rest]; the whole
// text is cacheable when the prefix equals it.
nlohmann::json cached_blocks(const std::string& text, const std::string& prefix) {
  nlohmann::json blocks = nlohmann::json::array();
  if (prefix.size() >= text.size()) {
    blocks.push_back(text_block(text, true));
  } else {
    blocks.push_back(text_block(prefix, true));
    blocks.push_back(text_block(text.substr(prefix.size()), false));
  }
  return blocks;
}

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

}  // namespace

HttpRequest AnthropicBackend::build_request(const ChatRequest& r) const {
  std::string system;
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : r.messages) {
    if (m.role == "system") {
      if (!system.empty()) system += "\n\n";
      system += m.content;
    } else {
      msgs.push_back({{"role", m.role}, {"content", m.content}});
    }
  }
  const std::string& sys_hint = r.cache_prefix_hint;
  const bool caching = config().prompt_caching;
  const std::string model = r.model.empty() ? config().model : r.model;
  nlohmann::json body{{"model", model}, {"max_tokens", r.max_tokens}};
  if (config().effective_send_temperature(model)) body["temperature"] = r.temperature;
  if (!system.empty()) {
    if (caching && !sys_hint.empty() && starts_with(system, sys_hint))
      body["system"] = cached_blocks(system, sys_hint);  // breakpoint 1: after the manual
    else
      body["system"] = system;
  }
  // The first user message: breakpoint 2 after its static start (the demonstrations); without a system
  // prompt, the system hint marks it instead.
  const std::string& user_hint =
      system.empty() && r.cache_user_prefix_hint.empty() ? sys_hint : r.cache_user_prefix_hint;
  if (caching && !user_hint.empty()) {
    for (auto& m : msgs) {
      if (m["role"] == "user") {
        std::string content = m["content"].get<std::string>();
        if (starts_with(content, user_hint)) m["content"] = cached_blocks(content, user_hint);
        break;
      }
    }
  }
  body["messages"] = std::move(msgs);
  if (!r.stop.empty()) body["stop_sequences"] = r.stop;
  HttpRequest h;
  std::string base = base_url();
  h.url = base + (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0 ? "/messages" : "/v1/messages");
  h.headers.emplace_back("Content-Type", "application/json");
  h.headers.emplace_back("anthropic-version", config().anthropic_version);
  if (!api_key().empty()) h.headers.emplace_back("x-api-key", api_key());
  merge_extra_body(body);
  h.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return h;
}

HttpRequest AnthropicBackend::models_request() const {
  HttpRequest h;
  h.method = "GET";
  std::string base = base_url();
  h.url = base + (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0 ? "/models" : "/v1/models");
  h.headers.emplace_back("anthropic-version", config().anthropic_version);
  if (!api_key().empty()) h.headers.emplace_back("x-api-key", api_key());
  return h;
}

ChatResult AnthropicBackend::parse_answer(const std::string& body) const {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return ChatResult::failure("parse", "malformed JSON in the answer (" + std::to_string(body.size()) + " bytes)");
  if (j.value("type", std::string()) == "error" || (j.contains("error") && !j["error"].is_null()))
    return ChatResult::failure("http", "provider error: " + error_message_of(body));
  std::string stop = j.contains("stop_reason") && j["stop_reason"].is_string() ? j["stop_reason"].get<std::string>() : "";
  std::string text, reasoning;
  bool any_text = false;
  if (j.contains("content") && j["content"].is_array()) {
    for (const auto& b : j["content"]) {
      if (!b.is_object()) continue;
      std::string type = b.value("type", std::string());
      if (type == "text" && b.contains("text") && b["text"].is_string()) {
        text += b["text"].get<std::string>();
        any_text = true;
      } else if (type == "thinking" && b.contains("thinking") && b["thinking"].is_string()) {
        reasoning += b["thinking"].get<std::string>();
      }
    }
  }
  if (stop == "refusal") {
    return ChatResult::failure("refused", "the model refused" + (text.empty() ? std::string() : ": " + text.substr(0, 500)));
  }
  if (!any_text || text.find_first_not_of(" \t\r\n") == std::string::npos)
    return ChatResult::failure("empty-answer", "the model's answer is empty (stop reason: " +
                                                   (stop.empty() ? std::string("none") : stop) + ")");
  ChatResponse resp;
  resp.text = std::move(text);
  resp.reasoning = std::move(reasoning);
  if (stop == "end_turn" || stop == "stop_sequence") resp.finish_reason = "stop";
  else if (stop == "max_tokens") resp.finish_reason = "length";
  else resp.finish_reason = stop;
  if (j.contains("usage") && j["usage"].is_object()) {
    const auto& u = j["usage"];
    auto num = [&](const char* k) -> std::int64_t {
      return u.contains(k) && u[k].is_number_integer() ? u[k].get<std::int64_t>() : 0;
    };
    resp.usage.cached_input_tokens = num("cache_read_input_tokens");
    resp.usage.cache_write_input_tokens = num("cache_creation_input_tokens");
    resp.usage.input_tokens = num("input_tokens") + num("cache_creation_input_tokens") + resp.usage.cached_input_tokens;
    resp.usage.output_tokens = num("output_tokens");
  }
  return ChatResult::success(std::move(resp));
}

}  // namespace sf::llm
