#include "core/step2/perf/chip.hpp"

#include <nlohmann/json.hpp>

#include "core/cost/chip.hpp"

namespace sf::step2::perf {

namespace {

struct Field {
  const char* key;
  std::int64_t Chip::*member;
  std::int64_t min, max;
  bool required;
};

// Ranges keep every product of the event model far from overflow (clocks stay below 2^62).
constexpr std::int64_t kBig = std::int64_t{1} << 40;
const Field kFields[] = {
    {"pmu_bw", &Chip::pmu_bw, 1, kBig, true},
    {"hbm_channels", &Chip::hbm_channels, 1, 4096, true},
    {"hbm_request_bytes", &Chip::hbm_request_bytes, 4, 1 << 20, true},
    {"hbm_interval", &Chip::hbm_interval, 1, 1 << 20, true},
    {"hbm_latency", &Chip::hbm_latency, 0, 1 << 20, true},
    {"hbm_startup", &Chip::hbm_startup, 0, 1 << 20, true},
    {"fifo_depth", &Chip::fifo_depth, 1, 1024, true},
    {"compute_budget", &Chip::compute_budget, 1, kBig, true},
    {"onchip_capacity", &Chip::onchip_capacity, 1, kBig, false},
    {"tail", &Chip::tail, 0, 1 << 20, true},
    {"max_compute_nodes", &Chip::max_compute_nodes, 0, 1 << 20, false},
};

}  // namespace

Chip accelopt_step() { return Chip{}; }

std::optional<Chip> parse_chip(std::string_view json_text, std::string& error) {
  // The v1 parser checks the v1 fields (types, ranges) and rejects unknown keys.
  if (!cost::parse_chip(json_text, error)) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  Chip c;
  c.name.clear();
  if (j.contains("name") && j["name"].is_string()) c.name = j["name"].get<std::string>();
  std::string missing;
  for (const auto& f : kFields) {
    if (!j.contains(f.key)) {
      if (f.required) missing += std::string(missing.empty() ? "" : ", ") + f.key;
      continue;
    }
    const auto& v = j[f.key];
    if (!v.is_number_integer()) {
      error = std::string("'") + f.key + "' must be an integer";
      return std::nullopt;
    }
    std::int64_t x = v.get<std::int64_t>();
    if (x < f.min || x > f.max) {
      error = std::string("'") + f.key + "' = " + std::to_string(x) + " is out of range [" + std::to_string(f.min) +
              ", " + std::to_string(f.max) + "]";
      return std::nullopt;
    }
    c.*(f.member) = x;
  }
  if (!missing.empty()) {
    error = "not a STeP-25 chip profile: missing " + missing +
            " (a step-v2 profile gives pmu_bw, hbm_channels, hbm_request_bytes, hbm_interval, hbm_latency, "
            "hbm_startup, fifo_depth, compute_budget and tail)";
    return std::nullopt;
  }
  if (c.name.empty()) c.name = "custom";
  return c;
}

std::optional<Chip> find_chip(const std::string& name_or_path, const std::string& resource_dir, std::string& error) {
  auto path = cost::chip_path(name_or_path, resource_dir, error);
  if (!path) return std::nullopt;
  auto text = cost::read_chip_text(*path, error);
  if (!text) return std::nullopt;
  std::string why;
  auto c = parse_chip(*text, why);
  if (!c) error = *path + ": " + why;
  return c;
}

}  // namespace sf::step2::perf
