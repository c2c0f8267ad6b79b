// The functional simulator: runs a type-checked program on one input set (one size binding and one seed)
// with dense kernels (kernels.hpp), task fns compiled by the fn language, and the resource budget.
// Also generates the input set (§11) and evaluates the task's reference in double (§12).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/sim/datagen.hpp"
#include "core/sim/stream_value.hpp"
#include "core/step/task_compile.hpp"
#include "core/step/typecheck.hpp"

namespace sf::sim {

// The concrete data of one input set: every task input as a dense stream, every parameter as a tensor.
struct InputSet {
  step::SizeBinding sizes;
  std::uint64_t seed = 0;
  std::map<std::string, StreamValue, std::less<>> inputs;
  std::map<std::string, std::vector<float>, std::less<>> params;
};

// Generates the inputs and parameters of `task` under `sizes` and `seed` (§11; `structure`: see datagen.hpp).
// X-* diagnostics on error.
std::optional<InputSet> make_input_set(const step::TaskDoc& task, const step::SizeBinding& sizes,
                                       std::uint64_t seed, Diagnostics& diags,
                                       Structure structure = Structure::Spec);

// A task fn bound to the parameters of an input set, as an ElementFn for the kernels. Checks that Multihot
// outputs are exactly 0 or 1 (R-MULTIHOT). The input set and compiled fn must outlive it.
std::unique_ptr<ElementFn> make_task_fn(const step::CompiledFn& cf, const step::TaskDoc& task, const InputSet& in);

// Evaluates the reference in double: one tensor per output field (outputs in order, tuple outputs one per
// field). Fragile gaps (§11.4) are reported as X-FRAGILE diagnostics, NaN as X-REF-NAN by the caller.
struct ReferenceResult {
  std::vector<std::vector<double>> fields;
  std::vector<fnlang::FragileGap> fragile;
};
std::optional<ReferenceResult> eval_reference(const step::CompiledTask& ct, const InputSet& in, Diagnostics& diags);

struct RunOptions {
  bool keep_streams = false;  // keep a copy of every named stream (for the inspector and `run --show`)
  std::int64_t max_stream_scalars = 4'000'000;
  std::int64_t max_total_scalars = 64'000'000;
  double time_limit_s = 10.0;  // L-TIME per input set
  // When set (one flag per statement), only the flagged statements run; the caller guarantees that they read
  // only streams defined by flagged statements or task inputs (the cost model computes just the selectors).
  const std::vector<bool>* only_statements = nullptr;
};

struct RunResult {
  std::vector<StreamValue> outputs;                          // returned streams, in order
  std::map<std::string, StreamValue, std::less<>> streams;   // keep_streams: every named stream (lists: "L[i]")
  std::optional<Diagnostic> error;                           // R-*, L-* with the statement's location
};

RunResult run_program(const step::Program& prog, const step::TypedProgram& typed, const step::CompiledTask& ct,
                      const InputSet& in, const RunOptions& opt = {});

// Task-fn adapters (workspaces included) kept across runs on one compiled task and input set: a run borrows a
// set of adapters and gives it back, so repeated runs (the verifier's cached input sets) build them once per
// concurrent run instead of once per run. Thread-safe. Only ever pass it with the same `ct` and `in`.
class FnCache {
 public:
  using Set = std::map<const step::CompiledFn*, std::unique_ptr<ElementFn>>;
  std::unique_ptr<Set> acquire();
  void release(std::unique_ptr<Set> set);

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<Set>> free_;
};

// As above, borrowing the fn adapters from `cache` (nullptr: build them for this run).
RunResult run_program(const step::Program& prog, const step::TypedProgram& typed, const step::CompiledTask& ct,
                      const InputSet& in, const RunOptions& opt, FnCache* cache);

}  // namespace sf::sim
