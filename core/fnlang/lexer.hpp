// Tokenizer for fn bodies: Python-style numbers, names, strings, operators; implicit line joining
// inside brackets; `#` comments; LF/CRLF line ends (a lone CR is whitespace).
#pragma once

#include <string_view>
#include <vector>

#include "core/fnlang/ast.hpp"

namespace sf::fnlang {

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}
  // Throws FnError on a lexical error.
  std::vector<Token> run();

 private:
  std::string_view src_;
};

}  // namespace sf::fnlang
