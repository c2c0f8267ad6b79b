// STeP-25 (dialect step-v2): the program as written (docs/step25.md, "Program syntax"), before any size binding.
//   statement = targets "=" "step" "." OP "(" [kwargs] ")" "." "apply" "(" args ")"
// Dims stay symbolic here (v1 monomials of size symbols); the checker (check.hpp) resolves them per binding.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/dim.hpp"

namespace sf::step2 {

// A kwarg value: a dim monomial (INT, NAME and K/128, N*2 alike; a lone NAME may also be a fn name), a FLOAT
// (only for c=), a dim list, or Tile[r, c].
struct KwValue {
  enum class Kind { Dim, Float, List, Tile } kind = Kind::Dim;
  step::Dim dim;                // Dim (a lone name is also kept in `name`)
  std::string name;             // Dim: the text when it is a single NAME, else ""
  std::string text;             // the value as written (for messages)
  double number = 0;            // Float (and Dim when it is an integer constant)
  bool negative = false;        // Dim written with a leading '-' (only meaningful for c=)
  std::vector<step::Dim> list;  // List (and Tile: {r, c})
  Location loc;
};

struct Kwarg {
  std::string name;
  KwValue value;
  Location loc;
};

// A stream reference: NAME or NAME[INT] (a port of a multi-output op).
struct Ref {
  std::string name;
  int index = -1;  // -1: no index
  Location loc;
  std::string text() const { return index < 0 ? name : name + "[" + std::to_string(index) + "]"; }
};

struct Statement {
  std::vector<std::string> targets;  // one or more names
  std::vector<Location> target_locs;
  std::string op;  // as written after `step.`
  Location op_loc;
  std::vector<Kwarg> kwargs;
  enum class ArgForm { One, Tuple, List } form = ArgForm::One;
  std::vector<Ref> args;
  Location loc;  // the first target
  int line = 0;  // 1-based impl line (for messages)
};

struct Program {
  std::vector<Statement> stmts;
};

struct ParseOptions {
  std::vector<Location> line_starts;  // file location of each impl line's first character (empty: impl-relative)
  std::size_t max_bytes = 64 * 1024;  // L-SIZE
  std::size_t max_statements = 200;   // L-STATEMENTS
  std::size_t max_list = 16;          // entries of one dim list / args list (P-SYNTAX beyond)
};

// Parses a step-v2 impl. Any error (P-SYNTAX, P-INT, L-SIZE, L-STATEMENTS) adds one located diagnostic and
// returns nullopt. Never throws for any input.
std::optional<Program> parse_program(std::string_view text, const ParseOptions& opt, Diagnostics& diags);

}  // namespace sf::step2
