// The campaign config of a STeP-25 optimisation campaign for tests (docs/campaign.md, "STeP-25 optimisation
// campaigns"): dialect step-v2, mode sage, objective performance, the builtin backend's synth provider, one
// request and one verification at a time, `rounds` proposals per task.
#pragma once

#include <string>
#include <vector>

#include "core/learn/config.hpp"

namespace sf::test_support {

inline learn::CampaignConfig opt2_config(std::string name, std::vector<std::string> tasks, int rounds) {
  learn::CampaignConfig c;
  c.name = std::move(name);
  c.mode = learn::Mode::Sage;
  c.dialect = "step-v2";
  c.objective = learn::Objective::Performance;
  c.backend.kind = llm::BackendKind::Builtin;
  c.backend.model = "builtin";
  c.backend.builtin_provider = "synth";
  c.tasks = std::move(tasks);
  c.seed = 1;
  c.in_flight = 1;
  c.verify_threads = 1;
  c.memory.params.rounds = rounds;
  return c;
}

}  // namespace sf::test_support
