// The specialised-function expression language (step-dialect §10): compile a fn body or a task
// reference for one size binding into a flat list of ops over preallocated slots, then evaluate it
// in float (programs) or double (references) with no heap allocation in steady state.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/fnlang/ir.hpp"

namespace sf::fnlang {

using Shape = std::vector<std::int64_t>;  // outermost-first (PyTorch order)
struct Arg {
  std::string name;
  Shape shape;
};  // a named tensor visible in the body
enum class Mode { Fn, Reference };  // error-code family: X-FN-* vs X-REF-*

struct CompileOptions {
  std::string fn_name;                        // used in messages ("fn fn_gate line 2: ...")
  Mode mode = Mode::Fn;
  std::vector<sf::Location> line_starts;      // file location of the first character of each body line
  std::map<std::string, std::int64_t> sizes;  // size symbols -> values (static ints in the body)
  std::vector<Arg> args;                      // in0.., state0.., parameters (Fn) / inputs, parameters (Ref)
  std::vector<Shape> expected_outputs;        // declared shape of each returned value (empty: unchecked)
};

struct FragileGap {
  double gap;
  double scale;
  sf::Location loc;
  std::string what;
};  // §11.4

struct EvalReport {
  std::vector<FragileGap> fragile;     // Reference mode only: gaps below threshold
  std::optional<sf::Diagnostic> error;  // run-time error (e.g. R-ONEHOT), with location
};

class Program;
template <class S>
class Workspace;

// Compile `body` for one size binding. Returns nullptr and appends diagnostics on any error.
std::shared_ptr<const Program> compile(std::string_view body, const CompileOptions& opt, sf::Diagnostics& diags);

// "(7, 16)", "(16)", "()" — the shape notation used in messages.
std::string format_shape(const Shape& s);

class Program {
 public:
  explicit Program(ir::Module m) : m_(std::move(m)) {}
  const std::vector<Shape>& output_shapes() const { return m_.out_shapes; }
  std::size_t arg_count() const { return m_.arg_shapes.size(); }
  std::size_t op_count() const { return m_.ops.size(); }
  // FLOPs of one eval() on the compiled (static) shapes, per the cost-model table of docs/fn-flops.md: the sum
  // over the ops run on every eval (not the prologue, which runs once on constants). Precomputed per op at
  // compile time; O(op_count()).
  std::int64_t flops() const;
  // args[i]: row-major data of CompileOptions::args[i]; outs[j]: preallocated buffer of
  // product(output_shapes()[j]) elements. Returns false and sets report->error on a run-time error.
  template <class S>
  bool eval(const S* const* args, S* const* outs, Workspace<S>& ws, EvalReport* report) const;
  // Evaluates `count` elements: element e reads args[i] + e * arg_strides[i] (stride 0: the same tensor for
  // every element, e.g. a parameter) and writes outs[j] + e * out_strides[j]. Bit-identical to calling eval()
  // on each element in order; stops at the first run-time error. Fast when batchable().
  template <class S>
  bool eval_batch(const S* const* args, const std::int64_t* arg_strides, S* const* outs,
                  const std::int64_t* out_strides, std::int64_t count, Workspace<S>& ws, EvalReport* report) const;
  // True when no op can fail at run time or reads slots indirectly (no one_hot, no einsum): eval_batch then
  // evaluates op by op over chunks of elements; otherwise it falls back to one eval() per element.
  bool batchable() const;

 private:
  template <class S>
  friend class Workspace;
  template <class S>
  bool run(const std::vector<ir::Op>& ops, Workspace<S>& ws, EvalReport* report) const;
  ir::Module m_;
};

template <class S>
class Workspace {
 public:
  explicit Workspace(const Program& p);
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  Workspace(Workspace&&) noexcept = default;
  Workspace& operator=(Workspace&&) noexcept = default;

 private:
  friend class Program;
  void reserve_batch(std::int64_t cap);
  const Program* prog_;
  std::vector<S> buf_;
  std::vector<const S*> rd_;  // read pointer per slot (args are rebound on every eval)
  std::vector<S*> wr_;        // write pointer per slot (null for args)
  std::vector<double> dacc_;
  std::vector<std::int64_t> idx_;
  // eval_batch: chunk buffers (slot i at batch_wr_[i], element e at + e * slot size), per-slot read
  // pointers and strides (0: uniform, read rd_), varying flags, and pointer scratch for the fallback.
  std::int64_t batch_cap_ = 0;
  std::vector<S> batch_buf_;
  std::vector<S*> batch_wr_;
  std::vector<const S*> batch_rd_;
  std::vector<std::int64_t> batch_st_;
  std::vector<char> batch_vary_;
  std::vector<char> batch_mask_;  // the argument stride pattern batch_vary_ was computed for
  std::vector<const S*> batch_args_;
  std::vector<S*> batch_outs_;
};

extern template class Workspace<float>;
extern template class Workspace<double>;
extern template bool Program::eval<float>(const float* const*, float* const*, Workspace<float>&,
                                          EvalReport*) const;
extern template bool Program::eval<double>(const double* const*, double* const*, Workspace<double>&,
                                           EvalReport*) const;
extern template bool Program::eval_batch<float>(const float* const*, const std::int64_t*, float* const*,
                                                const std::int64_t*, std::int64_t, Workspace<float>&,
                                                EvalReport*) const;
extern template bool Program::eval_batch<double>(const double* const*, const std::int64_t*, double* const*,
                                                 const std::int64_t*, std::int64_t, Workspace<double>&,
                                                 EvalReport*) const;

}  // namespace sf::fnlang
