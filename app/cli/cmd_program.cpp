// check, run, verify and bench verify: commands on program files.
#include <algorithm>
#include <chrono>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/perf_v2.hpp"
#include "core/bench/catalogue.hpp"
#include "core/sim/token_view.hpp"
#include "core/step/printer.hpp"
#include "core/verify/dialect_v2.hpp"
#include "core/verify/program_file.hpp"

namespace sf::cli {

namespace {

struct ProgramOpts {
  std::vector<std::string> files;
  bool json = false;
  std::uint64_t seed = 0;
  bool seed_set = false;
  bool alt = false;
  bool varied = false;
  std::string show;
  int reps = 200;
  std::size_t max_tokens = 200;
  bool perf = false;
  std::string chip = "default";
};

const bench::Catalogue& catalogue() { return cli_catalogue(); }

int cmd_check(const ProgramOpts& o) {
  int rc = 0;
  for (const auto& f : o.files) {
    Diagnostics ds;
    auto pf = verify::load_program_file(f, &catalogue(), ds);
    if (!pf) {
      print_diagnostics(ds, f);
      rc = 1;
      continue;
    }
    auto cr = verify::check_document(pf->task, pf->impl, pf->impl_line_starts);
    print_diagnostics(cr.diags, f);
    if (!cr.ok()) {
      rc = 1;
    } else {
      std::cout << f << ": ok (" << cr.statements() << " statements)\n";
    }
  }
  return rc;
}

int cmd_verify(const ProgramOpts& o) {
  verify::Verifier v;
  std::optional<cost::CostModel> model;
  std::optional<cost::Baselines> baselines;
  if (o.perf) {
    std::string err;
    auto chip = cost::find_chip(o.chip, resources_dir(), err);
    if (!chip) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
    model.emplace(*chip);
    baselines.emplace(*model, resources_dir() + "/solutions");
  }
  int rc = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& f : o.files) {
    Diagnostics ds;
    auto pf = verify::load_program_file(f, &catalogue(), ds);
    nlohmann::json j;
    j["file"] = f;
    if (!pf) {
      rc = 1;
      j["pass"] = false;
      j["reward"] = 0;
      auto st = verify::failing_stage(ds);
      j["stage"] = st ? std::string(stage_name(*st)) : "document";
      j["code"] = ds.empty() ? "" : ds.front().code;
      j["diagnostics"] = diagnostics_json(ds);
      if (!o.json) print_diagnostics(ds, f);
      all.push_back(j);
      continue;
    }
    verify::Report r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
    if (!r.pass) rc = 1;
    if (o.json) {
      j.update(report_json(r));
      j["task"] = pf->task.id;
      all.push_back(j);
      continue;
    }
    print_diagnostics(r.diags, f);
    char buf[200];
    if (r.pass) {
      std::string perf;
      if (model && pf->task.is_v2()) {  // step-v2: the task's chip unless --chip names another
        perf = perf2_suffix(*pf, o.chip == "default" ? "" : o.chip).value_or("");
      } else if (model) {
        auto cr = verify::check_program(pf->task, pf->impl, pf->impl_line_starts);
        perf = perf_suffix(*pf, cr, *model, *baselines).value_or("");
      }
      std::snprintf(buf, sizeof buf, "PASS  %s  (%s; %zu input sets; max abs error %.3g, max rel error %.3g%s)",
                    f.c_str(), pf->task.id.c_str(), r.sets.size(), r.max_abs_error, r.max_rel_error, perf.c_str());
    } else {
      std::snprintf(buf, sizeof buf, "FAIL  %s  (%s; stage %s, %s)", f.c_str(), pf->task.id.c_str(),
                    std::string(stage_name(*r.stage)).c_str(), r.code.c_str());
    }
    std::cout << buf << "\n";
  }
  if (o.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
  return rc;
}

int cmd_run(const ProgramOpts& o) {
  const std::string& f = o.files.at(0);
  Diagnostics ds;
  auto pf = verify::load_program_file(f, &catalogue(), ds);
  if (!pf) {
    print_diagnostics(ds, f);
    return 1;
  }
  if (pf->task.is_v2()) {  // the step-v2 run view comes from the seam (core/verify/dialect_v2.hpp)
    verify::v2::RunRequest req{o.alt, o.seed, o.seed_set, o.show, o.max_tokens};
    std::string out;
    Diagnostics rd;
    int rc = verify::v2::run(*pf, req, out, rd);
    print_diagnostics(rd, f);
    std::cout << out;
    return rc;
  }
  auto cr = verify::check_program(pf->task, pf->impl, pf->impl_line_starts);
  print_diagnostics(cr.diags, f);
  if (!cr.ok()) return 1;
  auto bindings = pf->task.bindings();
  if (o.alt && bindings.size() < 2) {
    std::cerr << f << ": error: the task declares no alternative sizes (verify.alt_sizes)\n";
    return 2;
  }
  const step::SizeBinding& sizes = bindings[o.alt ? 1 : 0];
  std::uint64_t seed = o.seed_set ? o.seed : pf->task.verify.seeds.front();
  verify::Verifier v;
  Diagnostics pd;
  auto prep =
      v.prepare(pf->task, sizes, seed, pd, false, o.varied ? sim::Structure::Varied : sim::Structure::Spec);
  if (!prep) {
    print_diagnostics(pd, f);
    return 1;
  }
  sim::RunOptions ro;
  ro.keep_streams = !o.show.empty();
  auto t0 = std::chrono::steady_clock::now();
  sim::RunResult rr = sim::run_program(*cr.program, *cr.typed, prep->compiled, prep->inputs, ro);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "task " << pf->task.id << ", seed " << seed << (o.varied ? " (varied structure)" : "")
            << ", sizes";
  for (const auto& [k, val] : sizes) std::cout << " " << k << "=" << val;
  std::cout << ", " << secs * 1e6 << " us\n";
  if (rr.error) {
    print_diagnostics({*rr.error}, f);
    return 1;
  }
  std::size_t k = 0;
  bool ok = true;
  for (std::size_t i = 0; i < rr.outputs.size(); ++i) {
    const auto& out = rr.outputs[i];
    const auto& decl = pf->task.outputs.at(i);
    for (std::size_t fj = 0; fj < out.fields.size(); ++fj, ++k) {
      const auto& fld = out.fields[fj];
      const auto& ref = prep->reference.fields.at(k);
      auto st = sim::compare(fld.data.data(), ref.data(), static_cast<std::int64_t>(ref.size()), pf->task.verify.atol,
                             pf->task.verify.rtol);
      std::string name = out.fields.size() == 1 ? decl.name : decl.name + "." + std::to_string(fj);
      std::cout << "output " << name << ": dims " << step::dims_str(decl.dims) << " = " << sim::format_ints(out.dims)
                << ", " << fld.data.size() << " values; ";
      if (st.ok()) {
        std::cout << sim::pass_message(name, st, out.dims, fld.esh, pf->task.verify.atol, pf->task.verify.rtol) << "\n";
      } else {
        ok = false;
        std::cout << sim::mismatch_message(name, st, out.dims, step::dims_str(decl.dims), fld.esh,
                                           pf->task.verify.atol, pf->task.verify.rtol, fld.data.data(), ref.data())
                  << "\n";
      }
    }
    std::cout << "  tokens: " << sim::format_tokens(out, o.max_tokens) << "\n";
  }
  if (!o.show.empty()) {
    auto it = rr.streams.find(o.show);
    if (it == rr.streams.end()) {
      std::cerr << f << ": error: no stream named '" << o.show << "' (streams:";
      for (const auto& [n, _] : rr.streams) std::cerr << " " << n;
      std::cerr << ")\n";
      return 2;
    }
    std::cout << "stream " << o.show << ": dims " << sim::format_ints(it->second.dims) << "\n  "
              << sim::format_tokens(it->second, o.max_tokens) << "\n";
  }
  return ok ? 0 : 1;
}

// Times only programs that verify: a failing one would time its quick rejection. Instructions come from the
// hardware counter where there is one (repeatable on a noisy machine).
int cmd_bench_verify(const ProgramOpts& o) {
  verify::Verifier v;
  InstructionCounter counter;
  std::printf("%-48s %8s %12s %12s %12s %14s\n", "file", "reps", "median_us", "p10_us", "p90_us", "instr/verify");
  std::vector<double> medians, instructions;  // v1 files
  std::vector<double> medians_v2;             // STeP-25 files: their own target
  int failed = 0;
  for (const auto& f : o.files) {
    Diagnostics ds;
    auto pf = verify::load_program_file(f, &catalogue(), ds);
    if (!pf) {
      print_diagnostics(ds, f);
      std::printf("%-48s FAILS: cannot be loaded\n", f.c_str());
      ++failed;
      continue;
    }
    auto first = v.verify(pf->task, pf->impl, pf->impl_line_starts);  // also warms the cache
    if (!first.pass) {
      print_diagnostics(first.diags, f);
      std::printf("%-48s FAILS: stage %s, %s (not timed)\n", f.c_str(),
                  first.stage ? std::string(stage_name(*first.stage)).c_str() : "?", first.code.c_str());
      ++failed;
      continue;
    }
    std::vector<double> t;
    std::uint64_t i0 = counter.read();
    for (int i = 0; i < o.reps; ++i) {
      auto a = std::chrono::steady_clock::now();
      auto r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
      auto b = std::chrono::steady_clock::now();
      if (!r.pass) {
        std::fprintf(stderr, "%s: the verdict changed between repetitions\n", f.c_str());
        return 1;
      }
      t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    double instr = static_cast<double>(counter.read() - i0) / o.reps;
    std::sort(t.begin(), t.end());
    double med = t[t.size() / 2];
    if (pf->task.is_v2()) {
      medians_v2.push_back(med);
    } else {
      medians.push_back(med);
      instructions.push_back(instr);
    }
    std::string instr_text = counter.available() ? std::to_string(static_cast<long long>(instr)) : "n/a";
    std::printf("%-48s %8d %12.1f %12.1f %12.1f %14s\n", f.c_str(), o.reps, med, t[t.size() / 10],
                t[t.size() * 9 / 10], instr_text.c_str());
  }
  if (!medians.empty()) {
    std::sort(medians.begin(), medians.end());
    std::sort(instructions.begin(), instructions.end());
    double med = medians[medians.size() / 2];
    std::string instr = counter.available()
                            ? std::to_string(static_cast<long long>(instructions[instructions.size() / 2])) +
                                  " instructions"
                            : "instructions n/a (no hardware counter here; tests/perf/bench_verify under "
                              "callgrind counts them)";
    std::printf("median over files: %.1f us per verification (%s; %s); target 50 us (ratio %.2f); "
                "reference Python simulator ~10000 us (speed-up %.0fx)\n",
                med, instr.c_str(), allocator_name().c_str(), med / 50.0, 10000.0 / med);
  }
  if (!medians_v2.empty()) {
    // STeP-25: the target is 50 ms per verification of the GEMM 256^3 baseline (docs/performance.md); there is
    // no Python reference figure for the v2 simulator.
    std::sort(medians_v2.begin(), medians_v2.end());
    double med = medians_v2[medians_v2.size() / 2];
    std::printf("median over STeP-25 files: %.2f ms per verification (%s); target 50 ms (ratio %.3f)\n",
                med / 1000.0, allocator_name().c_str(), med / 50000.0);
  }
  if (failed) std::printf("%d file(s) do not verify and are left out of the median\n", failed);
  return failed ? 1 : 0;
}

}  // namespace

void add_program_commands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ProgramOpts>();
  auto* check = app.add_subcommand(
      "check", "Every static check of verify on the whole document: fns and reference under every size binding, "
               "then the impl (no simulation)");
  check->add_option("files", o->files, "task documents with impl, or solution files")->required()->check(CLI::ExistingFile);
  check->callback([o, &exit_code] { exit_code = cmd_check(*o); });

  auto* run = app.add_subcommand("run", "Simulate a program on one input set and show its outputs");
  run->add_option("file", o->files, "a task document with impl, or a solution file")->required()->check(CLI::ExistingFile);
  run->add_option("--seed", o->seed, "input seed (default: the task's first seed)")
      ->each([o](const std::string&) { o->seed_set = true; });
  run->add_flag("--alt", o->alt, "use the task's alternative sizes");
  run->add_flag("--varied", o->varied,
                "draw selectors and masks with varied structure, as for verify.extra_seeds and the seeds "
                "`tasks validate` adds (reproduces a failure reported with 'varied structure')");
  run->add_option("--show", o->show, "print the token view of this stream (a name of the program, or L[i])");
  run->add_option("--max-tokens", o->max_tokens, "tokens printed per stream")->capture_default_str();
  run->callback([o, &exit_code] { exit_code = cmd_run(*o); });

  auto* ver = app.add_subcommand("verify", "Verify programs against their task's reference (exit 0 iff all pass)");
  ver->add_option("files", o->files, "task documents with impl, or solution files")->required()->check(CLI::ExistingFile);
  ver->add_flag("--json", o->json, "print a JSON report");
  ver->add_flag("--perf", o->perf, "add cycles and speedup (cost model) to each PASS line");
  ver->add_option("--chip", o->chip, "chip profile for --perf")->capture_default_str();
  ver->callback([o, &exit_code] { exit_code = cmd_verify(*o); });

  auto* bench = app.add_subcommand("bench", "Benchmarks");
  bench->require_subcommand(1);
  auto* bv = bench->add_subcommand("verify", "Median time per verification (cached task data, warm)");
  bv->add_option("files", o->files, "program files")->required()->check(CLI::ExistingFile);
  bv->add_option("--reps", o->reps, "repetitions per file")->capture_default_str()->check(CLI::Range(1, 1000000));
  bv->callback([o, &exit_code] { exit_code = cmd_bench_verify(*o); });
}

}  // namespace sf::cli
