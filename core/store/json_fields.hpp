// Strict typed readers of JSON object fields for the workspace files (audit.json, golden sets, the events of
// events.jsonl): false with "NAME: missing" / "NAME: expected ..." / "NAME: out of range" in `error`. get_int
// takes integers >= 0, get_signed any integer of the type's range; opt(...) reads a field that may be absent
// (older logs), leaving `out` as it is then, but still refuses a present field of the wrong type.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace sf::store::json_fields {

using json = nlohmann::json;

// Typed field readers: false with "NAME: ..." in `error`.
inline bool get_str(const json& j, const char* name, std::string& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_string()) return error = std::string(name) + ": expected a string", false;
  out = it->get<std::string>();
  return true;
}
inline bool get_bool(const json& j, const char* name, bool& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_boolean()) return error = std::string(name) + ": expected true or false", false;
  out = it->get<bool>();
  return true;
}
inline bool get_num(const json& j, const char* name, double& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_number()) return error = std::string(name) + ": expected a number", false;
  out = it->get<double>();
  return true;
}
template <class Int>
bool get_signed(const json& j, const char* name, Int& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_number_integer()) return error = std::string(name) + ": expected an integer", false;
  if (it->is_number_unsigned()) {
    auto v = it->get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
      return error = std::string(name) + ": out of range", false;
    out = static_cast<Int>(v);
    return true;
  }
  auto v = it->get<std::int64_t>();
  if (v < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
      v > static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
    return error = std::string(name) + ": out of range", false;
  out = static_cast<Int>(v);
  return true;
}
template <class Int>
bool get_int(const json& j, const char* name, Int& out, std::string& error) {
  Int v{};
  if (!get_signed(j, name, v, error)) return false;
  if (v < 0) return error = std::string(name) + ": out of range", false;
  out = v;
  return true;
}

template <class T, class Reader>
bool opt(Reader read, const json& j, const char* name, T& out, std::string& error) {
  return !j.contains(name) || read(j, name, out, error);
}

// Reads and parses a JSON file of at most `max_bytes`; errors are "FILENAME: ..." (not valid JSON, too large,
// cannot be read).
inline bool read_json_file(const std::filesystem::path& file, std::uintmax_t max_bytes, json& out,
                           std::string& error) {
  const std::string name = file.filename().string() + ": ";
  std::error_code ec;
  auto size = std::filesystem::file_size(file, ec);
  if (ec) return error = name + ec.message(), false;
  if (size > max_bytes) return error = name + "larger than " + std::to_string(max_bytes >> 20) + " MiB", false;
  std::ifstream in(file, std::ios::binary);
  if (!in) return error = name + "cannot be read", false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = json::parse(ss.str(), nullptr, false);
  if (out.is_discarded()) return error = name + "not valid JSON", false;
  return true;
}

}  // namespace sf::store::json_fields
