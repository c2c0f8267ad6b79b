// The v1 Performance pane's words (issue 34 item 6), Qt-free, in the same design as the STeP-25 explorer
// (perf2_explain.hpp): which units tie for the bottleneck, each unit's utilisation (busy / total cycles), and
// one sentence saying what bounds the program.
#pragma once

#include <string>
#include <vector>

#include "core/cost/cost_model.hpp"

namespace sf::inspect {

// Indices into r.units of every unit with the most busy cycles (several when they tie); empty when no unit
// was busy.
std::vector<int> tied_bottlenecks(const cost::CostReport& r);

// busy / total cycles of one unit, in [0, 1].
double unit_utilisation(const cost::UnitReport& u, std::int64_t cycles);

// What the bottleneck unit does: "off-chip reads" (Load), "off-chip writes" (Store), "compute" otherwise.
const char* unit_bound(const cost::UnitReport& u);

// "Bound by off-chip reads: Load E0 is busy 1,024 of 1,100 cycles (93.1 %); the compute units use 12.0 % of
//  the allocated 64 FLOPs/cycle." Ties name every tied unit.
std::string bound_sentence(const cost::CostReport& r);

}  // namespace sf::inspect
