#include "core/agent/agent_types.hpp"

#include <nlohmann/json.hpp>

namespace sf::agent {

std::vector<std::string> PromptInput::experience_ids() const {
  std::vector<std::string> ids;
  ids.reserve(experiences.size());
  for (const auto& e : experiences) ids.push_back(e.id);
  return ids;
}

nlohmann::json to_json(const AdoptionEntry& a) {
  nlohmann::json j;
  j["id"] = a.id;
  if (a.adopted) j["adopted"] = *a.adopted;
  else j["adopted"] = nullptr;
  j["rationale"] = a.rationale;
  j["line"] = a.loc.line;
  j["column"] = a.loc.column;
  return j;
}

nlohmann::json to_json(const TraceEvent& e) {
  nlohmann::json j;
  j["type"] = "agent_call";
  j["role"] = e.role;
  j["task"] = e.task_id;
  j["iteration"] = e.iteration;
  j["round"] = e.round;
  j["sample_index"] = e.sample_index;
  j["model"] = e.model;
  j["temperature"] = e.temperature;
  j["seed"] = e.seed ? nlohmann::json(*e.seed) : nlohmann::json(nullptr);
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : e.prompt) msgs.push_back({{"role", m.role}, {"content", m.content}});
  j["prompt"] = msgs;
  j["prompt_chars"] = prompt_chars(e.prompt);
  j["response"] = e.response;
  j["impl"] = e.impl ? nlohmann::json(*e.impl) : nlohmann::json(nullptr);
  nlohmann::json ad = nlohmann::json::array();
  for (const auto& a : e.adoption) ad.push_back(to_json(a));
  j["adoption"] = ad;
  if (e.rules_used) j["rules_used"] = *e.rules_used;
  j["usage"] = {{"input_tokens", e.usage.input_tokens},
                {"output_tokens", e.usage.output_tokens},
                {"cached_input_tokens", e.usage.cached_input_tokens},
                {"cache_write_input_tokens", e.usage.cache_write_input_tokens}};
  j["cost_usd"] = e.cost_usd ? nlohmann::json(*e.cost_usd) : nlohmann::json(nullptr);
  j["latency_s"] = e.latency_s;
  j["from_cache"] = e.from_cache;
  if (!e.error_kind.empty()) {
    j["error"] = {{"kind", e.error_kind}, {"message", e.error_message}};
    if (e.error_http_status) j["error"]["http_status"] = e.error_http_status;
    if (e.error_attempts) j["error"]["attempts"] = e.error_attempts;
  }
  if (!e.finish_reason.empty()) j["finish_reason"] = e.finish_reason;
  if (!e.reasoning.empty()) j["reasoning"] = e.reasoning;
  nlohmann::json ds = nlohmann::json::array();
  for (const auto& d : e.diagnostics) {
    ds.push_back({{"severity", std::string(severity_name(d.severity))},
                  {"code", d.code},
                  {"message", d.message},
                  {"line", d.loc.line},
                  {"column", d.loc.column}});
  }
  j["diagnostics"] = ds;
  j["pass"] = e.pass ? nlohmann::json(*e.pass) : nlohmann::json(nullptr);
  j["stage"] = e.stage;
  j["code"] = e.code;
  if (!e.guardian_action.empty()) j["guardian_action"] = e.guardian_action;
  if (!e.guardian_diff.empty()) j["guardian_diff"] = e.guardian_diff;
  return j;
}

std::size_t prompt_chars(const std::vector<llm::ChatMessage>& messages) {
  std::size_t n = 0;
  for (const auto& m : messages) n += m.content.size();
  return n;
}

std::int64_t estimate_tokens(std::size_t chars) { return static_cast<std::int64_t>((chars + 3) / 4); }

}  // namespace sf::agent
