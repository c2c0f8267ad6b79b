// Task-quality audit for `tasks validate` (METR-style filters): a task whose reference output is constant,
// does not change with the seed, does not change when any single input or parameter changes, or is
// dominated by zeros can be passed without computing it, so it is rejected (X-AUDIT-* errors at the
// reference). Evaluated under `sizes` on the task's seeds; see docs/task-documents.md.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"

namespace sf::verify {

class Verifier;

struct AuditOptions {
  double max_zero_share = 0.75;  // more than this share of exact zeros in an output field: dominated by zeros
};

// Appends X-AUDIT-CONSTANT / X-AUDIT-SEED / X-AUDIT-INPUT / X-AUDIT-ZEROS errors; true when the task passes.
// Task-definition errors (X-*) of the reference itself are appended too (and give false).
bool audit_task(Verifier& v, const step::TaskDoc& task, Diagnostics& diags, const AuditOptions& opt = {});

}  // namespace sf::verify
