// Utility-Gated Consolidation (algorithms §4.5): MemoryStore::consolidate.
#include <algorithm>

#include "core/common/hash.hpp"
#include "core/memory/memory_store.hpp"
#include "core/memory/utility.hpp"
#include "core/sim/datagen.hpp"

namespace sf::memory {

namespace {

// Gives `item` a resident form if it has none; false when the abstractor failed.
bool ensure_resident(MemoryItem& item, const Abstractor& abstractor) {
  if (item.resident_rule && !item.resident_rule->empty()) return true;
  std::optional<AbstractedRule> r;
  if (abstractor) {
    r = abstractor(item);
  } else {
    r = AbstractedRule{item.rule, item.code_example};  // no abstractor plugged in: the rule as written
  }
  if (!r || r->rule.empty()) return false;
  item.resident_tokens = estimate_tokens(r->rule + r->code_example.value_or(""));
  item.resident_rule = std::move(r->rule);
  item.resident_code = std::move(r->code_example);
  return true;
}

}  // namespace

ConsolidationReport MemoryStore::consolidate(const Abstractor& abstractor) {
  ConsolidationReport rep;
  if (config_.frozen || config_.ugc == UgcMode::Off) {
    for (const auto& it : items_) {
      if (it.state == ItemState::Hot) rep.hot_tokens += it.resident_tokens;
    }
    return rep;
  }
  rep.applied = true;
  begin_consolidation();  // the step counter; access of non-hot items: retrievals / eligible episodes

  // The gate: cold → validated.
  if (config_.ugc == UgcMode::On) {
    for (auto& it : items_) {
      if (it.state == ItemState::Cold && it.utility > 0.0 && it.adoption_count >= config_.k_ado &&
          static_cast<int>(it.adopting_tasks.size()) >= config_.k_op) {
        rep.validated.push_back({it.id, ItemState::Cold, ItemState::Validated, 0.0, 0});
        change_state(it, rep.validated.back());
      }
    }
  }

  // The pool: hot + validated (utility mode) or every item (random mode), each with a resident form.
  std::vector<MemoryItem*> pool;
  for (auto& it : items_) {
    const bool candidate = config_.ugc == UgcMode::Random || it.state != ItemState::Cold;
    if (!candidate) continue;
    if (!ensure_resident(it, abstractor)) {
      rep.abstraction_failed.push_back(it.id);
      continue;
    }
    pool.push_back(&it);
  }
  std::sort(pool.begin(), pool.end(), [](const MemoryItem* a, const MemoryItem* b) { return a->id < b->id; });
  if (config_.ugc == UgcMode::Random) {
    // Seeded Fisher–Yates; the stream depends on the seed and the consolidation count only.
    sim::Rng rng(config_.seed + static_cast<std::uint64_t>(consolidations_) * kGolden64, "ugc");
    for (std::size_t i = pool.size(); i > 1; --i) {
      std::swap(pool[i - 1], pool[static_cast<std::size_t>(rng.bounded(i))]);
    }
  } else {
    std::stable_sort(pool.begin(), pool.end(), [](const MemoryItem* a, const MemoryItem* b) {
      return value_per_token(a->utility, a->access, a->resident_tokens) >
             value_per_token(b->utility, b->access, b->resident_tokens);
    });
  }

  // Greedy packing with skipping.
  long long total = 0;
  for (MemoryItem* it : pool) {
    const double v = value_per_token(it->utility, it->access, it->resident_tokens);
    const bool fits = total + it->resident_tokens <= config_.budget;
    if (fits) {
      total += it->resident_tokens;
      if (it->state != ItemState::Hot) {
        rep.promoted.push_back({it->id, it->state, ItemState::Hot, v, it->resident_tokens});
        change_state(*it, rep.promoted.back());
      }
    } else if (it->state == ItemState::Hot) {
      rep.demoted.push_back({it->id, ItemState::Hot, ItemState::Validated, v, it->resident_tokens});
      change_state(*it, rep.demoted.back());  // retrievable again, access re-estimated
    }
  }
  rep.hot_tokens = static_cast<int>(total);
  return rep;
}

}  // namespace sf::memory
