#include "core/learn/novelty.hpp"

namespace sf::learn {

void CachedVerdict::copy_to(Verdict& v) const {
  v.pass = pass;
  v.stage = stage;
  v.code = code;
  v.canonical_key = canonical_key;
  v.program_length = program_length;
  v.cycles = cycles;
  v.speedup = speedup;
  v.feasible = feasible;
}

CachedVerdict CachedVerdict::of(const Verdict& v) {
  return {v.pass, v.stage, v.code, v.canonical_key, v.program_length, v.cycles, v.speedup, v.feasible};
}

std::optional<CachedVerdict> VerdictCache::get_or_claim(const Key& key) {
  if (key.canonical_key.empty()) return std::nullopt;
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !pending_.contains(key); });
  if (auto it = done_.find(key); it != done_.end()) {
    ++hits_;
    return it->second;
  }
  pending_.insert(key);
  return std::nullopt;
}

void VerdictCache::put(const Key& key, const CachedVerdict& v) {
  if (key.canonical_key.empty()) return;
  {
    std::lock_guard lock(mu_);
    pending_.erase(key);
    auto& n = per_task_[key.task];
    if (n < kMaxPerTask && done_.emplace(key, v).second) ++n;
  }
  cv_.notify_all();
}

void VerdictCache::abandon(const Key& key) {
  if (key.canonical_key.empty()) return;
  {
    std::lock_guard lock(mu_);
    pending_.erase(key);
  }
  cv_.notify_all();
}

std::int64_t VerdictCache::hits() const {
  std::lock_guard lock(mu_);
  return hits_;
}

std::int64_t VerdictCache::size() const {
  std::lock_guard lock(mu_);
  return static_cast<std::int64_t>(done_.size());
}

void TriedPrograms::add(const Verdict& v) {
  if (v.pass || v.canonical_key.empty() || v.impl.empty()) return;
  if (keys_.insert(v.canonical_key).second) impls_.push_back(v.impl);
}

std::vector<std::string> TriedPrograms::last(std::size_t k) const {
  const std::size_t from = impls_.size() > k ? impls_.size() - k : 0;
  return {impls_.begin() + static_cast<std::ptrdiff_t>(from), impls_.end()};
}

}  // namespace sf::learn
