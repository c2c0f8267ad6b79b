// Decoding the campaign log's events (events.hpp): the typed event of one JSON envelope, every kind's
// fields checked (the memory and run-control kinds strictly, the adaptive kinds laxly), and the log readers.
#include "core/learn/events.hpp"

#include "core/learn/events_opt2.hpp"
#include "core/store/event_log.hpp"
#include "core/store/json_fields.hpp"

namespace sf::learn {

using nlohmann::json;

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
// An optional field that may be absent: left unset when absent, read with `read` otherwise.
template <class T, class Reader>
bool opt_opt(Reader read, const json& j, const char* k, std::optional<T>& out, std::string& err) {
  if (!j.contains(k)) return true;
  T v{};
  if (!read(j, k, v, err)) return false;
  out = std::move(v);
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
        !opt_opt(jf::get_signed<int>, j, "n_updates", e.n_updates, err))
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
        !opt_num(j, "elapsed_s", e.elapsed_s, err) ||
        !opt_opt(jf::get_str, j, "guardian_action", e.guardian_action, err) ||
        !opt_opt(jf::get_str, j, "guardian_diff", e.guardian_diff, err))
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
  bool opt2 = false;
  if (auto e = decode_opt2(type, j, err, opt2); e || opt2) return e;
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

}  // namespace sf::learn
