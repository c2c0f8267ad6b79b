// Internal: the printer shared by print_program and canonical_text.
#pragma once

#include <string>

#include "core/step/ast.hpp"
#include "core/step/dim.hpp"

namespace sf::step::detail {

struct PrintStyle {
  bool canonical = false;              // kwargs sorted, N= as its value, comprehensions fns first
  const SizeBinding* sizes = nullptr;  // for N= (canonical only)
  // Print program-defined names as the canonical renaming gives them (§9: streams and stream lists _v1, _v2,
  // ... and fn lists _l1, ... in definition order, a comprehension's fn variable _f and stream variable _s),
  // without copying the program. Same text as printing canonical_program(p) without it.
  bool rename = false;
};

std::string print_with(const Program& p, const PrintStyle& style);

// The program with the §9 renaming applied (the reference for PrintStyle::rename, used by its tests).
Program canonical_program(const Program& program);

}  // namespace sf::step::detail
