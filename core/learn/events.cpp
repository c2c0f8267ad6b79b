// The campaign log's events (events.hpp): usage sums, each kind's type name and JSON encoder, verdict words,
// and the views' readers of a call's trace and an iteration's metrics. The decoders are in events_decode.cpp.
#include "core/learn/events.hpp"

#include "core/agent/proposer.hpp"
#include "core/learn/events_opt2.hpp"
#include "core/learn/verdict_words.hpp"

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
  std::string operator()(const Opt2Bank&) const { return "opt2_bank"; }
  std::string operator()(const Opt2TaskStarted&) const { return "opt2_task"; }
  std::string operator()(const Opt2Round&) const { return "opt2_round"; }
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
  void operator()(const Opt2Bank& e) const { encode_opt2(e, j); }
  void operator()(const Opt2TaskStarted& e) const { encode_opt2(e, j); }
  void operator()(const Opt2Round& e) const { encode_opt2(e, j); }
  void operator()(const UnknownEvent& e) const {
    if (e.body.is_object())
      for (const auto& [k, v] : e.body.items())
        if (k != "v" && k != "seq" && k != "t" && k != "type") j[k] = v;
  }
};

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
