// Novelty (issue 19 item 9): within a task, a program already verified is not verified again (its verdict is
// reused; the sample still counts), and, behind the config key `novelty`, the proposer's prompt lists the last
// few distinct failed programs of the task as "already tried".
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/learn/events.hpp"

namespace sf::learn {

// What a verification decided about one program: the verdict fields a reuse copies.
struct CachedVerdict {
  bool pass = false;
  std::string stage, code, canonical_key;
  int program_length = 0;
  std::optional<std::int64_t> cycles;
  std::optional<double> speedup;
  std::optional<bool> feasible;
  void copy_to(Verdict& v) const;
  static CachedVerdict of(const Verdict& v);
};

// Verdicts per (task, canonical key, extra seeds), shared by the concurrent samples of a campaign. A key being
// verified by one sample makes the others with that key wait for its verdict, so a program is verified once
// whatever the timing; the verdict does not depend on which sample verified it (same program, same input sets),
// so the event log does not either. Bounded: a task keeps at most kMaxPerTask programs (then it verifies anew).
class VerdictCache {
 public:
  static constexpr std::size_t kMaxPerTask = 4096;
  struct Key {
    std::string task, canonical_key;
    std::vector<std::uint64_t> extra_seeds;  // the sample's fresh input sets (usually none)
    auto operator<=>(const Key&) const = default;
  };
  // The cached verdict of `key`, waiting while another sample verifies it. nullopt: not known, and the caller
  // now owns the key and must call put() or abandon() (an empty canonical key is never cached).
  std::optional<CachedVerdict> get_or_claim(const Key& key);
  void put(const Key& key, const CachedVerdict& v);
  void abandon(const Key& key);  // the owner could not verify (an exception): another sample may claim it
  std::int64_t hits() const;
  std::int64_t size() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<Key, CachedVerdict> done_;
  std::set<Key> pending_;
  std::map<std::string, std::size_t> per_task_;
  std::int64_t hits_ = 0;
};

// The distinct failed programs of one task in the order they were first logged (canonical keys; programs that
// did not parse have none and are left out). `last(k)`: the k most recent, oldest first.
class TriedPrograms {
 public:
  void add(const Verdict& v);
  std::vector<std::string> last(std::size_t k) const;

 private:
  std::set<std::string> keys_;
  std::vector<std::string> impls_;
};

}  // namespace sf::learn
