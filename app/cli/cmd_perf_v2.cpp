// perf / verify --perf / bench perf for step-v2 programs (app/cli/perf_v2.hpp).
#include "app/cli/perf_v2.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "app/cli/cli_util.hpp"
#include "core/bench/catalogue.hpp"
#include "core/step2/check.hpp"
#include "core/step2/perf/bytes.hpp"
#include "core/step2/perf/task_perf.hpp"

namespace sf::cli {

namespace {

namespace p2 = step2::perf;

// Baseline cycles per (task, chip), computed once per process.
std::optional<std::int64_t> cached_baseline(const step::TaskDoc& task, const p2::Chip& chip) {
  static std::map<std::string, std::optional<std::int64_t>> cache;
  std::string key = task.path + "\n" + task.id + "\n" + p2::baseline_path(task, resources_dir()) + "\n" + chip.name +
                    "\n" + std::to_string(chip.compute_budget) + "/" + std::to_string(chip.fifo_depth) + "/" +
                    std::to_string(chip.hbm_channels) + "/" + std::to_string(chip.pmu_bw);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::string why;
  auto b = task.baseline.empty() ? std::nullopt : p2::baseline_cycles(task, resources_dir(), chip, why);
  if (!task.baseline.empty() && !b) std::cerr << "warning: baseline of " << task.id << ": " << why << "\n";
  cache.emplace(key, b);
  return b;
}

std::optional<p2::Report> time_program(const std::string& file, const verify::ProgramFile& pf,
                                       const std::string& chip_option, std::string& error) {
  auto chip = p2::chip_for(pf.task, chip_option, resources_dir(), error);
  if (!chip) return std::nullopt;
  p2::Options opt;
  opt.baseline_cycles = cached_baseline(pf.task, *chip);
  auto pp = p2::perf_program(pf.task, pf.impl, pf.impl_line_starts, *chip, opt);
  if (!pp.report) {
    print_diagnostics(pp.diags, file);
    error = pp.diags.empty() ? "the program does not check" : pp.diags.front().code + " " + pp.diags.front().message;
    return std::nullopt;
  }
  return pp.report;
}

}  // namespace

nlohmann::json perf2_json(const std::string& file, const std::string& task, const p2::Report& r) {
  nlohmann::json j;
  j["file"] = file;
  j["task"] = task;
  j["chip"] = r.chip;
  j["cycles"] = r.simulated ? nlohmann::json(r.cycles) : nlohmann::json(nullptr);
  j["offchip_read_bytes"] = r.offchip_read_bytes;
  j["offchip_write_bytes"] = r.offchip_write_bytes;
  j["onchip_bytes"] = r.onchip_bytes;
  j["flops"] = r.flops;
  j["feasible"] = r.feasible;
  nlohmann::json v = nlohmann::json::array(), vm = nlohmann::json::array();
  for (const auto& x : r.violations) {
    v.push_back(x.code);
    vm.push_back({{"code", x.code}, {"message", x.message}});
  }
  j["violations"] = v;
  j["violation_messages"] = vm;
  j["compute_nodes"] = r.compute_nodes;
  j["fits_capped"] = r.compute_nodes <= p2::kSuspiciousComputeNodes;  // accelopt-step-capped's 16 compute nodes
  j["compute_bw_total"] = r.compute_bw_total;
  j["hbm_requests"] = r.hbm_requests;
  j["peak_cycles"] = r.peak_cycles;
  j["pct_of_peak"] = r.pct_of_peak;
  if (r.baseline_cycles >= 0) {
    j["baseline_cycles"] = r.baseline_cycles;
    j["speedup"] = r.speedup > 0 ? nlohmann::json(r.speedup) : nlohmann::json(nullptr);
  }
  j["suspicious"] = r.suspicious;
  nlohmann::json units = nlohmann::json::array();
  for (const auto& u : r.nodes) {
    nlohmann::json n = {{"line", u.line},           {"op", u.op},
                        {"busy", u.busy},           {"stall_in", u.stall_in},
                        {"blocked_out", u.blocked_out}, {"tokens_in", u.tokens_in},
                        {"tokens_out", u.tokens_out}, {"implicit", u.implicit}};
    if (u.requests > 0) {
      n["requests"] = u.requests;
      n["first_issue"] = u.first_issue;
      n["last_response"] = u.last_response;
    }
    units.push_back(std::move(n));
  }
  j["units"] = units;
  return j;
}

int perf2_file(const std::string& file, const verify::ProgramFile& pf, const std::string& chip_option, bool json,
               nlohmann::json& all) {
  std::string error;
  auto r = time_program(file, pf, chip_option, error);
  if (!r) {
    std::cerr << file << ": error: " << error << "\n";
    if (json) all.push_back({{"file", file}, {"task", pf.task.id}, {"error", error}});
    return 1;
  }
  if (json) {
    all.push_back(perf2_json(file, pf.task.id, *r));
  } else {
    std::cout << file << " (" << pf.task.id << "; step-v2; sizes " << step::binding_text(pf.task.sizes) << ")\n"
              << p2::format_report(*r);
    if (r->baseline_cycles < 0) std::cout << "baseline: none (the task names no baseline solution)\n";
  }
  return 0;
}

std::optional<std::string> perf2_suffix(const verify::ProgramFile& pf, const std::string& chip_option) {
  std::string error;
  auto r = time_program(pf.path, pf, chip_option, error);
  if (!r) return "; cost model: " + error;
  if (!r->simulated) return "; cost model: " + r->violations.front().code;
  std::string s = "; " + std::to_string(r->cycles) + " cycles";
  char buf[96];
  if (r->speedup > 0) {
    std::snprintf(buf, sizeof buf, ", speedup %.3fx", r->speedup);
    s += buf;
  } else if (!r->feasible) {
    s += ", not feasible (" + r->violations.front().code + ")";
  }
  return s;
}

std::optional<Bench2> bench2_file(const std::string& file, const verify::ProgramFile& pf,
                                  const std::string& chip_option, int reps) {
  std::string error;
  auto chip = p2::chip_for(pf.task, chip_option, resources_dir(), error);
  if (!chip) {
    std::printf("%-48s FAILS: %s\n", file.c_str(), error.c_str());
    return std::nullopt;
  }
  auto cr = step2::check(pf.task, pf.impl, pf.impl_line_starts);
  if (!cr.graph()) {
    print_diagnostics(cr.diags, file);
    std::printf("%-48s FAILS: the program does not check\n", file.c_str());
    return std::nullopt;
  }
  p2::Options opt;
  opt.reference_reads = p2::reference_reads(pf.task);
  p2::Report first = p2::evaluate(*cr.graph(), *chip, opt);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto a = std::chrono::steady_clock::now();
    p2::Report r = p2::evaluate(*cr.graph(), *chip, opt);
    auto b = std::chrono::steady_clock::now();
    if (r.cycles != first.cycles) {
      std::fprintf(stderr, "%s: the cost model is not deterministic\n", file.c_str());
      return std::nullopt;
    }
    t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  Bench2 out;
  out.median_us = t[t.size() / 2];
  out.p10_us = t[t.size() / 10];
  out.p90_us = t[t.size() * 9 / 10];
  for (const auto& s : cr.graph()->streams) out.tokens += p2::stream_elements(s.type);
  out.requests = first.hbm_requests;
  return out;
}

}  // namespace sf::cli
