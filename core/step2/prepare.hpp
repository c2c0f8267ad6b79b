// STeP-25 verification data (docs/step25.md, "Verification"): the input tensors of one input set (task,
// binding, seed, scale overrides) from each input's data_gen, and the reference evaluated by the fn language
// on the full tensors (PyTorch axis order) in double, with its fragile-instance gaps.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"
#include "core/step2/sim.hpp"

namespace sf::step2 {

using ScaleOverrides = std::map<std::string, double, std::less<>>;

struct Prepared {
  std::map<std::string, HostTensor, std::less<>> inputs;
  std::vector<std::vector<double>> reference;  // one per output, in the task's order, row-major
  Diagnostics warnings;                        // X-FRAGILE (v1's fragile-instance check of the reference)
};

// Generates the inputs (randn / rand: core/sim's portable generators; uniform_fan_in: 2u-1 over sqrt(d);
// full: the constant; each times its scale, or the input set's override) and evaluates the reference. X-*
// diagnostics (X-DIM, X-REF-*, X-REF-NAN, X-DATAGEN) on error.
std::shared_ptr<const Prepared> prepare(const step::TaskDoc& task, const step::SizeBinding& sizes, std::uint64_t seed,
                                        const ScaleOverrides* scales, Diagnostics& diags);

}  // namespace sf::step2
