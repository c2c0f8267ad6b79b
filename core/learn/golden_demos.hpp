// Golden demonstrations in campaigns and promotion with verification (issue 20 item 2): the file format is
// core/store/golden.hpp; this adds the verifier (a program that does not verify is refused, with the reason)
// and turns a set into proposer demonstrations (`demos.golden`). See docs/golden.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/agent_types.hpp"
#include "core/step/task.hpp"
#include "core/store/golden.hpp"
#include "core/verify/verifier.hpp"

namespace sf::learn {

struct PromoteRequest {
  std::string impl;
  store::GoldenProvenance provenance;  // provenance.task is set from the task when empty
  std::string promoted_by, promoted_at;
  std::optional<std::int64_t> cycles;  // the cost model's numbers when the caller has them (a verdict)
  std::optional<double> speedup;
};

struct PromoteResult {
  bool ok = false;     // promoted (or already there)
  bool added = false;  // false when the set already held this program (same task and canonical key)
  store::GoldenEntry entry;
  std::string error;  // why it was refused: "does not verify: CODE at LINE:COL: message", or a file error
};

// Verifies `req.impl` against `task` (the full verifier: static checks, every input set vs the reference)
// and, when it passes, adds it to the golden set `file` (store::add_golden_entry).
PromoteResult promote_to_golden(const std::filesystem::path& file, const step::TaskDoc& task,
                                const PromoteRequest& req, verify::Verifier& verifier);

// The demonstrations a golden set gives the prompt of `task`: entries of other tasks (a task's own golden
// program would give the answer away), one per task (the first), in set order, at most `max`.
std::vector<agent::Demonstration> golden_demonstrations(const store::GoldenSet& set, const std::string& task,
                                                        std::size_t max);

}  // namespace sf::learn
