#include "core/learn/metrics.hpp"

namespace sf::learn {

namespace {
bool valid_counts(const std::vector<int>& counts, int n) {
  if (n < 1 || counts.empty()) return false;
  for (int c : counts) {
    if (c < 0 || c > n) return false;
  }
  return true;
}
}  // namespace

std::optional<double> pass_at_k_task(int n, int c, int k) {
  if (n < 1 || c < 0 || c > n || k < 1 || k > n) return std::nullopt;
  if (n - c < k) return 1.0;
  // C(n−c, k) / C(n, k) = Π_{i=n−c+1}^{n} (i − k) / i: every factor is in [0, 1), so the product never
  // overflows and loses no more than c roundings.
  double fail = 1.0;
  for (int i = n - c + 1; i <= n; ++i) fail *= 1.0 - static_cast<double>(k) / static_cast<double>(i);
  return 1.0 - fail;
}

std::optional<double> pass_at_k(const std::vector<int>& counts, int n, int k) {
  if (!valid_counts(counts, n) || k < 1 || k > n) return std::nullopt;
  double sum = 0.0;
  for (int c : counts) sum += *pass_at_k_task(n, c, k);
  return sum / static_cast<double>(counts.size());
}

std::optional<double> pass_at_1(const std::vector<int>& counts, int n) {
  if (!valid_counts(counts, n)) return std::nullopt;
  double sum = 0.0;
  for (int c : counts) sum += static_cast<double>(c) / static_cast<double>(n);
  return sum / static_cast<double>(counts.size());
}

std::optional<double> pass_at_n(const std::vector<int>& counts, int n) {
  if (!valid_counts(counts, n)) return std::nullopt;
  std::size_t solved = 0;
  for (int c : counts) solved += c > 0 ? 1 : 0;
  return static_cast<double>(solved) / static_cast<double>(counts.size());
}

}  // namespace sf::learn
