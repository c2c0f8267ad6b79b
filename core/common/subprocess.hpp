// Running an external program (a scheduler's client commands: sbatch, squeue, scontrol, scancel) and
// capturing what it prints. No shell: argv is passed as is. The child inherits the environment (so
// SLURM_CONF, SBATCH_* and API keys reach it without being written anywhere). Every resource is bounded:
// each of stdout and stderr keeps at most `max_output` bytes, and a child running longer than `timeout_s` is
// killed (SIGKILL) and reported as timed out.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sf {

struct ProcessResult {
  bool started = false;    // false: the program could not be run (not found, not executable); see `error`
  bool timed_out = false;  // killed after the timeout
  int exit_code = -1;      // the exit status; 128 + signal when it was killed by a signal
  std::string out, err;    // what it printed (each truncated to max_output bytes)
  std::string error;       // why it did not start
  bool ok() const { return started && !timed_out && exit_code == 0; }
};

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s = 60.0,
                          std::size_t max_output = 1 << 20);

// The full path of `program` found on PATH (or `program` itself when it contains a '/' and is executable);
// nullopt when it is not there.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

}  // namespace sf
