// Token view of a dense stream (step-dialect §3.4): element positions with stop levels, then Done.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/sim/stream_value.hpp"

namespace sf::sim {

struct Token {
  enum Kind { Value, Done } kind;
  std::int64_t position;  // stream-order index of the element (Value only)
  int stop;               // stop level emitted after the element; 0 = no stop
};

// The first max_tokens tokens of x (Done last unless truncated). An empty stream is just Done.
std::vector<Token> token_view(const StreamValue& x, std::size_t max_tokens);

// Space-separated rendering, e.g. "1 2 3 S1 4 5 6 S1 D". Values print in shortest round-trip form;
// an element with a non-empty esh prints as nested brackets ("[1 2 3]", "[[1 2] [3 4]]"); a tuple as
// "(a, b)". A truncated view ends with "…".
std::string format_tokens(const StreamValue& x, std::size_t max_tokens = 4096);
std::string format_tokens(const StreamValue& x, const std::vector<Token>& tokens);

// One element as text (as in format_tokens).
std::string format_element(const StreamValue& x, std::int64_t position);

}  // namespace sf::sim
