// STeP-25 performance report: what `stepforge-cli perf` prints (spec §15 keys) and what the GUI's
// performance explorer draws. Produced by core/step2/perf from a step2::Graph and a chip profile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"

namespace sf::step2::perf {

// What limits a node in its busiest phase (the explorer colours the cost bar by it).
enum class Limit { PmuRead, Compute, WriteBack, HbmRequests, Waiting, None };

struct NodeReport {
  int node = -1;            // index into Graph::nodes
  int line = 0;             // source line (0 for none)
  std::string op;           // "OffChipLoad", ..., implicit broadcasts "Broadcast"
  bool implicit = false;
  std::int64_t busy = 0;         // cycles spent working (ld/cmp/st, request issue)
  std::int64_t stall_in = 0;     // cycles waiting for an input element
  std::int64_t blocked_out = 0;  // cycles waiting for an output credit
  std::int64_t tokens_in = 0, tokens_out = 0;
  std::int64_t offchip_bytes = 0, onchip_bytes = 0;
  std::int64_t compute_bw = 0;   // 0 for non-compute nodes
  std::int64_t flops = 0;
  Limit limit = Limit::None;
  // OffChipLoad / OffChipStore only: first request issue cycle and last response cycle.
  std::int64_t first_issue = -1, last_response = -1;
  std::int64_t requests = 0;
};

// One interval of a node's activity, or of an HBM channel taking requests (Busy only: hbm_interval cycles per
// request), for the timeline (bounded; see Report::timeline_truncated).
enum class Activity { Busy, StallIn, BlockedOut };
struct Interval {
  int row = 0;  // node id, or nodes.size() + channel for HBM channel rows
  Activity what = Activity::Busy;
  std::int64_t begin = 0, end = 0;
};

struct Violation {
  std::string code;     // C-COMPUTE, C-ONCHIP, C-UNITS, C-PERF-LIMIT
  std::string message;  // says the value seen and the limit
};

struct Report {
  std::string chip;
  bool simulated = true;     // false when C-PERF-LIMIT stopped the event model before or while it ran
  std::int64_t cycles = 0;   // last context clock + tail (the clock reached so far when not simulated)
  std::int64_t offchip_read_bytes = 0, offchip_write_bytes = 0, onchip_bytes = 0;
  std::int64_t flops = 0;
  std::int64_t compute_bw_total = 0;
  int compute_nodes = 0;
  bool feasible = true;
  bool suspicious = false;  // > 16 compute nodes (§15), or > 10x / > 100 % of peak when a baseline is known
  std::vector<Violation> violations;
  std::int64_t peak_cycles = 0;  // §10
  double pct_of_peak = 0.0;      // peak / cycles, in percent
  std::vector<NodeReport> nodes;
  std::vector<Interval> timeline;  // only when requested
  bool timeline_truncated = false;
  int timeline_channels = 0;       // HBM channel rows after the node rows (the chip's channels; 0 without timeline)
  std::int64_t hbm_requests = 0;
  std::int64_t events = 0;  // discrete events processed
  std::int64_t min_offchip_bytes = 0;  // §10: bytes of the inputs the reference reads + bytes of the outputs
  std::int64_t baseline_cycles = -1;   // the task's baseline on the same chip, -1 when there is none
  double speedup = 0.0;                // baseline_cycles / cycles when both are known and the program is feasible
};

}  // namespace sf::step2::perf
