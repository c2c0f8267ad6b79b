// Event envelopes as events.jsonl holds them, for tests that write a log by hand.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace sf::test_support {

// {"v": 1, "seq": seq, "t": 1e9 + seq, "type": type} with `fields` added.
inline nlohmann::json envelope(int seq, const std::string& type, nlohmann::json fields) {
  nlohmann::json e = {{"v", 1}, {"seq", seq}, {"t", 1.0e9 + seq}, {"type", type}};
  e.update(fields);
  return e;
}

}  // namespace sf::test_support
