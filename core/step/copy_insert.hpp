// The guardian's deterministic Copy rewrite (step-dialect §6, last paragraph).
#pragma once

#include "core/step/ast.hpp"
#include "core/step/names.hpp"

namespace sf::step {

// For every stream used k > 1 times (task inputs, program streams, stream-list elements L[i]) inserts a Copy
// chain right after its definition (task inputs: at the start, in name order; L[i]: after L's definition):
//   x_0, x_r1 = step.Copy().apply(x)
//   x_1, x_r2 = step.Copy().apply(x_r1)      ... (k-1 Copies)
// and renames the uses in program order: use j (0-based, j < k-1) gets x_j, the last use gets the last
// remainder. Element streams use the base name L_i. A fresh name that collides with any existing name, task
// name or reserved word gets a numeric suffix (x_0_2, ...). Only multiple use is fixed; everything else is kept.
Program insert_copies(const Program& program, const TaskNames& names);

}  // namespace sf::step
