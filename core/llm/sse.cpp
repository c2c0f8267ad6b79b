#include "core/llm/sse.hpp"

namespace sf::llm {

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  if (!error_.empty()) return out;
  for (char c : bytes) {
    if (c == '\n' && last_cr_) {  // the LF of a CRLF: the line already ended at the CR
      last_cr_ = false;
      continue;
    }
    last_cr_ = c == '\r';
    if (c == '\n' || c == '\r') {
      line(buf_, out);
      buf_.clear();
      continue;
    }
    if (buf_.size() >= max_line_) {
      error_ = "a server-sent event line is longer than " + std::to_string(max_line_) + " bytes";
      return out;
    }
    buf_ += c;
  }
  return out;
}

void SseParser::line(std::string_view l, std::vector<SseEvent>& out) {
  if (l.empty()) {  // dispatch
    if (has_data_) out.push_back(std::move(cur_));
    cur_ = {};
    has_data_ = false;
    return;
  }
  if (l.front() == ':') return;  // comment / keep-alive
  const auto colon = l.find(':');
  std::string_view field = l.substr(0, colon), value;
  if (colon != std::string_view::npos) {
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) cur_.data += '\n';
    cur_.data += value;
    has_data_ = true;
  } else if (field == "event") {
    cur_.event = std::string(value);
  }
}

std::optional<SseEvent> SseParser::finish() {
  if (!buf_.empty()) {
    std::vector<SseEvent> out;
    line(buf_, out);
    buf_.clear();
  }
  if (!has_data_) return std::nullopt;
  has_data_ = false;
  return std::exchange(cur_, {});
}

void enable_streaming(HttpRequest& http, StreamFormat format) {
  auto body = nlohmann::json::parse(http.body, nullptr, false);
  if (!body.is_object()) return;
  body["stream"] = true;
  if (format == StreamFormat::OpenAi) body["stream_options"] = {{"include_usage", true}};
  http.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  http.headers.emplace_back("Accept", "text/event-stream");
}

namespace {

std::int64_t sse_int(const nlohmann::json& o, const char* k) {
  return o.is_object() && o.contains(k) && o[k].is_number_integer() ? o[k].get<std::int64_t>() : 0;
}
std::string sse_str(const nlohmann::json& o, const char* k) {
  return o.is_object() && o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
}

}  // namespace

void StreamAccumulator::deliver(const std::string& text, const std::string& reasoning, bool done) {
  if (!on_delta_) return;
  StreamDelta d;
  d.text = text;
  d.reasoning = reasoning;
  d.done = done;
  const char* out_key = format_ == StreamFormat::OpenAi ? "completion_tokens" : "output_tokens";
  const char* in_key = format_ == StreamFormat::OpenAi ? "prompt_tokens" : "input_tokens";
  d.output_tokens = usage_.contains(out_key)
                        ? sse_int(usage_, out_key)
                        : static_cast<std::int64_t>((text_.size() + reasoning_.size() + 3) / 4);
  d.input_tokens = sse_int(usage_, in_key);
  on_delta_(d);
}

void StreamAccumulator::add(const SseEvent& e) {
  ++events_;
  if (e.data == "[DONE]") {
    finished_ = true;
    return;
  }
  auto j = nlohmann::json::parse(e.data, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return;  // not JSON: ignored (the assembled answer decides)
  if (j.contains("error") && !j["error"].is_null()) {
    error_ = j["error"];
    return;
  }
  if (format_ == StreamFormat::OpenAi) add_openai(j);
  else add_anthropic(j);
}

void StreamAccumulator::add_openai(const nlohmann::json& j) {
  if (j.contains("usage") && j["usage"].is_object()) usage_ = j["usage"];
  std::string text, reasoning;
  if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty() && j["choices"][0].is_object()) {
    const auto& c = j["choices"][0];
    if (auto f = sse_str(c, "finish_reason"); !f.empty()) finish_reason_ = f;
    if (c.contains("delta") && c["delta"].is_object()) {
      const auto& d = c["delta"];
      text = sse_str(d, "content");
      reasoning = sse_str(d, "reasoning_content") + sse_str(d, "reasoning");
      refusal_ += sse_str(d, "refusal");
    }
  }
  text_ += text;
  reasoning_ += reasoning;
  if (!text.empty() || !reasoning.empty() || j.contains("usage")) deliver(text, reasoning, false);
}

void StreamAccumulator::add_anthropic(const nlohmann::json& j) {
  const std::string type = sse_str(j, "type");
  auto merge_usage = [&](const nlohmann::json& u) {
    if (!u.is_object()) return;
    for (auto it = u.begin(); it != u.end(); ++it)
      if (it.value().is_number_integer()) usage_[it.key()] = it.value();
  };
  if (type == "message_start" && j.contains("message") && j["message"].is_object()) {
    if (j["message"].contains("usage")) merge_usage(j["message"]["usage"]);
  } else if (type == "content_block_delta" && j.contains("delta") && j["delta"].is_object()) {
    const auto& d = j["delta"];
    const std::string dt = sse_str(d, "type");
    std::string text, reasoning;
    if (dt == "text_delta") text = sse_str(d, "text");
    else if (dt == "thinking_delta") reasoning = sse_str(d, "thinking");
    text_ += text;
    reasoning_ += reasoning;
    if (!text.empty() || !reasoning.empty()) deliver(text, reasoning, false);
  } else if (type == "message_delta") {
    if (j.contains("delta") && j["delta"].is_object())
      if (auto s = sse_str(j["delta"], "stop_reason"); !s.empty()) finish_reason_ = s;
    if (j.contains("usage")) merge_usage(j["usage"]);
    deliver("", "", false);
  } else if (type == "message_stop") {
    finished_ = true;
  }
}

void StreamAccumulator::close() {
  if (closed_) return;
  closed_ = true;
  deliver("", "", true);
}

std::string StreamAccumulator::assembled_body() const {
  nlohmann::json body;
  if (format_ == StreamFormat::OpenAi) {
    if (!error_.is_null()) return nlohmann::json{{"error", error_}}.dump();
    nlohmann::json msg = {{"role", "assistant"}, {"content", text_}};
    if (!reasoning_.empty()) msg["reasoning_content"] = reasoning_;
    if (!refusal_.empty()) msg["refusal"] = refusal_;
    nlohmann::json choice = {{"index", 0}, {"message", msg}};
    if (!finish_reason_.empty()) choice["finish_reason"] = finish_reason_;
    body = {{"choices", nlohmann::json::array({choice})}};
    if (!usage_.empty()) body["usage"] = usage_;
  } else {
    if (!error_.is_null()) return nlohmann::json{{"type", "error"}, {"error", error_}}.dump();
    nlohmann::json content = nlohmann::json::array();
    if (!reasoning_.empty()) content.push_back({{"type", "thinking"}, {"thinking", reasoning_}});
    if (!text_.empty()) content.push_back({{"type", "text"}, {"text", text_}});
    body = {{"type", "message"}, {"content", content}};
    if (!finish_reason_.empty()) body["stop_reason"] = finish_reason_;
    if (!usage_.empty()) body["usage"] = usage_;
  }
  return body.dump();
}

}  // namespace sf::llm
