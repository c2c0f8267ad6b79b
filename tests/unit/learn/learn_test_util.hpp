// Fixtures shared by the learn tests.
#pragma once

#include <string>
#include <vector>

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "tests/support/catalogue.hpp"
#include "tests/support/files.hpp"

namespace sf::learn::testing {

// Two small tasks of the bundled catalogue shared by the campaign tests.
inline const std::string kA = "rope/gptj_interleaved", kB = "rope/neox_halves";

// The tasks a config selects from the bundled catalogue, as the engine receives them.
inline std::vector<step::TaskDoc> tasks_for(const CampaignConfig& c) {
  std::string err;
  auto ts = resolve_tasks(c, test_support::catalogue().tasks(), err);
  std::vector<step::TaskDoc> out;
  for (const auto* t : *ts) out.push_back(*t);
  return out;
}

// The `impl: |` block (to the end) of the reference solution resources/solutions/<id>.yaml.
inline std::string solution_text(const std::string& id) {
  std::string s = test_support::read_text(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + id + ".yaml");
  return s.substr(s.find("impl: |"));
}

// A proposer's answer: the reference solution of `id` in a fenced YAML block.
inline std::string solution_answer(const std::string& id) { return "```yaml\n" + solution_text(id) + "```\n"; }

// The task id a proposer prompt names (the `id:` line of its "## Task" section), "" when it names none.
inline std::string prompt_task_id(const std::string& user) {
  const auto idp = user.find("id: ", user.find("## Task"));
  return idp == std::string::npos ? std::string() : user.substr(idp + 4, user.find('\n', idp) - idp - 4);
}

}  // namespace sf::learn::testing
