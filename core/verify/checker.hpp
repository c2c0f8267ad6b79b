// The static pipeline of step-dialect §8: parse → names → affine + types + outputs (reported together).
// Used by `stepforge-cli check`, the verifier, the guardian and the editor's live checking.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"
#include "core/step2/check.hpp"

namespace sf::verify {

struct CheckOptions {
  std::size_t max_statements = 200;
  std::size_t max_bytes = 64 * 1024;
  std::int64_t max_stream_scalars = 4'000'000;
  std::int64_t max_total_scalars = 64'000'000;
};

// The dialect seam (ARCHITECTURE "Two dialects behind one seam"): check_program, check_document and
// Verifier::verify read TaskDoc::dialect once and run step-v1 (program/typed) or step-v2 (v2: core/step2's
// parser, checker and graphs; dialect_v2.cpp).
struct CheckResult {
  std::optional<step::Program> program;     // step-v1: set when the impl parsed
  std::optional<step::TypedProgram> typed;  // step-v1: set when every static check passed
  // step-v1, when `typed` is not set but the program was typed: the types of the statements before the first
  // one an error is located in (TypecheckOptions::partial); the editor shows them. step-v2: v2->types.
  std::optional<step::TypedProgram> partial;
  std::shared_ptr<const step2::CheckResult> v2;  // step-v2: the parsed program and its graphs
  Diagnostics diags;                        // errors (sorted by line, at most 20) and warnings
  bool ok() const { return typed.has_value() || (v2 && v2->ok()); }
  // Statements of the parsed program (either dialect), 0 when it did not parse.
  int statements() const;
};

CheckResult check_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                          const CheckOptions& opt = {});

// The whole document, every static stage of `verify` without running anything: the task's fns and reference
// compile under every size binding (TaskDoc::static_bindings: sizes, verify.alt_sizes,
// verify.general_sizes, perf_sizes; X-* diagnostics at their file
// locations, the binding named when it is not `sizes`; one diagnostic per location and code), then the impl's
// static pipeline as check_program. `typed` is set only when neither has an error.
CheckResult check_document(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                           const CheckOptions& opt = {});

// The stage that failed: the earliest stage of the pipeline among the errors (parse, name, affine, type,
// shape, output, limit, runtime, numeric, ...). Nullopt when there is no error.
std::optional<Stage> failing_stage(const Diagnostics& diags);

}  // namespace sf::verify
