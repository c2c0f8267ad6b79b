#include "core/cost/chip.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

namespace sf::cost {

namespace {

using Json = nlohmann::json;

struct IntField {
  const char* key;
  std::int64_t ChipProfile::*member;
  std::int64_t min, max;
};

// Ranges keep every product in the engine far from overflow and rule out a chip that cannot move data.
constexpr std::int64_t kBig = std::int64_t{1} << 40;
const IntField kIntFields[] = {
    {"pmu_bw", &ChipProfile::pmu_bw, 1, kBig},
    {"compute_bw", &ChipProfile::compute_bw, 1, kBig},
    {"fifo_depth", &ChipProfile::fifo_depth, 1, 1024},
    {"send_latency", &ChipProfile::send_latency, 0, 1 << 20},
    {"credit_latency", &ChipProfile::credit_latency, 0, 1 << 20},
    {"hbm_channels", &ChipProfile::hbm_channels, 1, 4096},
    {"hbm_request_bytes", &ChipProfile::hbm_request_bytes, 1, 1 << 20},
    {"hbm_interval", &ChipProfile::hbm_interval, 1, 1 << 20},
    {"hbm_latency", &ChipProfile::hbm_latency, 0, 1 << 20},
    {"onchip_capacity", &ChipProfile::onchip_capacity, 1, kBig},
    {"compute_budget", &ChipProfile::compute_budget, 1, kBig},
};

}  // namespace

ChipProfile default_chip() { return ChipProfile{}; }

std::optional<ChipProfile> parse_chip(std::string_view json_text, std::string& error) {
  Json j = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    error = "not valid JSON";
    return std::nullopt;
  }
  if (!j.is_object()) {
    error = "a chip profile must be a JSON object";
    return std::nullopt;
  }
  ChipProfile c;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const Json& v = it.value();
    if (key == "name" || key == "description") {
      if (!v.is_string()) {
        error = "'" + key + "' must be a string";
        return std::nullopt;
      }
      (key == "name" ? c.name : c.description) = v.get<std::string>();
      continue;
    }
    if (key == "clock_ghz") {
      if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > 1e3) {
        error = "'clock_ghz' must be a number in (0, 1000]";
        return std::nullopt;
      }
      c.clock_ghz = v.get<double>();
      continue;
    }
    bool v2_only = false;
    for (const char* k : kV2OnlyFields) v2_only = v2_only || key == k;
    if (v2_only) continue;
    const IntField* f = nullptr;
    for (const auto& cand : kIntFields)
      if (key == cand.key) f = &cand;
    if (!f) {
      std::string known = "name, description, clock_ghz";
      for (const auto& cand : kIntFields) known += std::string(", ") + cand.key;
      error = "unknown field '" + key + "' (known: " + known + ")";
      return std::nullopt;
    }
    if (!v.is_number_integer()) {
      error = "'" + key + "' must be an integer";
      return std::nullopt;
    }
    std::int64_t x = v.get<std::int64_t>();
    if (x < f->min || x > f->max) {
      error = "'" + key + "' = " + std::to_string(x) + " is out of range [" + std::to_string(f->min) + ", " +
              std::to_string(f->max) + "]";
      return std::nullopt;
    }
    c.*(f->member) = x;
  }
  return c;
}

std::optional<std::string> read_chip_text(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the chip profile";
    return std::nullopt;
  }
  std::string text(64 * 1024 + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > 64 * 1024) {
    error = path + ": a chip profile is at most 64 KiB";
    return std::nullopt;
  }
  return text;
}

std::optional<ChipProfile> load_chip(const std::string& path, std::string& error) {
  auto text = read_chip_text(path, error);
  if (!text) return std::nullopt;
  std::string why;
  auto c = parse_chip(*text, why);
  if (!c) error = path + ": " + why;
  return c;
}

std::optional<std::string> chip_path(const std::string& name_or_path, const std::string& resource_dir,
                                     std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json") ||
      fs::is_regular_file(name_or_path, ec))
    return name_or_path;
  std::string p = resource_dir + "/chips/" + name_or_path + ".json";
  if (!fs::is_regular_file(p, ec)) {
    std::string known;
    for (const auto& e : fs::directory_iterator(resource_dir + "/chips", ec)) {
      if (e.path().extension() != ".json") continue;
      known += (known.empty() ? "" : ", ") + e.path().stem().string();
    }
    error = "no chip profile '" + name_or_path + "' (bundled: " + (known.empty() ? "none found" : known) +
            "; or give a path to a JSON file)";
    return std::nullopt;
  }
  return p;
}

std::optional<ChipProfile> find_chip(const std::string& name_or_path, const std::string& resource_dir,
                                     std::string& error) {
  auto p = chip_path(name_or_path, resource_dir, error);
  if (!p) return std::nullopt;
  return load_chip(*p, error);
}

std::string chip_to_json(const ChipProfile& c) {
  Json j;
  j["name"] = c.name;
  if (!c.description.empty()) j["description"] = c.description;
  for (const auto& f : kIntFields) j[f.key] = c.*(f.member);
  j["clock_ghz"] = c.clock_ghz;
  return j.dump(2);
}

}  // namespace sf::cost
