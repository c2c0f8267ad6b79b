// The loop of a STeP-25 optimisation campaign (dialect step-v2; docs/campaign.md "STeP-25 optimisation
// campaigns"). Per task, memory.rounds proposals; each starts from the best correct feasible program so far (the
// baseline first) and sends the proposer — through the campaign's chat backend, so builtin, OpenAI, Anthropic and
// replay all work — the program, its compact perf report, the v2 operator card and the k retrieved rules
// (synth::opt2::round_prompt). The answer is read (opt2::read_answer, answer_moves) and judged (opt2::judge). The
// round's event is logged and folded by the campaign state (opt2_state.cpp) with synth::opt2::apply_round, the
// one place where the best program, the bank's credit and the distiller change: a resumed or replayed campaign
// replays the same fold. The bank is also written to the workspace (opt2_bank.json) after every task.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/bench/catalogue.hpp"
#include "core/learn/engine.hpp"
#include "core/step/task.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/store/event_log.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/opt2_answer.hpp"
#include "core/synth/opt2_campaign.hpp"

namespace sf::learn {

namespace fs = std::filesystem;
namespace o2 = synth::opt2;

namespace {

// The seed offset of the bank a transfer variant builds on the other split (the experiment's bank_seed_offset).
constexpr std::uint64_t kTransferSeedOffset = 1000;

// The campaign's tasks with their chip and baseline program (read by the engine, never shown as a solution).
bool opt2_tasks(const std::vector<step::TaskDoc>& docs, std::vector<o2::Opt2Task>& out, std::string& error) {
  const std::string res = bench::resource_dir();
  for (const auto& t : docs) {
    if (!t.is_v2()) return error = "task " + t.id + " is not a step-v2 task", false;
    std::string err;
    auto chip = step2::perf::chip_for(t, "", res, err);
    if (!chip) return error = "task " + t.id + ": " + err, false;
    const std::string path = step2::perf::baseline_path(t, res);
    if (path.empty()) return error = "task " + t.id + " names no baseline program to optimise", false;
    Diagnostics ds;
    step::AnyDoc doc = step::load_any_file(path, ds);
    if (!doc.solution)
      return error = path + ": " + (ds.empty() ? std::string("not a solution file") : ds.front().message), false;
    out.push_back({t, doc.solution->impl, *chip});
  }
  return true;
}

// Reads a rule bank file (or <folder>/opt2_bank.json of a workspace).
std::optional<o2::RuleBank> read_bank(fs::path file, std::string& error) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "opt2_bank.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) return error = file.string() + ": cannot read", std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  if (ss.str().size() > (64u << 20)) return error = file.string() + ": larger than 64 MiB", std::nullopt;
  auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) return error = file.string() + ": not JSON", std::nullopt;
  auto bank = o2::bank_from_json(j, error);
  if (!bank) error = file.string() + ": " + error;
  return bank;
}

}  // namespace

bool CampaignEngine::opt2_round(const o2::Opt2Task& t, int round, std::uint64_t seed, const o2::TaskRun& run,
                                const o2::RuleBank& bank, Opt2Round& out, std::vector<agent::TraceEvent>& traces) {
  const o2::Opt2Config oc = opt2_config(cfg_);
  out.task = t.task.id;
  out.round = round;
  const auto rules = o2::retrieve_for(run, bank, oc);
  for (const auto* r : rules) out.retrieved.push_back(r->rule.id);
  const std::string& start = run.out.best_impl.empty() ? t.baseline_impl : run.out.best_impl;
  const std::string prompt = o2::round_prompt(t, start, run.best, rules, deps_.manual_text);
  agent::RoleContext ctx = role_context(t.task.id, 0, round, traces);
  agent::TraceEvent ev;
  auto rr = agent::call_role(*deps_.backend, ctx, "optimiser", {{"user", prompt}}, "", cfg_.temperature0, seed, round, ev);
  if (cancel_.cancelled() || ev.error_kind == "cancelled") {
    traces.push_back(ev);
    return false;
  }
  o2::Proposal p;
  if (rr.ok()) {
    const o2::Answer a = o2::read_answer(rr.response->text);
    p.ok = !a.impl.empty();
    p.impl = a.impl;
    p.adopted = a.adopted;
    p.moves = o2::answer_moves(rr.response->text);
    if (p.ok) ev.impl = p.impl;
  }
  traces.push_back(ev);
  if (infrastructure_failure(traces)) return false;
  for (const auto& m : p.moves) out.moves.push_back({m.key, m.what, m.rule_id});
  out.adopted = p.adopted;
  out.impl = p.impl;
  const o2::Judgement j = o2::judge_answer(t, p, run.out.best_cycles, oc.tolerance);
  out.judgement = judgement_event(j);
  if (!rr.ok()) out.judgement.detail = "no answer (" + ev.error_kind + ")";
  // The task's best after this round (what the fold must reach).
  const bool won = j.verdict == o2::Verdict::Faster && j.cycles > 0;
  out.best_cycles = won ? j.cycles : run.out.best_cycles;
  out.best_speedup = out.best_cycles > 0 ? static_cast<double>(run.out.baseline_cycles) / out.best_cycles : 1.0;
  return true;
}

bool CampaignEngine::opt2_start_bank(const std::vector<o2::Opt2Task>& tasks, std::string& error) {
  Opt2Bank e;
  e.frozen = cfg_.memory.params.frozen;
  o2::RuleBank bank;
  if (!cfg_.memory.import.empty()) {
    auto b = read_bank(cfg_.memory.import, error);
    if (!b) return error = "memory.import: " + error, false;
    bank = std::move(*b);
    e.source = "import " + cfg_.memory.import;
  } else if (!cfg_.memory.transfer_from.empty() && cfg_.memory.enabled) {
    // Build the bank on the other split (same backend, seed + offset), then start from it. Its rounds are not
    // this campaign's: only the bank they built is logged.
    o2::Opt2Config oc = opt2_config(cfg_);
    const std::size_t first = cfg_.memory.transfer_from == "odd" ? 1 : 0;
    for (std::size_t i = first; i < tasks.size(); i += 2) {
      o2::TaskRun run = o2::start_task(tasks[i], oc.tolerance);
      for (int r = 0; r < oc.budget; ++r) {
        if (cancel_.cancelled() || halted()) return error = "", false;
        std::vector<agent::TraceEvent> traces;
        Opt2Round ev;
        const std::uint64_t seed =
            sample_seed(cfg_.seed + kTransferSeedOffset, tasks[i].task.id, 0, cfg_.temperature0, r);
        if (!opt2_round(tasks[i], r, seed, run, bank, ev, traces)) return error = "", false;
        o2::apply_round(run, r, ev.retrieved, proposal_from(ev), judgement_from(ev.judgement), oc, bank);
      }
    }
    e.source = "transfer " + cfg_.memory.transfer_from;
  } else {
    e.source = "empty";
  }
  e.bank = o2::bank_to_json(bank);
  return log_event(e, error);
}

RunResult CampaignEngine::opt2_loop() {
  RunResult r;
  std::string err;
  std::vector<o2::Opt2Task> tasks;
  if (!opt2_tasks(deps_.tasks, tasks, err)) {
    r.error = err;
    return r;
  }
  auto stopped = [&]() -> std::optional<RunResult> {
    if (cancel_.cancelled()) {
      RunResult c;
      c.status = RunStatus::Cancelled;
      return c;
    }
    if (halted()) return paused_result();
    return std::nullopt;
  };
  if (!state_.started) {
    CampaignStarted cs;
    cs.config = config_to_json(cfg_);
    for (const auto& t : deps_.tasks) cs.tasks.push_back({t.id, t.group, difficulty_tag(t)});
    if (!log_event(cs, err)) return r.error = err, r;
  }
  cur_iteration_ = 0;
  const int proposals = cfg_.memory.params.rounds;
  total_ = static_cast<std::int64_t>(tasks.size()) * proposals;
  done_ = 0;
  for (const auto& run : state_.opt2.runs) done_ += static_cast<std::int64_t>(run.out.rounds.size());
  iter_start_done_ = done_.load();
  {
    std::lock_guard lock(mu_);
    iter_t0_ = std::chrono::steady_clock::now();
  }
  if (!state_.opt2.bank_set && !opt2_start_bank(tasks, err)) {
    if (auto s = stopped()) return *s;
    return r.error = err, r;
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const o2::Opt2Task& t = tasks[i];
    if (!state_.opt2.run_of(t.task.id)) {
      const o2::Judgement base = o2::judge(t, t.baseline_impl, 0, cfg_.fast_tolerance);
      if (base.verdict == o2::Verdict::Incorrect || base.verdict == o2::Verdict::Infeasible || base.cycles <= 0)
        return r.error = "task " + t.task.id + ": its baseline program is " + std::string(o2::verdict_name(base.verdict)) +
                         " (" + base.detail + ")",
               r;
      if (!log_event(Opt2TaskStarted{t.task.id, o2::task_sizes(t.task), judgement_event(base)}, err))
        return r.error = err, r;
    }
    while (true) {
      const o2::TaskRun* run = state_.opt2.run_of(t.task.id);
      const int round = static_cast<int>(run->out.rounds.size());
      if (round >= proposals) break;
      wait_if_paused();
      if (auto s = stopped()) return *s;
      std::vector<agent::TraceEvent> traces;
      Opt2Round ev;
      const std::uint64_t seed = sample_seed(cfg_.seed, t.task.id, 0, cfg_.temperature0, round);
      const bool ok = opt2_round(t, round, seed, *run, state_.opt2.bank, ev, traces);
      if (!ok) {
        if (auto s = stopped()) return *s;
        continue;  // a transient endpoint failure below the halt threshold: the round is asked again
      }
      for (const auto& tr : traces)
        if (!log_event(LlmCall{static_cast<int>(i), t.task.id, 0, round, agent::to_json(tr)}, err)) return r.error = err, r;
      if (!log_event(ev, err)) return r.error = err, r;
      ++done_;
      ++samples_;
    }
    if (state_.opt2.run_of(t.task.id)->out.best_round >= 0) ++solved_;
    if (ws_) {
      std::string werr;  // the snapshot is a convenience: the log is the source of truth
      store::write_file_atomic(ws_->dir() / "opt2_bank.json", o2::bank_to_json(state_.opt2.bank).dump(2) + "\n", werr);
      if (!ws_->sync(err)) return r.error = err, r;
    }
  }
  if (!state_.finished) {
    int faster = 0;
    for (const auto& run : state_.opt2.runs) faster += run.out.best_round >= 0;
    if (!log_event(CampaignFinished{"done", 1, static_cast<int>(tasks.size()), faster}, err)) return r.error = err, r;
    if (ws_ && !ws_->sync(err)) return r.error = err, r;
  }
  r.status = RunStatus::Finished;
  r.reason = "done";
  return r;
}

}  // namespace sf::learn
