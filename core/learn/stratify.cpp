#include "core/learn/stratify.hpp"

#include <algorithm>
#include <numeric>

#include "core/sim/datagen.hpp"

namespace sf::learn {

Stratification stratify(const std::vector<int>& counts, int m) {
  Stratification out;
  const std::size_t n = counts.size();
  if (n == 0) return out;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return counts[a] < counts[b]; });

  const std::size_t groups = std::min<std::size_t>(static_cast<std::size_t>(std::max(m, 1)), n);
  const std::size_t base = n / groups;
  const std::size_t extra = n % groups;  // numpy.array_split: the first `extra` groups get one more
  std::size_t pos = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t size = base + (g < extra ? 1 : 0);
    std::vector<std::size_t> level(order.begin() + static_cast<std::ptrdiff_t>(pos),
                                   order.begin() + static_cast<std::ptrdiff_t>(pos + size));
    pos += size;
    out.thresholds.push_back(counts[level.back()]);  // ascending, so the last is the largest
    out.levels.push_back(std::move(level));
  }
  return out;
}

std::string_view selection_name(Selection s) {
  switch (s) {
    case Selection::HardOnly:
      return "hard-only";
    case Selection::Mixed:
      return "mixed";
    case Selection::All:
      return "all";
    case Selection::RandomK:
      return "random-k";
  }
  return "mixed";
}

std::optional<Selection> parse_selection(std::string_view name) {
  for (Selection s : {Selection::HardOnly, Selection::Mixed, Selection::All, Selection::RandomK}) {
    if (selection_name(s) == name) return s;
  }
  return std::nullopt;
}

int selection_steps(Selection s, const Stratification& st) {
  if (st.levels.empty()) return 0;
  return s == Selection::Mixed ? static_cast<int>(st.levels.size()) : 1;
}

std::vector<std::size_t> select_demonstrations(const Stratification& st, Selection s, int j, int k,
                                               std::uint64_t seed) {
  std::vector<std::size_t> out;
  if (st.levels.empty()) return out;
  const int last = static_cast<int>(st.levels.size()) - 1;
  int upto = 0;
  switch (s) {
    case Selection::HardOnly:
      upto = 0;
      break;
    case Selection::Mixed:
      upto = std::clamp(j, 0, last);
      break;
    case Selection::All:
      upto = last;
      break;
    case Selection::RandomK: {
      std::vector<std::size_t> all;
      for (const auto& level : st.levels) all.insert(all.end(), level.begin(), level.end());
      if (k <= 0) return out;
      if (static_cast<std::size_t>(k) >= all.size()) return all;
      // Partial Fisher–Yates over positions in stratified order, then restore that order.
      std::vector<std::size_t> pos(all.size());
      std::iota(pos.begin(), pos.end(), std::size_t{0});
      sim::Rng rng(seed, "random-k");
      for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i) {
        const std::size_t r = i + static_cast<std::size_t>(rng.bounded(pos.size() - i));
        std::swap(pos[i], pos[r]);
      }
      pos.resize(static_cast<std::size_t>(k));
      std::sort(pos.begin(), pos.end());
      for (std::size_t p : pos) out.push_back(all[p]);
      return out;
    }
  }
  for (int g = 0; g <= upto; ++g) {
    const auto& level = st.levels[static_cast<std::size_t>(g)];
    out.insert(out.end(), level.begin(), level.end());
  }
  return out;
}

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::None:
      return "";
    case StopReason::AllSolved:
      return "all-solved";
    case StopReason::BudgetSpent:
      return "budget-spent";
    case StopReason::NoExperience:
      return "no-experience";
    case StopReason::NothingNewAtWidest:
      return "nothing-new";
  }
  return "";
}

LoopDecision next_loop_step(const LoopState& st) {
  if (st.unsolved == 0) return {LoopAction::Stop, StopReason::AllSolved, 0};
  if (st.budget_spent) return {LoopAction::Stop, StopReason::BudgetSpent, 0};
  if (st.solved == 0) return {LoopAction::Stop, StopReason::NoExperience, 0};
  if (st.newly_solved > 0) return {LoopAction::Restratify, StopReason::None, 0};
  if (st.step + 1 < st.steps) return {LoopAction::Widen, StopReason::None, st.step + 1};
  return {LoopAction::Stop, StopReason::NothingNewAtWidest, 0};
}

}  // namespace sf::learn
