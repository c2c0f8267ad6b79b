#include "app/cli/cli_util.hpp"

#include <dlfcn.h>

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "core/bench/catalogue.hpp"

namespace sf::cli {

void print_diagnostics(const Diagnostics& ds, const std::string& file) {
  for (const auto& d : ds) std::cerr << format_diagnostic(d, file) << "\n";
}

nlohmann::json diagnostics_json(const Diagnostics& ds) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& d : ds) {
    arr.push_back({{"code", d.code},
                   {"stage", std::string(stage_name(d.stage()))},
                   {"severity", std::string(severity_name(d.severity))},
                   {"message", d.message},
                   {"line", d.loc.line},
                   {"column", d.loc.column}});
  }
  return arr;
}

nlohmann::json report_json(const verify::Report& r) {
  nlohmann::json j;
  j["pass"] = r.pass;
  j["reward"] = r.reward();
  j["stage"] = r.stage ? nlohmann::json(std::string(stage_name(*r.stage))) : nlohmann::json(nullptr);
  j["code"] = r.code.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.code);
  j["diagnostics"] = diagnostics_json(r.diags);
  j["max_abs_error"] = r.max_abs_error;
  j["max_rel_error"] = r.max_rel_error;
  j["program_length"] = r.program_length;
  j["canonical_key"] = r.canonical_key;
  j["seconds"] = r.seconds;
  nlohmann::json sets = nlohmann::json::array();
  for (const auto& s : r.sets) {
    nlohmann::json js{{"seed", s.seed}, {"alt_sizes", s.alt}, {"pass", s.pass}};
    nlohmann::json sizes = nlohmann::json::object();
    for (const auto& [k, v] : s.sizes) sizes[k] = v;
    js["sizes"] = sizes;
    nlohmann::json outs = nlohmann::json::array();
    for (const auto& o : s.outputs)
      outs.push_back({{"name", o.name},
                      {"values", o.stats.total},
                      {"mismatches", o.stats.bad},
                      {"max_abs_error", o.stats.max_abs},
                      {"max_rel_error", o.stats.max_rel}});
    js["outputs"] = outs;
    sets.push_back(js);
  }
  j["input_sets"] = sets;
  return j;
}

void Progress::update(int done, int total, const std::string& what) {
  if (total <= 0) return;
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  double eta = done > 0 ? el / done * (total - done) : 0.0;
  if (isatty(STDERR_FILENO)) {
    int width = 30, fill = done * width / total;
    std::fprintf(stderr, "\r%s [%s%s] %d/%d  %.0fs elapsed, ETA %.0fs  %-30.30s", label_.c_str(),
                 std::string(static_cast<std::size_t>(fill), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - fill), '.').c_str(), done, total, el, eta, what.c_str());
    std::fflush(stderr);
    drawn_ = true;
  } else {
    int decile = done * 10 / total;
    if (decile != last_decile_) {
      last_decile_ = decile;
      std::fprintf(stderr, "%s: %d/%d (%.0fs elapsed, ETA %.0fs)\n", label_.c_str(), done, total, el, eta);
    }
  }
}

void Progress::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

std::string resources_dir() { return bench::resource_dir(); }

InstructionCounter::InstructionCounter() {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_HARDWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd_ = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (fd_ >= 0 && read() == 0) {  // opened but counting nothing (a virtual machine without a PMU)
    std::uint64_t probe = 0;
    for (int i = 0; i < 1000; ++i) probe += static_cast<std::uint64_t>(i) * 3u;
    if (read() == 0 || probe == 1) {
      close(fd_);
      fd_ = -1;
    }
  }
}

InstructionCounter::~InstructionCounter() {
  if (fd_ >= 0) close(fd_);
}

std::uint64_t InstructionCounter::read() const {
  if (fd_ < 0) return 0;
  std::uint64_t v = 0;
  if (::read(fd_, &v, sizeof v) != static_cast<ssize_t>(sizeof v)) return 0;
  return v;
}

std::string allocator_name() {
  using VersionFn = int (*)();
  auto mi_version = reinterpret_cast<VersionFn>(dlsym(RTLD_DEFAULT, "mi_version"));
  if (!mi_version) return "glibc malloc";
  const int v = mi_version();  // 209 for 2.0.9
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
}

const bench::Catalogue& cli_catalogue() {
  static Diagnostics ignored;
  static bench::Catalogue cat = bench::Catalogue::load_all(resources_dir(), ignored);  // step-v1 and step-v2 tasks
  return cat;
}

std::string source_dir() {
#ifdef SF_SOURCE_DIR
  std::error_code ec;
  if (std::filesystem::is_directory(SF_SOURCE_DIR, ec)) return SF_SOURCE_DIR;
#endif
  return "";
}

std::string fmt(double x, int prec) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, x);
  return buf;
}

std::string now_iso_utc() {
  const std::time_t tt = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char iso[32];
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return iso;
}

}  // namespace sf::cli
