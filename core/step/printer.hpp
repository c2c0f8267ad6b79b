// Printing an impl program, and its canonical form (step-dialect §9).
#pragma once

#include <string>

#include "core/step/ast.hpp"
#include "core/step/dim.hpp"

namespace sf::step {

// Readable text (one statement per line, names, kwarg order and zip order as written) that parses back to
// the same canonical form.
std::string print_program(const Program& program);

// §9 canonical text: program-defined names renamed in definition order (streams and stream lists _v1, _v2, ...;
// fn lists _l1, ...; comprehension variables _s and _f), kwargs in the order fn, a, b, n, L, S, N (others after,
// as written), `N=` printed as its integer value when `sizes` binds it (else the symbol as written),
// comprehensions fns first, statements joined with "\n" (no trailing newline).
std::string canonical_text(const Program& program, const SizeBinding* sizes = nullptr);
// Lowercase hex SHA-256 of canonical_text.
std::string canonical_key(const Program& program, const SizeBinding* sizes = nullptr);
// A keyword argument's value as written: `4`, `E`, `[1, 2]`.
std::string kwval_text(const KwVal& v);
// Number of statements (assignments, fn-list definitions and the return).
int program_length(const Program& program);

}  // namespace sf::step
