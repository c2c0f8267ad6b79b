// Runs the real stepforge-cli (SF_CLI) for the end-to-end tests.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace sf::e2e {

struct CliRun {
  int code = -1;
  std::string out;
};

// Runs a shell command line with a hard time limit (a hung command fails the test instead of blocking ctest);
// stderr is merged into stdout unless `json` output is wanted.
inline CliRun run_command(const std::string& command, bool merge_stderr = true, int timeout_s = 120) {
  std::string cmd = "timeout " + std::to_string(timeout_s) + " " + command + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Runs the CLI (SF_CLI) with `args`.
inline CliRun cli(const std::string& args, bool merge_stderr = true, int timeout_s = 120) {
  return run_command(std::string(SF_CLI) + " " + args, merge_stderr, timeout_s);
}

}  // namespace sf::e2e
