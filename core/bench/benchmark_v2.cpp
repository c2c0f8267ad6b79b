#include "core/bench/benchmark_v2.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/step2/check.hpp"
#include "core/step2/perf/chip.hpp"
#include "core/step2/perf/perf.hpp"
#include "core/verify/benchmark_validation.hpp"
#include "core/verify/program_file.hpp"

namespace sf::bench {
namespace fs = std::filesystem;

namespace {

std::string first_error(const Diagnostics& ds, const std::string& file) {
  for (const auto& d : ds)
    if (d.is_error()) return format_diagnostic(d, file);
  return file + ": failed";
}

std::vector<std::string> files_with(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ext) out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Checks and times `impl` on the task's chip; sets p.timed / p.perf or p.problem.
void time_program(const step::TaskDoc& task, const std::string& impl, const std::vector<Location>& line_starts,
                  const std::string& resources_dir, std::optional<std::int64_t> baseline_cycles, V2Program& p) {
  auto checked = step2::check(task, impl, line_starts);
  if (!checked.ok()) {
    p.problem = first_error(checked.diags, p.file);
    return;
  }
  std::string err;
  auto chip = step2::perf::find_chip(task.chip.empty() ? "accelopt-step" : task.chip, resources_dir, err);
  if (!chip) {
    p.problem = p.file + ": chip '" + task.chip + "': " + err;
    return;
  }
  step2::perf::Options opt;
  opt.baseline_cycles = baseline_cycles;
  p.perf = step2::perf::evaluate(*checked.graph(), *chip, opt);
  p.timed = true;
}

// Loads, optionally verifies, and times one solution file of `task`.
V2Program run_solution(const Catalogue& cat, const step::TaskDoc& task, const std::string& path,
                       const std::string& kind, const std::string& resources_dir, verify::Verifier* v,
                       std::optional<std::int64_t> baseline_cycles) {
  V2Program p;
  p.file = path;
  p.kind = kind;
  Diagnostics ds;
  auto pf = verify::load_program_file(path, &cat, ds);
  if (!pf) {
    p.problem = first_error(ds, path);
    return p;
  }
  if (pf->task.id != task.id) {
    p.problem = path + ": names task '" + pf->task.id + "', expected '" + task.id + "'";
    return p;
  }
  if (v) {
    verify::Report r = v->verify(pf->task, pf->impl, pf->impl_line_starts);
    p.pass = r.pass;
    if (!r.pass) {
      p.problem = first_error(r.diags, path);
      return p;
    }
  }
  time_program(pf->task, pf->impl, pf->impl_line_starts, resources_dir, baseline_cycles, p);
  return p;
}

std::string with_commas(std::int64_t n) {
  std::string s = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return n < 0 ? "-" + s : s;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

const V2Program* V2TaskResult::best() const {
  const V2Program* b = nullptr;
  for (const auto& k : known)
    if (k.timed && k.perf.feasible && k.problem.empty() && (!b || k.perf.cycles < b->perf.cycles)) b = &k;
  return b;
}

double V2TaskResult::best_speedup() const {
  const V2Program* b = best();
  return b && baseline.timed && b->perf.cycles > 0
             ? static_cast<double>(baseline.perf.cycles) / static_cast<double>(b->perf.cycles)
             : 0.0;
}

std::vector<V2TaskResult> time_benchmark_v2(const Catalogue& cat, const std::string& resources_dir,
                                            verify::Verifier* v, std::vector<std::string>& problems) {
  std::vector<V2TaskResult> rows;
  for (const auto& t : cat.tasks()) {
    V2TaskResult row;
    row.id = t.id;
    std::string base = v2_baseline_path(resources_dir, t);
    if (base.empty()) {
      problems.push_back("task " + t.id + ": names no baseline");
      rows.push_back(std::move(row));
      continue;
    }
    row.baseline = run_solution(cat, t, base, "baseline", resources_dir, v, std::nullopt);
    std::optional<std::int64_t> bc;
    if (row.baseline.timed) bc = row.baseline.perf.cycles;
    // <group>/<name>.known_opt_<k>.yaml
    std::string stem = t.id.substr(t.id.find('/') + 1) + ".known_opt_";
    for (const auto& f : files_with((fs::path(resources_dir) / "solutions_v2" / t.group).string(), ".yaml")) {
      std::string name = fs::path(f).filename().string();
      if (name.rfind(stem, 0) != 0) continue;
      std::string kind = name.substr(stem.size() - std::string("known_opt_").size());
      kind = kind.substr(0, kind.size() - 5);  // drop ".yaml"
      row.known.push_back(run_solution(cat, t, f, kind, resources_dir, v, bc));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

double median_best_speedup(const std::vector<V2TaskResult>& rows) {
  std::vector<double> s;
  for (const auto& r : rows) s.push_back(r.best_speedup());
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  std::size_t n = s.size();
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

V2Summary validate_benchmark_v2(const Catalogue& cat, const V2Paths& paths, verify::Verifier& v,
                                const std::function<void(const std::string&)>& tick) {
  V2Summary sum;
  // Tasks: the reference compiles and is sound under every binding, seed and input set.
  for (const auto& t : cat.tasks()) {
    ++sum.tasks;
    Diagnostics ds;
    if (verify::validate_task(v, t, ds)) {
      ++sum.tasks_ok;
    } else {
      sum.problems.push_back("v2 task " + t.id + ": " + first_error(ds, t.path));
    }
    if (tick) tick(t.id);
  }

  // Baselines and known-optimised programs.
  sum.rows = time_benchmark_v2(cat, paths.resources_dir, &v, sum.problems);
  for (const auto& row : sum.rows) {
    ++sum.baselines;
    const V2Program& b = row.baseline;
    if (!b.problem.empty()) {
      sum.problems.push_back("v2 baseline " + b.problem);
    } else if (!b.timed || !b.perf.feasible) {
      sum.problems.push_back("v2 baseline of " + row.id + " is not feasible on its chip" +
                             (b.perf.violations.empty() ? "" : ": " + b.perf.violations.front().code + " " +
                                                                    b.perf.violations.front().message));
    } else {
      ++sum.baselines_ok;
      sum.baseline_lo = sum.baselines_ok == 1 ? b.perf.cycles : std::min(sum.baseline_lo, b.perf.cycles);
      sum.baseline_hi = std::max(sum.baseline_hi, b.perf.cycles);
    }
    if (row.known.empty()) sum.problems.push_back("v2 task " + row.id + ": no known_opt program");
    for (const auto& k : row.known) {
      ++sum.known;
      if (!k.problem.empty()) {
        sum.problems.push_back("v2 known-optimised " + k.problem);
      } else if (!k.perf.feasible) {
        sum.problems.push_back("v2 known-optimised " + k.file + " is not feasible" +
                               (k.perf.violations.empty() ? "" : ": " + k.perf.violations.front().code));
      } else if (!b.timed || k.perf.cycles >= b.perf.cycles) {
        sum.problems.push_back("v2 known-optimised " + k.file + " does not beat its baseline (" +
                               std::to_string(k.perf.cycles) + " vs " + std::to_string(b.perf.cycles) + " cycles)");
      } else {
        ++sum.known_ok;
      }
    }
    const V2Program* best = row.best();
    if (best && best->perf.pct_of_peak >= kNearPeakPct) sum.near_peak.push_back(row.id);
    sum.max_best_speedup = std::max(sum.max_best_speedup, row.best_speedup());
    if (tick) tick(row.id);
  }
  sum.median_best_speedup = median_best_speedup(sum.rows);
  if (!sum.rows.empty() && sum.median_best_speedup < kMinMedianBestSpeedup)
    sum.problems.push_back("v2 median best known speedup " + fixed(sum.median_best_speedup, 2) + "x is below " +
                           fixed(kMinMedianBestSpeedup, 1) + "x");
  if (sum.max_best_speedup > kMaxBestSpeedup)
    sum.problems.push_back("v2 largest best known speedup " + fixed(sum.max_best_speedup, 2) + "x is above " +
                           fixed(kMaxBestSpeedup, 1) + "x");

  // Mutants: rejected at their annotated stage (and code).
  auto mutants = verify::check_rejected_files(cat, files_with(paths.mutants_dir, ".yaml"), "v2 mutant", v,
                                              tick ? std::function<void(const std::string&)>(tick) : nullptr);
  sum.mutants = mutants.programs;
  sum.mutants_ok = mutants.rejected_as_annotated;
  sum.problems.insert(sum.problems.end(), mutants.problems.begin(), mutants.problems.end());

  // Reward hacks: rejected with their annotated verdict, or (code SUSPICIOUS) verified and flagged.
  for (const auto& f : files_with(paths.hacks_dir, ".yaml")) {
    Diagnostics ds;
    step::AnyDoc any = step::load_any_file(f, ds);
    const step::TaskDoc* task = any.mutants ? cat.find(any.mutants->task_id) : nullptr;
    if (!task) {
      sum.problems.push_back("v2 hacks " + (any.mutants ? f + ": unknown task '" + any.mutants->task_id + "'"
                                                         : first_error(ds, f)));
      continue;
    }
    std::vector<std::string> rejected_files;
    for (const auto& m : any.mutants->mutants) {
      if (m.code != "SUSPICIOUS") continue;
      ++sum.hacks;
      std::string where = f + ":" + std::to_string(m.loc.line) + ": v2 hack '" + m.name + "'";
      verify::Report r = v.verify(*task, m.impl, m.impl_line_starts);
      V2Program p;
      p.file = f;
      if (r.pass) time_program(*task, m.impl, m.impl_line_starts, paths.resources_dir, std::nullopt, p);
      if (!r.pass) {
        sum.problems.push_back(where + " must verify and be flagged suspicious, but fails: " + first_error(r.diags, ""));
      } else if (!p.timed || !p.perf.suspicious) {
        sum.problems.push_back(where + " is not flagged suspicious by the cost model" +
                               (p.problem.empty() ? "" : ": " + p.problem));
      } else {
        ++sum.hacks_ok;
      }
    }
    // The rejected ones: the mutant rules (check_rejected_files skips nothing, so run it on a filtered copy).
    step::MutantFile rest{any.mutants->task_id, {}};
    for (const auto& m : any.mutants->mutants)
      if (m.code != "SUSPICIOUS") rest.mutants.push_back(m);
    for (const auto& m : rest.mutants) {
      ++sum.hacks;
      verify::Report r = v.verify(*task, m.impl, m.impl_line_starts);
      std::string where = f + ":" + std::to_string(m.loc.line) + ": v2 hack '" + m.name + "'";
      Stage want{};
      if (!parse_stage(m.stage, want)) {
        sum.problems.push_back(where + ": unknown stage '" + m.stage + "'");
      } else if (r.pass) {
        sum.problems.push_back(where + " passes verification but must fail at stage " + m.stage);
      } else if (*r.stage != want || (!m.code.empty() && r.code != m.code)) {
        sum.problems.push_back(where + " fails at stage " + std::string(stage_name(*r.stage)) + " (" + r.code +
                               ") instead of " + m.stage + " (" + m.code + ")");
      } else {
        ++sum.hacks_ok;
      }
    }
    if (tick) tick(f);
  }

  // Manual examples: each verifies; consecutive examples with the same id are a (before, after) pair whose
  // cycle counts appear in the text, the after program being faster.
  for (const auto& f : files_with(paths.manual_dir, ".md")) {
    std::string text = read_file(f);
    std::string prev_id;
    std::int64_t prev_cycles = -1;
    for (const auto& ex : verify::yaml_examples(text)) {
      ++sum.manual_examples;
      Diagnostics ds;
      auto doc = step::load_task_text(ex.text, f, ds);
      std::string where = f + ":" + std::to_string(ex.first_line);
      if (!doc || !doc->impl || !doc->is_v2()) {
        sum.problems.push_back(where + ": v2 example does not load as a step-v2 program: " + first_error(ds, ""));
        continue;
      }
      verify::Report r = v.verify(*doc, *doc->impl, doc->impl_line_starts);
      V2Program p;
      p.file = where;
      if (r.pass) time_program(*doc, *doc->impl, doc->impl_line_starts, paths.resources_dir, std::nullopt, p);
      if (!r.pass) {
        sum.problems.push_back(where + ": example '" + doc->id + "' fails: " + first_error(r.diags, ""));
      } else if (!p.timed || !p.perf.feasible) {
        sum.problems.push_back(where + ": example '" + doc->id + "' is not timed or not feasible " + p.problem);
      } else if (text.find(with_commas(p.perf.cycles) + " cycles") == std::string::npos) {
        sum.problems.push_back(where + ": example '" + doc->id + "' takes " + with_commas(p.perf.cycles) +
                               " cycles, which the text does not say (write \"" + with_commas(p.perf.cycles) +
                               " cycles\")");
      } else if (doc->id == prev_id && p.perf.cycles >= prev_cycles) {
        sum.problems.push_back(where + ": example '" + doc->id + "' (after) is not faster than its before program");
      } else {
        ++sum.manual_ok;
      }
      prev_id = doc ? doc->id : "";
      prev_cycles = p.timed ? p.perf.cycles : -1;
    }
    if (tick) tick(f);
  }
  return sum;
}

std::string benchmark_v2_table(const Catalogue& cat, const std::vector<V2TaskResult>& rows) {
  std::ostringstream o;
  o << "# STeP-25 optimisation benchmark: baselines and best known programs\n\n"
       "Generated by `stepforge-cli tasks table --dialect step-v2 > docs/benchmark-v2.md` (a test fails when this\n"
       "file is out of date). Every number comes from the STeP-25 cost model on each task's chip (`accelopt-step`)\n"
       "under the task's `sizes`. The baseline is the task's deliberately unoptimised program; the best known\n"
       "program is the fastest of its hand-written known-optimised programs. Neither is ever shown to agents.\n"
       "% of peak = peak cycles / cycles, where the peak is the larger of FLOPs / compute budget and the\n"
       "minimum off-chip bytes / HBM bandwidth (latency-bound tasks sit far below it by construction).\n\n"
       "| task | peak cycles | baseline cycles | baseline off-chip B | baseline % peak | best known | cycles | "
       "off-chip B | % peak | speedup |\n"
       "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|\n";
  std::vector<std::string> near;
  for (const auto& r : rows) {
    const auto& b = r.baseline.perf;
    const V2Program* k = r.best();
    o << "| `" << r.id << "` | " << with_commas(b.peak_cycles) << " | " << with_commas(b.cycles) << " | "
      << with_commas(b.offchip_read_bytes + b.offchip_write_bytes) << " | " << fixed(b.pct_of_peak, 1) << " % | ";
    if (k) {
      o << "`" << k->kind << "` | " << with_commas(k->perf.cycles) << " | "
        << with_commas(k->perf.offchip_read_bytes + k->perf.offchip_write_bytes) << " | "
        << fixed(k->perf.pct_of_peak, 1) << " % | " << fixed(r.best_speedup(), 2) << "x |\n";
      if (k->perf.pct_of_peak >= kNearPeakPct) near.push_back(r.id);
    } else {
      o << "- | - | - | - | - |\n";
    }
  }
  double max = 0;
  for (const auto& r : rows) max = std::max(max, r.best_speedup());
  o << "\nMedian best known speedup over the " << rows.size() << " tasks: **" << fixed(median_best_speedup(rows), 2)
    << "x**; largest: " << fixed(max, 2) << "x.\n\n";
  if (!near.empty()) {
    o << "Near their peak (best known program at >= 90 % of peak; a better baseline recipe or a larger size may\n"
         "make a harder benchmark):";
    for (std::size_t i = 0; i < near.size(); ++i) o << (i ? ", " : " ") << "`" << near[i] << "`";
    o << ".\n\n";
  }
  o << "Known-optimised programs per task:\n\n";
  for (const auto& r : rows) {
    o << "- `" << r.id << "`:";
    for (std::size_t i = 0; i < r.known.size(); ++i) {
      const auto& k = r.known[i];
      o << (i ? "," : "") << " `" << k.kind << "` " << with_commas(k.perf.cycles) << " cycles";
    }
    o << "\n";
  }
  (void)cat;
  return o.str();
}

}  // namespace sf::bench
