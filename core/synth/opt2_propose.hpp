// The fallible built-in optimiser for STeP-25 programs (docs/synth.md, "STeP-25 optimiser"): given the
// program to improve, the perf report's busiest nodes and the retrieved memory rules, it picks one or two
// rewrite moves (opt2_moves.hpp) and answers the edited text WITHOUT checking, verifying or timing it.
// Without rules every move kind is equally likely (the AccelOpt-style random-move baseline); retrieved rules
// bias the choice of move and parameter, and the proposal lists exactly the rules whose move it applied.
// Deterministic given the seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/step/task.hpp"
#include "core/synth/opt2_moves.hpp"

namespace sf::synth::opt2 {

// A retrieved memory rule reduced to what the optimiser acts on: its id and its move ("tile N*2").
struct Rule {
  std::string id;
  MoveKind kind = MoveKind::Tile;
  std::string param;
};

// "tile N*2", "par_dispatch 16", "drop_const_input" (a move name, then an optional parameter); nullopt when
// the first word names no move.
std::optional<Rule> parse_rule_move(std::string_view text, std::string id = {});
std::string move_key(MoveKind k, const std::string& param);  // "tile N*2"

// What the proposer reads in the perf report (the prompt's `## Performance` section, opt2_campaign's
// Judgement::perf_text): the busiest nodes, busiest first, and each one's limit. Bounded: at most 8 nodes.
struct PerfView {
  std::vector<std::string> busiest;
  std::vector<std::string> limits;  // pmu_read, compute, write_back, hbm, waiting
};
// Lines "  NAME (OP, line N): busy .., limit LIMIT"; other lines are ignored.
PerfView read_perf(std::string_view perf_text);

struct ProposeOptions {
  std::uint64_t seed = 1;
  std::string perf_text;    // the perf report of the program to improve ("" = only the busiest names are known)
  double two_moves = 0.4;   // probability of a second move
  double follow_rule = 0.75;  // probability that a move slot follows a retrieved rule (when there are rules)
};

struct AppliedMove {
  std::string key;       // "tile N*2"
  std::string what;      // one line for the answer
  std::string rule_id;   // the adopted rule ("" when sampled)
};

struct Proposal {
  bool ok = false;       // false: the program did not parse or no move applied (error says which)
  std::string impl;      // the edited program
  std::vector<AppliedMove> moves;
  std::vector<std::string> adopted;  // rule ids whose move was applied (each once)
  std::string error;
};

Proposal propose(const step::TaskDoc& task, std::string_view impl, const std::vector<std::string>& busiest,
                 const std::vector<Rule>& rules, const ProposeOptions& opt);

}  // namespace sf::synth::opt2
