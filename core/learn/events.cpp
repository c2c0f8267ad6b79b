#include "core/learn/events.hpp"

#include "core/agent/proposer.hpp"
#include "core/learn/verdict_words.hpp"
#include "core/store/json_fields.hpp"

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
  std::string operator()(const EpisodeStarted&) const { return "episode_started"; }
  std::string operator()(const AdoptionRecord&) const { return "adoption_record"; }
  std::string operator()(const EpisodeFinished&) const { return "episode_finished"; }
  std::string operator()(const ExperienceAdded&) const { return "experience_added"; }
  std::string operator()(const CreditEvent&) const { return "credit"; }
  std::string operator()(const AccessUpdate&) const { return "access_update"; }
  std::string operator()(const Consolidation&) const { return "consolidation"; }
  std::string operator()(const ConsolidationRollback&) const { return "consolidation_rollback"; }
  std::string operator()(const AuditLabel&) const { return "audit_label"; }
  std::string operator()(const Warning&) const { return "warning"; }
  std::string operator()(const CampaignPaused&) const { return "campaign_paused"; }
  std::string operator()(const InteractiveRound&) const { return "interactive_round"; }
  std::string operator()(const InteractiveDecision&) const { return "interactive_decision"; }
  std::string operator()(const UnknownEvent& g) const { return g.type; }
};

json item_changes_json(const std::vector<ItemChange>& v) {
  json a = json::array();
  for (const auto& c : v) a.push_back({{"item", c.item}, {"value", c.value}, {"tokens", c.tokens}});
  return a;
}

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
  void operator()(const EpisodeStarted& e) const {
    j["episode"] = e.episode;
    j["task"] = e.task;
    j["max_rounds"] = e.max_rounds;
    if (e.interactive) {
      j["interactive"] = true;
      j["action"] = e.action;
    }
  }
  void operator()(const EpisodeFinished& e) const {
    j["episode"] = e.episode;
    j["task"] = e.task;
    j["score"] = e.score;
    j["rounds"] = e.rounds;
    j["first_correct_round"] = e.first_correct_round;
    j["solved"] = e.solved;
  }
  void operator()(const CreditEvent& e) const {
    j["episode"] = e.episode;
    j["item"] = e.item;
    j["adopted"] = e.adopted;
    j["credit"] = e.credit;
    j["eta"] = e.eta;
    j["utility_before"] = e.utility_before;
    j["utility_after"] = e.utility_after;
    if (e.n_updates) j["n_updates"] = *e.n_updates;
  }
  void operator()(const AccessUpdate& e) const {
    j["episode"] = e.episode;
    j["item"] = e.item;
    j["used"] = e.used;
    j["access_before"] = e.access_before;
    j["access_after"] = e.access_after;
  }
  void operator()(const Consolidation& e) const {
    j["episode"] = e.episode;
    j["validated"] = item_changes_json(e.validated);
    j["promoted"] = item_changes_json(e.promoted);
    j["demoted"] = item_changes_json(e.demoted);
    j["abstraction_failed"] = e.abstraction_failed;
    j["hot_tokens"] = e.hot_tokens;
    j["budget"] = e.budget;
  }
  void operator()(const ConsolidationRollback& e) const {
    j["episode"] = e.episode;
    j["hot_tokens_before"] = e.hot_tokens_before;
    j["hot_tokens_after"] = e.hot_tokens_after;
    j["lost_adopted"] = e.lost_adopted;
  }
  void operator()(const Warning& e) const {
    j["kind"] = e.kind;
    j["task"] = e.task;
    j["iteration"] = e.iteration;
    j["sample_index"] = e.sample_index;
    j["message"] = e.message;
  }
  void operator()(const CampaignPaused& e) const {
    j["kind"] = e.kind;
    j["message"] = e.message;
  }
  void operator()(const InteractiveRound& e) const {
    j["round"] = e.round;
    j["task"] = e.task;
    j["action"] = e.action;
    j["instruction"] = e.instruction;
    j["program"] = e.program;
    j["feedback"] = e.feedback;
    j["proposal"] = e.proposal;
    j["impl"] = e.impl;
    j["pass"] = e.pass;
    j["error"] = e.error;
    j["elapsed_s"] = e.elapsed_s;
    if (e.guardian_action) j["guardian_action"] = *e.guardian_action;
    if (e.guardian_diff) j["guardian_diff"] = *e.guardian_diff;
    if (e.cycles) j["cycles"] = *e.cycles;
    if (e.speedup) j["speedup"] = *e.speedup;
  }
  void operator()(const InteractiveDecision& e) const {
    j["round"] = e.round;
    j["task"] = e.task;
    j["decision"] = e.decision;
  }
  // The audit kinds' field sets are core/store's (one encoder for the log and audit.json).
  void operator()(const AdoptionRecord& e) const { j.update(store::to_json(e)); }
  void operator()(const ExperienceAdded& e) const { j.update(store::to_json(e)); }
  void operator()(const AuditLabel& e) const { j.update(store::to_json(e)); }
  void operator()(const UnknownEvent& e) const {
    if (e.body.is_object())
      for (const auto& [k, v] : e.body.items())
        if (k != "v" && k != "seq" && k != "t" && k != "type") j[k] = v;
  }
};

// Decoders of the sage, memory and run-control kinds. The identity fields (episode, task, item, round) are
// required; the others may be absent (defaults, as older logs and every earlier reader took them) but never
// of the wrong type. Errors are "FIELD: ...".
namespace jf = store::json_fields;

bool opt_num(const json& j, const char* k, double& out, std::string& err) {
  return jf::opt(jf::get_num, j, k, out, err);
}
bool opt_int(const json& j, const char* k, int& out, std::string& err) {
  return jf::opt(jf::get_signed<int>, j, k, out, err);
}
bool opt_i64(const json& j, const char* k, std::int64_t& out, std::string& err) {
  return jf::opt(jf::get_signed<std::int64_t>, j, k, out, err);
}
bool opt_bool(const json& j, const char* k, bool& out, std::string& err) { return jf::opt(jf::get_bool, j, k, out, err); }
bool opt_str(const json& j, const char* k, std::string& out, std::string& err) {
  return jf::opt(jf::get_str, j, k, out, err);
}
bool opt_strs(const json& j, const char* k, std::vector<std::string>& out, std::string& err) {
  auto it = j.find(k);
  if (it == j.end()) return true;
  if (!it->is_array()) return err = std::string(k) + ": expected an array", false;
  for (const auto& s : *it) {
    if (!s.is_string()) return err = std::string(k) + ": expected strings", false;
    out.push_back(s.get<std::string>());
  }
  return true;
}
bool opt_changes(const json& j, const char* k, std::vector<ItemChange>& out, std::string& err) {
  auto it = j.find(k);
  if (it == j.end()) return true;
  if (!it->is_array()) return err = std::string(k) + ": expected an array", false;
  for (const auto& c : *it) {
    ItemChange ic;
    if (!c.is_object() || !jf::get_str(c, "item", ic.item, err) || !opt_num(c, "value", ic.value, err) ||
        !opt_int(c, "tokens", ic.tokens, err))
      return err = std::string(k) + ": " + (c.is_object() ? err : "expected objects"), false;
    out.push_back(std::move(ic));
  }
  return true;
}
bool opt_opt_int(const json& j, const char* k, std::optional<int>& out, std::string& err) {
  if (!j.contains(k)) return true;
  int v = 0;
  if (!jf::get_signed(j, k, v, err)) return false;
  out = v;
  return true;
}
bool opt_opt_str(const json& j, const char* k, std::optional<std::string>& out, std::string& err) {
  if (!j.contains(k)) return true;
  std::string s;
  if (!jf::get_str(j, k, s, err)) return false;
  out = std::move(s);
  return true;
}

// nullopt with `err` when a field is missing or of the wrong type; UnknownEvent for a kind not listed.
std::optional<EventBody> memory_body_from(const std::string& type, const json& j, std::string& err) {
  auto episode = [&](int& ep) { return jf::get_signed(j, "episode", ep, err); };
  if (type == "episode_started") {
    EpisodeStarted e;
    if (!episode(e.episode) || !jf::get_str(j, "task", e.task, err) || !jf::get_signed(j, "max_rounds", e.max_rounds, err) ||
        !opt_bool(j, "interactive", e.interactive, err) || !opt_str(j, "action", e.action, err))
      return std::nullopt;
    return e;
  }
  if (type == "episode_finished") {
    EpisodeFinished e;
    if (!episode(e.episode) || !opt_str(j, "task", e.task, err) || !opt_num(j, "score", e.score, err) ||
        !opt_int(j, "rounds", e.rounds, err) || !opt_int(j, "first_correct_round", e.first_correct_round, err) ||
        !opt_bool(j, "solved", e.solved, err))
      return std::nullopt;
    return e;
  }
  if (type == "credit") {
    CreditEvent e;
    if (!episode(e.episode) || !jf::get_str(j, "item", e.item, err) || !opt_bool(j, "adopted", e.adopted, err) ||
        !opt_num(j, "credit", e.credit, err) || !opt_num(j, "eta", e.eta, err) ||
        !opt_num(j, "utility_before", e.utility_before, err) || !opt_num(j, "utility_after", e.utility_after, err) ||
        !opt_opt_int(j, "n_updates", e.n_updates, err))
      return std::nullopt;
    return e;
  }
  if (type == "access_update") {
    AccessUpdate e;
    if (!episode(e.episode) || !jf::get_str(j, "item", e.item, err) || !opt_bool(j, "used", e.used, err) ||
        !opt_num(j, "access_before", e.access_before, err) || !opt_num(j, "access_after", e.access_after, err))
      return std::nullopt;
    return e;
  }
  if (type == "consolidation") {
    Consolidation e;
    if (!episode(e.episode) || !opt_changes(j, "validated", e.validated, err) ||
        !opt_changes(j, "promoted", e.promoted, err) || !opt_changes(j, "demoted", e.demoted, err) ||
        !opt_strs(j, "abstraction_failed", e.abstraction_failed, err) || !opt_int(j, "hot_tokens", e.hot_tokens, err) ||
        !opt_int(j, "budget", e.budget, err))
      return std::nullopt;
    return e;
  }
  if (type == "consolidation_rollback") {
    ConsolidationRollback e;
    if (!episode(e.episode) || !opt_i64(j, "hot_tokens_before", e.hot_tokens_before, err) ||
        !opt_i64(j, "hot_tokens_after", e.hot_tokens_after, err) || !opt_strs(j, "lost_adopted", e.lost_adopted, err))
      return std::nullopt;
    return e;
  }
  if (type == "adoption_record") {
    auto a = store::adoption_entry_from_json(j, err);
    if (!a) return std::nullopt;
    return EventBody{std::move(*a)};
  }
  if (type == "experience_added") {
    auto x = store::experience_entry_from_json(j, err);
    if (!x) return std::nullopt;
    return EventBody{std::move(*x)};
  }
  if (type == "audit_label") {
    auto l = store::audit_label_from_json(j, err);
    if (!l) return std::nullopt;
    return EventBody{std::move(*l)};
  }
  if (type == "warning") {
    Warning e;
    if (!opt_str(j, "kind", e.kind, err) || !opt_str(j, "task", e.task, err) ||
        !opt_int(j, "iteration", e.iteration, err) || !opt_int(j, "sample_index", e.sample_index, err) ||
        !opt_str(j, "message", e.message, err))
      return std::nullopt;
    return e;
  }
  if (type == "campaign_paused") {
    CampaignPaused e;
    if (!opt_str(j, "kind", e.kind, err) || !opt_str(j, "message", e.message, err)) return std::nullopt;
    return e;
  }
  if (type == "interactive_round") {
    InteractiveRound e;
    if (!jf::get_signed(j, "round", e.round, err) || !jf::get_str(j, "task", e.task, err) ||
        !opt_str(j, "action", e.action, err) || !opt_str(j, "instruction", e.instruction, err) ||
        !opt_str(j, "program", e.program, err) || !opt_str(j, "feedback", e.feedback, err) ||
        !opt_str(j, "proposal", e.proposal, err) || !opt_str(j, "impl", e.impl, err) ||
        !opt_bool(j, "pass", e.pass, err) || !opt_str(j, "error", e.error, err) ||
        !opt_num(j, "elapsed_s", e.elapsed_s, err) || !opt_opt_str(j, "guardian_action", e.guardian_action, err) ||
        !opt_opt_str(j, "guardian_diff", e.guardian_diff, err))
      return std::nullopt;
    if (auto it = j.find("cycles"); it != j.end() && it->is_number_integer()) e.cycles = it->get<std::int64_t>();
    if (auto it = j.find("speedup"); it != j.end() && it->is_number()) e.speedup = it->get<double>();
    return e;
  }
  if (type == "interactive_decision") {
    InteractiveDecision e;
    if (!jf::get_signed(j, "round", e.round, err) || !jf::get_str(j, "task", e.task, err) ||
        !jf::get_str(j, "decision", e.decision, err))
      return std::nullopt;
    return e;
  }
  UnknownEvent g;
  g.type = type;
  g.body = json::object();
  for (const auto& [k, v] : j.items())
    if (k != "v" && k != "seq" && k != "t" && k != "type") g.body[k] = v;
  return g;
}

std::optional<EventBody> body_from(const std::string& type, const json& j, std::string& err) {
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
  return memory_body_from(type, j, err);
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
    std::string err;
    auto body = body_from(type, j, err);
    if (!body) {
      error = "malformed " + type + " event: " + err;
      return std::nullopt;
    }
    e.body = std::move(*body);
    return e;
  } catch (const json::exception& ex) {
    error = std::string("malformed event: ") + ex.what();
    return std::nullopt;
  }
}

}  // namespace sf::learn
