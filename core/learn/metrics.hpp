// Completion metrics of algorithms §3: pass@1, unbiased pass@k, pass@n over per-task success counts.
// All functions return nullopt for invalid input (n < 1, c outside [0, n], k outside [1, n], no tasks)
// instead of throwing.
#pragma once

#include <optional>
#include <vector>

namespace sf::learn {

// 1 − C(n − c, k) / C(n, k) for one task, computed as 1 − Π_{i=n−c+1}^{n} (1 − k / i) (no binomials,
// no overflow; exact 1 when n − c < k). Stable for n up to 10^4 and beyond.
std::optional<double> pass_at_k_task(int n, int c, int k);

// Mean over tasks of pass_at_k_task(n, c_i, k); every task has n samples.
std::optional<double> pass_at_k(const std::vector<int>& counts, int n, int k);

// Mean over tasks of c_i / n.
std::optional<double> pass_at_1(const std::vector<int>& counts, int n);

// Fraction of tasks with c_i > 0 (= pass@k with k = n).
std::optional<double> pass_at_n(const std::vector<int>& counts, int n);

}  // namespace sf::learn
