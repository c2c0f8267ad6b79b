// Fixtures shared by the learn tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"

namespace sf::learn::testing {

// Two small tasks of the bundled catalogue shared by the campaign tests.
inline const std::string kA = "rope/gptj_interleaved", kB = "rope/neox_halves";

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

// The `impl: |` block (to the end) of the reference solution resources/solutions/<id>.yaml.
inline std::string solution_text(const std::string& id) {
  std::ifstream in(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + id + ".yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return s.substr(s.find("impl: |"));
}

}  // namespace sf::learn::testing
