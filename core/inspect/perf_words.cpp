#include "core/inspect/perf_words.hpp"

#include <algorithm>
#include <cstdio>

#include "core/inspect/perf2_explain.hpp"

namespace sf::inspect {

std::vector<int> tied_bottlenecks(const cost::CostReport& r) {
  std::int64_t best = 0;
  for (const auto& u : r.units) best = std::max(best, u.busy);
  std::vector<int> out;
  if (best <= 0) return out;
  for (std::size_t i = 0; i < r.units.size(); ++i)
    if (r.units[i].busy == best) out.push_back(static_cast<int>(i));
  return out;
}

double unit_utilisation(const cost::UnitReport& u, std::int64_t cycles) {
  return cycles > 0 ? std::clamp(static_cast<double>(u.busy) / static_cast<double>(cycles), 0.0, 1.0) : 0.0;
}

const char* unit_bound(const cost::UnitReport& u) {
  if (u.primitive == "Load") return "off-chip reads";
  if (u.primitive == "Store") return "off-chip writes";
  return "compute";
}

std::string bound_sentence(const cost::CostReport& r) {
  const auto ties = tied_bottlenecks(r);
  char pct[64];
  std::string s;
  if (ties.empty()) {
    s = "No unit did any work";
  } else {
    const auto& first = r.units[static_cast<std::size_t>(ties.front())];
    s = "Bound by ";
    s += unit_bound(first);
    s += ": ";
    for (std::size_t i = 0; i < ties.size(); ++i) {
      const auto& u = r.units[static_cast<std::size_t>(ties[i])];
      if (i) s += i + 1 == ties.size() ? " and " : ", ";
      s += u.primitive + " " + u.name;
      if (u.line > 0) s += " (line " + std::to_string(u.line) + ")";
    }
    std::snprintf(pct, sizeof pct, "%.1f %%", 100.0 * unit_utilisation(first, r.cycles));
    s += ties.size() > 1 ? " tie, each busy " : " is busy ";
    s += perf2::group_digits(first.busy) + " of " + perf2::group_digits(r.cycles) + " cycles (" + pct + ")";
  }
  if (r.allocated_compute > 0) {
    std::snprintf(pct, sizeof pct, "%.1f %%", 100.0 * r.utilisation);
    s += "; the compute units use " + std::string(pct) + " of the allocated " +
         perf2::group_digits(r.allocated_compute) + " FLOPs/cycle";
  }
  s += ".";
  return s;
}

}  // namespace sf::inspect
