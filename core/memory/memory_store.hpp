// The adoption-aware memory store (algorithms §4): experiences in cold memory, BM25 retrieval with
// utility-aware reranking, ATU credit at episode end, utility-gated consolidation into a bounded hot
// context, and versioned JSON export/import. Value-based and deterministic: every mutating call returns
// what it changed as value records, so the engine can log them as events.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/memory/memory_config.hpp"
#include "core/memory/memory_item.hpp"

namespace sf::memory {

// A value or the diagnostic explaining why there is none.
template <class T>
struct Outcome {
  std::optional<T> value;
  std::optional<Diagnostic> error;
  bool ok() const { return value.has_value(); }
};

struct NewExperience {
  std::string rule;
  std::string evidence;
  std::optional<std::string> code_example;
  std::optional<std::string> pattern;
  std::int64_t source_episode = 0;
  std::string source_task;
  std::optional<int> tokens;      // default: estimate_tokens(rule + code example)
  std::optional<std::string> id;  // default: "mem-000001", "mem-000002", ...
};

// One retrieved item, in reranked order (late reranking, §4.4: the pool is the top kPoolFactor·k items by
// relevance, utility reorders it, the top k are shown).
inline constexpr std::size_t kPoolFactor = 3;
struct Candidate {
  std::string id;
  int rank = 0;                       // 1-based shown rank (the position in the prompt)
  int relevance_rank = 0;             // 1-based rank by relevance alone within the pool
  int pool_rank = 0;                  // 1-based rank within the pool after reranking (= rank when shown)
  double relevance = 0.0;             // raw BM25 score
  double relevance_normalised = 0.0;  // relevance / the largest relevance in the pool, in (0, 1]
  double utility = 0.0;               // U at retrieval time
  double score = 0.0;                 // reranked score (= relevance_normalised with ranking = relevance)
};

struct EpisodeItem {
  std::string id;
  bool adopted = false;  // adopted in any round of the episode
};

struct EpisodeResult {
  std::int64_t episode = 0;
  std::string task;                    // the operator (task id)
  double score = 0.0;                  // terminal score s in [0, 1]
  std::vector<EpisodeItem> retrieved;  // every item retrieved in the episode (repeats are merged)
  std::vector<std::string> hot_used;   // hot rules the agent reported using this episode
};

struct CreditRecord {
  std::string id;
  std::int64_t episode = 0;
  bool adopted = false;
  double credit = 0.0;
  double eta = 0.0;
  double utility_before = 0.0;
  double utility_after = 0.0;
  int n_updates = 0;  // after the update
};

struct AccessRecord {
  std::string id;
  bool used = false;
  double access_before = 0.0;
  double access_after = 0.0;
};

struct EpisodeUpdate {
  bool applied = false;                  // false when the memory is frozen
  std::vector<CreditRecord> credits;     // in order of first appearance in EpisodeResult::retrieved
  std::vector<AccessRecord> hot_access;  // hot items, by id
  std::vector<std::string> unknown_ids;  // retrieved ids not in memory (ignored)
};

struct StateChange {
  std::string id;
  ItemState from = ItemState::Cold;
  ItemState to = ItemState::Cold;
  double value = 0.0;  // value per token at the decision (0 for validation)
  int tokens = 0;      // resident tokens (0 for validation)
};

struct ConsolidationReport {
  bool applied = false;                         // false when frozen or ugc = off
  std::vector<StateChange> validated;           // cold → validated (the gate)
  std::vector<StateChange> promoted;            // → hot
  std::vector<StateChange> demoted;             // hot → validated (displaced)
  std::vector<std::string> abstraction_failed;  // validated items the abstractor gave no rule for
  int hot_tokens = 0;                           // resident tokens after the step
};

struct AbstractedRule {
  std::string rule;
  std::optional<std::string> code_example;
};
// The abstractor role: turns a validated item into a resident rule; nullopt (or an empty rule) = failed,
// the item stays validated and is asked again next time.
using Abstractor = std::function<std::optional<AbstractedRule>(const MemoryItem&)>;

struct HotRule {
  std::string id;
  std::string rule;
  std::optional<std::string> code_example;
  int tokens = 0;
};

// The consolidation guard (issue 19): a UGC step that shrank the resident context to less than half its
// tokens while dropping items adopted recently is to be rolled back. Returns the dropped ids that are in
// `recently_adopted` when the guard trips, an empty list otherwise.
std::vector<std::string> consolidation_guard_lost(const std::vector<HotRule>& before,
                                                  const std::vector<HotRule>& after,
                                                  const std::vector<std::string>& recently_adopted);
inline constexpr int kGuardEpisodes = 3;  // "recently": the current episode and the two before it

class MemoryStore {
 public:
  explicit MemoryStore(MemoryConfig config = {});

  const MemoryConfig& config() const { return config_; }
  void set_config(const MemoryConfig& c) { config_ = c; }
  void set_frozen(bool frozen) { config_.frozen = frozen; }

  const std::vector<MemoryItem>& items() const { return items_; }
  const MemoryItem* find(std::string_view id) const;
  std::int64_t episodes() const { return episodes_; }

  // Adds an experience to cold memory; returns its id. Errors: M-FROZEN, M-ITEM (empty rule, duplicate id).
  Outcome<std::string> add_experience(NewExperience e);

  // Late reranking (§4.4): the pool is the top kPoolFactor·k retrievable (non-hot) items by BM25 relevance
  // over rule text + evidence (ties: id), items with zero relevance excluded; it is reordered by the
  // reranked score (ranking = utility; ties: relevance, then id) and the top k are returned. k defaults to
  // config().k. Does not change the store.
  std::vector<Candidate> retrieve(std::string_view query) const { return retrieve(query, config_.k); }
  std::vector<Candidate> retrieve(std::string_view query, int k) const;

  // The full-context ablation (memory.mode = full-context): every item (any state), newest first (the
  // reverse of insertion order), packed greedily under `budget` tokens (an item that does not fit is
  // skipped). No relevance and no utility: score and relevance are 0, relevance_rank and pool_rank 0,
  // rank = the position. Does not change the store.
  std::vector<Candidate> full_context(int budget) const;

  // ATU (or uniform credit) for the episode's retrieved items, retrieval/adoption counts, adopting
  // operators, eligible-episode counts, hot access estimates. Frozen: no change, applied = false.
  // Error M-EPISODE when the score is not a number in [0, 1].
  Outcome<EpisodeUpdate> end_episode(const EpisodeResult& result);

  // One UGC step (§4.5). An empty abstractor uses the item's own rule text and code example.
  ConsolidationReport consolidate(const Abstractor& abstractor = {});

  // The resident rules: hot items by value per token (descending; ties: id), skipping any that would
  // exceed the budget.
  std::vector<HotRule> hot_context() const;

  // The state changes end_episode and consolidate make, one at a time. The store's own methods make every
  // change through these, and a projection of a campaign's events (learn::MemoryView) replays the logged
  // changes through them, so the two follow the same rules. An unknown id changes nothing.
  // A credit: utility, update count and history, one retrieval, and when adopted one adoption by `task`.
  void apply_credit(const CreditRecord& c, const std::string& task);
  // The end of an episode: every non-hot item was eligible for retrieval; the episode counter.
  void count_episode();
  // A hot item's smoothed access estimate.
  void apply_access(const AccessRecord& a);
  // The start of a UGC step: the step counter; access of non-hot items = retrievals / eligible episodes.
  void begin_consolidation();
  // A validation, promotion (resident tokens = c.tokens) or demotion (access re-estimated).
  void apply_state_change(const StateChange& c);
  // Whether consolidate() changes anything under this config (not frozen, ugc not off).
  bool consolidation_applies() const { return !config_.frozen && config_.ugc != UgcMode::Off; }

  // Versioned JSON ("format": "stepforge-memory", "version": 1). The config is not part of the file.
  nlohmann::json to_json() const;
  // Strictly validated import (M-IMPORT, message naming the bad field); `config` comes from the caller
  // (set frozen = true for transfer evaluation).
  static Outcome<MemoryStore> from_json(const nlohmann::json& j, const MemoryConfig& config = {});

 private:
  MemoryItem* find_mut(std::string_view id);
  double access_of(const MemoryItem& item) const;
  void change_state(MemoryItem& item, const StateChange& c);

  MemoryConfig config_;
  std::vector<MemoryItem> items_;  // in insertion order
  std::int64_t next_id_ = 1;
  std::int64_t episodes_ = 0;
  std::int64_t consolidations_ = 0;
};

// memory.json on disk: save writes a temp file next to `path`, flushes it to disk and renames it over
// `path` (atomic); load reads at most 64 MiB. Errors: M-IO (file system), M-IMPORT (content).
std::optional<Diagnostic> save_memory_file(const MemoryStore& store, const std::string& path);
Outcome<MemoryStore> load_memory_file(const std::string& path, const MemoryConfig& config = {});

}  // namespace sf::memory
