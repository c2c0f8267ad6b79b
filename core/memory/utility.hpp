// The formulas of ATU (§4.3), utility-aware reranking (§4.4) and UGC values (§4.5) as pure functions.
#pragma once

#include <vector>

#include "core/memory/memory_config.hpp"

namespace sf::memory {

// Credits of the items retrieved in one episode, in the order of `adopted` (adopted[i]: item i was adopted
// in any round). ATU: adopted items share (s − β) / |A|, never-adopted items get −δ. Uniform: s − β each.
std::vector<double> episode_credits(const std::vector<bool>& adopted, double s, const MemoryConfig& c);

struct UtilityStep {
  double utility = 0.0;  // U after the update
  int n_updates = 0;     // n_U after the update
  double eta = 0.0;      // the step size used
};
// n_U += 1; η = max(η_min, 1 / n_U); U ← U + η (r − U).
UtilityStep update_utility(double utility, int n_updates, double credit, double eta_min);

// score = rel_norm * (1 + γ max(U, 0) + (γ / 2) min(U, 0)).
double rerank_score(double relevance_normalised, double utility, double gamma);

// v = max(U, 0) * a / tokens (0 when tokens ≤ 0).
double value_per_token(double utility, double access, int tokens);

// a ← (1 − μ) a + μ [used].
double smooth_access(double access, bool used, double mu);

}  // namespace sf::memory
