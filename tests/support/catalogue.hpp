// The bundled catalogue (resources/) and its reference solutions, loaded once per test executable.
#pragma once

#include <string>

#include "core/bench/catalogue.hpp"
#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"

namespace sf::test_support {

inline const bench::Catalogue& catalogue() {
  static const bench::Catalogue c = [] {
    Diagnostics d;
    return bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  }();
  return c;
}

// The program of resources/solutions/<id>.yaml ("" when it has none).
inline std::string solution_impl(const std::string& id) {
  Diagnostics d;
  auto any = step::load_any_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + id + ".yaml", d);
  return any.solution ? any.solution->impl : std::string();
}

}  // namespace sf::test_support
