// STeP-25 cost of a program of a task: check (core/step2/check.hpp) → the graph under `sizes` → evaluate, with
// the task's facts the Report needs: the inputs its reference reads (the peak's minimum off-chip bytes) and the
// cycles of its baseline solution on the same chip (speedup). What the CLI's `perf`, `verify --perf` and
// `bench perf` call for a step-v2 file; functional verification is the caller's (it comes first).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"
#include "core/step2/perf/perf.hpp"

namespace sf::step2::perf {

// The input tensors whose names occur as identifiers in the task's reference body (comments left out).
std::vector<std::string> reference_reads(const step::TaskDoc& task);

// <resource_dir>/solutions_v2/<group>/<task.baseline> (group = the task id up to its last '/'); "" when the
// task names no baseline.
std::string baseline_path(const step::TaskDoc& task, const std::string& resource_dir);

struct ProgramPerf {
  std::optional<Report> report;  // set when the program checked
  Diagnostics diags;             // the checker's (located) diagnostics otherwise
};

// Checks `impl` against `task` and times its graph under `sizes` on `chip`; opt.reference_reads is filled from
// the task when unset.
ProgramPerf perf_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                         const Chip& chip, Options opt = {});

// The cycles of the task's baseline solution on `chip`; nullopt with `why` when the task has none or it does
// not load or check.
std::optional<std::int64_t> baseline_cycles(const step::TaskDoc& task, const std::string& resource_dir, const Chip& chip,
                                            std::string& why);

// The chip a v2 program is timed on: `override_name` when set (a bundled name or a JSON file), else the task's
// `chip:` (accelopt-step when it names none).
std::optional<Chip> chip_for(const step::TaskDoc& task, const std::string& override_name,
                             const std::string& resource_dir, std::string& error);

}  // namespace sf::step2::perf
