// Run-time values of the functional simulator: dense streams (step-dialect §3.2), element fns,
// kernel status and the resource budget of one run (§8).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace sf::sim {

// Outermost-first element tensor shape (esh, §2). () for fp32.
using Shape = std::vector<std::int64_t>;

// One field of a stream: the full tensor FT (§3.2), row-major = stream order, then element order.
struct Field {
  Shape esh;
  std::vector<float> data;
};

struct StreamValue {
  std::vector<std::int64_t> dims;  // innermost-first sizes [s0..sr] (>= 0)
  std::vector<Field> fields;       // 1 field, or n for a tuple stream
  std::int64_t positions() const;  // product of dims (saturating)
  std::int64_t scalars() const;    // positions * sum of element sizes (saturating)
  int rank() const { return static_cast<int>(dims.size()) - 1; }
};

// Empty code = success. Codes and messages are those of the spec (R-*, L-*, T-*).
struct Status {
  std::string code;
  std::string message;
  bool ok() const { return code.empty(); }
};

inline Status ok_status() { return {}; }
Status make_status(std::string code, std::string message);

// A fn applied to one element. in[i]: the i-th input field of one element; state[j]: the j-th state
// field (stateful fns only, else nullptr); out[j]: the j-th output field (buffers sized by out_esh()).
// out never aliases in or state.
class ElementFn {
 public:
  virtual ~ElementFn() = default;
  virtual const std::vector<Shape>& out_esh() const = 0;
  virtual Status call(const float* const* in, const float* const* state, float* const* out) = 0;
  // `count` calls at once: call e reads in[i] + e * in_strides[i] (i < nin), state[j] + e * state_strides[j]
  // (state null for stateless fns) and writes out[j] + e * out_strides[j] (j < out_esh().size()). Same
  // results and first error as calling call() for e = 0, 1, ... in order (the default does exactly that; the
  // task-fn adapter evaluates the batch op by op).
  virtual Status call_batch(const float* const* in, const std::int64_t* in_strides, std::size_t nin,
                            const float* const* state, const std::int64_t* state_strides, float* const* out,
                            const std::int64_t* out_strides, std::int64_t count);
  // True when call() can never fail (no run-time error, no output check): callers may then reorder
  // independent calls, e.g. fold many Accum chains in lock step.
  virtual bool infallible() const { return false; }
  // Stateful fns: one value per output field, broadcast over the field. Stateless: empty.
  virtual const std::vector<float>& init() const;
};

// Resource limits of one run (§8).
struct Budget {
  std::int64_t max_stream_scalars = 4'000'000;
  std::int64_t max_total_scalars = 64'000'000;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();  // L-TIME
  std::int64_t used_total = 0;
  // L-ELEMENTS when one stream of `scalars` scalars would exceed a limit; call before allocating.
  Status reserve(std::int64_t scalars);
  // L-TIME once the deadline has passed. One clock read (~20 ns); kernels call it every few hundred
  // elements.
  Status check_time();
};

// Number of scalars of one element of shape esh (saturating at INT64_MAX).
std::int64_t shape_size(const Shape& esh);
// Saturating product of non-negative numbers.
std::int64_t sat_mul(std::int64_t a, std::int64_t b);
std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from = 0, std::size_t to = SIZE_MAX);

// Internal consistency of a value (fields present, data sizes match dims and esh); "R-INTERNAL" if not.
Status validate(const StreamValue& x, const char* what);

// "[3, 2]" (used in messages).
std::string format_ints(const std::vector<std::int64_t>& v);

}  // namespace sf::sim
