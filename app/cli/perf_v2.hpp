// The step-v2 (STeP-25) side of `perf`, `verify --perf` and `bench perf` (docs/cost-model.md, "STeP-25"):
// a verified program's graph through core/step2/perf, printed as text or as the JSON keys of docs/step25.md.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/step2/perf/report.hpp"
#include "core/verify/program_file.hpp"

namespace sf::cli {

// One file of `perf`: times the (already verified) program on the task's chip or `chip_option` (a bundled
// name or a JSON file; empty = the task's). Appends its JSON object to `all` when `json`, else prints text.
// Returns the exit code contribution (0 or 1).
int perf2_file(const std::string& file, const verify::ProgramFile& pf, const std::string& chip_option, bool json,
               nlohmann::json& all);

// "; 16938 cycles, speedup 1.000x" for `verify --perf` on a step-v2 program; nullopt when it does not check.
std::optional<std::string> perf2_suffix(const verify::ProgramFile& pf, const std::string& chip_option);

// `bench perf` on a step-v2 file: the median microseconds of one cost evaluation (bytes + event model +
// report) over `reps`, with its request count; nullopt (and a message on stdout) when it cannot be timed.
struct Bench2 {
  double median_us = 0, p10_us = 0, p90_us = 0;
  std::int64_t tokens = 0, requests = 0;
};
std::optional<Bench2> bench2_file(const std::string& file, const verify::ProgramFile& pf,
                                  const std::string& chip_option, int reps);

nlohmann::json perf2_json(const std::string& file, const std::string& task, const step2::perf::Report& r);

}  // namespace sf::cli
