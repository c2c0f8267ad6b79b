// The STeP-25 optimisation benchmark (resources/benchmark_v2, resources/solutions_v2): what `tasks validate`
// checks for it and the table `tasks table --dialect step-v2` prints (docs/benchmark-v2.md).
//
// Every v2 task is sound; its baseline (<resources>/solutions_v2/<group>/<baseline>) verifies on every seed,
// size binding and input set and is feasible on the task's chip; every known-optimised program
// (<group>/<name>.known_opt_<k>.yaml) verifies, is feasible and beats the baseline; the median over tasks of the
// best known speedup is at least 1.5x and none is above 10x; the v2 mutants are rejected at their annotated
// stage; the v2 reward hacks get their annotated verdict (code SUSPICIOUS: the program verifies and the cost
// model flags it suspicious); every worked example of resources/manual_v2 verifies and each (before, after)
// pair shows its cycle counts in the text, the after program being the faster one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bench/catalogue.hpp"
#include "core/step2/perf/report.hpp"
#include "core/verify/verifier.hpp"

namespace sf::bench {

struct V2Program {
  std::string file;      // path
  std::string kind;      // "baseline" or "known_opt_<k>"
  bool pass = false;     // verified on every seed, binding and input set (only when verification ran)
  bool timed = false;    // checked and timed by the cost model
  std::string problem;   // first problem, "" when none
  step2::perf::Report perf;
};

struct V2TaskResult {
  std::string id;
  V2Program baseline;
  std::vector<V2Program> known;
  // The fastest feasible known program (nullptr when none is timed and feasible) and its speedup (0 if none).
  const V2Program* best() const;
  double best_speedup() const;
};

struct V2Paths {
  std::string resources_dir;  // holds solutions_v2/ (and chips/)
  std::string mutants_dir;    // tests/data/mutants_v2 (empty: skipped)
  std::string hacks_dir;      // tests/data/hacks_v2 (empty: skipped)
  std::string manual_dir;     // resources/manual_v2 (empty: skipped)
};

struct V2Summary {
  int tasks = 0, tasks_ok = 0;
  int baselines = 0, baselines_ok = 0;
  std::int64_t baseline_lo = 0, baseline_hi = 0;
  int known = 0, known_ok = 0;
  double median_best_speedup = 0, max_best_speedup = 0;
  std::vector<std::string> near_peak;  // tasks whose best known program reaches >= 90 % of peak
  int mutants = 0, mutants_ok = 0;
  int hacks = 0, hacks_ok = 0;
  int manual_examples = 0, manual_ok = 0;
  std::vector<V2TaskResult> rows;
  std::vector<std::string> problems;
  bool ok() const { return problems.empty(); }
};

inline constexpr double kMinMedianBestSpeedup = 1.5;
inline constexpr double kMaxBestSpeedup = 10.0;
inline constexpr double kNearPeakPct = 90.0;

// Times the baseline and every known-optimised program of every task (check + cost model; with `v`, also
// verifies each on every seed, binding and input set). Problems are appended to `problems`.
std::vector<V2TaskResult> time_benchmark_v2(const Catalogue& cat, const std::string& resources_dir,
                                            verify::Verifier* v, std::vector<std::string>& problems);

// The median of the tasks' best known speedups (0 when there is none).
double median_best_speedup(const std::vector<V2TaskResult>& rows);

V2Summary validate_benchmark_v2(const Catalogue& cat, const V2Paths& paths, verify::Verifier& v,
                                const std::function<void(const std::string&)>& tick = {});

// docs/benchmark-v2.md: one row per task with the baseline's and the best known program's cycles, off-chip
// bytes, % of peak and speedup, then the median and the tasks near their peak. Deterministic.
std::string benchmark_v2_table(const Catalogue& cat, const std::vector<V2TaskResult>& rows);

}  // namespace sf::bench
