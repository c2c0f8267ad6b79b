// STeP-25 cycles: the discrete-event model of step-perf (docs/cost-model.md, "STeP-25 cycles").
// Contexts: every node of the Graph (implicit Broadcasts included), one HBM node, hbm_channels channels.
// One global event queue ordered by (time, node id); nodes are resumable state machines that act at their
// local clock; the HBM node runs last within a time step and skips idle cycles. Timing depends only on
// shapes, levels and the from-memory flags, never on tile values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/step2/graph.hpp"
#include "core/step2/perf/chip.hpp"
#include "core/step2/perf/report.hpp"

namespace sf::step2::perf {

struct SimOptions {
  // Record Busy / StallIn / BlockedOut intervals of every node (rows 0 … nodes − 1) and the Busy intervals of
  // every HBM channel (rows nodes … nodes + channels − 1): a channel is busy for hbm_interval cycles from the
  // cycle it starts a request (its answer comes hbm_startup + hbm_latency later, pipelined, not drawn).
  bool timeline = false;
  std::size_t max_intervals = 200000;        // then Report::timeline_truncated
  std::int64_t max_events = 10'000'000;      // C-PERF-LIMIT beyond this many discrete events
};

struct SimNode {
  std::int64_t busy = 0, stall_in = 0, blocked_out = 0, tokens_in = 0, tokens_out = 0;
  std::int64_t first_issue = -1, last_response = -1, requests = 0;
  std::int64_t ld = 0, cmp = 0, st = 0;  // cycles of each cost term summed over the node's calls
  std::int64_t clock = 0;                // the final (or, when stuck, the last) local clock
  bool finished = false;
};

struct SimResult {
  enum class Status { Ok, Invalid, Deadlock, EventLimit };
  Status status = Status::Ok;
  std::string message;            // for every status but Ok
  std::int64_t last_clock = 0;    // max over contexts of the final clock (before tail)
  std::int64_t cycles = 0;        // last_clock + tail
  std::int64_t hbm_clock = 0;     // the HBM node's final clock
  std::int64_t events = 0, requests = 0;
  std::vector<SimNode> nodes;     // per Graph node
  std::vector<int> stuck;         // nodes that never finished (Deadlock)
  std::vector<Interval> timeline;
  bool timeline_truncated = false;
  int channels = 0;               // HBM channels modelled (the timeline's rows after the nodes)
};

SimResult simulate(const Graph& g, const Chip& chip, const SimOptions& opt = {});

}  // namespace sf::step2::perf
