// Tokenizer for the impl program (step-dialect §5.1). Internal to the parser, exposed for tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/primitives.hpp"  // is_primitive_name

namespace sf::step {

enum class TokKind {
  Name,     // [A-Za-z_][A-Za-z0-9_]*
  Int,      // [0-9]+ (value <= 2^31 - 1)
  Punct,    // one of = , . ( ) [ ]
  Newline,  // end of a logical line (only outside brackets)
  End,      // end of input
  Error     // a lexical error; `error` holds the diagnostic (the token stream ends here)
};

struct Token {
  TokKind kind = TokKind::End;
  std::string_view text;     // name, digits, or the punctuation character: a view into the tokenized text
  std::int64_t value = 0;    // Int
  int line = 0;              // 0-based impl line
  int col = 0;               // 0-based byte offset in that line
  std::shared_ptr<const Diagnostic> error;  // Error (set only there: keeps every other token small)
};

// Maps impl (line, byte column) to a file location (see ParseOptions::line_starts).
class LocationMap {
 public:
  explicit LocationMap(const std::vector<Location>* starts) : starts_(starts) {}
  Location at(int line, int col) const;

 private:
  const std::vector<Location>* starts_;
};

// Tokenizes the whole text. Stops at the first lexical error (an Error token, which is then last) and
// otherwise ends with End. Brackets deeper than max_nesting give a P-NESTING Error token at that bracket.
// The tokens' texts point into `text`: it must outlive them.
std::vector<Token> tokenize(std::string_view text, const LocationMap& map, int max_nesting);

bool is_python_keyword(std::string_view s);
// step, zip, return, for, in, every Python keyword and every primitive name (§5.1).
bool is_reserved_word(std::string_view s);

}  // namespace sf::step
