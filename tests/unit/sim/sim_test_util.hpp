// Helpers for the sim unit tests: dense values from lists and small element fns.
#pragma once

#include <numeric>
#include <string>
#include <vector>

#include "core/sim/stream_value.hpp"

namespace sf::sim::testing {

// A single-field stream with dims (innermost-first) and element shape esh, values 1, 2, 3, ...
inline StreamValue seq(std::vector<std::int64_t> dims, Shape esh = {}, float start = 1.0f) {
  StreamValue x;
  x.dims = std::move(dims);
  Field f;
  f.esh = std::move(esh);
  f.data.resize(static_cast<std::size_t>(x.positions() * shape_size(f.esh)));
  std::iota(f.data.begin(), f.data.end(), start);
  x.fields.push_back(std::move(f));
  return x;
}

inline StreamValue values(std::vector<std::int64_t> dims, Shape esh, std::vector<float> data) {
  StreamValue x;
  x.dims = std::move(dims);
  x.fields.push_back(Field{std::move(esh), std::move(data)});
  return x;
}

// Stateful elementwise sum over elements of size `n` (esh given), init `init`. Counts calls.
class SumFn : public ElementFn {
 public:
  explicit SumFn(Shape esh = {}, float init = 0.0f) : esh_{std::move(esh)}, init_{init} {}
  const std::vector<Shape>& out_esh() const override { return esh_; }
  const std::vector<float>& init() const override { return init_; }
  Status call(const float* const* in, const float* const* state, float* const* out) override {
    ++calls;
    const std::int64_t n = shape_size(esh_[0]);
    for (std::int64_t i = 0; i < n; ++i) out[0][i] = state[0][i] + in[0][i];
    return {};
  }
  int calls = 0;

 private:
  std::vector<Shape> esh_;
  std::vector<float> init_;
};

// Stateless: out0 = 10 * (sum of all input fields) for scalar fields; fails with R-MULTIHOT at call fail_at.
class ScaleFn : public ElementFn {
 public:
  explicit ScaleFn(std::size_t nin = 1) : nin_{nin} {}
  const std::vector<Shape>& out_esh() const override { return esh_; }
  Status call(const float* const* in, const float* const* state, float* const* out) override {
    if (state != nullptr) return make_status("R-INTERNAL", "stateless fn got a state");
    if (calls++ == fail_at) return make_status("R-MULTIHOT", "fn f produced a Multihot value with entry 2 at position 0");
    float s = 0;
    for (std::size_t i = 0; i < nin_; ++i) s += in[i][0];
    out[0][0] = 10.0f * s;
    return {};
  }
  int calls = 0;
  int fail_at = -1;

 private:
  std::size_t nin_;
  std::vector<Shape> esh_{Shape{}};
};

}  // namespace sf::sim::testing
