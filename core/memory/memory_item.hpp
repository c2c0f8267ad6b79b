// Records of the adoption-aware memory (algorithms §4.1): memory items and adoption records.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sf::memory {

// Lifecycle: cold → validated → hot, hot → validated on displacement.
enum class ItemState { Cold, Validated, Hot };
std::string_view state_name(ItemState s);  // "cold", "validated", "hot"
std::optional<ItemState> parse_state(std::string_view name);

// Token estimate used when a size is not given: ceil(chars / 4) (UTF-8 bytes).
int estimate_tokens(std::string_view text);

struct CreditEntry {
  std::int64_t episode = 0;
  double credit = 0.0;
  friend bool operator==(const CreditEntry&, const CreditEntry&) = default;
};

struct MemoryItem {
  std::string id;
  std::string rule;                         // retrieval-facing rule text
  std::string evidence;                     // diagnostic evidence
  std::optional<std::string> code_example;  // optional code example
  std::optional<std::string> pattern;       // optional machine-readable pattern (built-in synthesizer)
  std::int64_t source_episode = 0;
  std::string source_task;               // task the experience was distilled from ("" if unknown)
  double utility = 0.0;                  // U
  int n_updates = 0;                     // n_U
  int retrieval_count = 0;               // episodes in which the item was retrieved
  int adoption_count = 0;                // episodes in which the item was adopted (in any round)
  std::set<std::string> adopting_tasks;  // distinct operators (task ids) that adopted it
  int eligible_episodes = 0;             // episodes that ended while the item was retrievable (not hot)
  double access = 0.0;                   // access estimate a
  int tokens = 0;                        // token size of rule + code example (retrieval view)
  ItemState state = ItemState::Cold;
  std::vector<CreditEntry> history;  // (episode, credit) pairs
  // Resident form written by the abstractor (kept with the source fields above for provenance).
  std::optional<std::string> resident_rule;
  std::optional<std::string> resident_code;
  int resident_tokens = 0;  // ceil((resident rule + resident code) chars / 4)
  friend bool operator==(const MemoryItem&, const MemoryItem&) = default;
};

enum class AdoptionState { Adopted, NotAdopted };
std::string_view adoption_state_name(AdoptionState s);  // "adopted", "not-adopted"
std::optional<AdoptionState> parse_adoption_state(std::string_view name);

enum class AuditGrade { Full, Partial, Unrelated };
std::string_view audit_grade_name(AuditGrade g);  // "full", "partial", "unrelated"
std::optional<AuditGrade> parse_audit_grade(std::string_view name);

struct AuditLabel {
  AuditGrade grade = AuditGrade::Full;
  std::string note;
  std::string auditor;
  std::string time;  // supplied by the caller (ISO 8601); the core never reads the clock
  friend bool operator==(const AuditLabel&, const AuditLabel&) = default;
};

// One retrieved item's adoption in one round (§4.1). Built by the engine, logged as an event.
struct AdoptionRecord {
  std::int64_t episode = 0;
  std::string task;
  int round = 0;
  std::string item_id;
  int rank = 0;            // shown rank: the position in the prompt (1-based)
  int relevance_rank = 0;  // rank by relevance alone within the retrieval pool (1-based; 0 = not recorded)
  int pool_rank = 0;       // rank within the pool after reranking (1-based; 0 = not recorded)
  double relevance = 0.0;  // raw BM25 relevance
  double score = 0.0;      // reranked score
  AdoptionState state = AdoptionState::NotAdopted;
  std::string rationale;
  std::string code_before;  // the code revision it informed
  std::string code_after;
  std::optional<AuditLabel> audit;
  friend bool operator==(const AdoptionRecord&, const AdoptionRecord&) = default;
};

}  // namespace sf::memory
