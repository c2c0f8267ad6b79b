// perf and bench perf: the cost model on program files (docs/cost-model.md).
#include <algorithm>
#include <chrono>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/cli_util.hpp"
#include "core/common/speedup.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/perf_v2.hpp"
#include "core/bench/catalogue.hpp"
#include "core/cost/baseline.hpp"
#include "core/verify/program_file.hpp"
#include "core/verify/verifier.hpp"

namespace sf::cli {

namespace {

struct PerfOpts {
  std::vector<std::string> files;
  std::string chip;  // empty: "default" for step-v1 files, the task's chip for step-v2 files
  bool json = false;
  int reps = 200;
};

// A program file that loaded, checked and verified, ready for the cost model.
struct Verified {
  verify::ProgramFile pf;
  verify::CheckResult check;
};

// Loads, checks and verifies `f`; on failure prints why (a program must be correct before it is timed).
std::optional<Verified> load_verified(const std::string& f, verify::Verifier& v, std::string& error) {
  Diagnostics ds;
  auto pf = verify::load_program_file(f, &cli_catalogue(), ds);
  if (!pf) {
    error = ds.empty() ? "cannot load the file" : ds.front().code + " " + ds.front().message;
    print_diagnostics(ds, f);
    return std::nullopt;
  }
  verify::Report r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
  if (!r.pass) {
    print_diagnostics(r.diags, f);
    error = "the program does not verify (stage " + std::string(stage_name(*r.stage)) + ", " + r.code +
            "); the cost model times only correct programs";
    return std::nullopt;
  }
  Verified out{std::move(*pf), {}};
  out.check = verify::check_program(out.pf.task, out.pf.impl, out.pf.impl_line_starts);
  return out;
}

nlohmann::json perf_json(const std::string& file, const std::string& task, const cost::CostReport& r,
                         std::optional<std::int64_t> baseline) {
  nlohmann::json j;
  j["file"] = file;
  j["task"] = task;
  j["cycles"] = r.cycles;
  j["baseline_cycles"] = baseline ? nlohmann::json(*baseline) : nlohmann::json(nullptr);
  auto sp = cost::speedup(r, baseline);
  j["speedup"] = sp ? nlohmann::json(*sp) : nlohmann::json(nullptr);
  j["offchip_read_bytes"] = r.offchip_read_bytes;
  j["offchip_write_bytes"] = r.offchip_write_bytes;
  j["onchip_bytes"] = r.onchip_bytes;
  j["allocated_compute"] = r.allocated_compute;
  j["flops"] = r.flops;
  j["utilisation"] = r.utilisation;
  j["feasible"] = r.feasible;
  nlohmann::json v = nlohmann::json::array();
  for (const auto& d : r.violations) v.push_back(d.code);
  j["violations"] = v;
  if (r.bottleneck >= 0) {
    const auto& b = r.units[static_cast<std::size_t>(r.bottleneck)];
    j["bottleneck"] = {{"line", b.line}, {"primitive", b.primitive}};
  } else {
    j["bottleneck"] = nullptr;
  }
  nlohmann::json units = nlohmann::json::array();
  for (const auto& u : r.units)
    units.push_back({{"line", u.line},
                     {"primitive", u.primitive},
                     {"busy", u.busy},
                     {"stall_in", u.stall_in},
                     {"blocked_out", u.blocked_out},
                     {"tokens_in", u.tokens_in},
                     {"tokens_out", u.tokens_out}});
  j["units"] = units;
  return j;
}

std::optional<cost::ChipProfile> chip_or_error(const std::string& name) {
  std::string err;
  auto c = cost::find_chip(name, resources_dir(), err);
  if (!c) std::cerr << "error: " << err << "\n";
  return c;
}

int cmd_perf(const PerfOpts& o) {
  auto chip = chip_or_error(o.chip.empty() ? "default" : o.chip);
  if (!chip) return 2;
  cost::CostModel model(*chip);
  cost::Baselines baselines(model, resources_dir() + "/solutions");
  verify::Verifier v;
  int rc = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& f : o.files) {
    std::string error;
    auto pv = load_verified(f, v, error);
    if (pv && pv->pf.task.is_v2()) {
      rc |= perf2_file(f, pv->pf, o.chip, o.json, all);
      continue;
    }
    std::optional<cost::CostReport> r;
    Diagnostics cd;
    if (pv) {
      r = model.evaluate(pv->pf.task, *pv->check.program, *pv->check.typed, cd);
      if (!r) {
        print_diagnostics(cd, f);
        error = cd.empty() ? "the cost model failed" : cd.front().code + " " + cd.front().message;
      }
    }
    if (!r) {
      rc = 1;
      std::cerr << f << ": error: " << error << "\n";
      if (o.json) all.push_back({{"file", f}, {"task", pv ? pv->pf.task.id : ""}, {"error", error}});
      continue;
    }
    auto base = baselines.cycles(pv->pf.task);
    if (o.json) {
      all.push_back(perf_json(f, pv->pf.task.id, *r, base));
      continue;
    }
    std::cout << f << " (" << pv->pf.task.id << "; sizes";
    for (const auto& [k, val] : r->sizes) std::cout << " " << k << "=" << val;
    std::cout << "; seed " << r->seed << ")\n" << cost::format_report(*r, base);
    if (!base) std::cout << "baseline: none (no reference solution for " << pv->pf.task.id << ")\n";
  }
  if (o.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
  return rc;
}

int cmd_bench_perf(const PerfOpts& o) {
  auto chip = chip_or_error(o.chip.empty() ? "default" : o.chip);
  if (!chip) return 2;
  cost::CostModel model(*chip);
  verify::Verifier v;
  InstructionCounter counter;
  std::printf("%-48s %8s %8s %12s %12s %12s %12s\n", "file", "tokens", "reps", "median_us", "p10_us", "p90_us",
              "instr/eval");
  std::vector<double> medians;
  double v2_total = 0;
  int v2_files = 0;
  int failed = 0;
  for (const auto& f : o.files) {
    std::string error;
    auto pv = load_verified(f, v, error);
    if (pv && pv->pf.task.is_v2()) {
      auto b = bench2_file(f, pv->pf, o.chip, o.reps);
      if (!b) {
        ++failed;
        continue;
      }
      medians.push_back(b->median_us);
      v2_total += b->median_us;
      ++v2_files;
      std::printf("%-48s %8lld %8d %12.1f %12.1f %12.1f %12s\n", f.c_str(), static_cast<long long>(b->tokens), o.reps,
                  b->median_us, b->p10_us, b->p90_us, (std::to_string(b->requests) + " req").c_str());
      continue;
    }
    Diagnostics cd;
    std::optional<cost::CostReport> first;
    if (pv) first = model.evaluate(pv->pf.task, *pv->check.program, *pv->check.typed, cd);  // warms the cache
    if (!first) {
      ++failed;
      print_diagnostics(cd, f);
      std::printf("%-48s FAILS: %s\n", f.c_str(), error.empty() ? "the cost model failed" : error.c_str());
      continue;
    }
    std::vector<double> t;
    std::uint64_t i0 = counter.read();
    for (int i = 0; i < o.reps; ++i) {
      Diagnostics d;
      auto a = std::chrono::steady_clock::now();
      auto r = model.evaluate(pv->pf.task, *pv->check.program, *pv->check.typed, d);
      auto b = std::chrono::steady_clock::now();
      if (!r || r->cycles != first->cycles) {
        std::fprintf(stderr, "%s: the cost model is not deterministic\n", f.c_str());
        return 1;
      }
      t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    std::string instr = counter.available() ? std::to_string((counter.read() - i0) / static_cast<unsigned>(o.reps))
                                            : std::string("n/a");
    std::sort(t.begin(), t.end());
    double med = t[t.size() / 2];
    medians.push_back(med);
    std::printf("%-48s %8lld %8d %12.1f %12.1f %12.1f %12s\n", f.c_str(), static_cast<long long>(first->tokens),
                o.reps, med, t[t.size() / 10], t[t.size() * 9 / 10], instr.c_str());
  }
  if (!medians.empty()) {
    std::sort(medians.begin(), medians.end());
    double med = medians[medians.size() / 2];
    std::printf("median over files: %.1f us per cost evaluation; target 1000 us (ratio %.2f); "
                "step-perf takes 230000-1320000 us per small kernel\n",
                med, med / 1000.0);
  }
  if (v2_files)
    std::printf("step-v2: %d file(s), %.1f us in all (sum of medians); target for the 21 calibration programs "
                "50000 us (ratio %.3f)\n",
                v2_files, v2_total, v2_total / 50000.0);
  if (failed) std::printf("%d file(s) failed and are left out of the median\n", failed);
  return failed ? 1 : 0;
}

}  // namespace

std::optional<std::string> perf_suffix(const verify::ProgramFile& pf, const verify::CheckResult& cr,
                                       cost::CostModel& model, cost::Baselines& baselines) {
  if (pf.task.is_v2()) return perf2_suffix(pf, "");  // the task's chip (a v1 --chip does not apply)
  if (!cr.ok()) return std::nullopt;
  Diagnostics cd;
  auto r = model.evaluate(pf.task, *cr.program, *cr.typed, cd);
  if (!r) return "; cost model: " + (cd.empty() ? std::string("failed") : cd.front().code);
  std::string s = "; " + std::to_string(r->cycles) + " cycles";
  auto base = baselines.cycles(pf.task);
  if (auto sp = cost::speedup(*r, base)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, ", speedup %.3fx", *sp);
    s += buf + speedup_mark(*sp);  // " (tie)" within the 1% tie tolerance
  } else if (!r->feasible) {
    s += ", not feasible (" + r->violations.front().code + ")";
  }
  return s;
}

void add_perf_commands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<PerfOpts>();
  auto* perf = app.add_subcommand("perf", "Cycles, memory and traffic of verified programs under the cost model");
  perf->add_option("files", o->files, "task documents with impl, or solution files")
      ->required()
      ->check(CLI::ExistingFile);
  perf->add_option("--chip", o->chip,
                   "chip profile: a bundled name (default, edge; step-v2: accelopt-step, accelopt-step-capped, "
                   "step-hdl) or a JSON file [default: 'default' for step-v1, the task's chip for step-v2]");
  perf->add_flag("--json", o->json, "print one JSON object per file");
  perf->callback([o, &exit_code] { exit_code = guarded([&] { return cmd_perf(*o); }); });

  CLI::App* bench = app.get_subcommand("bench");
  auto* bp = bench->add_subcommand("perf", "Median time per cost evaluation (perf_sizes, warm task cache)");
  bp->add_option("files", o->files, "program files")->required()->check(CLI::ExistingFile);
  bp->add_option("--reps", o->reps, "repetitions per file")->capture_default_str()->check(CLI::Range(1, 1000000));
  bp->add_option("--chip", o->chip, "chip profile [default: 'default' for step-v1, the task's chip for step-v2]");
  bp->callback([o, &exit_code] { exit_code = guarded([&] { return cmd_bench_perf(*o); }); });
}

}  // namespace sf::cli
