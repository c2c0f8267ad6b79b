// Scratch folders and whole-file text for the tests.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace sf::test_support {

// A fresh folder <temp>/<stem>_<pid> (the pid keeps concurrent test runs apart): emptied, then created when
// `create` (else left absent, for the code under test to create).
inline std::filesystem::path scratch_dir(const std::string& stem, bool create = true) {
  std::filesystem::path d = std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  if (create) std::filesystem::create_directories(d);
  return d;
}

// The whole content of a file ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& s) {
  std::ofstream(p, std::ios::binary) << s;
}

}  // namespace sf::test_support
