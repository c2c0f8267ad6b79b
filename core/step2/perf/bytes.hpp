// STeP-25 bytes and FLOPs (docs/cost-model.md, "STeP-25"): off-chip read/write bytes, the static on-chip sum
// (step_py's on_chip_requirement, no FIFOs) and the FLOPs of every compute node, from a resolved Graph.
// Every product saturates at kSaturated, so a hostile shape cannot overflow.
#pragma once

#include <cstdint>
#include <vector>

#include "core/step2/graph.hpp"

namespace sf::step2::perf {

inline constexpr std::int64_t kSaturated = std::int64_t{1} << 62;

// a·b, or kSaturated when it would pass it (a, b ≥ 0).
std::int64_t mul_sat(std::int64_t a, std::int64_t b);
std::int64_t add_sat(std::int64_t a, std::int64_t b);

// The graph.hpp helpers, computed here so that this module does not need the front end's graph.cpp.
std::int64_t elem_bytes(const ElemType& e);          // tile, or Π buffer_shape · tile
std::int64_t stream_elements(const StreamType& s);   // ‖shape‖
bool is_compute(Op op);                              // UnaryMap, BinaryMap, BinaryMapAccum, Accum
bool is_memory(Op op);                               // OffChipLoad, OffChipStore
const char* op_name(Op op);
const char* fn_name(Fn fn);

// HBM requests of one tile: rows · ⌈cols·4 / request bytes⌉ (§7.2; the checker makes cols·4 a multiple of 64).
std::int64_t requests_per_tile(const TileShape& t, std::int64_t hbm_request_bytes);

struct NodeBytes {
  std::int64_t offchip_read = 0, offchip_write = 0, onchip = 0;
  std::int64_t flops_per_call = 0, calls = 0, flops = 0;
};

// The FLOPs of one call of the node's fn on its input tiles (§4.1's fn table); 0 for non-compute nodes and
// the retile accumulators.
std::int64_t flops_per_call(const Graph& g, const Node& n);

struct Bytes {
  std::int64_t offchip_read = 0, offchip_write = 0, onchip = 0, flops = 0;
  std::int64_t hbm_requests = 0;  // Σ over loads and stores of tiles · requests per tile
  std::int64_t tokens = 0;        // Σ ‖stream‖ over every stream edge
  std::vector<NodeBytes> nodes;   // per node, in node order
};

// hbm_request_bytes: the chip's request size (for hbm_requests).
Bytes count_bytes(const Graph& g, std::int64_t hbm_request_bytes);

}  // namespace sf::step2::perf
