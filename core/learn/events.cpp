#include "core/learn/events.hpp"

#include "core/agent/proposer.hpp"
#include "core/learn/verdict_words.hpp"

namespace sf::learn {

using nlohmann::json;

void add_usage(UsageByRole& into, const std::string& role, const RoleUsage& u) {
  for (auto& [r, v] : into) {
    if (r == role) {
      v.add(u);
      return;
    }
  }
  into.emplace_back(role, u);
}

json usage_to_json(const UsageByRole& u) {
  json j = json::object();
  for (const auto& [role, v] : u)
    j[role] = {{"input_tokens", v.input_tokens},
               {"output_tokens", v.output_tokens},
               {"calls", v.calls},
               {"cost_usd", v.cost_usd}};
  return j;
}

UsageByRole usage_from_json(const json& j) {
  UsageByRole out;
  if (!j.is_object()) return out;
  for (const auto& [role, v] : j.items()) {
    RoleUsage u;
    u.input_tokens = v.value("input_tokens", std::int64_t{0});
    u.output_tokens = v.value("output_tokens", std::int64_t{0});
    u.calls = v.value("calls", std::int64_t{0});
    u.cost_usd = v.value("cost_usd", 0.0);
    out.emplace_back(role, u);
  }
  return out;
}

namespace {

struct TypeName {
  std::string operator()(const CampaignStarted&) const { return "campaign_started"; }
  std::string operator()(const IterationStarted&) const { return "iteration_started"; }
  std::string operator()(const LlmCall&) const { return "llm_call"; }
  std::string operator()(const Verdict&) const { return "verdict"; }
  std::string operator()(const IterationSummary&) const { return "iteration_summary"; }
  std::string operator()(const StratificationEvent&) const { return "stratification"; }
  std::string operator()(const CampaignFinished&) const { return "campaign_finished"; }
  std::string operator()(const GenericEvent& g) const { return g.type; }
};

json task_result_json(const TaskResult& r) {
  json j = {{"task", r.task}, {"c", r.c}, {"c_by_temperature", r.c_by_temperature}, {"newly_solved", r.newly_solved}};
  if (r.newly_solved) {
    j["best"] = {{"temperature_index", r.best_temperature_index},
                 {"sample_index", r.best_sample_index},
                 {"program_length", r.best_length},
                 {"groups", r.groups},
                 {"canonical_key", r.best_key},
                 {"impl", r.best_impl}};
    if (r.best_cycles) j["best"]["cycles"] = *r.best_cycles;
  }
  return j;
}

TaskResult task_result_from(const json& j) {
  TaskResult r;
  r.task = j.at("task").get<std::string>();
  r.c = j.at("c").get<int>();
  r.c_by_temperature = j.at("c_by_temperature").get<std::vector<int>>();
  r.newly_solved = j.at("newly_solved").get<bool>();
  if (r.newly_solved) {
    const json& b = j.at("best");
    r.best_temperature_index = b.at("temperature_index").get<int>();
    r.best_sample_index = b.at("sample_index").get<int>();
    r.best_length = b.at("program_length").get<int>();
    r.groups = b.at("groups").get<int>();
    r.best_key = b.at("canonical_key").get<std::string>();
    r.best_impl = b.at("impl").get<std::string>();
    if (auto it = b.find("cycles"); it != b.end() && it->is_number_integer()) r.best_cycles = it->get<std::int64_t>();
  }
  return r;
}

struct ToJson {
  json& j;
  void operator()(const CampaignStarted& e) const {
    j["config"] = e.config;
    json tasks = json::array();
    for (const auto& t : e.tasks) tasks.push_back({{"id", t.id}, {"group", t.group}, {"tag", t.tag}});
    j["tasks"] = tasks;
  }
  void operator()(const IterationStarted& e) const {
    j["iteration"] = e.iteration;
    j["step"] = e.step;
    j["steps"] = e.steps;
    j["demos"] = e.demos;
    j["temperatures"] = e.temperatures;
    j["tasks"] = e.tasks;
    j["n"] = e.n;
  }
  void operator()(const LlmCall& e) const {
    j["iteration"] = e.iteration;
    j["task"] = e.task;
    j["temperature_index"] = e.temperature_index;
    j["sample_index"] = e.sample_index;
    j["trace"] = e.trace;
  }
  void operator()(const Verdict& e) const {
    j["iteration"] = e.iteration;
    j["task"] = e.task;
    j["temperature_index"] = e.temperature_index;
    j["temperature"] = e.temperature;
    j["sample_index"] = e.sample_index;
    j["seed"] = e.seed;
    j["pass"] = e.pass;
    j["stage"] = e.stage;
    j["code"] = e.code;
    j["canonical_key"] = e.canonical_key;
    j["program_length"] = e.program_length;
    j["impl"] = e.impl;
    j["error"] = e.error;
    j["usage"] = usage_to_json(e.usage);
    if (e.cycles) j["cycles"] = *e.cycles;
    if (e.speedup) j["speedup"] = *e.speedup;
    if (e.feasible) j["feasible"] = *e.feasible;
  }
  void operator()(const IterationSummary& e) const {
    j["iteration"] = e.iteration;
    j["step"] = e.step;
    json rs = json::array();
    for (const auto& r : e.results) rs.push_back(task_result_json(r));
    j["results"] = rs;
    j["newly_solved"] = e.newly_solved;
    j["metrics"] = e.metrics;
    j["wall_s"] = e.wall_s;
  }
  void operator()(const StratificationEvent& e) const {
    j["iteration"] = e.iteration;
    j["levels"] = e.levels;
    j["thresholds"] = e.thresholds;
  }
  void operator()(const CampaignFinished& e) const {
    j["reason"] = e.reason;
    j["iterations"] = e.iterations;
    j["tasks"] = e.tasks;
    j["solved"] = e.solved;
  }
  void operator()(const GenericEvent& e) const {
    if (e.body.is_object())
      for (const auto& [k, v] : e.body.items())
        if (k != "v" && k != "seq" && k != "t" && k != "type") j[k] = v;
  }
};

EventBody body_from(const std::string& type, const json& j) {
  if (type == "campaign_started") {
    CampaignStarted e;
    e.config = j.at("config");
    for (const auto& t : j.at("tasks"))
      e.tasks.push_back({t.at("id").get<std::string>(), t.at("group").get<std::string>(), t.at("tag").get<std::string>()});
    return e;
  }
  if (type == "iteration_started") {
    IterationStarted e;
    e.iteration = j.at("iteration").get<int>();
    e.step = j.at("step").get<int>();
    e.steps = j.at("steps").get<int>();
    e.demos = j.at("demos").get<std::vector<std::string>>();
    e.temperatures = j.at("temperatures").get<std::vector<double>>();
    e.tasks = j.at("tasks").get<std::vector<std::string>>();
    e.n = j.at("n").get<int>();
    return e;
  }
  if (type == "llm_call") {
    LlmCall e;
    e.iteration = j.at("iteration").get<int>();
    e.task = j.at("task").get<std::string>();
    e.temperature_index = j.at("temperature_index").get<int>();
    e.sample_index = j.at("sample_index").get<int>();
    e.trace = j.at("trace");
    return e;
  }
  if (type == "verdict") {
    Verdict e;
    e.iteration = j.at("iteration").get<int>();
    e.task = j.at("task").get<std::string>();
    e.temperature_index = j.at("temperature_index").get<int>();
    e.temperature = j.at("temperature").get<double>();
    e.sample_index = j.at("sample_index").get<int>();
    e.seed = j.at("seed").get<std::uint64_t>();
    e.pass = j.at("pass").get<bool>();
    e.stage = j.at("stage").get<std::string>();
    e.code = j.at("code").get<std::string>();
    e.canonical_key = j.at("canonical_key").get<std::string>();
    e.program_length = j.at("program_length").get<int>();
    e.impl = j.at("impl").get<std::string>();
    e.error = j.at("error").get<std::string>();
    e.usage = usage_from_json(j.at("usage"));
    if (auto it = j.find("cycles"); it != j.end() && !it->is_null()) e.cycles = it->get<std::int64_t>();
    if (auto it = j.find("speedup"); it != j.end() && !it->is_null()) e.speedup = it->get<double>();
    if (auto it = j.find("feasible"); it != j.end() && !it->is_null()) e.feasible = it->get<bool>();
    return e;
  }
  if (type == "iteration_summary") {
    IterationSummary e;
    e.iteration = j.at("iteration").get<int>();
    e.step = j.at("step").get<int>();
    for (const auto& r : j.at("results")) e.results.push_back(task_result_from(r));
    e.newly_solved = j.at("newly_solved").get<int>();
    e.metrics = j.at("metrics");
    e.wall_s = j.at("wall_s").get<double>();
    return e;
  }
  if (type == "stratification") {
    StratificationEvent e;
    e.iteration = j.at("iteration").get<int>();
    e.levels = j.at("levels").get<std::vector<std::vector<std::string>>>();
    e.thresholds = j.at("thresholds").get<std::vector<int>>();
    return e;
  }
  if (type == "campaign_finished") {
    CampaignFinished e;
    e.reason = j.at("reason").get<std::string>();
    e.iterations = j.at("iterations").get<int>();
    e.tasks = j.at("tasks").get<int>();
    e.solved = j.at("solved").get<int>();
    return e;
  }
  GenericEvent g;
  g.type = type;
  g.body = json::object();
  for (const auto& [k, v] : j.items())
    if (k != "v" && k != "seq" && k != "t" && k != "type") g.body[k] = v;
  return g;
}

}  // namespace

std::string verdict_word(bool pass, const std::string& stage, const std::string& code) {
  if (pass) return "pass";
  if (code == agent::kNoProgramCode) return "no program";
  // The answer parser's codes (docs/llm.md): an answer without a usable program.
  if (code == "P-NO-IMPL" || code == "P-EMPTY-IMPL" || code.rfind("P-ADOPTION", 0) == 0 || code == "L-RESPONSE-SIZE")
    return "no impl";
  static const std::pair<const char*, const char*> kWords[] = {
      {"llm", "LLM error"},        {"internal", "internal error"}, {"document", "task error"},
      {"parse", "syntax error"},   {"name", "name error"},         {"affine", "affine error"},
      {"type", "type error"},      {"output", "wrong shape"},      {"shape", "wrong shape"},
      {"runtime", "runtime error"}, {"limit", "over limit"},       {"numeric", "wrong output"},
      {"task", "task error"},      {"io", "I/O error"},            {"cost", "infeasible"}};
  for (const auto& [s, w] : kWords)
    if (stage == s) return w;
  return "fail";
}

std::string event_type(const EventBody& b) { return std::visit(TypeName{}, b); }

json to_json(const Event& e) {
  json j = {{"v", e.v}, {"seq", e.seq}, {"t", e.t}, {"type", event_type(e.body)}};
  std::visit(ToJson{j}, e.body);
  return j;
}

std::optional<Event> event_from_json(const json& j, std::string& error) {
  try {
    if (!j.is_object()) {
      error = "an event must be a JSON object";
      return std::nullopt;
    }
    Event e;
    e.v = j.at("v").get<int>();
    e.seq = j.value("seq", std::int64_t{0});
    e.t = j.value("t", 0.0);
    std::string type = j.at("type").get<std::string>();
    e.body = body_from(type, j);
    return e;
  } catch (const json::exception& ex) {
    error = std::string("malformed event: ") + ex.what();
    return std::nullopt;
  }
}

}  // namespace sf::learn
