// Internal: the printer shared by print_program and canonical_text.
#pragma once

#include <string>

#include "core/step/ast.hpp"
#include "core/step/dim.hpp"

namespace sf::step::detail {

struct PrintStyle {
  bool canonical = false;              // kwargs sorted, N= as its value, comprehensions fns first
  const SizeBinding* sizes = nullptr;  // for N= (canonical only)
};

std::string print_with(const Program& p, const PrintStyle& style);

}  // namespace sf::step::detail
