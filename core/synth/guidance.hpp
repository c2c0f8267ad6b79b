// Learning signals of the synthesizer (issue 5 §3): fragments mined from demonstrations (chains of 2-4
// single-input statements, each consuming the previous one's only output), primitive and parameter
// frequencies, and machine-readable memory patterns with truthful adoption.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::synth {

// A demonstration: a verified program of some task (never a reference solution the synthesizer must solve).
struct Demonstration {
  const step::TaskDoc* task = nullptr;
  std::string impl;
};

// One statement of a fragment. Rank parameters are kept both absolute and relative to the rank of the
// statement's input; fns and Repeat sizes are holes filled from the target task's candidates.
struct FragStep {
  step::Prim prim = step::Prim::Identity;
  int k = 0, k_rel = 0;            // Bufferize a / Accum, Scan, Promote b
  int lo = 0, hi = 0, lo_rel = 0;  // Flatten L=[lo..hi] (hi - lo kept); Reshape L=[lo]
  step::Dim S;                     // Reshape S
  bool operator==(const FragStep&) const = default;
};

struct Fragment {
  std::vector<FragStep> steps;  // 2..4
  int count = 0;                // occurrences in the demonstrations
  std::string pattern() const;  // "Bufferize>Repeat>Streamify"
};

// A retrieved memory item's machine-readable pattern: primitive names joined by '>' (a dataflow chain).
struct MemoryPattern {
  std::string id;
  std::string pattern;
};

struct Guidance {
  std::vector<Fragment> fragments;          // most frequent (relevance-weighted) first
  std::map<std::string, int> prim_counts;   // "Bufferize" -> n
  std::map<std::string, int> param_counts;  // "Bufferize(a=1)" -> n (fn-free keys)
  int statements = 0;                       // primitive statements seen
  std::vector<MemoryPattern> memory;       // retrieved experiences (steer the search, reported in adoption)
  std::vector<std::string> rule_patterns;  // resident rules' patterns (steer the search; tried before the
                                           // retrieved experiences, in the order given)
  std::vector<std::string> rule_ids;       // the rule id of each pattern ("" unknown; may be shorter)
  int demos_used = 0;                      // demonstrations mined (after relevance selection)
  bool empty() const { return statements == 0 && memory.empty() && rule_patterns.empty(); }
};

// How many demonstrations are mined at most when a target task is known (the most relevant ones).
inline constexpr std::size_t kRelevantDemos = 4;

// Relevance of a demonstration's task to the target task, from what both prompts show: the fns' semantic
// names they share (each +2), the same group (+2), the same number of inputs (+1), of outputs (+1), of
// output dims (+1), Multihot present in both or in neither (+1). 0 when nothing is shared.
int demo_relevance(const step::TaskDoc& demo, const step::TaskDoc& target);

// Mines demonstrations (each type-checked against its own task; programs that fail the checks are skipped).
// With a target task, only the kRelevantDemos most relevant demonstrations with relevance >= 3 are mined
// (a fragment of an unrelated task is a macro that costs budget and rarely fits).
Guidance mine_guidance(const std::vector<Demonstration>& demos, std::vector<MemoryPattern> memory = {},
                       const step::TaskDoc* target = nullptr);

// The primitives of a pattern "A>B>C" when every name is a single-input chain primitive (Map, Accum, Scan,
// Bufferize, Streamify, Promote, Repeat, Flatten, Reshape) and there are 1..6 of them; nullopt otherwise.
std::optional<std::vector<step::Prim>> parse_pattern(const std::string& pattern);

// The single-input chains of a (typed) program, as fragments of 2..4 steps (count 1 each, not merged).
std::vector<Fragment> program_chains(const step::Program& prog, const step::TypedProgram& typed);

// True when `pattern` ("A>B>C") occurs as a dataflow chain in the program (each statement consuming the
// previous statement's output as its single argument; a Copy in between is looked through).
bool pattern_occurs(const step::Program& prog, const std::string& pattern);

}  // namespace sf::synth
