// The performance explorer's timing function on the real engine: the v2 checker and cost model
// (core/inspect/perf2_time) under one task and one chip, and the chip's roofs.
#pragma once

#include <functional>
#include <memory>

#include "core/step/task.hpp"
#include "core/step2/perf/chip.hpp"
#include "widgets/perf2/perf2_types.hpp"

namespace sf::widgets::perf2 {

// Times impl texts of `task` on `chip` (thread-safe: the task and chip are copied into the function).
Timer engineTimer(std::shared_ptr<const step::TaskDoc> task, const step2::perf::Chip& chip,
                  std::int64_t baselineCycles = 0);
Roofs roofsOf(const step2::perf::Chip& chip);
// Verifies impl texts against the task `task()` returns when called (on the verifier's thread; nullptr = none):
// ok = the verifier passed (every input set of the task), otherwise `error` is its first code. One
// verify::Verifier is shared by the calls, so the inputs and reference of a task are made once.
Timer engineVerifier(std::function<std::shared_ptr<const step::TaskDoc>()> task);

}  // namespace sf::widgets::perf2
