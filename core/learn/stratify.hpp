// Stratification β and cumulative demonstration selection d_j (algorithms §3 steps 3–4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sf::learn {

// The solved tasks split into difficulty levels, hardest (lowest c) first.
struct Stratification {
  // levels[j] = indices into the input counts, ascending by c (ties: input order).
  std::vector<std::vector<std::size_t>> levels;
  // thresholds[j] = the largest c in level j.
  std::vector<int> thresholds;
  std::size_t level_count() const { return levels.size(); }
};

// β(D, m): sorts the success counts ascending (stable) and splits them like numpy.array_split into m nearly
// equal consecutive groups (the first n % m groups get one extra element). Empty groups (m > n) are dropped,
// so there are min(m, n) levels; m < 1 is treated as 1; no counts gives no levels.
Stratification stratify(const std::vector<int>& counts, int m);

// Demonstration selection variants (algorithms §3 "Selection variants").
enum class Selection { HardOnly, Mixed, All, RandomK };
std::string_view selection_name(Selection s);  // "hard-only", "mixed", "all", "random-k"
std::optional<Selection> parse_selection(std::string_view name);

// Number of selection steps j a stratification allows before the loop must stop:
// mixed → one per level (d_0 … d_{m-1}); hard-only, all and random-k → 1 (they never widen). 0 if no levels.
int selection_steps(Selection s, const Stratification& st);

// The demonstrations for step j (indices into the counts given to stratify, hardest first):
// hard-only → level 0; mixed → levels 0..j (j clamped to the last level); all → every level;
// random-k → k distinct solved tasks drawn with SplitMix64 (seeded; k ≥ total gives all), in stratified
// order.
std::vector<std::size_t> select_demonstrations(const Stratification& st, Selection s, int j, int k = 0,
                                               std::uint64_t seed = 0);

// The stopping rule of Algorithm 1 (steps 5–6), evaluated after each sampling iteration.
enum class LoopAction { Stop, Restratify, Widen };
enum class StopReason { None, AllSolved, BudgetSpent, NoExperience, NothingNewAtWidest };
std::string_view stop_reason_name(
    StopReason r);  // "", "all-solved", "budget-spent", "no-experience", "nothing-new"

struct LoopState {
  std::size_t unsolved = 0;   // |X| after the iteration
  std::size_t solved = 0;     // |D| after the iteration
  int newly_solved = 0;       // tasks the iteration just finished moved from X to D
  int step = 0;               // the selection step j that iteration used (iteration 0: any value)
  int steps = 0;              // selection_steps() of the stratification that iteration used
  bool budget_spent = false;  // the campaign's token or cost budget is exhausted
};

struct LoopDecision {
  LoopAction action = LoopAction::Stop;
  StopReason reason = StopReason::None;
  int next_step = 0;  // the j of the next iteration (0 after a re-stratification)
};

// Order of the checks: X empty → stop (all-solved); budget spent → stop; D empty → stop (no-experience:
// nothing to demonstrate); something new solved → re-stratify and restart at j = 0; otherwise widen to
// j + 1 if the selection allows, else stop (nothing-new at the widest selection).
LoopDecision next_loop_step(const LoopState& state);

}  // namespace sf::learn
