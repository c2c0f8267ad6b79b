// The impl parser (step-dialect §5.1-5.2, §15.3, §15.5, §15.8).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/ast.hpp"

namespace sf::step {

struct ParseOptions {
  // File location of the first character of each impl line (0-based impl line i). Empty => line i+1 and
  // columns as in the text. Lines beyond the list continue after its last entry at column 1.
  std::vector<Location> line_starts;
  std::size_t max_bytes = 64 * 1024;  // over => L-SIZE at the start of the impl
  std::size_t max_statements = 200;   // L-STATEMENTS at the first statement beyond the limit
  int max_nesting = 64;               // P-NESTING at the first bracket beyond the limit
};

// Parses an impl program. Any error (P-SYNTAX, P-INT, P-NESTING, L-SIZE, L-STATEMENTS) adds exactly one
// diagnostic and returns nullopt. Never throws for any input.
std::optional<Program> parse_impl(std::string_view text, const ParseOptions& options, Diagnostics& diags);

}  // namespace sf::step
