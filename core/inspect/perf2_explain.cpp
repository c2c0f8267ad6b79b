#include "core/inspect/perf2_explain.hpp"

#include <algorithm>
#include <cstdio>

namespace sf::inspect::perf2 {

const char* limit_name(Limit l) {
  switch (l) {
    case Limit::PmuRead: return "PMU reads";
    case Limit::Compute: return "compute";
    case Limit::WriteBack: return "write-back";
    case Limit::HbmRequests: return "HBM requests";
    case Limit::Waiting: return "waiting";
    case Limit::None: return "none";
  }
  return "none";
}

const char* limit_phrase(Limit l) {
  switch (l) {
    case Limit::PmuRead: return "on-chip (PMU) reads";
    case Limit::Compute: return "compute";
    case Limit::WriteBack: return "write-back to memory units";
    case Limit::HbmRequests: return "HBM requests (off-chip bandwidth)";
    case Limit::Waiting: return "waiting on its neighbours";
    case Limit::None: return "nothing measurable";
  }
  return "nothing measurable";
}

std::string group_digits(std::int64_t v) {
  const bool neg = v < 0;
  std::string d = std::to_string(neg ? -v : v);
  std::string out;
  const int n = static_cast<int>(d.size());
  for (int i = 0; i < n; ++i) {
    out += d[static_cast<std::size_t>(i)];
    if ((n - 1 - i) % 3 == 0 && i != n - 1) out += ',';
  }
  return neg ? "-" + out : out;
}

namespace {

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", v);
  return b;
}

std::string node_name(const NodeReport& n) {
  std::string s = n.op.empty() ? "node" : n.op;
  if (n.implicit) s = "implicit " + s;
  if (n.line > 0) s += " (line " + std::to_string(n.line) + ")";
  return s;
}

}  // namespace

std::vector<int> bottlenecks(const Report& r) {
  std::int64_t best = 0;
  for (const auto& n : r.nodes) best = std::max(best, n.busy);
  std::vector<int> out;
  if (best <= 0) return out;
  for (std::size_t i = 0; i < r.nodes.size(); ++i)
    if (r.nodes[i].busy == best) out.push_back(static_cast<int>(i));
  return out;
}

double utilisation(const NodeReport& n, std::int64_t total_cycles) {
  if (total_cycles <= 0) return 0.0;
  return std::clamp(static_cast<double>(n.busy) / static_cast<double>(total_cycles), 0.0, 1.0);
}

std::string bound_sentence(const Report& r) {
  const auto b = bottlenecks(r);
  std::string s;
  if (b.empty()) {
    s = "No node did any work";
  } else {
    const NodeReport& first = r.nodes[static_cast<std::size_t>(b.front())];
    s = "Bound by ";
    s += limit_phrase(first.limit);
    s += ": ";
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (i) s += i + 1 == b.size() ? " and " : ", ";
      s += node_name(r.nodes[static_cast<std::size_t>(b[i])]);
    }
    s += b.size() > 1 ? " tie, each busy " : " is busy ";
    s += group_digits(first.busy) + " of " + group_digits(r.cycles) + " cycles (" +
         pct(100.0 * utilisation(first, r.cycles)) + ")";
  }
  if (r.peak_cycles > 0)
    s += "; the program reaches " + pct(r.pct_of_peak) + " of peak (" + group_digits(r.peak_cycles) +
         " peak cycles against " + group_digits(r.cycles) + ")";
  s += ".";
  if (!r.feasible) s += " Not feasible on this chip (see the violations).";
  return s;
}

std::string node_words(const NodeReport& n, std::int64_t total_cycles) {
  std::string s = node_name(n) + ":\n";
  s += "  busy " + group_digits(n.busy) + " cycles (" + pct(100.0 * utilisation(n, total_cycles)) +
       " of " + group_digits(total_cycles) + " cycles)\n";
  s += "  stalled on input " + group_digits(n.stall_in) + " cycles, blocked on output " +
       group_digits(n.blocked_out) + " cycles\n";
  s += "  tokens " + group_digits(n.tokens_in) + " in, " + group_digits(n.tokens_out) + " out\n";
  s += "  off-chip " + group_digits(n.offchip_bytes) + " bytes, on-chip " + group_digits(n.onchip_bytes) + " bytes\n";
  if (n.compute_bw > 0)
    s += "  compute_bw " + group_digits(n.compute_bw) + " FLOP/cycle, " + group_digits(n.flops) + " FLOP\n";
  if (n.requests > 0)
    s += "  " + group_digits(n.requests) + " HBM requests, first issued at cycle " + group_digits(n.first_issue) +
         ", last response at cycle " + group_digits(n.last_response) + "\n";
  s += "  limited by ";
  s += limit_phrase(n.limit);
  return s;
}

RooflinePoint roofline_point(const Report& r) {
  RooflinePoint p;
  const double bytes = static_cast<double>(r.offchip_read_bytes + r.offchip_write_bytes);
  if (bytes > 0) p.intensity = static_cast<double>(r.flops) / bytes;
  if (r.cycles > 0) p.flop_per_cycle = static_cast<double>(r.flops) / static_cast<double>(r.cycles);
  return p;
}

const char* roof_bound(const RooflinePoint& p, double compute_roof, double memory_roof_bytes_per_cycle) {
  return p.intensity * memory_roof_bytes_per_cycle >= compute_roof ? "compute" : "memory";
}

}  // namespace sf::inspect::perf2
