// The what-if edits of the performance explorer (issue 33 item 5), Qt-free: change one kwarg of one STeP-25
// statement, or one tile size of the whole program, as source text. The result is re-timed by the real
// checker and cost model; an edit that does not type-check is reported by them, not here. Every function is
// total: a statement or kwarg it cannot find is an error string, never an exception.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::inspect::perf2 {

// The value text of `key=` in the operator call of the statement on `line` (1-based), e.g. "[128, 128]" or
// "4"; nullopt when the statement has no such kwarg.
std::optional<std::string> kwarg_text(std::string_view source, int line, std::string_view key);

// `source` with the kwarg `key` of the statement on `line` set to `value` (inserted at the end of the
// operator's kwargs when absent). nullopt with *error when the line holds no `step.Op(...)` call.
std::optional<std::string> set_kwarg(std::string_view source, int line, std::string_view key, std::string_view value,
                                     std::string* error = nullptr);

// A tile size along one size symbol: the program divides the symbol by `tile` (`M/128`) in its shapes and
// strides, and its loads tile that tensor axis by `tile`. `choices` are the divisors of the symbol's value.
struct TileAxis {
  std::string symbol;
  std::int64_t tile = 0;
  std::int64_t extent = 0;  // the symbol's value under the binding (0 when unknown)
  std::vector<std::int64_t> choices;
};
// The tile axes of a program, in order of first use. A symbol divided by two different numbers is left out.
std::vector<TileAxis> tile_axes(std::string_view source, const std::map<std::string, std::int64_t>& sizes);

// `source` with the tile size along `symbol` changed to `tile`: every `symbol/old` becomes `symbol/tile`,
// and each OffChipLoad's `tile=[r, c]` entry whose axis is `symbol` becomes `tile`. A load's axes are read
// from its stride: the shape entry with stride 1 counts tile columns, the entry whose stride is that count
// counts tile rows. nullopt with *error when the program has no such axis.
std::optional<std::string> set_tile(std::string_view source, std::string_view symbol, std::int64_t tile,
                                    std::string* error = nullptr);

// The divisors of n (n >= 1), ascending; empty for n < 1. n is bounded to 2^31 (larger gives empty).
std::vector<std::int64_t> divisors(std::int64_t n);

// Splits "[a, b, c]" (or "a, b") at its top-level commas, trimming spaces.
std::vector<std::string> split_list(std::string_view text);

}  // namespace sf::inspect::perf2
