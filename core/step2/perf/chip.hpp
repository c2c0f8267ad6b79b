// STeP-25 chip profiles: the machine fields the v2 cost model reads (docs/cost-model.md, "STeP-25").
// Profiles are the same JSON files as v1's (resources/chips/*.json, found by cost::chip_path); a v2 profile
// must give every timing field below, v1-only fields (compute_bw, send_latency, ...) are accepted and ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sf::step2::perf {

struct Chip {
  std::string name = "accelopt-step";
  std::int64_t pmu_bw = 64;               // on-chip port bytes per cycle per node
  std::int64_t hbm_channels = 32;
  std::int64_t hbm_request_bytes = 64;
  std::int64_t hbm_interval = 2;          // a channel takes one request every this many cycles
  std::int64_t hbm_latency = 2;
  std::int64_t hbm_startup = 14;          // charged on every request
  std::int64_t fifo_depth = 2;            // slots of every stream edge
  std::int64_t compute_budget = 4096;     // Σ compute_bw allowed (C-COMPUTE)
  std::int64_t onchip_capacity = 33554432;  // bytes (C-ONCHIP)
  std::int64_t tail = 2;                  // added to the last context clock
  std::int64_t max_compute_nodes = 0;     // 0 = unbounded (C-UNITS otherwise)

  // Peak off-chip bytes per cycle: channels · request bytes / interval.
  double peak_bytes_per_cycle() const {
    return static_cast<double>(hbm_channels) * static_cast<double>(hbm_request_bytes) /
           static_cast<double>(hbm_interval);
  }
  friend bool operator==(const Chip&, const Chip&) = default;
};

// The built-in accelopt-step numbers (the same as resources/chips/accelopt-step.json).
Chip accelopt_step();

// Parses a v2 profile: every field of Chip except name, max_compute_nodes and onchip_capacity is required;
// v1 fields are validated by the v1 parser and ignored; unknown fields, wrong types and out-of-range values
// are errors naming the field.
std::optional<Chip> parse_chip(std::string_view json_text, std::string& error);
// A bundled name (accelopt-step, accelopt-step-capped, step-hdl) or a path to a JSON file; errors start with
// the path.
std::optional<Chip> find_chip(const std::string& name_or_path, const std::string& resource_dir, std::string& error);

}  // namespace sf::step2::perf
