// Helpers shared by the store tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace sf::store::test_util {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write(const std::filesystem::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

}  // namespace sf::store::test_util
