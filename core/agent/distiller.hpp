// Distiller and abstractor (algorithms §1): turn a finished episode into experiences for cold memory,
// and a validated experience into a concise resident rule. Both ask the model for a small YAML answer
// (JSON is accepted too, YAML being a superset) and parse it defensively: garbage gives diagnostics
// (P-DISTILL / P-ABSTRACT), never an exception.
#pragma once

#include "core/agent/proposer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sf::agent {

struct EpisodeAttempt {
  std::string impl;
  std::string diagnostics;  // formatted verifier diagnostics ("" when it passed)
  bool pass = false;
  // The cost model's cycles of a passing program and whether it fits the chip (not shown to the distiller
  // role; they feed speedup_experience).
  std::optional<std::int64_t> cycles;
  bool feasible = false;
};

struct Episode {
  std::string task_id;
  std::string task_text;  // without impl
  std::vector<EpisodeAttempt> attempts;
  std::optional<std::string> final_program;  // the verified program, if any
};

struct DistillLimits {
  std::size_t max_answer_bytes = 64 * 1024;
  std::size_t max_items = 8;
  std::size_t max_field_chars = 4000;
  std::size_t max_attempts_shown = 6;  // the last ones
};

struct DistillResult {
  std::vector<Experience> experiences;
  Diagnostics diagnostics;
  std::string error;  // LLM error, if the call failed
};

// Parses a distiller answer: `experiences:` list (or a bare list) of maps with `rule` (required),
// `evidence`, `example` (or `code_example`). Ids are "exp-" + 10 hex digits of SHA-256(task_id + rule).
DistillResult parse_distill_answer(const std::string& text, const std::string& task_id, const DistillLimits& lim = {});

struct AbstractResult {
  std::optional<ResidentRule> rule;
  Diagnostics diagnostics;
  std::string error;
};

// Parses an abstractor answer: a map with `rule` (required; `text` accepted) and optional `example`.
// The rule id is "rule-" + the experience id.
AbstractResult parse_abstract_answer(const std::string& text, const std::string& experience_id,
                                     const DistillLimits& lim = {});

// A slow→fast experience (docs/learn.md "Cost"), made without a model call: when the episode holds a correct
// feasible program faster than its first correct feasible one, the rule says by how much and what changed (the
// step primitives before and after, the lines removed and added); evidence = both programs with their cycles;
// example = the fast program; no pattern. Id as in parse_distill_answer. nullopt when the episode did not get faster.
std::optional<Experience> speedup_experience(const Episode& ep, const DistillLimits& lim = {});

class Distiller {
 public:
  Distiller(llm::ChatBackend& backend, RoleContext ctx, DistillLimits lim = {})
      : backend_(backend), ctx_(std::move(ctx)), lim_(lim) {}
  static std::vector<llm::ChatMessage> prompt(const Episode& ep, const DistillLimits& lim = {});
  DistillResult distill(const Episode& ep);

 private:
  llm::ChatBackend& backend_;
  RoleContext ctx_;
  DistillLimits lim_;
};

class Abstractor {
 public:
  Abstractor(llm::ChatBackend& backend, RoleContext ctx, DistillLimits lim = {})
      : backend_(backend), ctx_(std::move(ctx)), lim_(lim) {}
  static std::vector<llm::ChatMessage> prompt(const Experience& e);
  AbstractResult abstract(const Experience& e);

 private:
  llm::ChatBackend& backend_;
  RoleContext ctx_;
  DistillLimits lim_;
};

}  // namespace sf::agent
