// Fixtures shared by the synth tests: the bundled catalogue and the reference solutions (tests only: the
// synthesizer itself never reads solutions).
#pragma once

#include <string>

#include "core/bench/catalogue.hpp"
#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"

namespace sf::synth::testing {

inline const bench::Catalogue& catalogue() {
  static bench::Catalogue c = [] {
    Diagnostics d;
    return bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  }();
  return c;
}

inline std::string solution_impl(const std::string& id) {
  Diagnostics d;
  auto any = step::load_any_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + id + ".yaml", d);
  return any.solution ? any.solution->impl : std::string();
}

}  // namespace sf::synth::testing
