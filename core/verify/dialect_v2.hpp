// The step-v2 side of the verification seam: what check_program, check_document, Verifier::verify and
// validate_task run for a `dialect: step-v2` task, plus the run and graph views of a v2 program file (used by
// `stepforge-cli run` and `graph`). Everything above core/verify calls the dialect-neutral entry points.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/verify/checker.hpp"
#include "core/verify/program_file.hpp"

namespace sf::verify::v2 {

CheckResult check_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                          const CheckOptions& opt);
// check_program plus the reference compiled under every binding (X-* diagnostics).
CheckResult check_document(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                           const CheckOptions& opt);

// The task self-check of `tasks validate`: every binding x seed x input set prepared; X-FRAGILE as errors.
bool validate_task(const step::TaskDoc& task, Diagnostics& diags);

struct RunRequest {
  bool alt = false;          // verify.alt_sizes instead of sizes
  std::uint64_t seed = 0;
  bool seed_set = false;
  std::string show;          // a stream name: print its token view
  std::size_t max_tokens = 200;
};
// Simulates the program once and writes the report (`run`) to `out`, problems to `diags`; returns the exit code
// (0 when every output matches the reference, 1 on a mismatch or error, 2 on a bad request).
int run(const ProgramFile& pf, const RunRequest& req, std::string& out, Diagnostics& diags);

// The resolved graph under `sizes` as text or Graphviz DOT; empty when the program does not check.
std::string graph(const ProgramFile& pf, bool dot, Diagnostics& diags);

}  // namespace sf::verify::v2
