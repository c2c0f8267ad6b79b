#include "core/learn/run_comparison.hpp"

#include <algorithm>
#include <system_error>

#include "core/learn/config.hpp"
#include "core/learn/metrics.hpp"
#include "core/learn/opt2_state.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn {

bool fold_workspace(const store::Workspace& ws, CampaignState& st, std::string& error,
                    std::vector<LlmCall>* calls) {
  const auto& events = ws.loaded_events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto e = event_from_json(events[i], error);
    if (!e || !st.apply(*e, error)) {
      error = (ws.dir() / "events.jsonl").string() + ": event " + std::to_string(i + 1) + ": " + error;
      return false;
    }
    if (calls)
      if (const auto* c = std::get_if<LlmCall>(&e->body)) calls->push_back(*c);
  }
  return true;
}

bool load_campaign_state(const std::filesystem::path& dir, CampaignState& st, std::string& error,
                         std::vector<LlmCall>* calls) {
  auto ws = store::Workspace::open_read_only(dir, error);
  return ws && fold_workspace(*ws, st, error, calls);
}

std::optional<RunRecord> load_run(const std::filesystem::path& dir, std::string& error) {
  RunRecord r;
  r.dir = dir;
  std::vector<LlmCall> calls;
  if (!load_campaign_state(dir, r.state, error, &calls)) return std::nullopt;
  if (r.state.config.is_object()) {
    const auto& name = r.state.config.value("name", nlohmann::json());
    const auto& mode = r.state.config.value("mode", nlohmann::json());
    if (name.is_string()) r.name = name.get<std::string>();
    if (mode.is_string()) r.mode = mode.get<std::string>();
  }
  r.fast_tolerance = fast_tolerance_of(r.state.config);
  for (auto& c : calls)
    r.calls[{c.iteration, c.task, c.temperature_index, c.sample_index}].push_back(std::move(c.trace));
  return r;
}

std::vector<const Verdict*> task_verdicts(const CampaignState& s, const std::string& task) {
  std::vector<const Verdict*> out;
  if (s.is_sage()) {
    for (const auto& ep : s.sage.episodes) {
      if (!ep.finished || ep.task != task) continue;
      for (const auto& r : ep.rounds)
        if (r.has_verdict) out.push_back(&r.verdict);
    }
    return out;
  }
  for (const auto& it : s.iterations)  // the map's order: (task, temperature index, sample index)
    for (const auto& [key, v] : it.verdicts)
      if (std::get<0>(key) == task) out.push_back(&v);
  return out;
}

TaskRunStats task_run_stats(const CampaignState& s, const std::string& task) {
  TaskRunStats t;
  t.task = task;
  const auto verdicts = task_verdicts(s, task);
  t.attempted = !verdicts.empty();
  t.solved = s.is_solved(task);
  for (const Verdict* v : verdicts) {
    ++t.samples;
    if (v->pass) {
      ++t.successes;
      if (!t.samples_to_first_correct) t.samples_to_first_correct = t.samples;
    }
    for (const auto& [role, u] : v->usage) {
      t.tokens += u.input_tokens + u.output_tokens;
      t.cost_usd += u.cost_usd;
    }
  }
  const auto c = s.best_c.find(task);
  t.pass1 = pass_at_k_task(s.n(), c == s.best_c.end() ? 0 : c->second, 1).value_or(0.0);
  if (const auto f = s.fastest.find(task); f != s.fastest.end()) {
    t.best_cycles = f->second.cycles;
    t.best_speedup = f->second.speedup;
  }
  return t;
}

std::vector<TaskRunStats> task_run_stats(const CampaignState& s) {
  std::vector<TaskRunStats> out;
  out.reserve(s.tasks.size());
  for (const auto& t : s.tasks) out.push_back(task_run_stats(s, t.id));
  return out;
}

bool task_differs(const std::vector<const TaskRunStats*>& cells) {
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const TaskRunStats* a = cells[0];
    const TaskRunStats* b = cells[i];
    if (!a || !b) {
      if (a != b) return true;
      continue;
    }
    if (a->attempted != b->attempted || a->solved != b->solved || a->pass1 != b->pass1) return true;
  }
  return false;
}

TaskRunDelta task_run_delta(const TaskRunStats& baseline, const TaskRunStats& cell) {
  TaskRunDelta d;
  d.pass1 = cell.pass1 - baseline.pass1;
  d.tokens = cell.tokens - baseline.tokens;
  d.cost_usd = cell.cost_usd - baseline.cost_usd;
  if (cell.samples_to_first_correct && baseline.samples_to_first_correct)
    d.samples_to_first_correct = *cell.samples_to_first_correct - *baseline.samples_to_first_correct;
  if (cell.best_speedup && baseline.best_speedup) d.best_speedup = *cell.best_speedup - *baseline.best_speedup;
  return d;
}

std::vector<TaskSample> task_samples(const RunRecord& r, const std::string& task) {
  std::vector<TaskSample> out;
  for (const Verdict* v : task_verdicts(r.state, task)) {
    TaskSample s{*v, {}};
    if (auto it = r.calls.find({v->iteration, v->task, v->temperature_index, v->sample_index}); it != r.calls.end())
      s.calls = it->second;
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<RepresentativeProgram> representative_program(const CampaignState& s, const std::string& task) {
  if (const auto f = s.fastest.find(task); f != s.fastest.end() && !f->second.impl.empty())
    return RepresentativeProgram{f->second.impl, "fastest correct", f->second.iteration};
  for (const auto& d : s.solved)
    if (d.task == task && !d.impl.empty()) return RepresentativeProgram{d.impl, "first correct", d.iteration};
  const auto verdicts = task_verdicts(s, task);
  for (auto it = verdicts.rbegin(); it != verdicts.rend(); ++it) {
    const Verdict& v = **it;
    if (v.impl.empty()) continue;
    std::string why = v.pass ? "last sample (passes)" : "last sample (fails: " + v.stage + " " + v.code + ")";
    return RepresentativeProgram{v.impl, std::move(why), v.iteration};
  }
  return std::nullopt;
}

std::vector<const Verdict*> run_verdicts(const CampaignState& s) {
  std::vector<const Verdict*> out;
  if (s.is_sage()) {
    for (const auto& ep : s.sage.episodes) {
      if (!ep.finished) continue;
      for (const auto& r : ep.rounds)
        if (r.has_verdict) out.push_back(&r.verdict);
    }
    return out;
  }
  for (const auto& it : s.iterations)
    for (const auto& [key, v] : it.verdicts) out.push_back(&v);
  return out;
}

std::vector<SpeedupCurvePoint> best_speedup_curve(const CampaignState& s) {
  std::vector<SpeedupCurvePoint> out;
  if (s.is_opt2()) {  // the report's curve: per proposal of each task, the median of the tasks' best speedups
    const auto tasks = static_cast<int>(s.tasks.size());
    const nlohmann::json report = opt2_report_json(s);  // kept: the loop reads into it
    for (const auto& p : report["curve"]) {
      const int proposal = p.value("proposal", 0);
      const auto& median = p["median_speedup"];
      if (proposal > 0 && median.is_number()) out.push_back({proposal, proposal, median.get<double>(), tasks});
    }
    return out;
  }
  std::map<std::string, FastestProgram> fastest;
  std::int64_t proposals = 0;
  const auto verdicts = run_verdicts(s);
  for (const Verdict* v : verdicts) {
    ++proposals;
    if (!offer_fastest(fastest, *v)) continue;
    // The report's median (speed_metrics) over the tasks the run has a speedup for so far.
    const auto median = speed_metrics(s.tasks, fastest)["median_speedup"];
    if (!median.is_number()) continue;
    int tasks = 0;
    for (const auto& t : s.tasks)
      if (auto f = fastest.find(t.id); f != fastest.end() && f->second.speedup) ++tasks;
    const double m = median.get<double>();
    if (!out.empty() && out.back().median_best == m && out.back().tasks == tasks) continue;
    out.push_back({proposals, v->iteration, m, tasks});
  }
  if (!out.empty() && out.back().proposals < proposals) {
    SpeedupCurvePoint last = out.back();
    last.proposals = proposals;
    last.iteration = verdicts.back()->iteration;
    out.push_back(last);
  }
  return out;
}

namespace {

bool memory_enabled(const nlohmann::json& config) {
  auto m = config.find("memory");
  if (m == config.end() || !m->is_object()) return true;  // the default
  auto e = m->find("enabled");
  return e == m->end() || !e->is_boolean() || e->get<bool>();
}

bool sage_config(const nlohmann::json& config) {
  return config.is_object() && config.value("mode", std::string()) == "sage";
}

// The config without what a baseline may differ in.
nlohmann::json comparable_config(nlohmann::json config) {
  for (const char* k : {"name", "note", "memory"}) config.erase(k);
  return config;
}

}  // namespace

bool is_memory_off_baseline(const nlohmann::json& config, const nlohmann::json& candidate) {
  if (!sage_config(config) || !sage_config(candidate) || !memory_enabled(config) || memory_enabled(candidate))
    return false;
  return comparable_config(config) == comparable_config(candidate);
}

std::optional<std::filesystem::path> memory_off_baseline(const std::filesystem::path& dir) {
  nlohmann::json config;
  std::string err;
  if (!store::Workspace::read_config(dir, config, err) || !sage_config(config) || !memory_enabled(config))
    return std::nullopt;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::weakly_canonical(dir, ec);
  if (ec) return std::nullopt;
  std::vector<std::filesystem::path> siblings;
  int seen = 0;
  for (std::filesystem::directory_iterator it(self.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    if (++seen > kMaxBaselineSiblings) break;
    if (it->is_directory(ec) && it->path() != self) siblings.push_back(it->path());
  }
  std::sort(siblings.begin(), siblings.end());
  for (const auto& s : siblings) {
    nlohmann::json other;
    if (!std::filesystem::exists(s / "campaign.json", ec)) continue;
    if (store::Workspace::read_config(s, other, err) && is_memory_off_baseline(config, other)) return s;
  }
  return std::nullopt;
}

}  // namespace sf::learn
