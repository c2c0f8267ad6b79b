// The filter σ of Algorithm 1 (algorithms §3 step 2): canonical-form dedup of a task's correct samples,
// one seeded random representative per canonical group, then the shortest representative.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sf::learn {

// One verified-correct sample of a task.
struct CorrectSample {
  int sample_index = 0;  // position of the sample in the task's batch (unique within the task)
  std::string
      canonical_key;       // canonical-form key (e.g. sf::step::canonical_key), equal for alpha-renamed ASTs
  int program_length = 0;  // number of statements
  std::string text;        // the program text as the model wrote it (kept for the demonstration)
  // The cost model's cycles of the program and whether it fits the chip (nullopt: not timed, e.g. a log
  // written before the cost model).
  std::optional<std::int64_t> cycles;
  bool feasible = false;
};

struct FilterResult {
  int c = 0;                                   // number of correct samples (c_i)
  int groups = 0;                              // number of distinct canonical forms
  std::vector<CorrectSample> representatives;  // one per group, groups in order of their earliest sample
  // The fastest representative: timed and feasible ones first, then fewer cycles, then the shortest program,
  // then the earliest sample index (without cycles: the shortest representative).
  CorrectSample best;
};

// Applies σ to the correct samples of one task. Returns nullopt when there are none (task unsolved).
// The random choice inside each group uses SplitMix64 (sf::sim::Rng) seeded with `seed`, so the result
// depends only on the seed and the set of samples, not on their order in `correct`. Duplicate sample
// indices are kept once (the first occurrence).
std::optional<FilterResult> filter_task(const std::vector<CorrectSample>& correct, std::uint64_t seed);

}  // namespace sf::learn
