// The runner of CampaignEngine: construction, resume (load), the background thread (start, wait), pause,
// resume, cancel, progress, the event log and sink (log_event), budgets and halts, and the cost model shared by
// the loops. The loops themselves: engine_classic.cpp (single / agent / adaptive), sage_engine.cpp (sage).
#include "core/learn/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/bench/catalogue.hpp"
#include "core/common/hash.hpp"
#include "core/cost/chip.hpp"
#include "core/learn/round_parts.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
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
    if (cfg_.is_v2()) keys.push_back("dialect");
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
    std::int64_t seq = e.seq;
    if (ws_ && !ws_->append(j, error, &seq)) return false;
    if (seq > e.seq) {  // the log numbered it after a line another writer (an audit label) appended
      e.seq = seq;
      state_.next_seq = std::max(state_.next_seq, seq + 1);
    }
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

RunResult CampaignEngine::loop() {
  RunResult r;
  if (!deps_.backend) {
    r.error = "no chat backend";
    return r;
  }
  if (!cost_error_.empty()) {
    r.error = cost_error_;
    return r;
  }
  if (cfg_.is_v2()) return opt2_loop();
  return cfg_.mode == Mode::Sage ? sage_loop() : classic_loop();
}

}  // namespace sf::learn
