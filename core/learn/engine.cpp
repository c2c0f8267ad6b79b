#include "core/learn/engine.hpp"
#include "core/learn/golden_demos.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <set>

#include "core/agent/guardian.hpp"
#include "core/agent/proposer.hpp"
#include "core/bench/catalogue.hpp"
#include "core/common/hash.hpp"
#include "core/cost/chip.hpp"
#include "core/learn/filter.hpp"
#include "core/learn/round_parts.hpp"
#include "core/learn/stratify.hpp"
#include "core/llm/preflight.hpp"
#include "core/step/printer.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::uint64_t derived_seed(std::uint64_t seed, std::string_view what, std::string_view task, int iteration) {
  Fnv1a64 f;
  f.u64(seed);
  f.str(what);
  f.str(task);
  f.u64(static_cast<std::uint64_t>(iteration));
  return splitmix64(f.value());
}

}  // namespace

std::uint64_t sample_seed(std::uint64_t seed, std::string_view task, int iteration, double temperature,
                          int sample_index) {
  Fnv1a64 f;
  f.u64(seed);
  f.str(task);
  f.u64(static_cast<std::uint64_t>(iteration));
  f.u64(static_cast<std::uint64_t>(std::llround(temperature * 1000.0)));
  f.u64(static_cast<std::uint64_t>(sample_index));
  return splitmix64(f.value()) & 0x7fffffffULL;
}

CampaignEngine::CampaignEngine(CampaignConfig cfg, EngineDeps deps, store::Workspace* ws, EventSink* sink)
    : cfg_(std::move(cfg)),
      deps_(std::move(deps)),
      ws_(ws),
      sink_(sink),
      verifier_([this] {
        auto o = deps_.verify;
        o.cache_static = true;  // a campaign sees the same program texts again and again
        return o;
      }()),
      verify_slots_(std::clamp(cfg_.verify_threads, 1, 256)) {
  std::optional<cost::ChipProfile> chip;
  if (cfg_.chip == "default") chip = cost::default_chip();
  else chip = cost::find_chip(cfg_.chip, bench::resource_dir(), cost_error_);
  if (!chip) {
    cost_error_ = "config key 'chip': " + cost_error_;
    chip = cost::default_chip();
  }
  cost_ = std::make_unique<cost::CostModel>(*chip);
  baselines_ = std::make_unique<cost::Baselines>(*cost_, bench::resource_dir() + "/solutions");
}

std::optional<std::int64_t> CampaignEngine::baseline_cycles(const step::TaskDoc& task) {
  try {
    return baselines_->cycles(task);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<cost::CostReport> CampaignEngine::measure(const step::TaskDoc& task, Verdict& v) {
  if (!v.pass || v.impl.empty()) return std::nullopt;
  std::optional<cost::CostReport> r;
  try {
    Diagnostics d;
    r = cost_->evaluate(task, v.impl, {}, d);
  } catch (const std::exception&) {
    r.reset();
  }
  if (!r) return r;
  v.cycles = r->cycles;
  v.feasible = r->feasible;
  v.speedup = cost::speedup(*r, baseline_cycles(task));
  return r;
}

CampaignEngine::~CampaignEngine() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

const step::TaskDoc* CampaignEngine::find_task(const std::string& id) const {
  for (const auto& t : deps_.tasks)
    if (t.id == id) return &t;
  return nullptr;
}

agent::RoleContext CampaignEngine::role_context(const std::string& task, int iteration, int round,
                                                std::vector<agent::TraceEvent>& traces, Reservation* res) {
  agent::RoleContext ctx;
  ctx.model = cfg_.backend.model;
  ctx.max_tokens = cfg_.max_tokens;
  ctx.prices = deps_.prices;
  ctx.task_id = task;
  ctx.iteration = iteration;
  ctx.round = round;
  ctx.cancel = cancel_;
  ctx.sink = [&traces](const agent::TraceEvent& e) { traces.push_back(e); };
  const Budget& b = cfg_.budget;
  if (b.tokens > 0 || b.cost_usd > 0 || b.wall_s > 0)
    ctx.admit = [this, res](const llm::ChatRequest& req, std::string& why) { return admit_call(req, res, why); };
  return ctx;
}

bool CampaignEngine::admit_call(const llm::ChatRequest& req, Reservation* res, std::string& why) {
  if (halted()) {
    why = "the campaign is pausing";
    return false;
  }
  const Budget& b = cfg_.budget;
  const std::int64_t in = agent::estimate_tokens(agent::prompt_chars(req.messages));
  const std::int64_t est = in + req.max_tokens;
  llm::Usage u;
  u.input_tokens = in;
  u.output_tokens = req.max_tokens;
  const double est_cost = deps_.prices ? deps_.prices->cost(req.model, u).value_or(0.0) : 0.0;
  std::lock_guard lock(budget_mu_);
  std::int64_t spent = 0;
  double spent_cost = 0.0, wall = 0.0;
  {
    std::lock_guard l(emit_mu_);
    spent = state_.total_tokens();
    spent_cost = state_.total_cost();
    wall = state_.wall_s;
  }
  {
    std::lock_guard l(mu_);
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - iter_t0_).count();
  }
  auto num = [](double x) { return std::to_string(static_cast<long long>(std::ceil(x))); };
  if (b.tokens > 0 && spent + pending_tokens_ + est > b.tokens) {
    why = "budget.tokens = " + std::to_string(b.tokens) + " could be exceeded by the next call (spent " +
          std::to_string(spent) + ", in flight up to " + std::to_string(pending_tokens_) + ", this call up to " +
          std::to_string(est) + " = prompt ~" + std::to_string(in) + " + max_tokens " + std::to_string(req.max_tokens) +
          "): raise budget.tokens in campaign.json, then resume";
  } else if (b.cost_usd > 0 && spent_cost + pending_cost_ + est_cost > b.cost_usd) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "budget.cost_usd = %.4f could be exceeded by the next call (spent $%.4f, in flight up to $%.4f, this call up to $%.4f)",
                  b.cost_usd, spent_cost, pending_cost_, est_cost);
    why = std::string(buf) + ": raise budget.cost_usd in campaign.json, then resume";
  } else if (b.wall_s > 0 && wall >= b.wall_s) {
    why = "budget.wall_s = " + num(b.wall_s) + " s is used up (" + num(wall) +
          " s): raise budget.wall_s in campaign.json, then resume";
  } else {
    if (res) {
      pending_tokens_ += est;
      pending_cost_ += est_cost;
      res->tokens += est;
      res->cost += est_cost;
    }
    return true;
  }
  halt("budget", why);
  return false;
}

void CampaignEngine::release(Reservation& res) {
  std::lock_guard lock(budget_mu_);
  pending_tokens_ -= res.tokens;
  pending_cost_ -= res.cost;
  res = {};
}

void add_trace_usage(UsageByRole& into, const agent::TraceEvent& t) {
  RoleUsage u;
  u.input_tokens = t.usage.input_tokens;
  u.output_tokens = t.usage.output_tokens;
  u.cost_usd = t.cost_usd.value_or(0.0);
  u.calls = t.prompt.empty() ? 0 : 1;
  if (u.calls > 0 || u.input_tokens > 0 || u.output_tokens > 0) add_usage(into, t.role, u);
}

bool CampaignEngine::load(const std::vector<json>& events, std::string& error) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].is_object() && events[i].value("type", "") == "audit_label") {
      // Written by the GUI's audit pane: not part of the engine's state (only the sequence number moves on).
      const auto& sq = events[i].value("seq", nlohmann::json());
      if (sq.is_number_integer()) state_.next_seq = std::max(state_.next_seq, sq.get<std::int64_t>() + 1);
      continue;
    }
    auto e = event_from_json(events[i], error);
    if (!e || !state_.apply(*e, error)) {
      error = "event " + std::to_string(i + 1) + ": " + error;
      return false;
    }
  }
  if (state_.started) {
    // The log must belong to this campaign: same sampling-relevant config and the same tasks.
    json now = config_to_json(cfg_);
    std::vector<const char*> keys = {"mode", "n", "temperature0", "temperatures", "m", "selection", "random_k", "seed",
                                     "chip", "objective"};
    if (cfg_.mode == Mode::Sage) keys.push_back("memory");
    // Keys a log written before them lacks count as their defaults.
    const json defaults = {{"chip", "default"}, {"objective", "correctness"}};
    for (const char* k : keys) {
      json logged = state_.config.value(k, defaults.value(k, json()));
      if (logged != now[k]) {
        error = std::string("the event log was written with a different '") + k + "' than campaign.json";
        return false;
      }
    }
    std::vector<std::string> ids, logged;
    for (const auto& t : deps_.tasks) ids.push_back(t.id);
    for (const auto& t : state_.tasks) logged.push_back(t.id);
    if (ids != logged) {
      error = "the event log lists different tasks than the campaign config resolves to";
      return false;
    }
  }
  solved_ = static_cast<int>(state_.solved.size());
  return true;
}

bool CampaignEngine::log_event(EventBody body, std::string& error) {
  std::lock_guard lock(emit_mu_);
  // A model call that hit a wall-clock limit (the builtin synthesizer's safety net, an HTTP timeout) is a
  // `timeout` verdict followed by a warning event: the result depended on time, never silently.
  std::optional<Warning> warning;
  if (const auto* v = std::get_if<Verdict>(&body); v && v->stage == "llm" && v->code == "timeout")
    warning = Warning{"timeout", v->task, v->iteration, v->sample_index, v->error};
  auto one = [&](EventBody b) {
    Event e;
    e.seq = state_.next_seq;
    e.t = now_epoch();
    e.body = std::move(b);
    if (!state_.apply(e, error)) {
      error = "internal: " + error;
      return false;
    }
    json j = to_json(e);
    if (ws_ && !ws_->append(j, error)) return false;
    if (sink_) sink_->on_event(e);
    return true;
  };
  return one(std::move(body)) && (!warning || one(std::move(*warning)));
}

void CampaignEngine::start() {
  std::lock_guard lock(mu_);
  if (started_) return;
  started_ = true;
  running_ = true;
  t0_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this] {
    RunResult r;
    try {
      r = loop();
    } catch (const std::exception& ex) {
      r.status = RunStatus::Failed;
      r.error = std::string("internal error: ") + ex.what();
    }
    std::lock_guard l(mu_);
    result_ = r;
    running_ = false;
  });
}

void CampaignEngine::pause() {
  std::lock_guard lock(mu_);
  paused_ = true;
}

void CampaignEngine::resume() {
  {
    std::lock_guard lock(mu_);
    paused_ = false;
  }
  cv_.notify_all();
}

void CampaignEngine::cancel() {
  cancel_.cancel();
  resume();
}

RunResult CampaignEngine::wait() {
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mu_);
  return result_;
}

EngineProgress CampaignEngine::progress() const {
  EngineProgress p;
  p.iteration = cur_iteration_;
  p.done = done_;
  p.total = total_;
  p.samples = samples_;
  p.solved = solved_;
  p.tasks = static_cast<int>(deps_.tasks.size());
  std::lock_guard lock(mu_);
  p.running = running_;
  p.paused = paused_;
  auto now = std::chrono::steady_clock::now();
  if (started_) p.elapsed_s = std::chrono::duration<double>(now - t0_).count();
  std::int64_t run_done = p.done - iter_start_done_;
  double it_el = std::chrono::duration<double>(now - iter_t0_).count();
  if (run_done > 0 && it_el > 0) p.eta_s = static_cast<double>(p.total - p.done) * it_el / static_cast<double>(run_done);
  return p;
}

bool CampaignEngine::budget_spent() const {
  const Budget& b = cfg_.budget;
  if (b.tokens > 0 && state_.total_tokens() >= b.tokens) return true;
  if (b.cost_usd > 0 && state_.total_cost() >= b.cost_usd) return true;
  if (b.wall_s > 0) {
    double el = state_.wall_s;  // finished iterations, this and earlier processes
    if (el >= b.wall_s) return true;
  }
  return false;
}

bool CampaignEngine::infrastructure_failure(const std::vector<agent::TraceEvent>& traces) {
  if (std::any_of(traces.begin(), traces.end(), [](const auto& t) { return t.error_kind == "budget"; }))
    return true;  // refused before sending: halt() has the reason
  std::optional<llm::FailureDiagnosis> d = endpoint_failure(cfg_.backend, traces);
  if (!d) {
    consecutive_failures_ = 0;
    return false;
  }
  if (!d->transient) {
    halt("infrastructure", d->message);
  } else {
    const int k = std::max(1, cfg_.backend.max_consecutive_failures);
    if (++consecutive_failures_ >= k)
      halt("infrastructure",
           d->message + " (" + std::to_string(k) + " samples in a row; backend.max_consecutive_failures)");
  }
  return true;
}

void CampaignEngine::halt(std::string kind, std::string message) {
  std::lock_guard lock(mu_);
  if (halt_.load()) return;  // the first cause counts
  halt_kind_ = std::move(kind);
  halt_message_ = std::move(message);
  halt_ = true;
}

RunResult CampaignEngine::paused_result() {
  RunResult r;
  {
    std::lock_guard lock(mu_);
    r.reason = halt_kind_;
    r.error = halt_message_;
  }
  std::string err;
  if (!log_event(CampaignPaused{r.reason, r.error}, err) ||
      (ws_ && !ws_->sync(err))) {
    r.status = RunStatus::Failed;
    r.error += "; " + err;
    return r;
  }
  r.status = RunStatus::Paused;
  return r;
}

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

RunResult CampaignEngine::loop() {
  RunResult r;
  std::string err;
  if (!deps_.backend) {
    r.error = "no chat backend";
    return r;
  }
  if (!cost_error_.empty()) {
    r.error = cost_error_;
    return r;
  }
  if (cfg_.mode == Mode::Sage) return sage_loop();
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
  const json sp_it = speed_metrics(sampled, fast_now);
  for (const auto& [k, v] : sp_it.items()) m["iteration"][k] = v;
  m["cumulative"] = completion_metrics(state_.tasks, best_after, rec.start.n);
  const json sp_cu = speed_metrics(state_.tasks, state_.fastest);
  for (const auto& [k, v] : sp_cu.items()) m["cumulative"][k] = v;
  m["tokens"] = {{"total", state_.total_tokens()}};
  m["cost_usd"] = state_.total_cost();
  m["usage_by_role"] = usage_to_json(state_.usage);
  sum.metrics = m;
  return sum;
}

}  // namespace sf::learn
