// Optimisation under the cost model (docs/synth.md "Optimisation"): the cycles of a verified program, and
// the rewrite search of an optimisation round — hill-climbing from a correct program over local rewrites
// (dropping statements and round trips, fusing or swapping Map fns, smaller buffer/reduction parameters,
// spreading a Map over the lanes of a Multihot selector, and the before=>after rewrite patterns of memory),
// every candidate verified and costed. Budgeted by rewrite evaluations only (never by time).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/cost/cost_model.hpp"
#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"
#include "core/verify/verifier.hpp"

namespace sf::synth {

// How good a correct program is: feasible programs by cycles, then infeasible ones (by cycles). Lower wins.
struct PerfKey {
  bool feasible = false;
  std::int64_t cycles = std::numeric_limits<std::int64_t>::max();
  bool better_than(const PerfKey& o) const {
    if (feasible != o.feasible) return feasible;
    return cycles < o.cycles;
  }
};

// The cost model's key for a program that passed the verifier (nullopt: the model rejects it).
std::optional<PerfKey> program_perf(cost::CostModel& model, const step::TaskDoc& task, const std::string& impl);

// A slow->fast rewrite pattern of a memory item: "A>B=>C" (the chain A>B is replaced by C, with every
// parameter from the search's candidate sets); "A>B=>" drops the chain. Single-input chain primitives only.
struct RewritePattern {
  std::string id;  // the memory item's id ("" for resident rules)
  std::vector<step::Prim> before, after;
};
std::optional<RewritePattern> parse_rewrite_pattern(const std::string& text);

// The program without Copy statements (each Copy output renamed to its source): the rewrites work on it and
// step::insert_copies puts the Copies back.
step::Program strip_copies(const step::Program& prog);

struct RewriteOptions {
  std::int64_t max_evaluations = 600;  // candidate programs verified (and costed)
};

struct RewriteResult {
  bool improved = false;
  std::string impl;       // the best program (Copies inserted); the start program when nothing was faster
  std::string raw_impl;   // the same without Copies
  PerfKey start, best;
  std::int64_t evaluations = 0;           // candidate programs verified
  int correct = 0;                        // of which correct
  std::vector<std::string> applied;       // ids of the rewrite patterns used along the improving path
  std::vector<std::string> moves;         // the improving moves, in order ("drop Repeat at t3", ...)
};

// Hill-climbing from `start_impl` (a correct program): each round evaluates every neighbour (rewrite
// patterns first), moves to the fastest strictly faster verified one, and stops at a local optimum or when
// the evaluation budget is spent. A start that does not verify gives improved = false and impl = "".
RewriteResult optimise_program(verify::Verifier& ver, cost::CostModel& model, const step::TaskDoc& task,
                               const std::string& start_impl, const std::vector<RewritePattern>& patterns,
                               const RewriteOptions& opt);

}  // namespace sf::synth
