// Mode sage of the campaign engine (algorithms §4, issue 7): per task up to T refinement rounds with
// retrieval, utility reranking, resident rules, the adoption protocol (one re-ask), guardian and verifier;
// the episode's results are logged before the memory is updated (ATU credit, access estimates, distilled
// experiences, UGC with the abstractor role); memory.json is rewritten atomically after every episode. Event
// contract: docs/learn.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/agent/guardian.hpp"
#include "core/agent/proposer.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/round_parts.hpp"
#include "core/memory/memory_store.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

}  // namespace

void CampaignEngine::wait_if_paused() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !paused_ || cancel_.cancelled(); });
}

RunResult CampaignEngine::sage_loop() {
  RunResult r;
  std::string err;
  auto fail = [&](std::string e) {
    r.status = RunStatus::Failed;
    r.error = std::move(e);
    return r;
  };
  if (deps_.tasks.empty()) return fail("a sage campaign needs at least one task");
  if (!cost_error_.empty()) return fail(cost_error_);
  if (!state_.started) {
    CampaignStarted cs;
    cs.config = config_to_json(cfg_);
    for (const auto& t : deps_.tasks) cs.tasks.push_back({t.id, t.group, difficulty_tag(t)});
    if (!log_event(cs, err)) return fail(err);
  }
  // The memory the campaign starts from (empty, or the imported file), and the one it has reached.
  std::optional<memory::MemoryStore> mem;
  if (cfg_.memory.enabled) {
    memory::MemoryConfig mc = cfg_.memory.params;
    mc.seed = mc.seed != 0 ? mc.seed : cfg_.seed;
    memory::MemoryStore initial(mc);
    if (!cfg_.memory.import.empty()) {
      auto o = memory::load_memory_file(cfg_.memory.import, mc);
      if (!o.ok())
        return fail("memory.import '" + cfg_.memory.import +
                    "': " + (o.error ? o.error->message : "cannot load"));
      initial = std::move(*o.value);
    }
    const std::int64_t base = initial.episodes();
    mem = std::move(initial);
    const int finished = state_.sage.finished_episodes();
    std::int64_t done = 0;
    if (ws_ && finished > 0 && std::filesystem::exists(ws_->dir() / "memory.json")) {
      auto o = memory::load_memory_file((ws_->dir() / "memory.json").string(), mc);
      if (!o.ok()) return fail("memory.json: " + (o.error ? o.error->message : "cannot load"));
      if (!mc.frozen) {
        done = o.value->episodes() - base;
        if (done < 0 || done > finished)
          return fail("memory.json (after " + std::to_string(o.value->episodes()) +
                      " episodes) does not match the event log (" + std::to_string(finished) +
                      " finished episodes)");
      }
      mem = std::move(*o.value);
    }
    // Episodes whose memory phase was interrupted: redo it (deterministic), logging only what is missing.
    for (int e = static_cast<int>(done); e < finished && !mc.frozen; ++e) {
      if (!sage_memory_phase(e, *mem, state_.sage.episodes[static_cast<std::size_t>(e)].memory_events, err))
        return fail(err);
      if (ws_) ws_->write_memory(mem->to_json(), err);
    }
  }
  const int ntasks = static_cast<int>(deps_.tasks.size());
  const int total = ntasks * std::max(1, cfg_.memory.episodes);
  cur_iteration_ = 0;
  total_ = total;
  {
    std::lock_guard lock(mu_);
    iter_t0_ = std::chrono::steady_clock::now();
  }
  auto update_counts = [&] {
    done_ = state_.sage.finished_episodes();
    samples_ = done_.load();
    solved_ = static_cast<int>(state_.solved.size());
  };
  update_counts();
  iter_start_done_ = done_.load();
  auto t_run = std::chrono::steady_clock::now();
  std::string reason = "done";
  while (!state_.finished) {
    if (cancel_.cancelled()) {
      r.status = RunStatus::Cancelled;
      return r;
    }
    if (halted()) return paused_result();  // the episode in progress restarts on resume, as after a cancel
    wait_if_paused();
    if (cancel_.cancelled()) continue;
    const int e = state_.sage.finished_episodes();
    if (e >= total) break;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
    if (budget_spent() || (cfg_.budget.wall_s > 0 && el >= cfg_.budget.wall_s)) {
      reason = std::string(stop_reason_name(StopReason::BudgetSpent));
      break;
    }
    const step::TaskDoc& task = deps_.tasks[static_cast<std::size_t>(e % ntasks)];
    bool cancelled = false;
    if (!sage_episode(e, task, mem ? &*mem : nullptr, cancelled, err)) return fail(err);
    if (cancelled) continue;
    if (mem && !mem->config().frozen) {
      if (!sage_memory_phase(e, *mem, 0, err)) return fail(err);
      if (ws_) ws_->write_memory(mem->to_json(), err);  // a failed snapshot is not fatal
    }
    if (ws_ && !ws_->sync(err)) return fail(err);
    update_counts();
  }
  if (!state_.finished) {
    CampaignFinished f{reason, state_.sage.finished_episodes(), ntasks,
                       static_cast<int>(state_.solved.size())};
    if (!log_event(f, err)) return fail(err);
    if (ws_) ws_->sync(err);
  }
  update_counts();
  r.status = RunStatus::Finished;
  r.reason = state_.finished->reason;
  return r;
}

bool CampaignEngine::sage_episode(int episode, const step::TaskDoc& task, memory::MemoryStore* mem,
                                  bool& cancelled, std::string& error) {
  const int T = std::max(1, cfg_.memory.params.rounds);
  if (!log_event(EpisodeStarted{episode, task.id, T, false, ""}, error))
    return false;
  std::string prev_impl, prev_diags;
  bool have_prev = false;
  int first_correct = -1, rounds = 0;
  const double temperature = cfg_.temperature0;
  // Config novelty: the task's distinct failed programs of its finished episodes, then of this episode's rounds.
  TriedPrograms tried;
  if (cfg_.novelty > 0) {
    for (const auto& ep : state_.sage.episodes)
      if (ep.finished && ep.task == task.id && ep.episode < episode)
        for (const auto& r : ep.rounds)
          if (r.has_verdict) tried.add(r.verdict);
  }
  // Optimisation phase (objective performance, docs/learn.md "Cost"): after the first correct program the
  // episode continues from the best program so far (feasible first, then fewer cycles) with its cost feedback.
  const bool performance = cfg_.objective == Objective::Performance;
  const std::optional<std::int64_t> baseline = performance ? baseline_cycles(task) : std::nullopt;
  std::optional<cost::CostReport> best;
  std::optional<double> best_speedup;
  std::string best_impl, perf_feedback;
  for (int round = 0; round < T; ++round) {
    wait_if_paused();
    if (cancel_.cancelled()) {
      cancelled = true;
      return true;
    }
    ++rounds;
    // Retrieval: query = task description + current diagnostics; hot items are never retrieved.
    agent::PromptInput in;
    in.manual_text = deps_.manual_text;
    in.task_text = task.raw_text_without_impl;
    std::set<std::string> hot_ids;
    std::vector<memory::Candidate> cands;
    if (mem && cfg_.memory.mode == MemoryMode::FullContext) {
      cands = mem->full_context(mem->config().budget);  // the ablation: everything, newest first
      add_experiences(*mem, cands, in);
    } else if (mem) {
      cands = add_memory_context(*mem, task.title + "\n" + task.description + "\n" +
                                           (first_correct >= 0 ? perf_feedback : prev_diags),
                                 in, hot_ids);
    }
    in.baseline_cycles = baseline;
    if (cfg_.novelty > 0) in.already_tried = tried.last(static_cast<std::size_t>(cfg_.novelty));
    if (first_correct >= 0) {
      in.previous_attempt = best_impl;
      in.performance_feedback = perf_feedback;
    } else if (have_prev) {
      in.previous_attempt = prev_impl.empty() ? std::string("(no program)") : prev_impl;
      in.previous_diagnostics = prev_diags;
    }
    const std::uint64_t seed = sample_seed(cfg_.seed, task.id, episode, temperature, round);
    std::vector<agent::TraceEvent> traces;
    ReservationHold hold{*this, {}};
    agent::RoleContext ctx = role_context(task.id, episode, round, traces, &hold.res);
    agent::PromptOptions popt;
    popt.max_prompt_tokens = cfg_.max_prompt_tokens;

    Verdict v;
    v.iteration = episode;
    v.task = task.id;
    v.temperature = temperature;
    v.sample_index = round;
    v.seed = seed;
    auto is_cancelled = [&] {
      return cancel_.cancelled() || std::any_of(traces.begin(), traces.end(),
                                                [](const auto& t) { return t.error_kind == "cancelled"; });
    };
    AdoptedProposal ap = propose_with_adoption(*deps_.backend, ctx, popt, in, round, temperature, seed, hot_ids,
                                               is_cancelled);
    // A call (the proposer's or its adoption re-ask) that failed for a reason that is not the model's answer:
    // the round is not a sample; the episode restarts (after resume, or at once for a transient failure).
    if (is_cancelled() || infrastructure_failure(traces)) {
      cancelled = true;
      return true;
    }
    const auto& resolved = ap.resolved;
    const auto& reasked = ap.reasked;
    std::string impl = ap.impl;
    if (impl.empty()) set_no_program_verdict(ap, traces, v);
    std::string diags_text;
    std::optional<cost::CostReport> cr;
    if (!impl.empty()) {
      try {
        agent::Guardian guardian(deps_.backend, ctx, &verifier_);
        agent::GuardResult guarded = guardian.guard(task, impl, cfg_.guardian, round);
        impl = guarded.impl;
        if (is_cancelled() || infrastructure_failure(traces)) {
          cancelled = true;
          return true;
        }
        verify::Report rep = verifier_.verify(
            task, impl, {}, verify::derive_extra_seeds(seed, task.id, round, cfg_.extra_seeds, task.verify.seeds),
            guarded.checked);
        v.pass = rep.pass;
        v.stage = rep.stage ? std::string(stage_name(*rep.stage)) : "";
        v.code = rep.code;
        v.canonical_key = rep.canonical_key;
        v.program_length = rep.program_length;
        v.impl = impl;
        cr = measure(task, v);
        diags_text = format_round_diagnostics(rep.diags);
        traces.push_back(verifier_event(task.id, episode, round, cfg_.backend.model, impl, rep, diags_text));
      } catch (const std::exception& ex) {
        v.pass = false;
        v.stage = "internal";
        v.code = "internal";
        v.error = ex.what();
      }
    } else {
      diags_text = format_diagnostic(make_error(v.code, v.error, {1, 1}), "impl") + "\n";
    }
    // Usage of this round's calls, per role.
    for (const auto& t : traces) add_trace_usage(v.usage, t);
    // Results first: the calls, the adoption records and the verdict, in that order.
    for (const auto& t : traces)
      if (!log_event(LlmCall{episode, task.id, 0, round, agent::to_json(t)}, error)) return false;
    for (const auto& c : cands) {
      if (!log_event(adoption_record(episode, task.id, round, c, resolved, reasked,
                                first_correct >= 0 ? best_impl : prev_impl, impl),
                error))
        return false;
    }
    if (!log_event(v, error)) return false;
    tried.add(v);
    if (v.pass) {
      if (first_correct < 0) first_correct = round;
      if (cr && (!best || (cr->feasible && !best->feasible) ||
                 (cr->feasible == best->feasible && cr->cycles < best->cycles))) {
        best = cr;
        best_impl = impl;
        best_speedup = v.speedup;
      }
    }
    if (first_correct >= 0) {
      // Optimise only with a baseline to measure against and a timed program to start from.
      if (!performance || !baseline || !best) break;
      perf_feedback = cost::feedback_text(*best, baseline);
      continue;
    }
    prev_impl = impl;
    prev_diags = diags_text;
    have_prev = true;
  }
  const bool solved = first_correct >= 0;
  double score = solved ? 1.0 : 0.0;
  if (solved && performance && baseline) {
    // algorithms §4.2 with a cost model: 0.5 + 0.5 min(1, log2(1 + speedup)); a correct program the model
    // cannot call feasible scores 0.5.
    score = best_speedup ? 0.5 + 0.5 * std::min(1.0, std::log2(1.0 + *best_speedup)) : 0.5;
  }
  return log_event(EpisodeFinished{episode, task.id, score, rounds, first_correct, solved}, error);
}

}  // namespace sf::learn
