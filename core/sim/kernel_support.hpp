// Internal helpers shared by the kernel files (not part of the public API).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/stream_value.hpp"
#include "core/step/primitives.hpp"

namespace sf::sim::detail {

// Kernels read the clock once every kTimeStride elements.
inline constexpr std::int64_t kTimeStride = 256;

// Element sizes of the fields of x.
std::vector<std::int64_t> element_sizes(const StreamValue& x);

// Reserves and allocates `out` with the given dims and f's output fields.
// sizes receives the element size of each output field.
Status allocate_fn_output(const ElementFn& f, std::vector<std::int64_t> dims, Budget& budget, StreamValue& out,
                          std::vector<std::int64_t>& sizes);

// Stateful fns: checks init() against out_esh() and fills one buffer per output field with it.
Status make_init(const ElementFn& f, const std::vector<std::int64_t>& sizes,
                 std::vector<std::vector<float>>& bufs, std::vector<const float*>& ptrs, step::Prim prim);

// Per-field scratch buffers (one element each) and their pointer arrays.
struct Scratch {
  std::vector<std::vector<float>> bufs;
  std::vector<float*> ptrs;
  explicit Scratch(const std::vector<std::int64_t>& sizes);
};

// The kernels' T-RANK text: "step.P(k=v) <what>, so k must be between 1 and the rank of the stream (...)".
std::string rank_message(step::Prim prim, const char* param, int k, const StreamValue& x, const char* what);

}  // namespace sf::sim::detail
