// OpenAI-compatible Chat Completions (OpenAI, DeepSeek, Together, vLLM, llama.cpp server, Ollama /v1).
#include "core/llm/http_chat_backend.hpp"

#include <nlohmann/json.hpp>

namespace sf::llm {

HttpRequest OpenAiBackend::build_request(const ChatRequest& r) const {
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : r.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  const std::string model = r.model.empty() ? config().model : r.model;
  nlohmann::json body{{"model", model}, {"messages", std::move(msgs)}};
  if (config().effective_send_temperature(model)) body["temperature"] = r.temperature;
  body[config().effective_token_param(model)] = r.max_tokens;
  if (!config().reasoning_effort.empty()) body["reasoning_effort"] = config().reasoning_effort;
  if (r.seed) body["seed"] = *r.seed;
  if (!r.stop.empty()) body["stop"] = r.stop;
  merge_extra_body(body);
  HttpRequest h;
  h.url = base_url() + "/chat/completions";
  h.headers.emplace_back("Content-Type", "application/json");
  if (!api_key().empty()) h.headers.emplace_back("Authorization", "Bearer " + api_key());
  h.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return h;
}

HttpRequest OpenAiBackend::models_request() const {
  HttpRequest h;
  h.method = "GET";
  h.url = base_url() + "/models";
  if (!api_key().empty()) h.headers.emplace_back("Authorization", "Bearer " + api_key());
  return h;
}

ChatResult OpenAiBackend::parse_answer(const std::string& body) const {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return ChatResult::failure("parse", "malformed JSON in the answer (" + std::to_string(body.size()) + " bytes)");
  if (j.contains("error") && !j["error"].is_null())
    return ChatResult::failure("http", "provider error: " + error_message_of(body));
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
    return ChatResult::failure("parse", "the answer has no choices");
  const auto& c = j["choices"][0];
  if (!c.is_object() || !c.contains("message") || !c["message"].is_object())
    return ChatResult::failure("parse", "the first choice has no message");
  const auto& m = c["message"];
  std::string finish = c.contains("finish_reason") && c["finish_reason"].is_string() ? c["finish_reason"].get<std::string>() : "";
  if (m.contains("refusal") && m["refusal"].is_string() && !m["refusal"].get<std::string>().empty())
    return ChatResult::failure("refused", "the model refused: " + m["refusal"].get<std::string>().substr(0, 500));
  if (finish == "content_filter") return ChatResult::failure("refused", "the answer was withheld by a content filter");
  if (!m.contains("content") || !m["content"].is_string())
    return ChatResult::failure("parse", "the first choice has no text content");
  ChatResponse resp;
  resp.text = m["content"].get<std::string>();
  resp.finish_reason = finish;
  if (resp.text.find_first_not_of(" \t\r\n") == std::string::npos)
    return ChatResult::failure("empty-answer", "the model's answer is empty (finish reason: " +
                                                   (finish.empty() ? std::string("none") : finish) + ")");
  for (const char* k : {"reasoning_content", "reasoning"})  // DeepSeek, vLLM / OpenRouter
    if (m.contains(k) && m[k].is_string()) resp.reasoning = m[k].get<std::string>();
  if (j.contains("usage") && j["usage"].is_object()) {
    const auto& u = j["usage"];
    auto num = [](const nlohmann::json& o, const char* k) -> std::int64_t {
      return o.contains(k) && o[k].is_number_integer() ? o[k].get<std::int64_t>() : 0;
    };
    resp.usage.input_tokens = num(u, "prompt_tokens");
    resp.usage.output_tokens = num(u, "completion_tokens");
    if (u.contains("prompt_tokens_details") && u["prompt_tokens_details"].is_object())
      resp.usage.cached_input_tokens = num(u["prompt_tokens_details"], "cached_tokens");
    else if (u.contains("prompt_cache_hit_tokens"))  // DeepSeek
      resp.usage.cached_input_tokens = num(u, "prompt_cache_hit_tokens");
  }
  return ChatResult::success(std::move(resp));
}

}  // namespace sf::llm
