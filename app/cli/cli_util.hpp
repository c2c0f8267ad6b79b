// Small helpers shared by the CLI commands: printing diagnostics like a compiler, JSON of reports,
// progress bars on stderr.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/bench/catalogue.hpp"
#include "core/common/diagnostic.hpp"
#include "core/verify/verifier.hpp"

namespace sf::cli {

// Prints every diagnostic as "file:line:col: error: message [CODE]" to stderr.
void print_diagnostics(const Diagnostics& ds, const std::string& file);
nlohmann::json diagnostics_json(const Diagnostics& ds);
nlohmann::json report_json(const verify::Report& r);

// A one-line progress bar with ETA on stderr (only when stderr is a terminal, else a line every 10%).
class Progress {
 public:
  explicit Progress(std::string label) : label_(std::move(label)), t0_(std::chrono::steady_clock::now()) {}
  void update(int done, int total, const std::string& what = "");
  void finish();

 private:
  std::string label_;
  std::chrono::steady_clock::time_point t0_;
  int last_decile_ = -1;
  bool drawn_ = false;
};

// Runs a command body; an exception escaping it (e.g. from a hostile or foreign log) becomes "error: ..." on
// stderr and exit code 1, never a crash.
template <typename F>
int guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& ex) {
    std::cerr << "error: " << ex.what() << "\n";
    return 1;
  }
}

// The current UTC time as ISO 8601 ("2026-12-01T17:00:00Z"), for labels and promotions.
std::string now_iso_utc();
// The bundled resources directory (resources/), or a clear error.
std::string resources_dir();
// Counts user-space instructions of this thread with the hardware counter (Linux perf_event_open), so that a
// benchmark on a noisy machine can report a repeatable number next to its wall time. available() is false
// where the kernel or the virtual machine offers no counter; then read() returns 0.
class InstructionCounter {
 public:
  InstructionCounter();
  ~InstructionCounter();
  InstructionCounter(const InstructionCounter&) = delete;
  InstructionCounter& operator=(const InstructionCounter&) = delete;
  bool available() const { return fd_ >= 0; }
  std::uint64_t read() const;

 private:
  int fd_ = -1;
};

// The malloc this process runs on, for benchmark output: "mimalloc 2.0.9" when the executable is linked with
// it (see sf_fast_allocator in cmake/), else "glibc malloc".
std::string allocator_name();

// The bundled task catalogue (loaded once).
const bench::Catalogue& cli_catalogue();
// The source tree (for tests/data defaults), empty when not available.
std::string source_dir();

// x with `prec` decimals ("%.*f").
std::string fmt(double x, int prec = 3);

}  // namespace sf::cli
