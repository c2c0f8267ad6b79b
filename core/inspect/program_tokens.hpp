// The statements of a STeP program as token lists, for the program diff (program_diff.hpp). Generic on purpose:
// it reads step-v1 and step-v2 text alike (and text that parses as neither): identifiers, numbers, strings,
// punctuation and comments; a statement ends at a newline outside brackets (or at `;`). It knows just enough
// of the grammar to find the names a statement defines: the identifiers before its top-level `=` and the
// loop variables of a comprehension (`for f, s in ...`). Every resource is bounded (SplitLimits).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sf::inspect {

enum class TokKind { Ident, Number, String, Punct, Comment };

struct Tok {
  TokKind kind = TokKind::Punct;
  std::string text;
  bool space_before = false;  // whitespace (or a comment) between this token and the previous one
  bool target = false;        // an identifier before the statement's top-level `=`
  bool kwkey = false;         // an identifier inside brackets followed by `=` (a keyword argument's key)
  bool attr = false;          // an identifier after `.` (step.Map, .apply)
  int line = 0;               // 1-based line of the text
};

struct Stmt {
  std::vector<Tok> toks;
  int first_line = 0, last_line = 0;  // 1-based
  std::vector<std::string> defines;   // targets, then comprehension loop variables, in order
};

struct SplitLimits {
  std::size_t max_bytes = 256 * 1024;
  std::size_t max_statements = 1000;
  std::size_t max_tokens = 512;  // per statement
};

// The statements of `text`. Comments are dropped unless `keep_comments` (then a comment is a token of the
// statement it ends, or a statement of its own). nullopt with `error` when a limit is exceeded.
std::optional<std::vector<Stmt>> split_statements(std::string_view text, const SplitLimits& limits,
                                                  bool keep_comments, std::string& error);

// The tokens of one line (comments kept), for the line-by-line comparison; at most `max_tokens`.
std::vector<Tok> tokenize_line(std::string_view line, std::size_t max_tokens);

// The tokens joined as a person reads them (one space where the text had any), with each token's
// [begin, end) byte range in the result.
std::string render_tokens(const std::vector<Tok>& toks, std::vector<std::pair<int, int>>* ranges = nullptr);

}  // namespace sf::inspect
