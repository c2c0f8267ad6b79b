// A compiled task fn as a sim::ElementFn (the synthesizer evaluates candidates with the kernels directly).
#pragma once

#include <memory>

#include "core/sim/simulator.hpp"
#include "core/sim/stream_value.hpp"
#include "core/step/task_compile.hpp"

namespace sf::synth {

std::unique_ptr<sim::ElementFn> make_element_fn(const step::CompiledFn& cf, const step::TaskDoc& task,
                                                const sim::InputSet& in);

}  // namespace sf::synth
