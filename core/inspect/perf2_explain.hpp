// The performance explorer's words for a STeP-25 cost report (issue 33), Qt-free: what bounds the program,
// which nodes tie for the bottleneck, a node's report in words with units, and the roofline coordinates.
// widgets/perf2 draws these; the CLI may print the same sentences.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/step2/perf/report.hpp"

namespace sf::inspect::perf2 {

using step2::perf::Limit;
using step2::perf::NodeReport;
using step2::perf::Report;

// "PMU reads", "compute", "write-back", "HBM requests", "waiting", "none".
const char* limit_name(Limit l);
// A longer phrase for sentences: "on-chip (PMU) reads", "compute", ...
const char* limit_phrase(Limit l);

// "16,938": digits grouped by thousands.
std::string group_digits(std::int64_t v);

// Indices into report.nodes of the nodes with the most busy cycles (all of them when several tie exactly).
// Empty when the report has no node with busy > 0.
std::vector<int> bottlenecks(const Report& r);

// The one sentence the explorer and the v1-style summary print: what bounds the program (the bottleneck's
// limit, every tied node named), and how far it is from peak, e.g.
// "Bound by compute: BinaryMapAccum (line 3) is busy 16,384 of 16,938 cycles (96.7 %); the program reaches
//  48.8 % of peak (8,270 peak cycles)."
std::string bound_sentence(const Report& r);

// A node's full report in words, with units (the hover text of the cost-annotated source).
std::string node_words(const NodeReport& n, std::int64_t total_cycles);

// Utilisation of a node: busy / total cycles, in [0, 1].
double utilisation(const NodeReport& n, std::int64_t total_cycles);

// Roofline coordinates of a program: arithmetic intensity (FLOP per off-chip byte; 0 when no bytes moved)
// and attained performance (FLOP per cycle).
struct RooflinePoint {
  double intensity = 0.0;
  double flop_per_cycle = 0.0;
};
RooflinePoint roofline_point(const Report& r);

// What the roofline bounds the point by: "compute" when intensity · memory roof >= compute roof, else "memory".
const char* roof_bound(const RooflinePoint& p, double compute_roof, double memory_roof_bytes_per_cycle);

}  // namespace sf::inspect::perf2
