// The loop of modes single / agent / adaptive (algorithms §3, Algorithm 1): iterations planned by the stopping
// rule, their samples run on worker threads and logged in sample order, each iteration's summary (the filter σ,
// pass@k, speed) and the experience-set snapshot memory.json. The runner (threads, pause, cancel, progress,
// events, budgets) is engine.cpp; mode sage's loop is sage_engine.cpp.
#include "core/learn/engine.hpp"
#include "core/learn/golden_demos.hpp"

#include <algorithm>
#include <chrono>
#include <deque>

#include "core/agent/guardian.hpp"
#include "core/agent/proposer.hpp"
#include "core/common/hash.hpp"
#include "core/learn/filter.hpp"
#include "core/learn/stratify.hpp"
#include "core/step/printer.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

std::uint64_t derived_seed(std::uint64_t seed, std::string_view what, std::string_view task, int iteration) {
  Fnv1a64 f;
  f.u64(seed);
  f.str(what);
  f.str(task);
  f.u64(static_cast<std::uint64_t>(iteration));
  return splitmix64(f.value());
}

}  // namespace

void CampaignEngine::write_memory() {
  if (!ws_) return;
  json solved = json::array();
  for (const auto& d : state_.solved)
    solved.push_back({{"task", d.task},
                      {"c", d.c},
                      {"iteration", d.iteration},
                      {"program_length", d.program_length},
                      {"canonical_key", d.canonical_key},
                      {"impl", d.impl}});
  for (std::size_t i = 0; i < state_.solved.size(); ++i)
    if (state_.solved[i].cycles) solved[i]["cycles"] = *state_.solved[i].cycles;
  json mem = {{"version", 1},
              {"kind", "experience-set"},
              {"n", cfg_.n},
              {"solved", solved},
              {"unsolved", state_.unsolved()},
              {"after_iteration", state_.iterations.empty() ? -1 : state_.iterations.back().start.iteration}};
  std::string err;
  ws_->write_memory(mem, err);  // a failed snapshot is not fatal: the log is the source of truth
}

// Modes single / agent / adaptive (Algorithm 1): iterations of samples until the stopping rule.
RunResult CampaignEngine::classic_loop() {
  RunResult r;
  std::string err;
  if (!cfg_.demos.golden.empty()) {
    bool exists = false;
    if (!store::load_golden_file(cfg_.demos.golden, golden_, err, &exists)) {
      r.error = "demos.golden '" + cfg_.demos.golden + "': " + err;
      return r;
    }
    if (!exists) {
      r.error = "demos.golden '" + cfg_.demos.golden + "': no such file";
      return r;
    }
  }
  if (!state_.started) {
    CampaignStarted cs;
    cs.config = config_to_json(cfg_);
    for (const auto& t : deps_.tasks) cs.tasks.push_back({t.id, t.group, difficulty_tag(t)});
    if (!log_event(cs, err)) {
      r.error = err;
      return r;
    }
  }
  while (true) {
    if (state_.finished) {
      r.status = RunStatus::Finished;
      r.reason = state_.finished->reason;
      return r;
    }
    if (cancel_.cancelled()) {
      r.status = RunStatus::Cancelled;
      return r;
    }
    if (IterationRecord* rec = state_.open_iteration()) {
      auto t_start = std::chrono::steady_clock::now();
      if (!run_iteration(*rec, err)) {
        r.error = err;
        return r;
      }
      if (cancel_.cancelled()) {
        r.status = RunStatus::Cancelled;
        return r;
      }
      if (halted()) return paused_result();
      IterationSummary sum = summarize(*rec);
      sum.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
      if (!log_event(sum, err)) {
        r.error = err;
        return r;
      }
      if (ws_ && !ws_->sync(err)) {
        r.error = err;
        return r;
      }
      solved_ = static_cast<int>(state_.solved.size());
      write_memory();
      continue;
    }
    bool finished = false;
    if (!plan_next(finished, err)) {
      r.error = err;
      return r;
    }
    if (finished && ws_) ws_->sync(err);
  }
}

bool CampaignEngine::plan_next(bool& finished, std::string& error) {
  const int k = static_cast<int>(state_.iterations.size());
  auto finish = [&](std::string reason) {
    finished = true;
    CampaignFinished f{std::move(reason), k, static_cast<int>(state_.tasks.size()),
                       static_cast<int>(state_.solved.size())};
    return log_event(f, error);
  };
  if (k == 0) {
    IterationStarted is;
    is.iteration = 0;
    is.temperatures = {cfg_.temperature0};
    for (const auto& t : deps_.tasks) is.tasks.push_back(t.id);
    is.n = cfg_.n;
    return log_event(is, error);
  }
  const IterationRecord& last = state_.iterations.back();
  if (cfg_.mode != Mode::Adaptive) {
    if (state_.unsolved().empty()) return finish(std::string(stop_reason_name(StopReason::AllSolved)));
    return finish("done");
  }
  LoopState ls;
  ls.unsolved = state_.unsolved().size();
  ls.solved = state_.solved.size();
  ls.newly_solved = last.summary ? last.summary->newly_solved : 0;
  ls.step = last.start.step;
  ls.steps = last.start.steps;
  ls.budget_spent = budget_spent();
  LoopDecision d = next_loop_step(ls);
  if (d.action == LoopAction::Stop) return finish(std::string(stop_reason_name(d.reason)));

  std::vector<int> counts;
  for (const auto& s : state_.solved) counts.push_back(s.c);
  Stratification st = stratify(counts, cfg_.m);
  if (d.action == LoopAction::Restratify || !state_.stratification) {
    StratificationEvent se;
    se.iteration = k;
    se.thresholds = st.thresholds;
    for (const auto& lvl : st.levels) {
      std::vector<std::string> ids;
      for (auto i : lvl) ids.push_back(state_.solved[i].task);
      se.levels.push_back(ids);
    }
    if (!log_event(se, error)) return false;
  }
  IterationStarted is;
  is.iteration = k;
  is.step = d.next_step;
  is.steps = selection_steps(cfg_.selection, st);
  for (auto i : select_demonstrations(st, cfg_.selection, is.step, cfg_.random_k,
                                      derived_seed(cfg_.seed, "random-k", "", k)))
    is.demos.push_back(state_.solved[i].task);
  is.temperatures = cfg_.temperatures;
  is.tasks = state_.unsolved();
  is.n = cfg_.n;
  return log_event(is, error);
}

bool CampaignEngine::run_iteration(IterationRecord& rec, std::string& error) {
  const int iteration = rec.start.iteration;
  agent::PromptInput base;
  base.manual_text = deps_.manual_text;
  for (const auto& id : rec.start.demos) {
    const step::TaskDoc* t = find_task(id);
    auto it = std::find_if(state_.solved.begin(), state_.solved.end(), [&](const SolvedTask& s) { return s.task == id; });
    if (!t || it == state_.solved.end()) {
      error = "demonstration task '" + id + "' is not a solved campaign task";
      return false;
    }
    base.demos.push_back({id, t->raw_text_without_impl, it->impl});
  }
  std::vector<Sample> todo;
  for (const auto& id : rec.start.tasks) {
    const step::TaskDoc* t = find_task(id);
    if (!t) {
      error = "unknown task '" + id + "' in the event log";
      return false;
    }
    for (int ti = 0; ti < static_cast<int>(rec.start.temperatures.size()); ++ti)
      for (int s = 0; s < rec.start.n; ++s)
        if (!rec.verdicts.count(std::make_tuple(id, ti, s))) todo.push_back({t, ti, rec.start.temperatures[ti], s});
  }
  cur_iteration_ = iteration;
  total_ = rec.planned();
  done_ = total_ - static_cast<std::int64_t>(todo.size());
  {
    std::lock_guard lock(mu_);
    iter_t0_ = std::chrono::steady_clock::now();
    iter_start_done_ = done_.load();
  }
  // A sample dropped for a transient infrastructure failure goes to the back of the queue (it is not a
  // sample yet); halt() stops taking samples.
  std::deque<std::size_t> queue;
  for (std::size_t i = 0; i < todo.size(); ++i) queue.push_back(i);
  {
    std::lock_guard lock(emit_mu_outer_);
    finished_samples_.clear();
    next_to_log_ = 0;
  }
  const auto tried = tried_before(iteration);
  std::mutex err_mu;  // guards queue and first_error
  std::string first_error;
  auto worker = [&] {
    while (true) {
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return !paused_ || cancel_.cancelled(); });
      }
      if (cancel_.cancelled() || halted()) return;
      std::size_t i;
      {
        std::lock_guard l(err_mu);
        if (queue.empty()) return;
        i = queue.front();
        queue.pop_front();
      }
      std::string e;
      const bool logged = run_sample(todo[i], i, iteration, base, tried, e);
      if (!e.empty()) {
        std::lock_guard l(err_mu);
        if (first_error.empty()) first_error = e;
        cancel_.cancel();
        return;
      }
      if (!logged && !cancel_.cancelled() && !halted()) {
        std::lock_guard l(err_mu);
        queue.push_back(i);
      }
    }
  };
  int nthreads = std::max(1, std::min<int>(cfg_.in_flight, static_cast<int>(todo.size())));
  std::vector<std::thread> threads;
  for (int i = 0; i < nthreads && !todo.empty(); ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (first_error.empty()) {  // after a halt or a cancel: what finished is logged, in order, around the gaps
    std::lock_guard lock(emit_mu_outer_);
    std::string e;
    if (!log_finished_samples(true, e)) first_error = e;
  }
  if (!first_error.empty()) {
    error = first_error;
    return false;
  }
  return true;
}

bool CampaignEngine::log_finished_samples(bool all, std::string& error) {
  while (!finished_samples_.empty()) {
    auto it = finished_samples_.begin();
    if (!all && it->first != next_to_log_) return true;
    FinishedSample f = std::move(it->second);
    next_to_log_ = it->first + 1;
    finished_samples_.erase(it);
    bool ok = true;
    for (auto& c : f.calls)
      if (ok) ok = log_event(std::move(c), error);
    if (ok) ok = log_event(std::move(f.verdict), error);
    release(f.res);
    if (!ok) return false;
    ++done_;
    ++samples_;
  }
  return true;
}

std::map<std::string, std::vector<std::string>> CampaignEngine::tried_before(int iteration) const {
  std::map<std::string, std::vector<std::string>> out;
  if (cfg_.novelty <= 0) return out;
  std::map<std::string, TriedPrograms> per_task;
  for (const auto& rec : state_.iterations) {
    if (rec.start.iteration >= iteration) continue;
    for (const auto& [key, v] : rec.verdicts) per_task[v.task].add(v);
  }
  for (const auto& [task, t] : per_task) out[task] = t.last(static_cast<std::size_t>(cfg_.novelty));
  return out;
}

bool CampaignEngine::run_sample(const Sample& s, std::size_t order, int iteration, const agent::PromptInput& base,
                                const std::map<std::string, std::vector<std::string>>& tried, std::string& error) {
  Verdict v;
  v.iteration = iteration;
  v.task = s.task->id;
  v.temperature_index = s.temperature_index;
  v.temperature = s.temperature;
  v.sample_index = s.sample_index;
  v.seed = sample_seed(cfg_.seed, s.task->id, iteration, s.temperature, s.sample_index);

  std::vector<agent::TraceEvent> traces;
  ReservationHold hold{*this, {}};  // released after the sample's events are logged (or it is dropped)
  agent::RoleContext ctx = role_context(s.task->id, iteration, 0, traces, &hold.res);

  agent::PromptInput in = base;
  if (!golden_.entries.empty()) {
    auto demos = golden_demonstrations(golden_, s.task->id, static_cast<std::size_t>(cfg_.demos.max));
    demos.insert(demos.end(), base.demos.begin(), base.demos.end());
    in.demos = std::move(demos);
  }
  in.task_text = s.task->raw_text_without_impl;
  if (auto t = tried.find(s.task->id); t != tried.end()) in.already_tried = t->second;
  if (cfg_.objective == Objective::Performance) in.baseline_cycles = baseline_cycles(*s.task);
  agent::PromptOptions popt;
  popt.max_prompt_tokens = cfg_.max_prompt_tokens;
  try {
    agent::Proposer proposer(*deps_.backend, ctx, popt);
    agent::Proposal p = proposer.propose(in, s.sample_index, s.temperature, v.seed);
    bool cancelled = std::any_of(traces.begin(), traces.end(), [](const auto& t) { return t.error_kind == "cancelled"; });
    if (cancelled || cancel_.cancelled()) return false;  // not logged: resume re-issues it (from the cache if answered)
    if (infrastructure_failure(traces)) return false;     // not a sample: re-issued later or after resume
    std::string impl;
    if (!p.ok) {
      const agent::TraceEvent* pe = traces.empty() ? nullptr : &traces.front();
      if (pe && !pe->error_kind.empty()) {
        v.stage = "llm";
        v.code = pe->error_kind;
        v.error = p.error;
      } else {
        v.stage = p.fail_stage;
        v.code = p.fail_code;
        v.error = p.fail_message;
      }
    } else {
      impl = p.impl;
      std::shared_ptr<const verify::CheckResult> checked;
      if (cfg_.mode != Mode::Single) {
        agent::Guardian guardian(deps_.backend, ctx, &verifier_);
        agent::GuardResult g = guardian.guard(*s.task, impl, cfg_.guardian, s.sample_index);
        impl = g.impl;
        checked = std::move(g.checked);  // the guardian's final check is the verifier's: one per sample
        if (infrastructure_failure(traces)) return false;
      }
      if (cancel_.cancelled()) return false;
      if (!checked) checked = verifier_.check(*s.task, impl);
      // Within a task a program (canonical key) already verified on the same input sets is not verified again:
      // its verdict is reused (docs/learn.md "Novelty").
      const VerdictCache::Key ck{
          s.task->id, checked->program ? step::canonical_key(*checked->program, &s.task->sizes) : std::string(),
          verify::derive_extra_seeds(v.seed, s.task->id, s.sample_index, cfg_.extra_seeds, s.task->verify.seeds)};
      if (auto hit = verdicts_.get_or_claim(ck)) {
        hit->copy_to(v);
      } else {
        verify_slots_.acquire();
        try {
          verify::Report rep = verifier_.verify(*s.task, impl, {}, ck.extra_seeds, checked);
          v.pass = rep.pass;
          v.stage = rep.stage ? std::string(stage_name(*rep.stage)) : "";
          v.code = rep.code;
          v.canonical_key = rep.canonical_key;
          v.program_length = rep.program_length;
          if (rep.pass) {
            Verdict probe;
            probe.pass = true;
            probe.impl = impl;
            measure(*s.task, probe);
            v.cycles = probe.cycles;
            v.speedup = probe.speedup;
            v.feasible = probe.feasible;
          }
        } catch (...) {
          verify_slots_.release();
          verdicts_.abandon(ck);
          throw;
        }
        verify_slots_.release();
        verdicts_.put(ck, CachedVerdict::of(v));
      }
      v.impl = impl;
    }
  } catch (const std::exception& ex) {
    v.pass = false;
    v.stage = "internal";
    v.code = "internal";
    v.error = ex.what();
  }
  std::vector<LlmCall> calls;
  for (const auto& t : traces) {
    add_trace_usage(v.usage, t);
    calls.push_back({iteration, s.task->id, s.temperature_index, s.sample_index, agent::to_json(t)});
  }
  // The calls and their verdict go to the log back to back, under one lock, in sample order.
  std::lock_guard lock(emit_mu_outer_);
  finished_samples_[order] = {std::move(calls), std::move(v), hold.res};
  hold.res = {};  // released when logged
  return log_finished_samples(false, error);
}

IterationSummary CampaignEngine::summarize(const IterationRecord& rec) const {
  IterationSummary sum;
  sum.iteration = rec.start.iteration;
  sum.step = rec.start.step;
  const int nt = static_cast<int>(rec.start.temperatures.size());
  std::map<std::string, int> c_now;
  std::map<std::string, int> best_after = state_.best_c;
  for (const auto& id : rec.start.tasks) {
    TaskResult tr;
    tr.task = id;
    tr.c_by_temperature.assign(nt, 0);
    for (const auto& [key, v] : rec.verdicts)
      if (std::get<0>(key) == id && v.pass) tr.c_by_temperature[std::get<1>(key)]++;
    int best_ti = 0;
    for (int ti = 0; ti < nt; ++ti)
      if (tr.c_by_temperature[ti] > tr.c_by_temperature[best_ti]) best_ti = ti;
    tr.c = tr.c_by_temperature.empty() ? 0 : tr.c_by_temperature[best_ti];
    if (tr.c > 0 && !state_.is_solved(id)) {
      std::vector<CorrectSample> correct;
      for (const auto& [key, v] : rec.verdicts)
        if (std::get<0>(key) == id && std::get<1>(key) == best_ti && v.pass)
          correct.push_back({v.sample_index, v.canonical_key, v.program_length, v.impl, v.cycles,
                             v.feasible.value_or(false)});
      auto f = filter_task(correct, derived_seed(cfg_.seed, "filter", id, rec.start.iteration));
      if (f) {
        tr.newly_solved = true;
        tr.best_temperature_index = best_ti;
        tr.best_sample_index = f->best.sample_index;
        tr.best_length = f->best.program_length;
        tr.best_key = f->best.canonical_key;
        tr.best_impl = f->best.text;
        if (f->best.cycles && f->best.feasible) tr.best_cycles = f->best.cycles;
        tr.groups = f->groups;
        sum.newly_solved++;
      }
    }
    c_now[id] = tr.c;
    best_after[id] = std::max(best_after[id], tr.c);
    sum.results.push_back(std::move(tr));
  }
  std::vector<TaskInfo> sampled;
  for (const auto& t : state_.tasks)
    if (c_now.count(t.id)) sampled.push_back(t);
  json m;
  json it = completion_metrics(sampled, c_now, rec.start.n);
  m["iteration"] = {{"tasks", it["tasks"]}, {"solved", it["solved"]}, {"pass_at_1", it["pass_at_1"]},
                    {"pass_at_n", it["pass_at_n"]}};
  // Speed (docs/learn.md "Cost"): this iteration's verdicts over the tasks sampled; cumulative over all tasks.
  std::map<std::string, FastestProgram> fast_now;
  for (const auto& [key, v] : rec.verdicts) offer_fastest(fast_now, v);
  const json sp_it = speed_metrics(sampled, fast_now, cfg_.fast_tolerance);
  for (const auto& [k, v] : sp_it.items()) m["iteration"][k] = v;
  m["cumulative"] = completion_metrics(state_.tasks, best_after, rec.start.n);
  const json sp_cu = speed_metrics(state_.tasks, state_.fastest, cfg_.fast_tolerance);
  for (const auto& [k, v] : sp_cu.items()) m["cumulative"][k] = v;
  m["tokens"] = {{"total", state_.total_tokens()}};
  m["cost_usd"] = state_.total_cost();
  m["usage_by_role"] = usage_to_json(state_.usage);
  sum.metrics = m;
  return sum;
}

}  // namespace sf::learn
