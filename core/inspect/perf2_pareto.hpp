// The Pareto view's numbers (issue 33 item 7), Qt-free: which STeP-25 programs of a task are not dominated on
// (cycles, on-chip bytes), both minimised, and the bounded record of the programs a session timed and verified.
//
// A point dominates another when it is no worse on both axes and strictly better on at least one. Two points
// with the same cycles and the same bytes do not dominate each other: both are on the front. The front is
// returned sorted by cycles (then bytes, then input order), which is the order of the line joining it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sf::inspect::perf2 {

struct ParetoInput {
  std::int64_t cycles = 0;
  std::int64_t onchip_bytes = 0;
};

// Indices into `points` of the non-dominated points (minimise both), sorted by (cycles, bytes, index).
// O(n log n); an empty input gives an empty front.
std::vector<std::size_t> pareto_front(const std::vector<ParetoInput>& points);

// Whether `a` dominates `b` (no worse on both, strictly better on one).
bool dominates(const ParetoInput& a, const ParetoInput& b);

enum class Verification { NotRun, Pass, Fail };

// One program of the session: its impl text, its cost (cycles, on-chip bytes of the cost model) and whether the
// verifier ran on it and passed. `baseline` marks the task's baseline solution.
struct SessionProgram {
  std::string source;
  std::int64_t cycles = 0;
  std::int64_t onchip_bytes = 0;
  Verification verified = Verification::NotRun;
  bool baseline = false;
  std::string origin;  // where it came from ("session", "baseline", "campaign round 3", ...)
};

// The programs timed for one task, deduplicated by their text (surrounding blank space ignored) and bounded:
// when full, the oldest program that is neither the baseline nor on the verified front is dropped.
class SessionRecord {
 public:
  explicit SessionRecord(std::size_t max_programs = 400, std::size_t max_source_bytes = 64 * 1024);

  // Adds a timed program (or updates its cost when the text is already there) and returns its index; -1 when
  // the text is empty or longer than max_source_bytes.
  int add_timed(const std::string& source, std::int64_t cycles, std::int64_t onchip_bytes, bool baseline = false,
                const std::string& origin = "session");
  // Records the verifier's answer for a text; false when the text is not in the record.
  bool set_verified(const std::string& source, bool pass);
  // The index of a text, -1 when absent.
  int find(const std::string& source) const;
  void clear();

  const std::vector<SessionProgram>& programs() const { return programs_; }
  // Indices (into programs()) of the verified programs on the front, sorted by cycles.
  std::vector<std::size_t> verified_front() const;
  std::size_t verified_count() const;

 private:
  void evict_one();

  std::size_t max_programs_, max_source_bytes_;
  std::vector<SessionProgram> programs_;
};

}  // namespace sf::inspect::perf2
