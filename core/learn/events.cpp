#include "core/learn/events.hpp"

#include "core/agent/proposer.hpp"
#include "core/learn/verdict_words.hpp"
#include "core/store/event_log.hpp"
#include "core/store/json_fields.hpp"

#include <stdexcept>

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

// The adaptive kinds: the sample, iteration or task an event is about is required; every other field may be
// absent or null (its default), as hand-written logs and the GUI's earlier readers took them.
template <class T, class Reader>
bool lax(Reader read, const json& j, const char* k, T& out, std::string& err) {
  auto it = j.find(k);
  return it == j.end() || it->is_null() || read(j, k, out, err);
}
template <class T>
bool lax_list(const json& j, const char* k, std::vector<T>& out, std::string& err) {
  auto it = j.find(k);
  if (it == j.end() || it->is_null()) return true;
  try {
    out = it->get<std::vector<T>>();
    return true;
  } catch (const json::exception&) {
    return err = std::string(k) + ": expected a list", false;
  }
}
bool lax_json(const json& j, const char* k, json& out) {
  auto it = j.find(k);
  if (it != j.end() && !it->is_null()) out = *it;
  return true;
}
bool lax_str(const json& j, const char* k, std::string& out, std::string& err) { return lax(jf::get_str, j, k, out, err); }
bool lax_int(const json& j, const char* k, int& out, std::string& err) {
  return lax(jf::get_signed<int>, j, k, out, err);
}
bool lax_num(const json& j, const char* k, double& out, std::string& err) { return lax(jf::get_num, j, k, out, err); }
bool lax_bool(const json& j, const char* k, bool& out, std::string& err) { return lax(jf::get_bool, j, k, out, err); }

bool get_seed(const json& j, const char* k, std::uint64_t& out, std::string& err) {
  const json& v = j.at(k);
  if (!v.is_number_integer()) return err = std::string(k) + ": expected an integer", false;
  out = v.get<std::uint64_t>();
  return true;
}

// iteration, task, temperature_index, sample_index: the sample an llm_call or a verdict belongs to.
template <class E>
bool sample_of(const json& j, E& e, std::string& err) {
  return jf::get_signed(j, "iteration", e.iteration, err) && jf::get_str(j, "task", e.task, err) &&
         jf::get_signed(j, "temperature_index", e.temperature_index, err) &&
         jf::get_signed(j, "sample_index", e.sample_index, err);
}

std::optional<TaskResult> task_result_from(const json& j, std::string& err) {
  TaskResult r;
  if (!j.is_object()) return err = "results: expected objects", std::nullopt;
  if (!jf::get_str(j, "task", r.task, err) || !lax_int(j, "c", r.c, err) ||
      !lax_list(j, "c_by_temperature", r.c_by_temperature, err) || !lax_bool(j, "newly_solved", r.newly_solved, err))
    return std::nullopt;
  auto b = j.find("best");
  if (r.newly_solved && b != j.end() && b->is_object()) {
    if (!lax_int(*b, "temperature_index", r.best_temperature_index, err) ||
        !lax_int(*b, "sample_index", r.best_sample_index, err) || !lax_int(*b, "program_length", r.best_length, err) ||
        !lax_int(*b, "groups", r.groups, err) || !lax_str(*b, "canonical_key", r.best_key, err) ||
        !lax_str(*b, "impl", r.best_impl, err))
      return std::nullopt;
    if (auto c = b->find("cycles"); c != b->end() && c->is_number_integer()) r.best_cycles = c->get<std::int64_t>();
  }
  return r;
}

std::optional<EventBody> body_from(const std::string& type, const json& j, std::string& err) {
  if (type == "campaign_started") {
    CampaignStarted e;
    lax_json(j, "config", e.config);
    if (auto ts = j.find("tasks"); ts != j.end() && ts->is_array())
      for (const auto& t : *ts) {
        if (!t.is_object()) continue;
        TaskInfo ti;
        if (!lax_str(t, "id", ti.id, err) || !lax_str(t, "group", ti.group, err) || !lax_str(t, "tag", ti.tag, err))
          return err = "tasks: " + err, std::nullopt;
        e.tasks.push_back(std::move(ti));
      }
    return e;
  }
  if (type == "iteration_started") {
    IterationStarted e;
    if (!jf::get_signed(j, "iteration", e.iteration, err) || !lax_int(j, "step", e.step, err) ||
        !lax_int(j, "steps", e.steps, err) || !lax_list(j, "demos", e.demos, err) ||
        !lax_list(j, "temperatures", e.temperatures, err) || !lax_list(j, "tasks", e.tasks, err) ||
        !lax_int(j, "n", e.n, err))
      return std::nullopt;
    return e;
  }
  if (type == "llm_call") {
    LlmCall e;
    if (!sample_of(j, e, err)) return std::nullopt;
    lax_json(j, "trace", e.trace);
    return e;
  }
  if (type == "verdict") {
    Verdict e;
    if (!sample_of(j, e, err) || !lax_num(j, "temperature", e.temperature, err) ||
        !lax(get_seed, j, "seed", e.seed, err) || !lax_bool(j, "pass", e.pass, err) ||
        !lax_str(j, "stage", e.stage, err) || !lax_str(j, "code", e.code, err) ||
        !lax_str(j, "canonical_key", e.canonical_key, err) || !lax_int(j, "program_length", e.program_length, err) ||
        !lax_str(j, "impl", e.impl, err) || !lax_str(j, "error", e.error, err))
      return std::nullopt;
    if (auto it = j.find("usage"); it != j.end()) e.usage = usage_from_json(*it);
    // The cost model's fields (docs/learn.md "Cost"): of another type they read as absent.
    if (auto it = j.find("cycles"); it != j.end() && it->is_number()) e.cycles = it->get<std::int64_t>();
    if (auto it = j.find("speedup"); it != j.end() && it->is_number()) e.speedup = it->get<double>();
    if (auto it = j.find("feasible"); it != j.end() && it->is_boolean()) e.feasible = it->get<bool>();
    return e;
  }
  if (type == "iteration_summary") {
    IterationSummary e;
    if (!jf::get_signed(j, "iteration", e.iteration, err) || !lax_int(j, "step", e.step, err) ||
        !lax_int(j, "newly_solved", e.newly_solved, err) || !lax_num(j, "wall_s", e.wall_s, err))
      return std::nullopt;
    if (auto rs = j.find("results"); rs != j.end() && !rs->is_null()) {
      if (!rs->is_array()) return err = "results: expected an array", std::nullopt;
      for (const auto& r : *rs) {
        auto tr = task_result_from(r, err);
        if (!tr) return std::nullopt;
        e.results.push_back(std::move(*tr));
      }
    }
    lax_json(j, "metrics", e.metrics);
    return e;
  }
  if (type == "stratification") {
    StratificationEvent e;
    if (!jf::get_signed(j, "iteration", e.iteration, err) || !lax_list(j, "levels", e.levels, err) ||
        !lax_list(j, "thresholds", e.thresholds, err))
      return std::nullopt;
    return e;
  }
  if (type == "campaign_finished") {
    CampaignFinished e;
    if (!lax_str(j, "reason", e.reason, err) || !lax_int(j, "iterations", e.iterations, err) ||
        !lax_int(j, "tasks", e.tasks, err) || !lax_int(j, "solved", e.solved, err))
      return std::nullopt;
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
    e.v = j.value("v", kEventVersion);
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

std::vector<Event> decode_events(const std::vector<json>& envelopes, std::int64_t* malformed) {
  std::vector<Event> out;
  out.reserve(envelopes.size());
  std::string err;
  for (const auto& j : envelopes) {
    if (auto e = event_from_json(j, err)) out.push_back(std::move(*e));
    else if (malformed) ++*malformed;
  }
  return out;
}

bool read_events(const std::filesystem::path& file, std::vector<Event>& out, std::int64_t& malformed,
                 std::string& error) {
  store::LoadedLog log;
  if (!store::read_event_log(file, log, error)) return false;
  malformed = 0;
  out = decode_events(log.events, &malformed);
  return true;
}

namespace {

// The views' readers (as the trace pane always read a call): absent or null is the default, a value of
// another type throws ViewFieldError (the call or summary is malformed); sub() of a non-object is empty.
struct ViewFieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string view_str(const json& j, const char* k) {
  auto it = j.find(k);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw ViewFieldError(std::string(k) + ": expected a string");
  return it->get<std::string>();
}

template <class T>
T view_num(const json& j, const char* k) {
  auto it = j.find(k);
  if (it == j.end() || it->is_null()) return T{};
  if (!it->is_number()) throw ViewFieldError(std::string(k) + ": expected a number");
  return it->get<T>();
}

const json& view_sub(const json& j, const char* k) {
  static const json empty = json::object();
  auto it = j.find(k);
  return (it != j.end() && it->is_object()) ? *it : empty;
}

// Optional figures added later: absent, null or of another type are all "none".
std::optional<double> view_opt(const json& j, const char* k) {
  auto it = j.find(k);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

CampaignHeader campaign_header(const CampaignStarted& e) {
  auto text = [](const json& j, const char* k) {
    auto it = j.find(k);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  static const json empty = json::object();
  const json& cfg = e.config.is_object() ? e.config : empty;
  return {text(cfg, "name"), text(cfg, "mode"), text(view_sub(cfg, "backend"), "model")};
}

std::optional<CallView> call_view(const nlohmann::json& trace, std::string& error) {
  static const json empty = json::object();
  const json& tr = trace.is_object() ? trace : empty;
  try {
    CallView v;
    v.role = view_str(tr, "role");
    const json& usage = view_sub(tr, "usage");
    v.input_tokens = view_num<std::int64_t>(usage, "input_tokens");
    v.output_tokens = view_num<std::int64_t>(usage, "output_tokens");
    v.latency_s = view_num<double>(tr, "latency_s");
    v.cost_usd = view_num<double>(tr, "cost_usd");
    auto fc = tr.find("from_cache");
    v.from_cache = fc != tr.end() && fc->is_boolean() && fc->get<bool>();
    v.error_kind = view_str(view_sub(tr, "error"), "kind");
    v.error_message = view_str(view_sub(tr, "error"), "message");
    if (auto it = tr.find("prompt"); it != tr.end() && it->is_array()) v.prompt = *it;
    v.response = view_str(tr, "response");
    v.impl = view_str(tr, "impl");
    v.guardian_diff = view_str(tr, "guardian_diff");
    v.reasoning = view_str(tr, "reasoning");
    v.finish_reason = view_str(tr, "finish_reason");
    if (auto it = tr.find("rules_used"); it != tr.end() && it->is_array())
      for (const auto& id : *it)
        if (id.is_string() && v.rules_used.size() < CallView::kMaxRulesUsed) v.rules_used.push_back(id.get<std::string>());
    if (auto it = tr.find("diagnostics"); it != tr.end() && it->is_array())
      for (const auto& d : *it)
        if (d.is_object())
          v.diagnostics.push_back({view_str(d, "code"), view_str(d, "message"), view_num<int>(d, "line"),
                                   view_num<int>(d, "column")});
    return v;
  } catch (const std::exception& ex) {
    error = std::string("malformed llm_call trace: ") + ex.what();
    return std::nullopt;
  }
}

std::optional<SummaryFigures> summary_figures(const IterationSummary& s, std::string& error) {
  static const json empty = json::object();
  const json& m = s.metrics.is_object() ? s.metrics : empty;
  try {
    SummaryFigures f;
    const json& cu = view_sub(m, "cumulative");
    f.tokens = view_num<std::int64_t>(view_sub(m, "tokens"), "total");
    f.cost_usd = view_num<double>(m, "cost_usd");
    f.pass_at_1 = view_num<double>(cu, "pass_at_1");
    f.pass_at_n = view_num<double>(cu, "pass_at_n");
    f.solved = view_num<int>(cu, "solved");
    f.tasks = view_num<int>(cu, "tasks");
    for (const auto& [tag, v] : view_sub(cu, "by_tag").items())
      if (v.is_object()) f.by_tag.push_back({tag, {view_num<double>(v, "pass_at_1"), view_num<double>(v, "pass_at_n")}});
    const json& it = view_sub(m, "iteration");
    auto perf = [&](const char* k) { return cu.contains(k) ? view_opt(cu, k) : view_opt(it, k); };
    f.fast_1 = perf("fast_1");
    f.fast_1_5 = perf("fast_1_5");
    f.median_speedup = perf("median_speedup");
    return f;
  } catch (const std::exception& ex) {
    error = std::string("malformed iteration_summary metrics: ") + ex.what();
    return std::nullopt;
  }
}

}  // namespace sf::learn
