// The encoders and decoders of the STeP-25 optimisation kinds (opt2_bank, opt2_task, opt2_round; events.hpp),
// used by events.cpp and events_decode.cpp. Identity fields (task, round) are required; every other field may be
// absent (its default) but never of another type.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/learn/events.hpp"

namespace sf::learn {

void encode_opt2(const Opt2Bank& e, nlohmann::json& j);
void encode_opt2(const Opt2TaskStarted& e, nlohmann::json& j);
void encode_opt2(const Opt2Round& e, nlohmann::json& j);

// nullopt when `type` is no opt2 kind (`known` false) or, with `err`, when a field is malformed.
std::optional<EventBody> decode_opt2(const std::string& type, const nlohmann::json& j, std::string& err, bool& known);

}  // namespace sf::learn
