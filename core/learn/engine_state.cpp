#include "core/learn/engine_state.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "core/learn/config.hpp"
#include "core/learn/metrics.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

struct Apply {
  CampaignState& s;
  std::string& error;
  const EventBody& body;

  bool operator()(const CampaignStarted& e) {
    if (s.started) {
      error = "campaign_started appears twice";
      return false;
    }
    s.started = true;
    s.config = e.config;
    s.tasks = e.tasks;
    return !s.is_opt2() || s.opt2.configure(e.config, error);
  }
  bool operator()(const IterationStarted& e) {
    if (!s.started) return fail("iteration_started before campaign_started");
    if (s.open_iteration()) return fail("iteration_started while iteration " +
                                        std::to_string(s.iterations.back().start.iteration) + " is open");
    if (e.iteration != static_cast<int>(s.iterations.size()))
      return fail("iteration " + std::to_string(e.iteration) + " out of order");
    IterationRecord r;
    r.start = e;
    s.iterations.push_back(std::move(r));
    return true;
  }
  bool operator()(const LlmCall& e) {
    if (!s.is_sage()) return true;
    if (s.is_opt2()) {  // an optimisation round's call: its usage is in no verdict
      add_call_usage(e);
      return true;
    }
    if (!s.sage.apply_call(e, error)) return false;
    if (e.sample_index < 0) add_call_usage(e);  // memory-phase roles (their usage is in no verdict)
    return true;
  }
  void add_call_usage(const LlmCall& e) {
    if (e.trace.is_object()) {
      const json& u = e.trace.value("usage", json::object());
      RoleUsage ru;
      ru.input_tokens = u.value("input_tokens", std::int64_t{0});
      ru.output_tokens = u.value("output_tokens", std::int64_t{0});
      ru.calls = e.trace.value("prompt", json::array()).empty() ? 0 : 1;
      const json& c = e.trace.value("cost_usd", json());
      ru.cost_usd = c.is_number() ? c.get<double>() : 0.0;
      add_usage(s.usage, e.trace.value("role", "memory"), ru);
    }
  }
  bool operator()(const Verdict& e) {
    if (s.is_sage()) {
      return s.sage.apply_verdict(e, error);  // counted when the episode finishes (a restarted one counts once)
    }
    IterationRecord* r = s.open_iteration();
    if (!r || r->start.iteration != e.iteration) return fail("verdict outside its iteration");
    auto key = std::make_tuple(e.task, e.temperature_index, e.sample_index);
    if (r->verdicts.count(key)) return fail("duplicate verdict for " + e.task);
    r->verdicts.emplace(key, e);
    s.totals[e.task].count(e);
    for (const auto& [role, u] : e.usage) add_usage(s.usage, role, u);
    offer_fastest(s.fastest, e);
    return true;
  }
  bool operator()(const IterationSummary& e) {
    IterationRecord* r = s.open_iteration();
    if (!r || r->start.iteration != e.iteration) return fail("iteration_summary without its iteration");
    r->summary = e;
    s.wall_s += e.wall_s;

    for (const auto& tr : e.results) {
      auto& b = s.best_c[tr.task];
      b = std::max(b, tr.c);
      if (tr.newly_solved && !s.is_solved(tr.task))
        s.solved.push_back({tr.task, tr.c, e.iteration, tr.best_impl, tr.best_key, tr.best_length, tr.best_cycles});
    }
    return true;
  }
  bool operator()(const StratificationEvent& e) {
    s.stratification = e;
    return true;
  }
  bool operator()(const CampaignFinished& e) {
    s.finished = e;
    return true;
  }
  bool operator()(const Opt2Bank&) { return opt2(); }
  bool operator()(const Opt2TaskStarted&) { return opt2(); }
  bool operator()(const Opt2Round&) { return opt2(); }
  bool opt2() {
    if (!s.is_opt2()) return fail(event_type(body) + " in a campaign that is not \"dialect\": \"step-v2\"");
    return s.opt2.apply(body, error);
  }
  // The sage and memory kinds (SageState's fold; the others: run control, the editor's agent, the audit
  // pane's labels, kinds from a newer version, are not part of the run's state).
  template <class Other>
  bool operator()(const Other&) {
    if (!s.is_sage() || s.is_opt2()) return true;
    bool known = false;
    if (!s.sage.apply(body, error, known)) return false;
    if (const auto* fin = std::get_if<EpisodeFinished>(&body)) {
      const SageEpisode& ep = s.sage.episodes[static_cast<std::size_t>(fin->episode)];
      for (const auto& r : ep.rounds) {
        if (!r.has_verdict) continue;
        s.totals[ep.task].count(r.verdict);
        for (const auto& [role, u] : r.verdict.usage) add_usage(s.usage, role, u);
        offer_fastest(s.fastest, r.verdict);
      }
      auto& c = s.best_c[ep.task];
      if (ep.solved) {
        ++c;  // in sage mode: solved episodes of the task
        if (!s.is_solved(ep.task)) {
          // The first correct program, or the fastest feasible one when optimisation rounds found one.
          const SageRound* win = nullptr;
          for (const auto& r : ep.rounds) {
            if (!r.has_verdict || !r.verdict.pass) continue;
            if (!win) win = &r;
            else if (r.verdict.feasible.value_or(false) && r.verdict.cycles &&
                     (!win->verdict.feasible.value_or(false) || !win->verdict.cycles ||
                      *r.verdict.cycles < *win->verdict.cycles))
              win = &r;
          }
          SolvedTask d{ep.task, 0, ep.episode, "", "", 0};
          if (win) {
            d.impl = win->verdict.impl;
            d.canonical_key = win->verdict.canonical_key;
            d.program_length = win->verdict.program_length;
            d.cycles = win->verdict.cycles;
          }
          s.solved.push_back(d);
        }
        for (auto& d : s.solved)
          if (d.task == ep.task) d.c = c;
      }
    }
    return true;
  }
  bool fail(std::string m) {
    error = std::move(m);
    return false;
  }
};

json fastest_json(const FastestProgram& f, double tolerance) {
  return {{"cycles", f.cycles},
          {"speedup", f.speedup ? json(*f.speedup) : json(nullptr)},
          {"faster", f.speedup && faster_than(*f.speedup, tolerance)},  // beats the baseline by the tolerance
          {"impl", f.impl},
          {"suspicious", f.suspicious()}};
}

json bucket_json(const std::vector<int>& counts, int n) {
  int solved = static_cast<int>(std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }));
  return {{"tasks", counts.size()},
          {"solved", solved},
          {"pass_at_1", pass_at_1(counts, n).value_or(0.0)},
          {"pass_at_n", pass_at_n(counts, n).value_or(0.0)}};
}

}  // namespace

void Diversity::add(const Verdict& v) {
  if (v.canonical_key.empty()) return;
  programs.insert(v.canonical_key);
  (v.pass ? passed : failed).insert(v.canonical_key);
}

json Diversity::to_json() const { return diversity_json({this}); }

json diversity_json(const std::vector<const Diversity*>& per_task) {
  std::size_t p = 0, f = 0, s = 0;
  for (const Diversity* d : per_task) {
    p += d->programs.size();
    f += d->failed.size();
    s += d->passed.size();
  }
  return {{"programs", p}, {"failed", f}, {"passed", s}};
}

void TaskTotals::count(const Verdict& v) {
  samples++;
  if (v.pass) successes++;
  diversity.add(v);
}

bool offer_fastest(std::map<std::string, FastestProgram>& m, const Verdict& v) {
  if (!v.pass || !v.cycles || !v.feasible.value_or(false)) return false;
  auto it = m.find(v.task);
  if (it != m.end()) {
    const FastestProgram& f = it->second;
    if (std::tuple(f.cycles, f.impl.size(), std::string_view(f.impl)) <=
        std::tuple(*v.cycles, v.impl.size(), std::string_view(v.impl)))
      return false;
  }
  m[v.task] = {*v.cycles, v.speedup, v.impl, v.iteration};
  return true;
}

json speed_metrics(const std::vector<TaskInfo>& tasks, const std::map<std::string, FastestProgram>& m,
                   double tolerance) {
  int f1 = 0, f15 = 0;
  std::vector<double> best;
  for (const auto& t : tasks) {
    auto it = m.find(t.id);
    if (it == m.end() || !it->second.speedup) continue;
    const double sp = *it->second.speedup;
    best.push_back(sp);
    if (faster_than(sp, tolerance, 1.0)) ++f1;
    if (faster_than(sp, tolerance, 1.5)) ++f15;
  }
  const double n = static_cast<double>(tasks.size());
  json med = nullptr;
  if (!best.empty()) {
    std::sort(best.begin(), best.end());
    const std::size_t k = best.size();
    med = k % 2 ? best[k / 2] : (best[k / 2 - 1] + best[k / 2]) / 2.0;
  }
  return {{"fast_1", n > 0 ? f1 / n : 0.0}, {"fast_1_5", n > 0 ? f15 / n : 0.0}, {"median_speedup", med}};
}

bool CampaignState::apply(const Event& e, std::string& error) {
  if (!std::visit(Apply{*this, error, e.body}, e.body)) return false;
  next_seq = std::max(next_seq, e.seq + 1);
  curve_.apply(e, total_tokens(), total_cost());
  return true;
}

IterationRecord* CampaignState::open_iteration() {
  if (iterations.empty() || iterations.back().summary) return nullptr;
  return &iterations.back();
}

bool CampaignState::is_solved(const std::string& task) const {
  return std::any_of(solved.begin(), solved.end(), [&](const SolvedTask& t) { return t.task == task; });
}

std::vector<std::string> CampaignState::unsolved() const {
  std::vector<std::string> out;
  for (const auto& t : tasks)
    if (!is_solved(t.id)) out.push_back(t.id);
  return out;
}

std::int64_t CampaignState::total_tokens() const {
  std::int64_t t = 0;
  for (const auto& [r, u] : usage) t += u.input_tokens + u.output_tokens;
  return t;
}

double CampaignState::total_cost() const {
  double c = 0;
  for (const auto& [r, u] : usage) c += u.cost_usd;
  return c;
}

bool CampaignState::is_sage() const { return config.is_object() && config.value("mode", "") == "sage"; }

bool CampaignState::is_opt2() const { return config.is_object() && config.value("dialect", "") == "step-v2"; }

int CampaignState::episodes_per_task() const {
  if (!config.is_object() || !config.contains("memory") || !config["memory"].is_object()) return 1;
  const json& e = config["memory"].value("episodes", json(1));
  return e.is_number_integer() ? std::max(1, e.get<int>()) : 1;
}

int CampaignState::n() const {
  if (is_sage()) return episodes_per_task();
  return config.is_object() ? config.value("n", 1) : 1;
}

json completion_metrics(const std::vector<TaskInfo>& tasks, const std::map<std::string, int>& c, int n) {
  std::vector<int> all;
  std::map<std::string, std::vector<int>> by_tag, by_group;
  for (const auto& t : tasks) {
    auto it = c.find(t.id);
    int ci = std::clamp(it == c.end() ? 0 : it->second, 0, n);
    all.push_back(ci);
    by_tag[t.tag].push_back(ci);
    by_group[t.group].push_back(ci);
  }
  json m = bucket_json(all, n);
  json ks = json::object();
  for (int k = 1; k < n; k *= 2) ks[std::to_string(k)] = pass_at_k(all, n, k).value_or(0.0);
  ks[std::to_string(n)] = pass_at_k(all, n, n).value_or(0.0);
  m["pass_at_k"] = ks;
  json bt = json::object(), bg = json::object();
  for (const auto& [k, v] : by_tag) bt[k] = bucket_json(v, n);
  for (const auto& [k, v] : by_group) bg[k] = bucket_json(v, n);
  m["by_tag"] = bt;
  m["by_group"] = bg;
  return m;
}

// Added for performance campaigns (issue 36): fast_2, geomean_speedup over the tasks with a speedup, and per task
// baseline_cycles, best_cycles, speedup and best_round of its fastest program.
static void add_speed_details(const CampaignState& s, json& r, double tolerance) {
  int f2 = 0, timed = 0;
  double logsum = 0;
  for (auto& t : r["tasks"]) {
    auto f = s.fastest.find(t["id"].get<std::string>());
    if (f == s.fastest.end() || !f->second.speedup) continue;
    const double sp = *f->second.speedup;
    ++timed;
    logsum += std::log(sp);
    if (faster_than(sp, tolerance, 2.0)) ++f2;
    t["baseline_cycles"] = std::llround(static_cast<double>(f->second.cycles) * sp);
    t["best_cycles"] = f->second.cycles;
    t["speedup"] = sp;
    t["best_round"] = f->second.iteration;
  }
  r["fast_2"] = s.tasks.empty() ? 0.0 : f2 / static_cast<double>(s.tasks.size());
  r["geomean_speedup"] = timed ? json(std::exp(logsum / timed)) : json(nullptr);
}

json report_json(const CampaignState& s) {
  if (s.is_opt2()) return opt2_report_json(s);
  const int n = s.n();
  json r;
  r["name"] = s.config.value("name", "");
  r["mode"] = s.config.value("mode", "");
  r["model"] = s.config.contains("backend") ? s.config["backend"].value("model", "") : "";
  r["n"] = n;
  json tasks = json::array();
  for (const auto& t : s.tasks) {
    auto bc = s.best_c.find(t.id);
    auto tt = s.totals.find(t.id);
    json e = {{"id", t.id},
              {"group", t.group},
              {"tag", t.tag},
              {"c", bc == s.best_c.end() ? 0 : bc->second},
              {"solved", s.is_solved(t.id)},
              {"samples", tt == s.totals.end() ? 0 : tt->second.samples},
              {"successes", tt == s.totals.end() ? 0 : tt->second.successes},
              {"diversity", tt == s.totals.end() ? Diversity().to_json() : tt->second.diversity.to_json()}};
    for (const auto& d : s.solved)
      if (d.task == t.id) {
        e["solved_iteration"] = d.iteration;
        e["program_length"] = d.program_length;
        e["impl"] = d.impl;
      }
    if (auto f = s.fastest.find(t.id); f != s.fastest.end()) e["fastest"] = fastest_json(f->second, fast_tolerance_of(s.config));
    tasks.push_back(e);
  }
  r["tasks"] = tasks;
  std::vector<const Diversity*> div;
  for (const auto& [id, t] : s.totals) div.push_back(&t.diversity);
  r["diversity"] = diversity_json(div);
  json m = completion_metrics(s.tasks, s.best_c, n);
  r["tasks_total"] = s.tasks.size();
  r["tasks_solved"] = s.solved.size();
  r["pass_at_1"] = m["pass_at_1"];
  r["pass_at_n"] = m["pass_at_n"];
  r["pass_at_k"] = m["pass_at_k"];
  r["by_tag"] = m["by_tag"];
  r["by_group"] = m["by_group"];
  const double tolerance = fast_tolerance_of(s.config);
  const json speed = speed_metrics(s.tasks, s.fastest, tolerance);
  for (const auto& [k, v] : speed.items()) r[k] = v;
  r["fast_tolerance"] = tolerance;
  if (s.config.value("objective", "") == "performance") add_speed_details(s, r, tolerance);
  json its = json::array();
  for (const auto& it : s.iterations) {
    if (!it.summary) continue;
    const json& mm = it.summary->metrics;
    json e = {{"iteration", it.start.iteration},
              {"step", it.start.step},
              {"demos", it.start.demos},
              {"temperatures", it.start.temperatures},
              {"tasks_sampled", it.start.tasks.size()},
              {"samples", it.verdicts.size()},
              {"newly_solved", it.summary->newly_solved},
              {"wall_s", it.summary->wall_s}};
    if (mm.contains("iteration")) e["sampled"] = mm["iteration"];  // metrics over the tasks sampled
    std::map<std::string, Diversity> it_div;  // this iteration's samples, per task
    for (const auto& [key, v] : it.verdicts) it_div[std::get<0>(key)].add(v);
    std::vector<const Diversity*> it_ptrs;
    for (const auto& [id, d] : it_div) it_ptrs.push_back(&d);
    e["diversity"] = diversity_json(it_ptrs);
    for (const char* k : {"cumulative", "tokens", "cost_usd", "usage_by_role"})
      if (mm.contains(k)) e[k] = mm[k];
    its.push_back(e);
  }
  r["iterations"] = its;
  json curve = json::array();
  for (const auto& p : s.curve()) curve.push_back(curve_json(p));
  r["curve"] = curve;
  r["tokens"] = {{"total", s.total_tokens()}};
  r["cost_usd"] = s.total_cost();
  r["usage_by_role"] = usage_to_json(s.usage);
  r["finished"] = s.finished ? json(s.finished->reason) : json(nullptr);
  r["wall_s"] = s.wall_s;
  if (s.is_sage()) {
    std::vector<std::string> ids;
    for (const auto& t : s.tasks) ids.push_back(t.id);
    const json sage = sage_report_json(s.sage, ids, s.episodes_per_task());
    for (const auto& [k, v] : sage.items()) r[k] = v;
    for (auto& t : r["tasks"]) {
      for (const auto& d : s.solved)
        if (d.task == t["id"]) t["solved_episode"] = d.iteration;
    }
  }
  return r;
}

std::string report_csv(const CampaignState& s) {
  if (s.is_opt2()) return opt2_report_csv(s);
  std::ostringstream o;
  if (s.is_sage()) {  // one row per finished episode
    o << "episode,task,rounds,first_correct_round,solved,score,best_cycles,best_speedup\n";
    for (const auto& e : s.sage.episodes) {
      if (!e.finished) continue;
      std::map<std::string, FastestProgram> best;  // the episode's fastest correct feasible program
      for (const auto& r : e.rounds)
        if (r.has_verdict) offer_fastest(best, r.verdict);
      o << e.episode << ',' << e.task << ',' << e.rounds_used << ',' << e.first_correct_round << ','
        << (e.solved ? 1 : 0) << ',' << e.score << ',';
      if (!best.empty()) {
        o << best.begin()->second.cycles << ',';
        if (best.begin()->second.speedup) o << *best.begin()->second.speedup;
      } else {
        o << ',';
      }
      o << '\n';
    }
    return o.str();
  }
  o << "iteration,step,demos,tasks_sampled,samples,newly_solved,pass_at_1,pass_at_n,cumulative_pass_at_1,"
       "cumulative_pass_at_n,solved,tokens,cost_usd,fast_1,fast_1_5,median_speedup\n";
  json r = report_json(s);
  for (const auto& e : r["iterations"]) {
    const json& it = e.value("sampled", json::object());
    const json& cu = e.value("cumulative", json::object());
    o << e["iteration"].get<int>() << ',' << e["step"].get<int>() << ',' << e["demos"].size() << ','
      << e["tasks_sampled"] << ',' << e["samples"] << ',' << e["newly_solved"] << ','
      << it.value("pass_at_1", 0.0) << ',' << it.value("pass_at_n", 0.0) << ',' << cu.value("pass_at_1", 0.0)
      << ',' << cu.value("pass_at_n", 0.0) << ',' << cu.value("solved", 0) << ','
      << e.value("tokens", json::object()).value("total", std::int64_t{0}) << ',' << e.value("cost_usd", 0.0)
      << ',' << cu.value("fast_1", 0.0) << ',' << cu.value("fast_1_5", 0.0) << ',';
    // cumulative speed metrics (absent in logs written before the cost model: 0, 0 and an empty median)
    if (cu.contains("median_speedup") && cu["median_speedup"].is_number()) o << cu["median_speedup"].get<double>();
    o << '\n';
  }
  return o.str();
}

}  // namespace sf::learn
