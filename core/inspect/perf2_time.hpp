// Times one STeP-25 program for the performance explorer (issue 33), Qt-free: check the impl text against its
// task (core/step2/check.hpp), then run the cost model (core/step2/perf) on the graph under the task's sizes,
// with the timeline recorded (bounded). A program that does not check gives the first error with its line and
// its full text (hints included); an infeasible program is timed (report.feasible = false).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/step/task.hpp"
#include "core/step2/graph.hpp"
#include "core/step2/perf/chip.hpp"
#include "core/step2/perf/report.hpp"

namespace sf::inspect::perf2 {

struct Timed {
  bool ok = false;
  std::string error;   // "T2-TILE tile [96, 128] does not divide ..." (every line of the diagnostic)
  int error_line = 0;  // 1-based impl line, 0 when unknown
  step2::Graph graph;
  step2::perf::Report report;
};

struct TimeOptions {
  bool timeline = true;
  std::size_t max_intervals = 50000;  // the explorer's bound; beyond it the timeline is summarised
  std::int64_t baseline_cycles = 0;   // 0 = unknown
};

Timed time_program(const step::TaskDoc& task, std::string_view impl, const step2::perf::Chip& chip,
                   const TimeOptions& opt = {});

// The impl of a v2 task's baseline solution: <resource_dir>/solutions_v2/<group>/<task.baseline>, the group
// being the task id's first part. nullopt when the task names none or it cannot be read.
std::optional<std::string> baseline_impl(const step::TaskDoc& task, const std::string& resource_dir);

// The task's size symbols and values (the binding the cost model times).
std::map<std::string, std::int64_t> size_values(const step::TaskDoc& task);

}  // namespace sf::inspect::perf2
