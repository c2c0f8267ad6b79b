#include "core/memory/utility.hpp"

#include <algorithm>
#include <cstddef>

namespace sf::memory {

std::vector<double> episode_credits(const std::vector<bool>& adopted, double s, const MemoryConfig& c) {
  std::vector<double> out(adopted.size(), 0.0);
  if (c.credit == CreditMode::Uniform) {
    std::fill(out.begin(), out.end(), s - c.beta);
    return out;
  }
  const auto n_adopted = static_cast<std::size_t>(std::count(adopted.begin(), adopted.end(), true));
  for (std::size_t i = 0; i < adopted.size(); ++i) {
    out[i] = adopted[i] ? (s - c.beta) / static_cast<double>(n_adopted) : -c.delta;
  }
  return out;
}

UtilityStep update_utility(double utility, int n_updates, double credit, double eta_min) {
  UtilityStep st;
  st.n_updates = n_updates + 1;
  st.eta = std::max(eta_min, 1.0 / static_cast<double>(st.n_updates));
  st.utility = utility + st.eta * (credit - utility);
  return st;
}

double rerank_score(double relevance_normalised, double utility, double gamma) {
  return relevance_normalised *
         (1.0 + gamma * std::max(utility, 0.0) + (gamma / 2.0) * std::min(utility, 0.0));
}

double value_per_token(double utility, double access, int tokens) {
  if (tokens <= 0) return 0.0;
  return std::max(utility, 0.0) * access / static_cast<double>(tokens);
}

double smooth_access(double access, bool used, double mu) {
  return (1.0 - mu) * access + mu * (used ? 1.0 : 0.0);
}

}  // namespace sf::memory
