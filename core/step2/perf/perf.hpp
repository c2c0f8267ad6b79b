// STeP-25 cost model entry point: bytes (§6 of the design), the discrete-event cycles, the C-* feasibility
// checks, peak and %-of-peak, `suspicious`. Errors a program can cause (too many requests, a deadlock) are
// violations in the Report, never exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/step2/graph.hpp"
#include "core/step2/perf/chip.hpp"
#include "core/step2/perf/des.hpp"
#include "core/step2/perf/report.hpp"

namespace sf::step2::perf {

inline constexpr std::int64_t kMaxRequests = 2'000'000;  // C-PERF-LIMIT
inline constexpr std::int64_t kMaxEvents = 10'000'000;   // C-PERF-LIMIT
inline constexpr int kSuspiciousComputeNodes = 16;       // the accelopt-step-capped limit

struct Options {
  SimOptions sim;
  // The input tensors the task's reference reads (for the peak's minimum off-chip bytes); nullopt = every
  // input tensor of the graph.
  std::optional<std::vector<std::string>> reference_reads;
  std::optional<std::int64_t> baseline_cycles;  // the task's baseline on the same chip
};

Report evaluate(const Graph& g, const Chip& chip, const Options& opt = {});

// A one-screen text summary (the CLI's non-JSON output).
std::string format_report(const Report& r);

}  // namespace sf::step2::perf
