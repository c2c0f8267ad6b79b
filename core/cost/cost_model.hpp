// The STeP cost model (docs/cost-model.md): cycles, on-chip memory, off-chip traffic and allocated compute of
// a verified program under a chip profile, on the task's perf_sizes binding and first verify seed. Routing
// data (the selectors of Partition and Merge and what they depend on) is computed for real by the functional
// simulator; everything else is timed from shapes alone.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/cost/chip.hpp"
#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::cost {

struct UnitReport {
  int line = 0;           // statement line (0 for the off-chip loads of task inputs)
  std::string primitive;  // Map, Accum, …, Load, Store
  std::string name;       // the stream the unit defines (Load: the input; Store: the returned stream)
  std::int64_t busy = 0, stall_in = 0, blocked_out = 0, tokens_in = 0, tokens_out = 0;
  // Only with EvalOptions::timeline_buckets > 0: busy and stalled (stall_in + blocked_out) cycles per bucket
  // of CostReport::timeline_bucket_cycles cycles from cycle 0 (engine.hpp, UnitTimeline).
  std::vector<std::int64_t> timeline_busy, timeline_stalled;
};

struct EvalOptions {
  int timeline_buckets = 0;  // > 0: record a per-unit timeline in at most this many buckets (capped at 4096)
};

struct CostReport {
  std::string chip;  // profile name
  double clock_ghz = 1.0;
  step::SizeBinding sizes;  // the binding the model ran on (perf_sizes, else sizes)
  std::uint64_t seed = 0;
  std::int64_t cycles = 0;
  double micros() const { return static_cast<double>(cycles) / (clock_ghz * 1e3); }
  std::int64_t offchip_read_bytes = 0, offchip_write_bytes = 0;
  std::int64_t onchip_bytes = 0;
  // Part of onchip_bytes: channels that needed more than fifo_depth slots to avoid a deadlock (a Copy whose
  // branches meet again after a reduction), and how many such channels there are.
  std::int64_t buffered_bytes = 0;
  int deepened_channels = 0;
  std::int64_t allocated_compute = 0;  // FLOPs/cycle
  std::int64_t flops = 0;              // executed
  double utilisation = 0;              // flops / (cycles * allocated_compute)
  double operational_intensity = 0;    // flops / off-chip bytes
  std::int64_t tokens = 0;             // tokens over every channel
  bool feasible = true;
  Diagnostics violations;  // C-ONCHIP, C-COMPUTE
  std::vector<UnitReport> units;  // loads first, then statements in order, then stores
  int bottleneck = -1;            // index into units: most busy cycles, ties to the earliest line
  std::int64_t timeline_bucket_cycles = 0;  // > 0 when the units carry a timeline
};

// Caches, per task, the task compiled and its input set generated under the perf binding. Thread-safe.
class CostModel {
 public:
  explicit CostModel(ChipProfile chip = default_chip());
  const ChipProfile& chip() const { return chip_; }

  // Evaluates a program that passed every static check (callers run it only on verified programs). C-*
  // errors (e.g. the program fails under perf_sizes, C-INTERNAL) are appended to diags and give nullopt.
  std::optional<CostReport> evaluate(const step::TaskDoc& task, const step::Program& prog,
                                     const step::TypedProgram& typed, Diagnostics& diags);
  // As above with options (a per-unit timeline); the numbers are the same.
  std::optional<CostReport> evaluate(const step::TaskDoc& task, const step::Program& prog,
                                     const step::TypedProgram& typed, Diagnostics& diags, const EvalOptions& opts);
  // As above from the impl text: runs the static checks first (their errors are appended, nullopt).
  std::optional<CostReport> evaluate(const step::TaskDoc& task, std::string_view impl,
                                     const std::vector<Location>& line_starts, Diagnostics& diags);

  struct Prepared;

 private:
  std::shared_ptr<const Prepared> prepare(const step::TaskDoc& task, Diagnostics& diags);
  ChipProfile chip_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Prepared>> cache_;
};

// speedup = baseline cycles / candidate cycles for a feasible candidate; nullopt otherwise.
std::optional<double> speedup(const CostReport& candidate, std::optional<std::int64_t> baseline_cycles);

// The optimisation feedback for an agent (spec §6): cycles, speedup, on-chip bytes and the three busiest
// units, in at most ~300 tokens.
std::string feedback_text(const CostReport& r, std::optional<std::int64_t> baseline_cycles);

// The per-unit table and the totals, as `stepforge-cli perf` prints them.
std::string format_report(const CostReport& r, std::optional<std::int64_t> baseline_cycles);

}  // namespace sf::cost
