// Chip profiles of the cost model (docs/cost-model.md §1): every parameter of the timing, memory and traffic
// model is a named field, read from a JSON file in resources/chips/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sf::cost {

struct ChipProfile {
  std::string name = "default";
  std::string description;
  std::int64_t pmu_bw = 64;             // on-chip memory bytes per cycle per unit
  std::int64_t compute_bw = 1024;       // FLOPs per cycle of one compute unit (a statement with a fn)
  std::int64_t fifo_depth = 2;          // tokens a stream channel holds
  std::int64_t send_latency = 1;        // cycles from a send to visibility at the receiver
  std::int64_t credit_latency = 1;      // cycles from a dequeue to the freed slot being visible to the sender
  std::int64_t hbm_channels = 32;       // off-chip channels, shared round robin by every load and store unit
  std::int64_t hbm_request_bytes = 64;  // bytes per off-chip request
  std::int64_t hbm_interval = 2;        // a channel accepts one request every this many cycles
  std::int64_t hbm_latency = 16;        // cycles from acceptance to the answer
  std::int64_t onchip_capacity = 33554432;  // bytes of on-chip memory
  std::int64_t compute_budget = 8192;       // the most FLOPs/cycle a program may allocate
  double clock_ghz = 1.0;                   // only to print times next to cycles

  friend bool operator==(const ChipProfile&, const ChipProfile&) = default;
};

// The spec's default profile (the same numbers as resources/chips/default.json).
ChipProfile default_chip();

// Parses a profile. Every field is optional (missing fields keep the default); unknown fields, wrong types
// and out-of-range values are errors (the message names the field). nullopt with `error` set on failure.
// The fields only the STeP-25 cost model reads (kV2OnlyFields) are accepted and ignored.
std::optional<ChipProfile> parse_chip(std::string_view json_text, std::string& error);
// Reads a profile file (at most 64 KiB); the error message starts with the path.
std::optional<ChipProfile> load_chip(const std::string& path, std::string& error);
// The profile named `name_or_path`: a path to a JSON file, or the name of a bundled profile
// (<resources>/chips/NAME.json, e.g. "default", "edge").
std::optional<ChipProfile> find_chip(const std::string& name_or_path, const std::string& resource_dir,
                                     std::string& error);

std::string chip_to_json(const ChipProfile& c);

// Fields of a profile that only the STeP-25 (step-v2) cost model reads (core/step2/perf/chip.hpp).
inline constexpr const char* kV2OnlyFields[] = {"hbm_startup", "tail", "max_compute_nodes"};

// The file find_chip would read for `name_or_path` (a path, or <resources>/chips/NAME.json); nullopt with the
// same error as find_chip when there is none.
std::optional<std::string> chip_path(const std::string& name_or_path, const std::string& resource_dir,
                                     std::string& error);
// The text of a profile file (at most 64 KiB); the error message starts with the path.
std::optional<std::string> read_chip_text(const std::string& path, std::string& error);

}  // namespace sf::cost
