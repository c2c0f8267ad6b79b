#include "core/memory/memory_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/memory/bm25_index.hpp"
#include "core/memory/utility.hpp"

namespace sf::memory {

MemoryStore::MemoryStore(MemoryConfig config) : config_(config) {}

const MemoryItem* MemoryStore::find(std::string_view id) const {
  for (const auto& it : items_) {
    if (it.id == id) return &it;
  }
  return nullptr;
}

MemoryItem* MemoryStore::find_mut(std::string_view id) {
  for (auto& it : items_) {
    if (it.id == id) return &it;
  }
  return nullptr;
}

double MemoryStore::access_of(const MemoryItem& item) const {
  if (item.state == ItemState::Hot) return item.access;
  if (item.eligible_episodes <= 0) return 0.0;
  return static_cast<double>(item.retrieval_count) / static_cast<double>(item.eligible_episodes);
}

Outcome<std::string> MemoryStore::add_experience(NewExperience e) {
  Outcome<std::string> out;
  if (config_.frozen) {
    out.error = make_error("M-FROZEN", "the memory is frozen: no experience can be added");
    return out;
  }
  if (e.rule.empty()) {
    out.error = make_error("M-ITEM", "an experience needs a non-empty rule text");
    return out;
  }
  std::string id;
  if (e.id) {
    if (e.id->empty() || find(*e.id)) {
      out.error = make_error("M-ITEM", "memory item id '" + *e.id + "' is empty or already used");
      return out;
    }
    id = *e.id;
  } else {
    do {
      char buf[32];
      std::snprintf(buf, sizeof buf, "mem-%06lld", static_cast<long long>(next_id_++));
      id = buf;
    } while (find(id));
  }
  MemoryItem item;
  item.id = id;
  item.tokens = e.tokens ? std::max(0, *e.tokens) : estimate_tokens(e.rule + e.code_example.value_or(""));
  item.rule = std::move(e.rule);
  item.evidence = std::move(e.evidence);
  item.code_example = std::move(e.code_example);
  item.pattern = std::move(e.pattern);
  item.source_episode = e.source_episode;
  item.source_task = std::move(e.source_task);
  items_.push_back(std::move(item));
  out.value = id;
  return out;
}

std::vector<Candidate> MemoryStore::retrieve(std::string_view query, int k) const {
  std::vector<Candidate> pool;
  if (k <= 0) return pool;
  Bm25Index index;
  std::vector<const MemoryItem*> docs;
  for (const auto& it : items_) {
    if (it.state == ItemState::Hot) continue;  // hot items are always in context, never retrieved
    index.add(it.rule + "\n" + it.evidence);
    docs.push_back(&it);
  }
  const std::vector<double> rel = index.score(query);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (rel[i] > 0.0) order.push_back(i);
  }
  // Late reranking (§4.4): the pool is the top 3k by relevance alone; utility reorders it and the top k
  // after reranking are shown, in that order.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (rel[a] != rel[b]) return rel[a] > rel[b];
    return docs[a]->id < docs[b]->id;
  });
  const std::size_t pool_size = static_cast<std::size_t>(k) * kPoolFactor;
  if (order.size() > pool_size) order.resize(pool_size);
  if (order.empty()) return pool;
  const double max_rel = rel[order.front()];
  for (std::size_t i : order) {
    Candidate c;
    c.id = docs[i]->id;
    c.relevance = rel[i];
    c.relevance_normalised = rel[i] / max_rel;
    c.relevance_rank = static_cast<int>(pool.size()) + 1;
    c.utility = docs[i]->utility;
    c.score = config_.ranking == RankingMode::Utility
                  ? rerank_score(c.relevance_normalised, c.utility, config_.gamma)
                  : c.relevance_normalised;
    pool.push_back(std::move(c));
  }
  std::stable_sort(pool.begin(), pool.end(), [](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    return a.id < b.id;
  });
  for (std::size_t i = 0; i < pool.size(); ++i) pool[i].pool_rank = pool[i].rank = static_cast<int>(i) + 1;
  if (pool.size() > static_cast<std::size_t>(k)) pool.resize(static_cast<std::size_t>(k));
  return pool;
}

std::vector<Candidate> MemoryStore::full_context(int budget) const {
  std::vector<Candidate> out;
  long long total = 0;
  for (auto it = items_.rbegin(); it != items_.rend(); ++it) {
    if (total + it->tokens > budget) continue;
    total += it->tokens;
    Candidate c;
    c.id = it->id;
    c.utility = it->utility;
    c.rank = static_cast<int>(out.size()) + 1;
    out.push_back(std::move(c));
  }
  return out;
}

Outcome<EpisodeUpdate> MemoryStore::end_episode(const EpisodeResult& result) {
  Outcome<EpisodeUpdate> out;
  if (!std::isfinite(result.score) || result.score < 0.0 || result.score > 1.0) {
    out.error = make_error("M-EPISODE", "episode " + std::to_string(result.episode) +
                                            ": the terminal score must be a number in [0, 1]");
    return out;
  }
  EpisodeUpdate up;
  if (config_.frozen) {
    out.value = std::move(up);
    return out;
  }
  up.applied = true;

  // Merge repeats (adopted in any round), keep the order of first appearance, drop unknown ids.
  std::vector<std::string> ids;
  std::map<std::string, bool> adopted;
  for (const auto& e : result.retrieved) {
    if (!find(e.id)) {
      if (std::find(up.unknown_ids.begin(), up.unknown_ids.end(), e.id) == up.unknown_ids.end()) {
        up.unknown_ids.push_back(e.id);
      }
      continue;
    }
    auto [it, inserted] = adopted.emplace(e.id, e.adopted);
    if (inserted)
      ids.push_back(e.id);
    else
      it->second = it->second || e.adopted;
  }
  std::vector<bool> flags;
  for (const auto& id : ids) flags.push_back(adopted[id]);
  const std::vector<double> credits = episode_credits(flags, result.score, config_);

  for (std::size_t i = 0; i < ids.size(); ++i) {
    const MemoryItem& item = *find(ids[i]);
    const UtilityStep st = update_utility(item.utility, item.n_updates, credits[i], config_.eta_min);
    up.credits.push_back(
        {item.id, result.episode, flags[i], credits[i], st.eta, item.utility, st.utility, st.n_updates});
    apply_credit(up.credits.back(), result.task);
  }

  std::vector<const MemoryItem*> hot;
  for (const auto& item : items_)
    if (item.state == ItemState::Hot) hot.push_back(&item);
  std::sort(hot.begin(), hot.end(), [](const MemoryItem* a, const MemoryItem* b) { return a->id < b->id; });
  for (const MemoryItem* item : hot) {
    const bool used =
        std::find(result.hot_used.begin(), result.hot_used.end(), item->id) != result.hot_used.end();
    up.hot_access.push_back({item->id, used, item->access, smooth_access(item->access, used, config_.mu)});
  }
  for (const auto& a : up.hot_access) apply_access(a);
  count_episode();
  out.value = std::move(up);
  return out;
}

std::vector<std::string> consolidation_guard_lost(const std::vector<HotRule>& before,
                                                  const std::vector<HotRule>& after,
                                                  const std::vector<std::string>& recently_adopted) {
  long long tb = 0, ta = 0;
  for (const auto& h : before) tb += h.tokens;
  for (const auto& h : after) ta += h.tokens;
  std::vector<std::string> lost;
  if (2 * ta >= tb) return lost;  // shrank by at most half
  for (const auto& h : before) {
    const bool kept = std::any_of(after.begin(), after.end(), [&](const HotRule& a) { return a.id == h.id; });
    if (!kept && std::find(recently_adopted.begin(), recently_adopted.end(), h.id) != recently_adopted.end())
      lost.push_back(h.id);
  }
  return lost;
}

void MemoryStore::apply_credit(const CreditRecord& c, const std::string& task) {
  MemoryItem* item = find_mut(c.id);
  if (!item) return;
  item->utility = c.utility_after;
  item->n_updates = c.n_updates;
  item->history.push_back({c.episode, c.credit});
  ++item->retrieval_count;
  if (c.adopted) {
    ++item->adoption_count;
    if (!task.empty()) item->adopting_tasks.insert(task);
  }
}

void MemoryStore::count_episode() {
  for (auto& item : items_)
    if (item.state != ItemState::Hot) ++item.eligible_episodes;  // it could have been retrieved
  ++episodes_;
}

void MemoryStore::apply_access(const AccessRecord& a) {
  if (MemoryItem* item = find_mut(a.id)) item->access = a.access_after;
}

void MemoryStore::begin_consolidation() {
  ++consolidations_;
  for (auto& it : items_)
    if (it.state != ItemState::Hot) it.access = access_of(it);
}

void MemoryStore::apply_state_change(const StateChange& c) {
  if (MemoryItem* item = find_mut(c.id)) change_state(*item, c);
}

void MemoryStore::change_state(MemoryItem& item, const StateChange& c) {
  const bool was_hot = item.state == ItemState::Hot;
  item.state = c.to;
  if (c.to == ItemState::Hot) item.resident_tokens = c.tokens;
  if (was_hot && c.to != ItemState::Hot) item.access = access_of(item);  // retrievable again
}

std::vector<HotRule> MemoryStore::hot_context() const {
  std::vector<const MemoryItem*> hot;
  for (const auto& it : items_) {
    if (it.state == ItemState::Hot) hot.push_back(&it);
  }
  std::sort(hot.begin(), hot.end(), [](const MemoryItem* a, const MemoryItem* b) {
    const double va = value_per_token(a->utility, a->access, a->resident_tokens);
    const double vb = value_per_token(b->utility, b->access, b->resident_tokens);
    if (va != vb) return va > vb;
    return a->id < b->id;
  });
  std::vector<HotRule> out;
  long long total = 0;
  for (const MemoryItem* it : hot) {
    if (total + it->resident_tokens > config_.budget) continue;
    total += it->resident_tokens;
    out.push_back({it->id, it->resident_rule.value_or(it->rule), it->resident_code, it->resident_tokens});
  }
  return out;
}

}  // namespace sf::memory
