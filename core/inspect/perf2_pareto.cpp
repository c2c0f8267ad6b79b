#include "core/inspect/perf2_pareto.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string_view>

namespace sf::inspect::perf2 {

bool dominates(const ParetoInput& a, const ParetoInput& b) {
  return a.cycles <= b.cycles && a.onchip_bytes <= b.onchip_bytes &&
         (a.cycles < b.cycles || a.onchip_bytes < b.onchip_bytes);
}

std::vector<std::size_t> pareto_front(const std::vector<ParetoInput>& points) {
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (points[a].cycles != points[b].cycles) return points[a].cycles < points[b].cycles;
    if (points[a].onchip_bytes != points[b].onchip_bytes) return points[a].onchip_bytes < points[b].onchip_bytes;
    return a < b;
  });
  // Sweep by cycles: a point is on the front iff its bytes are below every earlier (faster or as fast) point's,
  // or equal to the front point it ties with exactly.
  std::vector<std::size_t> front;
  std::int64_t best_bytes = std::numeric_limits<std::int64_t>::max();
  const ParetoInput* last = nullptr;  // the last point put on the front
  for (std::size_t i : order) {
    const ParetoInput& p = points[i];
    const bool exact_tie = last && last->cycles == p.cycles && last->onchip_bytes == p.onchip_bytes;
    if (p.onchip_bytes < best_bytes || exact_tie) {
      front.push_back(i);
      best_bytes = std::min(best_bytes, p.onchip_bytes);
      last = &p;
    }
  }
  return front;
}

namespace {

std::string_view trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace

SessionRecord::SessionRecord(std::size_t max_programs, std::size_t max_source_bytes)
    : max_programs_(std::max<std::size_t>(max_programs, 2)), max_source_bytes_(max_source_bytes) {}

int SessionRecord::find(const std::string& source) const {
  const std::string_view key = trimmed(source);
  for (std::size_t i = 0; i < programs_.size(); ++i)
    if (trimmed(programs_[i].source) == key) return static_cast<int>(i);
  return -1;
}

int SessionRecord::add_timed(const std::string& source, std::int64_t cycles, std::int64_t onchip_bytes,
                             bool baseline, const std::string& origin) {
  if (trimmed(source).empty() || source.size() > max_source_bytes_ || cycles < 0 || onchip_bytes < 0) return -1;
  if (const int i = find(source); i >= 0) {
    auto& p = programs_[static_cast<std::size_t>(i)];
    p.cycles = cycles;
    p.onchip_bytes = onchip_bytes;
    p.baseline = p.baseline || baseline;
    return i;
  }
  if (programs_.size() >= max_programs_) evict_one();
  programs_.push_back({source, cycles, onchip_bytes, Verification::NotRun, baseline, origin});
  return static_cast<int>(programs_.size()) - 1;
}

bool SessionRecord::set_verified(const std::string& source, bool pass) {
  const int i = find(source);
  if (i < 0) return false;
  programs_[static_cast<std::size_t>(i)].verified = pass ? Verification::Pass : Verification::Fail;
  return true;
}

void SessionRecord::clear() { programs_.clear(); }

std::vector<std::size_t> SessionRecord::verified_front() const {
  std::vector<std::size_t> idx;
  std::vector<ParetoInput> pts;
  for (std::size_t i = 0; i < programs_.size(); ++i)
    if (programs_[i].verified == Verification::Pass) {
      idx.push_back(i);
      pts.push_back({programs_[i].cycles, programs_[i].onchip_bytes});
    }
  std::vector<std::size_t> out;
  for (std::size_t k : pareto_front(pts)) out.push_back(idx[k]);
  return out;
}

std::size_t SessionRecord::verified_count() const {
  return static_cast<std::size_t>(std::count_if(programs_.begin(), programs_.end(), [](const SessionProgram& p) {
    return p.verified == Verification::Pass;
  }));
}

void SessionRecord::evict_one() {
  const auto front = verified_front();
  for (std::size_t i = 0; i < programs_.size(); ++i) {
    if (programs_[i].baseline || std::find(front.begin(), front.end(), i) != front.end()) continue;
    programs_.erase(programs_.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  // Every program is the baseline or on the front: the oldest non-baseline one goes.
  for (std::size_t i = 0; i < programs_.size(); ++i)
    if (!programs_[i].baseline) {
      programs_.erase(programs_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

}  // namespace sf::inspect::perf2
