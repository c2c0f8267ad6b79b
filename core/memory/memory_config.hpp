// Hyper-parameters and ablation switches of the adoption-aware memory (algorithms §4; defaults are the
// paper's). Stored in the campaign config and echoed into the event log.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string_view>

#include "core/common/diagnostic.hpp"

namespace sf::memory {

enum class CreditMode { Atu, Uniform };  // §4.3: adoption-traced, or s − β for every retrieved item
enum class RankingMode { Utility, Relevance };  // §4.4: utility-aware reranking, or relevance only
enum class UgcMode { On, Off, Random };         // §4.5: utility-gated, none, or random consolidation

std::string_view credit_mode_name(CreditMode m);    // "atu", "uniform"
std::string_view ranking_mode_name(RankingMode m);  // "utility", "relevance"
std::string_view ugc_mode_name(UgcMode m);          // "on", "off", "random"
std::optional<CreditMode> parse_credit_mode(std::string_view s);
std::optional<RankingMode> parse_ranking_mode(std::string_view s);
std::optional<UgcMode> parse_ugc_mode(std::string_view s);

struct MemoryConfig {
  int k = 5;              // retrieved items per round
  int rounds = 30;        // T, rounds per episode (used by the engine)
  double delta = 0.2;     // δ: credit of a retrieved, never adopted item is −δ
  double beta = 0.2;      // β: the adopted set shares s − β
  double eta_min = 0.05;  // floor of the step size η
  double gamma = 0.3;     // γ: reranking strength
  int k_ado = 3;          // adoptions needed for validation
  int k_op = 3;           // distinct adopting operators needed for validation
  double mu = 0.1;        // access-estimate smoothing of hot items
  int budget = 10000;     // B, resident tokens
  CreditMode credit = CreditMode::Atu;
  RankingMode ranking = RankingMode::Utility;
  UgcMode ugc = UgcMode::On;
  bool frozen = false;     // no updates at all (transfer evaluation)
  std::uint64_t seed = 0;  // random-ugc order
  friend bool operator==(const MemoryConfig&, const MemoryConfig&) = default;
};

// JSON object with the field names "k", "rounds", "delta", "beta", "eta_min", "gamma", "k_ado", "k_op", "mu",
// "budget", "credit", "ranking", "ugc", "frozen", "seed".
nlohmann::json config_to_json(const MemoryConfig& c);
// Missing fields keep their defaults; wrong types, out-of-range values and unknown fields are errors
// (code M-CONFIG, message naming the field). Returns nullopt on success.
std::optional<Diagnostic> config_from_json(const nlohmann::json& j, MemoryConfig& out);

}  // namespace sf::memory
