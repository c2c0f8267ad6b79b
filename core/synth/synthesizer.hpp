// The built-in offline proposer (issue 5): weighted bottom-up, type-directed enumeration over STeP
// statements in the spirit of TF-Coder. Values are streams with their type and their data on the task's
// first input set (main sizes); candidates are pruned by observational equivalence; the search stops when
// every output is matched and the printed program passes the verifier, or when the budget is spent.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cost/cost_model.hpp"
#include "core/step/task.hpp"
#include "core/synth/guidance.hpp"
#include "core/synth/optimise.hpp"
#include "core/verify/verifier.hpp"

namespace sf::synth {

struct SynthOptions {
  std::int64_t max_evaluations = 40000;        // candidate evaluations per sample
  double time_limit_s = 1.0;                   // CPU seconds (of the searching thread) per sample before the
                                               // first find; <= 0: none (only the evaluation budget counts)
  double wall_limit_s = -1;                    // wall-clock safety net (-1: 10 x time_limit_s + 1 s); when
                                               // it ends the search, SynthResult::timed_out is set
  int max_cost = 40;                           // highest weighted cost enumerated
  double temperature = 0.0;                    // Gumbel noise scale on the op weights and, when not
                                               // optimising, the spread of the pick among correct programs
                                               // (docs/synth.md "Temperature"; 0: the first one found)
  std::uint64_t seed = 0;                      // the sample's seed (noise and pick)
  std::int64_t max_value_scalars = 200'000;    // a candidate stream larger than this is skipped
  std::int64_t max_pool_scalars = 16'000'000;  // all kept values together
  // Optimisation (docs/synth.md "Optimisation"): the search goes on after its first correct program and
  // returns the fastest correct one under the cost model. Only evaluation counts bound it (no time limit
  // once a program is found), so results stay deterministic.
  bool optimise = true;
  std::int64_t optimise_evaluations = -1;   // candidate evaluations after the first correct program
                                            // (-1: the rest of max_evaluations)
  std::int64_t rewrite_evaluations = 300;   // programs verified by the rewrite hill-climb (per start)
  std::string previous_impl;                // optimisation round: a correct program to make faster
  // Canonical keys (step::canonical_key under the task's sizes) of programs not to return: the prompt's
  // "already tried" programs (config `novelty`). A verified program with such a key is skipped.
  std::vector<std::string> avoid_keys;
};

// Temperature spread (not optimising, temperature > 0): after the first correct program the search goes on
// for spread_evaluations(T, found_at) more candidate evaluations and collects up to spread_pool(T) distinct
// correct programs, then picks one with probability proportional to exp(-(cost - lowest cost) / (3 T))
// (cost: the enumeration's summed cost levels of the output values), from the seed's own stream.
int spread_pool(double temperature);
std::int64_t spread_evaluations(double temperature, std::int64_t found_at);

struct SynthStats {
  std::int64_t candidates = 0;     // evaluated candidate applications
  std::int64_t pruned = 0;         // observationally equivalent to a kept value
  std::int64_t type_rejected = 0;  // applications the typing rules reject (not evaluated)
  std::int64_t verified = 0;       // full programs sent to the verifier
  int depth = 0;                   // deepest kept value (statements from the inputs)
  int cost = 0;                    // highest cost level reached
  double seconds = 0;              // wall clock
  double cpu_seconds = 0;          // CPU time of the searching thread
};

struct AdoptionRecord {
  std::string id;
  bool adopted = false;
  std::string rationale;
};

struct SynthResult {
  bool found = false;
  std::string impl;                      // the program (Copies inserted), "" when nothing was found
  std::string raw_impl;                  // the same program as emitted, without Copies (issue 5 §5)
  std::vector<AdoptionRecord> adoption;  // one per retrieved memory item
  std::string response;                  // the text an LLM would return: ```yaml raw_impl + adoption```
                                         // (a reused stream has no Copy: the guardian inserts them)
  SynthStats stats;
  // Under the cost model (set when found): cycles of the returned program and whether it fits the chip.
  std::optional<std::int64_t> cycles;
  bool feasible = false;
  int correct_programs = 0;              // distinct correct programs costed (search + rewrites)
  int spread_candidates = 0;             // temperature spread: correct programs the pick chose among
  int avoided = 0;                       // verified programs skipped because their key was in avoid_keys
  std::string origin;                    // "search", "rewrite" (of the search's best), "previous" (the
                                         // optimisation round's program unchanged), "previous+rewrite"
  std::vector<std::string> moves;        // rewrite moves applied to reach the returned program
  std::vector<std::string> applied_patterns;  // ids of memory rewrite patterns (A>B=>C) used
  std::vector<std::string> rules_used;  // ids of resident rules whose pattern occurs in (or whose rewrite
                                        // led to) the returned program
  bool timed_out = false;               // the wall-clock safety net ended the search (not the budget)
};

class Synthesizer {
 public:
  // model: the cost model that ranks correct programs (nullptr: an own one on the default chip).
  explicit Synthesizer(verify::Verifier& verifier, cost::CostModel* model = nullptr);
  SynthResult run(const step::TaskDoc& task, const Guidance& guidance, const SynthOptions& opt);

 private:
  verify::Verifier& verifier_;
  std::unique_ptr<cost::CostModel> own_model_;
  cost::CostModel* model_;
};

// The response text for an impl and its adoption records; with `rules` (the prompt had resident rules
// with ids) a `rules_used: [id, ...]` line lists the ones used.
std::string format_response(const std::string& impl, const std::vector<AdoptionRecord>& adoption,
                            const std::vector<std::string>* rules_used = nullptr);

}  // namespace sf::synth
