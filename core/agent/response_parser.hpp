// Response parser: finds the program (`impl:`) and the adoption list in a proposer's answer.
//
// The impl comes from the last fenced block that contains an `impl:` key, else from a bare `impl:`
// document outside fences, else from the last fenced block that is itself a STeP program (has a
// `return` line and a `step.` call). Tolerated noise: prose around code, several blocks, tabs, CRLF,
// any fence language (```yaml, ```python, ~~~), an unclosed last fence, a missing `|` after `impl:`,
// an unindented body. Tolerance never deletes words: the impl is the block's text, only dedented.
// Locations are 1-based line:column in the response text.
#pragma once

#include "core/common/diagnostic.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::agent {

struct AdoptionEntry {
  std::string id;
  std::optional<bool> adopted;  // nullopt: the entry's state could not be read
  std::string rationale;
  Location loc;                 // where the entry starts
};

struct ParsedResponse {
  std::optional<std::string> impl;  // the program text, LF line ends, common indentation removed
  int impl_line = 0;                // response line of the impl's first program line (0 if none)
  std::string impl_source;          // "fenced", "bare" or "fenced-program"
  bool has_adoption_block = false;
  std::vector<AdoptionEntry> adoption;  // in answer order, duplicates removed (first resolved wins)
  std::vector<std::string> missing_ids; // retrieved ids with no resolved entry, in retrieval order
  std::vector<std::string> unknown_ids; // listed ids that were not retrieved, in answer order
  // The resident rules the answer says its program follows (`rules_used: [id, ...]`, found like the adoption
  // list), in answer order without duplicates; has_rules_used: the answer has the key (`[]` / `none`: none).
  // Ids are taken as written (the caller knows which rules were resident); an entry that is not an id is the
  // warning P-RULES-USED.
  bool has_rules_used = false;
  std::vector<std::string> rules_used;
  Diagnostics diagnostics;
  // The text of <think>…</think> blocks (reasoning models that inline it), removed before parsing; an
  // unterminated <think> runs to the end of the answer. Line numbers of the rest are unchanged.
  std::string reasoning;

  // True when every retrieved id has a resolved adoption state (evaluation may proceed).
  bool adoption_complete() const { return missing_ids.empty(); }
  std::optional<bool> adopted(const std::string& id) const;
};

struct ResponseParserLimits {
  std::size_t max_bytes = 1u << 20;  // larger answers: L-RESPONSE-SIZE
  std::size_t max_entries = 256;     // adoption entries kept (and rules_used ids)
};

ParsedResponse parse_response(std::string_view text, const std::vector<std::string>& retrieved_ids,
                              const ResponseParserLimits& limits = {});

}  // namespace sf::agent
