// STeP-25 optimisation campaigns with the fallible built-in optimiser (docs/synth.md, "STeP-25 optimisation
// campaigns"): per task, a fixed number of proposals; each starts from the best feasible correct program so far
// (initially the task's baseline, read by the engine), shows the proposer the program, a compact perf report
// and up to k retrieved rules, and judges the answer: checked (step2::check), timed (the STeP-25 cost model),
// verified (step2::simulate against the task's reference on verify.seeds[0] under every binding). A failed or
// slower answer never replaces the best. Slow->fast pairs are distilled into rules of a growing bank; rules
// compete for k retrieval slots by relevance + credit (atu: only adopting proposals count; uniform: every
// retrieved rule gets the proposal's outcome; off: no credit).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/step/task.hpp"
#include "core/step2/perf/chip.hpp"
#include "core/synth/opt2_propose.hpp"

namespace sf::synth::opt2 {

enum class Verdict { Faster, Slower, Infeasible, Incorrect };
std::string_view verdict_name(Verdict v);  // "correct+faster", "correct+slower", "infeasible", "incorrect"

struct Judgement {
  Verdict verdict = Verdict::Incorrect;
  std::string detail;  // Infeasible: the C-* code; Incorrect: "check P-SYNTAX", "simulate R2-STOPS", "values"
  std::int64_t cycles = 0;
  double pct_of_peak = 0;
  std::string perf_text;              // the compact report (cycles, bytes, % of peak, busiest 3, violations)
  std::vector<std::string> busiest;   // statement targets, busiest first
  std::string bottleneck;             // the busiest node's limit: pmu_read, compute, write_back, hbm, waiting
};

// A task of a campaign: the document, its baseline program (read by the engine, never shown as a solution)
// and the chip it is timed on.
struct Opt2Task {
  step::TaskDoc task;
  std::string baseline_impl;
  step2::perf::Chip chip;
};

// Judges `impl` against the task; `best_cycles` decides faster/slower (tie tolerance `tolerance`).
Judgement judge(const Opt2Task& t, const std::string& impl, std::int64_t best_cycles, double tolerance);

enum class Credit { Off, Uniform, Atu };
std::string_view credit_name(Credit c);
std::optional<Credit> parse_credit(std::string_view s);

struct BankRule {
  Rule rule;               // id + move
  std::string statement;   // abstract statement
  std::string bottleneck;  // context: the limit it paid under
  std::string op_pattern;  // context: the task group ("gemm", "ffn", ...)
  std::string sizes;       // context: the task's sizes ("M=256 K=256 N=256")
  double best_speedup = 1;
  int wins = 0, losses = 0;          // adoption evidence (atu)
  int retrieved = 0, u_wins = 0;     // uniform evidence
  double credit(Credit c) const;
};

struct RuleBank {
  std::vector<BankRule> rules;
  bool frozen = false;  // no new rules, no credit updates (the transfer setting)
  std::vector<const BankRule*> retrieve(const std::string& bottleneck, const std::string& group, int k,
                                        Credit c) const;
};

struct Opt2Config {
  int budget = 12;  // proposals per task
  std::uint64_t seed = 1;
  bool memory = false;
  Credit credit = Credit::Atu;
  int k = 3;
  double tolerance = 0.01;
};

struct RoundRecord {
  int round = 0;
  Verdict verdict = Verdict::Incorrect;
  std::string detail;
  std::int64_t cycles = 0;
  std::vector<std::string> moves;      // move keys
  std::vector<std::string> retrieved;  // rule ids
  std::vector<std::string> adopted;
  double pct_of_peak = 0;
};

struct TaskOutcome {
  std::string id;
  std::int64_t baseline_cycles = 0, best_cycles = 0;
  double speedup = 1, pct_of_peak = 0;
  int best_round = -1;                    // -1: no faster program
  std::vector<std::string> winning_moves; // the moves along the improving path
  std::vector<double> curve;              // best speedup after each proposal
  std::vector<RoundRecord> rounds;
  std::string best_impl;
};

struct Opt2Result {
  std::vector<TaskOutcome> tasks;
  double fast_1 = 0, fast_1_5 = 0, fast_2 = 0, median_speedup = 1, geomean_speedup = 1, auc = 0;
};

// Runs every task in order with one bank (grows across tasks unless frozen). Deterministic given cfg.seed.
// Proposals come from propose() directly; the campaign engine (core/learn/engine_opt2.cpp) asks a chat backend
// instead. Both fold every round with apply_round below, so the bank, credit and distiller exist once.
Opt2Result run_campaign(const std::vector<Opt2Task>& tasks, const Opt2Config& cfg, RuleBank& bank);

// ---- the round, shared by run_campaign and the campaign engine ----

// One task while a campaign runs: its outcome so far and the judgement of its best program (the baseline's
// until a round is faster). out.best_impl is the program the next round starts from.
struct TaskRun {
  TaskOutcome out;
  Judgement best;
  std::string group;  // the op pattern of distilled rules ("gemm")
  std::string sizes;  // the task's sizes ("M=256 N=256")
};
std::string task_group(const std::string& id);
std::string task_sizes(const step::TaskDoc& t);
// The starting state from the baseline's judgement.
TaskRun start_task(const std::string& id, const std::string& sizes, const Judgement& baseline,
                   const std::string& baseline_impl);
TaskRun start_task(const Opt2Task& t, double tolerance);  // judges the baseline

// The rules a round sees: the k best of the bank for the task's best program (none without memory).
std::vector<const BankRule*> retrieve_for(const TaskRun& run, const RuleBank& bank, const Opt2Config& cfg);

// Judges an answer (no program: incorrect, "no answer").
Judgement judge_answer(const Opt2Task& t, const Proposal& answer, std::int64_t best_cycles, double tolerance);

// Folds one judged answer into the task and the bank: credit of the retrieved and adopted rules (unless the
// bank is frozen or memory is off), a slow->fast pair distilled into rules (one per move; a known move is
// strengthened), and a faster answer becomes the best. A failed or slower answer never replaces the best.
RoundRecord apply_round(TaskRun& run, int round, const std::vector<std::string>& retrieved, const Proposal& answer,
                        const Judgement& j, const Opt2Config& cfg, RuleBank& bank);

// fast_1 / fast_1_5 / fast_2, median and geometric-mean speedup and AUC over res.tasks (speedup, curve).
void summarize(Opt2Result& res, double tolerance);

// The moves an answer says it made: a `moves: [tile N*2, par_dispatch 16]` line when there is one, else the
// builtin optimiser's bullet lines before the program ("- tile N*2 on every load ...", "(from r3)" naming the
// adopted rule) read back into move keys. At most 8; unreadable lines are skipped.
std::vector<AppliedMove> answer_moves(const std::string& text);
// The move key of one line an answer lists ("par_dispatch=16 on every off-chip load" -> "par_dispatch 16");
// nullopt when the line names no move.
std::optional<std::string> move_key_of_line(const std::string& line);

// The bank as JSON {"rules": [{id, move, statement, bottleneck, op_pattern, sizes, best_speedup, wins, losses,
// retrieved, u_wins}]} and back (strict and bounded: at most 4096 rules, strings up to 4096 characters;
// nullopt with `error` naming the field).
nlohmann::json bank_to_json(const RuleBank& bank);
std::optional<RuleBank> bank_from_json(const nlohmann::json& j, std::string& error);

// The proposer's view of one round: the program, the perf report, the operator card, the retrieved rules.
// `card` is the v2 operator card (resources/step2_operator_card.md).
std::string round_prompt(const Opt2Task& t, const std::string& impl, const Judgement& perf,
                         const std::vector<const BankRule*>& rules, const std::string& card);

}  // namespace sf::synth::opt2
