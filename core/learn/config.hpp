// The campaign configuration (ARCHITECTURE "Campaign workspace", algorithms §3): mode, sampling parameters,
// selection, budgets, task subset and order, seed, concurrency, backend. JSON round trip with strict key
// checking, and `key=value` overrides (`stepforge-cli campaign run --set n=16`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/speedup.hpp"
#include "core/agent/guardian.hpp"
#include "core/agent/prompt_builder.hpp"
#include "core/learn/stratify.hpp"
#include "core/llm/backend_config.hpp"
#include "core/memory/memory_config.hpp"
#include "core/step/task.hpp"

namespace sf::learn {

inline constexpr int kConfigVersion = 1;

enum class Mode { Single, Agent, Adaptive, Sage };
std::string_view mode_name(Mode m);  // "single", "agent", "adaptive", "sage"
std::optional<Mode> parse_mode(std::string_view s);

// What a campaign optimises (docs/learn.md "Cost"): correctness only, or correctness and then speed (sage
// optimisation rounds; the baseline shown to the proposer).
enum class Objective { Correctness, Performance };
std::string_view objective_name(Objective o);  // "correctness", "performance"
std::optional<Objective> parse_objective(std::string_view s);

enum class TaskOrder { Given, Shuffled, EasyToHard, HardOnly };
std::string_view task_order_name(TaskOrder o);  // "given", "shuffled", "easy-to-hard", "hard-only"
std::optional<TaskOrder> parse_task_order(std::string_view s);

struct Budget {
  std::int64_t tokens = 0;  // input + output tokens over all roles; 0 = unlimited
  double cost_usd = 0.0;    // 0 = unlimited
  double wall_s = 0.0;      // 0 = unlimited
};

// The `memory` object of a sage campaign (algorithms §4, issue 7): the memory's hyper-parameters and ablations
// (memory::MemoryConfig: k, rounds = T, delta, beta, eta_min, gamma, k_ado, k_op, mu, budget, credit, ranking,
// ugc, frozen, seed) plus the engine's switches.
// How the proposer sees the memory: `retrieval` (top k of the reranked pool + resident rules, §4.4) or
// `full-context` (the ablation "show everything": every distilled experience, newest first, up to the
// resident budget B, no retrieval, no resident rules, no consolidation).
enum class MemoryMode { Retrieval, FullContext };
std::string_view memory_mode_name(MemoryMode m);  // "retrieval", "full-context"
std::optional<MemoryMode> parse_memory_mode(std::string_view s);

struct SageMemoryConfig {
  bool enabled = true;   // false: the memory-off ablation (refinement episodes without retrieval or rules)
  MemoryMode mode = MemoryMode::Retrieval;
  int episodes = 1;      // episodes per task (pass@k over episodes when > 1)
  std::string import;    // a memory file (stepforge-memory JSON) the campaign starts from; "" = empty memory
                         // (dialect step-v2: a rule bank file opt2_bank.json, or a workspace folder holding one)
  // dialect step-v2 only: "odd" / "even" = before the campaign, build the rule bank on that split of the
  // campaign's tasks (odd or even positions, seed + 1000) and start from it (with `frozen`: SAGE's transfer
  // setting). "" = none. Written only when set.
  std::string transfer_from;
  memory::MemoryConfig params;
  friend bool operator==(const SageMemoryConfig&, const SageMemoryConfig&) = default;
};
nlohmann::json sage_memory_to_json(const SageMemoryConfig& m);
// Strict (unknown keys, wrong types, out-of-range values are errors naming `memory.<key>`).
std::optional<SageMemoryConfig> sage_memory_from_json(const nlohmann::json& j, std::string& error);

// The `demos` object: curated demonstrations added to every proposer prompt (issue 20 item 2).
struct DemosConfig {
  std::string golden;  // a golden set file (store/golden.hpp), as given (relative = to the current folder); "" = none
  int max = 4;         // at most this many golden demonstrations per prompt (entries of other tasks, set order)
  bool operator==(const DemosConfig&) const = default;
};

struct CampaignConfig {
  int version = kConfigVersion;
  std::string name = "campaign";
  // Free text for people reading the file (e.g. which model the paper used and why this one replaces it);
  // never interpreted. Written only when non-empty.
  std::string note;
  Mode mode = Mode::Adaptive;
  llm::BackendConfig backend;  // backend.model is the model; backend.cache_dir is relative to the workspace
  int max_tokens = 2048;       // per response
  int n = 64;                  // samples per task and temperature
  double temperature0 = 0.5;   // iteration 0 (and the only iteration of single / agent)
  std::vector<double> temperatures{0.4, 0.7, 1.0};  // adaptive iterations
  int m = 3;                                        // difficulty levels of β
  Selection selection = Selection::Mixed;
  int random_k = 3;                // k of the random-k selection
  std::vector<std::string> tasks;  // task ids or group names; empty = the benchmark's 26 (every non-extra task)
  TaskOrder order = TaskOrder::Given;
  std::uint64_t seed = 42;
  int in_flight = 8;       // LLM requests in flight
  int verify_threads = 2;  // concurrent verifications
  Budget budget;
  agent::GuardianMode guardian = agent::GuardianMode::Rewrite;
  agent::ManualMode manual = agent::ManualMode::Auto;
  std::int64_t max_prompt_tokens = 0;  // 0 = unlimited
  SageMemoryConfig memory;             // mode sage only
  std::string chip = "default";        // cost model chip profile: a bundled name or a path (cost::find_chip)
  // Default: performance when the config JSON sets `chip` explicitly, else correctness.
  Objective objective = Objective::Correctness;
  // verify.extra_seeds: fresh input sets per candidate on top of the task's fixed ones (derived from the
  // candidate's seed, itself derived from the campaign seed and the sample: reruns see the same sets). 0 = off.
  int extra_seeds = 0;
  DemosConfig demos;  // config_to_json writes `demos` only when a golden set is named (older echoes unchanged)
  // novelty (issue 19 item 9): the proposer's prompt lists this many of the task's last distinct failed programs
  // as "already tried" (0 = off; `true` in the JSON = kDefaultNovelty). Written only when on.
  int novelty = 0;
  // The tie tolerance of every speedup metric (issue 36 item 2; core/common/speedup.hpp): a program counts as
  // faster than p× only when its speedup ≥ p · (1 + fast_tolerance). Written only when not the default.
  double fast_tolerance = kDefaultFastTolerance;
  // "step-v1" (default; not written) or "step-v2": an optimisation campaign on the STeP-25 benchmark
  // (docs/campaign.md "STeP-25 optimisation campaigns"): mode sage, objective performance, memory.rounds
  // proposals per task, memory.k retrieval slots (3 unless set), memory.enabled / credit / frozen / import /
  // transfer_from for the rule bank.
  std::string dialect = "step-v1";
  // The variants and seeds `campaign sweep CONFIG` runs when it is given no --vary / --ablate (docs/campaign.md):
  // {"seeds": "1-5", "variants": [{"name": "random", "set": ["memory.enabled=false"]}, ...]}; null when absent.
  // Never part of a cell's config.
  nlohmann::json sweep;
  bool is_v2() const { return dialect == "step-v2"; }
};

inline constexpr int kDefaultNovelty = 3;

// The tie tolerance of a campaign from its config echo (`fast_tolerance`; the default when absent, not a number
// or out of range), for readers of a log (reports, projections, the GUI).
double fast_tolerance_of(const nlohmann::json& config);

// Strict parse: unknown keys, wrong types and out-of-range values are errors (`error` names the key).
// Missing keys take the defaults above.
std::optional<CampaignConfig> config_from_json(const nlohmann::json& j, std::string& error);
nlohmann::json config_to_json(const CampaignConfig& c);
// Range checks; "" when valid.
std::string validate(const CampaignConfig& c);

// Applies one `key=value` override to a config JSON. `key` is a dotted path (`n`, `backend.model`,
// `budget.tokens`); the top-level key must be a config key. The value is read as JSON when it parses
// (`16`, `0.5`, `true`, `[0.4,0.7]`, `"x"`), else as a string; for list keys a comma-separated list
// (`temperatures=0.4,0.7`, `tasks=rope,bmm/row_wise`) is accepted. Type errors surface when the result is
// parsed with config_from_json. Returns false with `error` for a malformed override or an unknown key.
bool apply_override(nlohmann::json& config, std::string_view assignment, std::string& error);

// The tasks a config selects, in campaign order: ids and group names from `tasks` (empty: all non-extra
// tasks), duplicates dropped, then ordered (given; shuffled with the seed; easy-to-hard by tag
// Once-C, Once-CS, Reuse-C, Reuse-CS, then id; hard-only keeps the Reuse-C / Reuse-CS tasks in given order, an
// error when none is selected). nullopt with `error` for an unknown id or group.
std::optional<std::vector<const step::TaskDoc*>> resolve_tasks(const CampaignConfig& c,
                                                                const std::vector<step::TaskDoc>& catalogue,
                                                                std::string& error);

// The difficulty tag of a task (benchmark §1): "Once" or "Reuse" (copies > 0) + "-" + attr ("C"/"CS");
// "untagged" without meta.
std::string difficulty_tag(const step::TaskDoc& t);

}  // namespace sf::learn
