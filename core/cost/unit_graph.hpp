// Internal to core/cost's cost model (cost_model.cpp, unit_graph.cpp): a task prepared once for timing (its
// compiled copy under perf_sizes, its input set and each fn's FLOPs) and the unit graph that times one
// program under it. Not included outside core/cost.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/cost/cost_model.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task_compile.hpp"

namespace sf::cost {

struct CostModel::Prepared {
  std::shared_ptr<step::TaskDoc> doc;  // the compiled task points into this copy
  step::CompiledTask compiled;
  sim::InputSet inputs;
  std::shared_ptr<sim::FnCache> fns = std::make_shared<sim::FnCache>();
  std::map<std::string, std::int64_t, std::less<>> flops;  // per fn call, by func_name
};

// Builds the unit graph of one program under the prepared task's perf binding and times it on `chip`
// (C-PERF-SIZES / C-INTERNAL diagnostics on failure).
std::optional<CostReport> time_program(const CostModel::Prepared& p, const step::Program& prog,
                                       const step::TypedProgram& typed, const ChipProfile& chip,
                                       Diagnostics& diags, const EvalOptions& opts);

}  // namespace sf::cost
