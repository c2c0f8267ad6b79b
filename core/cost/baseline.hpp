// Baselines (docs/cost-model.md §6): the cycles of each task's reference solution, the denominator of every
// speedup. Reference solutions live in <resources>/solutions/<group>/<name>.yaml (a `task:` id and an impl);
// they are never shown to agents. Computed on first use per task under the model's chip profile. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/cost/cost_model.hpp"

namespace sf::cost {

class Baselines {
 public:
  // solutions_dir: usually bench::resource_dir() + "/solutions".
  Baselines(CostModel& model, std::string solutions_dir) : model_(model), dir_(std::move(solutions_dir)) {}

  // The reference solution's cycles; nullopt when the task has no reference solution or it cannot be
  // evaluated (the reason is in `why` when given).
  std::optional<std::int64_t> cycles(const step::TaskDoc& task, std::string* why = nullptr);
  // The full report of the reference solution (nullopt as above).
  std::optional<CostReport> report(const step::TaskDoc& task, std::string* why = nullptr);

 private:
  struct Entry {
    std::optional<CostReport> report;
    std::string why;
  };
  CostModel& model_;
  std::string dir_;
  std::mutex mu_;
  std::map<std::string, Entry> cache_;
};

}  // namespace sf::cost
