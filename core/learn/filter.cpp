#include "core/learn/filter.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/sim/datagen.hpp"

namespace sf::learn {

std::optional<FilterResult> filter_task(const std::vector<CorrectSample>& correct, std::uint64_t seed) {
  // Order by sample index so the outcome does not depend on the caller's order.
  std::vector<const CorrectSample*> samples;
  samples.reserve(correct.size());
  std::set<int> seen;
  for (const CorrectSample& s : correct) {
    if (seen.insert(s.sample_index).second) samples.push_back(&s);
  }
  if (samples.empty()) return std::nullopt;
  std::stable_sort(samples.begin(), samples.end(), [](const CorrectSample* a, const CorrectSample* b) {
    return a->sample_index < b->sample_index;
  });

  // Groups in order of their earliest sample; members in ascending sample index.
  std::vector<std::vector<const CorrectSample*>> groups;
  std::map<std::string, std::size_t> group_of;
  for (const CorrectSample* s : samples) {
    auto [it, inserted] = group_of.emplace(s->canonical_key, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(s);
  }

  sim::Rng rng(seed, "filter");
  FilterResult out;
  out.c = static_cast<int>(samples.size());
  out.groups = static_cast<int>(groups.size());
  for (const auto& g : groups) {
    // One draw per group, even for singletons, so a group's choice does not depend on other groups' sizes.
    const std::uint64_t pick = rng.bounded(g.size());
    out.representatives.push_back(*g[static_cast<std::size_t>(pick)]);
  }
  auto rank = [](const CorrectSample& r) {
    const bool timed = r.cycles && r.feasible;
    return std::make_tuple(timed ? 0 : 1, timed ? *r.cycles : std::int64_t{0}, r.program_length, r.sample_index);
  };
  const CorrectSample* best = &out.representatives.front();
  for (const CorrectSample& r : out.representatives) {
    if (rank(r) < rank(*best)) best = &r;
  }
  out.best = *best;
  return out;
}

}  // namespace sf::learn
