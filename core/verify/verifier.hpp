// The verifier (algorithms §2, step-dialect §8, §12): r(task, impl) = 1 iff the program passes every static
// check, runs within the limits and matches the reference on every input set (seeds × {sizes, alt_sizes}).
// Compiled tasks, input data and reference outputs are cached per task, binding and seed, so repeated
// verifications of one task only pay for the simulation and the comparison. Thread-safe. Every static check runs
// under every binding of the task (§15.11, TaskDoc::static_bindings); the simulation runs under sizes and
// alt_sizes (and general_sizes when asked).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/sim/compare.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task.hpp"
#include "core/step2/prepare.hpp"
#include "core/verify/checker.hpp"

namespace sf::verify {

struct OutputReport {
  std::string name;  // "S0", or "S0.1" for field 1 of a tuple output
  sim::CompareStats stats;
  std::string first_bad_at;  // the first mismatch as a stream position (sim::format_position), "" when none
};

struct InputSetReport {
  step::SizeBinding sizes;
  std::uint64_t seed = 0;
  bool alt = false;             // any binding but `sizes`
  std::string binding = "sizes";  // "sizes", "verify.alt_sizes" or "verify.general_sizes"
  bool pass = false;
  std::vector<OutputReport> outputs;
};

struct Report {
  bool pass = false;
  Diagnostics diags;                 // errors and warnings, file-relative locations
  std::optional<Stage> stage;        // the failing stage (nullopt on pass)
  std::string code;                  // the first error's code in pipeline order ("" on pass)
  std::vector<InputSetReport> sets;  // input sets evaluated (stops at the first failing one)
  double max_abs_error = 0, max_rel_error = 0;
  int program_length = 0;
  std::string canonical_key;         // SHA-256 of the canonical text (set when the program parsed)
  double seconds = 0;
  int reward() const { return pass ? 1 : 0; }
};

struct VerifyOptions {
  CheckOptions check;
  double time_limit_s = 10.0;  // L-TIME per input set
  bool use_alt_sizes = true;   // also verify under verify.alt_sizes when the task declares them
  // Also simulate under verify.general_sizes (§15.11; `tasks validate`). Every static check runs under it anyway.
  bool use_general_sizes = false;
  // Campaigns: keep the static result of every distinct program text per task (bounded), so a program proposed
  // again is not parsed and typed again. Off by default (bench verify must time the whole verification).
  bool cache_static = false;
};

// One output of a verified program against the reference (issue 20: the run comparison's "output vs
// reference"), over the input sets the verifier evaluated: the largest errors and the first mismatch.
struct OutputComparison {
  std::string name;            // OutputReport::name
  std::int64_t values = 0;     // values compared over all sets
  std::int64_t mismatches = 0;
  double max_abs = 0, max_rel = 0;
  std::string first_mismatch;  // "[i, j] element e (seed S, BINDING)" of the first failing set, "" when none
  std::string first_mismatch_code;  // "V-MISMATCH" / "V-NONFINITE", "" when none
  bool ok() const { return mismatches == 0; }
};
// The report's outputs, in the task's order (an output a set never compared, e.g. after a size mismatch, is
// absent: the report's diagnostics say why).
std::vector<OutputComparison> compare_outputs(const Report& r);

// `verify.extra_seeds` of a campaign: k fresh seeds for one candidate, derived from the campaign seed, the task and
// the sample index (so reruns see the same input sets), none equal to the task's own seeds.
std::vector<std::uint64_t> derive_extra_seeds(std::uint64_t campaign_seed, std::string_view task_id,
                                              std::int64_t sample, int k, const std::vector<std::uint64_t>& avoid);

// The seeds `tasks validate` runs reference solutions on beyond the task's own: derived ones up to n in all.
std::vector<std::uint64_t> validation_extra_seeds(const step::TaskDoc& task, int n = 16);

class Verifier {
 public:
  explicit Verifier(VerifyOptions opt = {}) : opt_(std::move(opt)) {}

  // Verifies `impl` (located by line_starts in its file) against `task`. `extra_seeds` (a campaign's
  // verify.extra_seeds, the seeds `tasks validate` adds) add input sets on every verified binding after the
  // fixed ones; they are not cached and their selectors and masks are drawn with varied structure
  // (sim::Structure).
  // `checked`: the result of check(task, impl) when the caller already has it (the guardian's final check), so
  // a sample's program is checked statically once; it must belong to exactly this impl with no line offsets.
  Report verify(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts = {},
                const std::vector<std::uint64_t>& extra_seeds = {},
                std::shared_ptr<const CheckResult> checked = nullptr);

  // The static checks of `impl` (no line offsets) with this verifier's options, as verify runs them. With
  // VerifyOptions::cache_static the result is kept per task and program text: diagnostics carry locations, so
  // only an identical text can reuse them (identical text implies the same canonical program).
  std::shared_ptr<const CheckResult> check(const step::TaskDoc& task, std::string_view impl);

  // Static checks run by this verifier (check and verify, cache hits excluded), and cache hits.
  std::int64_t static_checks() const { return static_checks_.load(); }
  std::int64_t static_cache_hits() const { return static_hits_.load(); }

  // The data of one input set (cached): compiled task, inputs, reference. Task-definition problems (X-*) are
  // appended to diags and give nullptr.
  struct Prepared {
    step::CompiledTask compiled;
    sim::InputSet inputs;
    sim::ReferenceResult reference;
    Diagnostics task_diags;  // warnings such as X-FRAGILE
    // Fn adapters reused by the runs on this input set (thread-safe).
    std::shared_ptr<sim::FnCache> fns = std::make_shared<sim::FnCache>();
  };
  // `cache` false: computed for this call only. `structure`: how selectors and masks are drawn (datagen.hpp).
  std::shared_ptr<const Prepared> prepare(const step::TaskDoc& task, const step::SizeBinding& sizes,
                                          std::uint64_t seed, Diagnostics& diags, bool cache = true,
                                          sim::Structure structure = sim::Structure::Spec);

 private:
  // step-v2 (dialect_v2.cpp): the same verdict over core/step2's simulator, with its own input-set cache.
  Report verify_v2(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                   const std::vector<std::uint64_t>& extra_seeds, std::shared_ptr<const CheckResult> checked);
  std::map<std::string, std::shared_ptr<const step2::Prepared>> cache_v2_;  // guarded by mu_
  // prepare() with the task part of the cache key computed by the caller (verify: once for all its input sets).
  std::shared_ptr<const Prepared> prepare_keyed(const step::TaskDoc& task, const std::string& task_key,
                                                const step::SizeBinding& sizes, std::uint64_t seed,
                                                Diagnostics& diags, bool cache, sim::Structure structure);
  VerifyOptions opt_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Prepared>> cache_;
  std::mutex static_mu_;
  std::unordered_map<std::string, std::shared_ptr<const CheckResult>> static_cache_;  // task key + '\n' + impl
  std::atomic<std::int64_t> static_checks_{0}, static_hits_{0};
};

// Task self-check for the validator: compiles every binding (sizes, alt_sizes, general_sizes), generates every
// input set, evaluates the reference, reports X-REF-NAN and X-FRAGILE (as errors). Returns true when the task
// is sound.
bool validate_task(Verifier& v, const step::TaskDoc& task, Diagnostics& diags);

}  // namespace sf::verify
