// The timing engine of the cost model (docs/cost-model.md §2–3): a discrete-event simulation of units with
// local clocks connected by bounded single-producer/single-consumer channels with credits, and the shared
// off-chip channels. Works on token counts only: the graph builder (cost_model.cpp) has already turned
// shapes and routing data into counts, group sizes, charges and selector lanes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/cost/chip.hpp"

namespace sf::cost {

enum class UnitKind {
  Load,       // implicit off-chip load of a task input
  Store,      // implicit off-chip store of a returned stream
  Elementwise,  // Map, Scan, Zip, Promote, Flatten, Reshape, Identity, Copy: one token in (from every input), one out (to every output)
  Group,      // Accum, Bufferize: `group` tokens in, then one out
  Expand,     // Streamify, Repeat: one token in, then `group` tokens out
  RepeatRef,  // ins {X, R}: per X token, `group` outputs, each also consuming one R token
  Partition,  // ins {X, C}: per selector token, a chunk of `group` X tokens forwarded to every selected lane
  Merge,      // ins {lane 0..n-1, C}: per selector token, per chunk element, one token of every selected lane
};

struct Channel {
  int producer = -1, consumer = -1;
  std::int64_t count = 0;       // tokens that will pass (Done is implicit)
  std::int64_t elem_bytes = 0;  // bytes of one element (off-chip traffic of loads and stores)
};

struct Unit {
  UnitKind kind = UnitKind::Elementwise;
  int line = 0;           // statement line (0 for loads)
  std::string primitive;  // "Map", …, "Load", "Store"
  std::string name;       // the stream it defines (loads: the input, stores: the returned stream)
  std::vector<int> ins, outs;
  std::int64_t c_elem = 0;  // cycles per consumed element (per emitted element for Expand/RepeatRef/Load/Store)
  std::int64_t c_emit = 0;  // Group: extra cycles when the result is emitted; Merge: per emitted element
  std::int64_t group = 1;   // Group: inputs per output; Expand/RepeatRef: outputs per input; Partition/Merge: chunk
  std::int64_t outputs = 0;  // Group, Merge: outputs in total (a Group of size 0 still emits)
  // Partition/Merge: the set lanes of selector position u are lanes[lane_off[u] .. lane_off[u+1]).
  std::vector<int> lanes;
  std::vector<std::int64_t> lane_off;
  bool calls_fn = false;
  std::int64_t fn_calls = 0;  // filled by the builder (FLOPs = fn_calls * flops per call)
};

struct UnitStats {
  std::int64_t busy = 0, stall_in = 0, blocked_out = 0, tokens_in = 0, tokens_out = 0;
  std::int64_t finish = 0;  // clock after the unit's last step (stores: the last answer)
};

// Optional, bounded per-unit timeline (recorded only when asked for): `buckets.size()` equal buckets of
// `bucket_cycles` cycles each from cycle 0, covering [0, cycles]; per bucket the cycles the unit was busy and
// the cycles it was stalled (waiting for input, stall_in, or for space downstream, blocked_out).
struct UnitTimeline {
  std::vector<std::int64_t> busy, stalled;
};

struct TimingResult {
  bool complete = false;  // false: some unit never finished (an inconsistent graph; reported as C-INTERNAL)
  std::int64_t cycles = 0;
  std::int64_t read_requests = 0, write_requests = 0;
  std::vector<UnitStats> units;
  std::vector<std::int64_t> depth;  // per channel: fifo_depth, or more where the program needed it
  std::string problem;  // when !complete: which unit stalled
  // Filled only when simulate() is given timeline_buckets > 0: one timeline per unit with at most
  // timeline_buckets (and more than timeline_buckets / 2, unless cycles is smaller) buckets of
  // bucket_cycles cycles each (a power of two).
  std::int64_t bucket_cycles = 0;
  std::vector<UnitTimeline> timeline;
};

TimingResult simulate(const std::vector<Unit>& units, const std::vector<Channel>& channels, const ChipProfile& chip);
// As above, and records each unit's timeline in at most `timeline_buckets` buckets (0: none; at most 4096).
// The timing itself is the same.
TimingResult simulate(const std::vector<Unit>& units, const std::vector<Channel>& channels, const ChipProfile& chip,
                      int timeline_buckets);

}  // namespace sf::cost
