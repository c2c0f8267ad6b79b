// Fixtures shared by the learn tests.
#pragma once

#include <string>
#include <vector>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"

namespace sf::learn::testing {

// The tasks a config selects from the bundled catalogue, as the engine receives them.
inline std::vector<step::TaskDoc> tasks_for(const CampaignConfig& c) {
  Diagnostics d;
  static auto cat = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  std::string err;
  auto ts = resolve_tasks(c, cat.tasks(), err);
  std::vector<step::TaskDoc> out;
  for (const auto* t : *ts) out.push_back(*t);
  return out;
}

}  // namespace sf::learn::testing
