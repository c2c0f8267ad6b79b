// The STeP-25 memory experiment (docs/learn.md, "STeP-25 optimisation memory"): the fallible built-in
// optimiser (core/synth/opt2_*) on the v2 benchmark, a fixed proposal budget per task, each variant of
// resources/experiments/optimise-sage.json over the same seeds. Prints per variant the median speedup at the
// budget, the area under the best-speedup-against-proposals curve, Fast_1.5 and Fast_2 (means over seeds),
// paired differences against `random` and sage − uniform with 95% bootstrap intervals over seeds, the rule
// statistics and how often the k slots of sage and uniform differ.
//   bench_opt2_sweep [CONFIG] [--seeds N] [--budget N] [--variant NAME] [--tasks ID,ID] [--demo] [--probe N]
// --demo: one seed of `sage`, a per-task table (baseline -> best cycles, speedup, % of peak, winning moves).
// --probe N: each move kind applied alone N times to each baseline and judged (how often it applies, its
// verdicts, the best speedup, the most common failure); with PROBE_DUMP=DIR every failed answer is written
// to DIR with the checker's messages.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/speedup.hpp"
#include "core/step2/check.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/synth/opt2_campaign.hpp"

namespace fs = std::filesystem;
using namespace sf::synth::opt2;

namespace {

const std::string kRes = std::string(SF_SOURCE_DIR) + "/resources";

std::string impl_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str(), out;
  auto p = text.find("impl: |\n");
  if (p == std::string::npos) return out;
  std::istringstream body(text.substr(p + 8));
  for (std::string line; std::getline(body, line);) {
    if (line.rfind("  ", 0) != 0) break;
    out += line.substr(2) + "\n";
  }
  return out;
}

std::vector<Opt2Task> load_tasks(const std::string& bench, const std::set<std::string>& only) {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(kRes + "/" + bench))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Opt2Task> out;
  for (const auto& f : files) {
    sf::Diagnostics d;
    auto t = sf::step::load_task_file(f, d);
    if (!t || !t->is_v2() || t->baseline.empty()) continue;
    if (!only.empty() && !only.count(t->id)) continue;
    std::string err;
    auto chip = sf::step2::perf::chip_for(*t, "", kRes, err);
    if (!chip) continue;
    auto base = sf::step2::perf::baseline_path(*t, kRes);
    out.push_back({*t, impl_of(base), *chip});
  }
  return out;
}

struct Variant {
  std::string name;
  bool memory = false;
  Credit credit = Credit::Off;
  std::string frozen_from;  // "odd": bank built on the odd-indexed tasks, then frozen
  std::uint64_t bank_seed_offset = 1000;
};

// 95% bootstrap interval of the mean of `d` (2000 resamples, fixed generator).
std::pair<double, double> bootstrap(const std::vector<double>& d) {
  if (d.empty()) return {0, 0};
  Rng rng(12345);
  std::vector<double> means;
  for (int b = 0; b < 2000; ++b) {
    double s = 0;
    for (std::size_t i = 0; i < d.size(); ++i) s += d[rng.below(d.size())];
    means.push_back(s / d.size());
  }
  std::sort(means.begin(), means.end());
  return {means[50], means[1949]};
}

// --probe: every move kind applied alone to each task's baseline `n` times (fresh seeds), judged like a
// proposal: how often it applies, and the verdicts (faster / slower / infeasible / incorrect) with the best
// speedup. Shows which moves can pay on which task, and how they fail.
void probe(const std::vector<Opt2Task>& tasks, int n, double tol) {
  std::printf("%-20s %-17s %5s %5s %5s %5s %5s %7s  %s\n", "task", "move", "n/a", "fast", "slow", "infs",
              "inc", "best", "most common failure");
  for (const auto& t : tasks) {
    auto base = judge(t, t.baseline_impl, 0, tol);
    for (MoveKind k : all_moves()) {
      int na = 0;
      std::map<Verdict, int> v;
      std::map<std::string, int> why;
      double best = 0;
      for (int s = 0; s < n; ++s) {
        auto lines = read_lines(t.baseline_impl);
        if (!lines) break;
        Rng rng(0xC0FFEEull + static_cast<std::uint64_t>(s) * 7919u);
        if (!apply_move(t.task, *lines, {k, "", base.busiest, read_perf(base.perf_text).limits}, rng).applied) {
          ++na;
          continue;
        }
        auto j = judge(t, print_lines(*lines), base.cycles, tol);
        ++v[j.verdict];
        if (j.verdict == Verdict::Infeasible || j.verdict == Verdict::Incorrect) {
          ++why[j.detail];
          if (std::getenv("PROBE_DUMP")) {
            std::string f = std::string(std::getenv("PROBE_DUMP")) + "/" + t.task.id.substr(t.task.id.find('/') + 1) + "_" + std::string(move_name(k)) + "_" + std::to_string(s) + ".impl";
            std::ofstream o(f);
            o << print_lines(*lines);
            auto cr = sf::step2::check(t.task, print_lines(*lines));
            for (const auto& d : cr.diags) o << "# " << d.code << " line " << d.loc.line << ": " << d.message << "\n";
          }
        }
        if (j.verdict == Verdict::Faster || j.verdict == Verdict::Slower)
          best = std::max(best, static_cast<double>(base.cycles) / j.cycles);
      }
      std::string common;
      int most = 0;
      for (const auto& [w, c] : why)
        if (c > most) most = c, common = w;
      std::printf("%-20s %-17s %5d %5d %5d %5d %5d %6.2fx  %s\n", t.task.id.c_str(),
                  std::string(move_name(k)).c_str(), na, v[Verdict::Faster], v[Verdict::Slower],
                  v[Verdict::Infeasible], v[Verdict::Incorrect], best, common.c_str());
    }
  }
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / v.size();
}

}  // namespace

int main(int argc, char** argv) {
  std::string config = kRes + "/experiments/optimise-sage.json", only_variant;
  int seeds_n = -1, budget = -1;
  bool demo = false;
  int probe_n = 0;
  std::set<std::string> only_tasks;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seeds") seeds_n = std::atoi(next().c_str());
    else if (a == "--budget") budget = std::atoi(next().c_str());
    else if (a == "--variant") only_variant = next();
    else if (a == "--demo") demo = true;
    else if (a == "--probe") probe_n = std::atoi(next().c_str());
    else if (a == "--tasks") {
      std::stringstream ss(next());
      for (std::string t; std::getline(ss, t, ',');) only_tasks.insert(t);
    } else config = a;
  }
  std::ifstream in(config);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", config.c_str());
    return 2;
  }
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    std::fprintf(stderr, "%s is not JSON\n", config.c_str());
    return 2;
  }
  Opt2Config base;
  base.budget = budget > 0 ? budget : j.value("budget", 16);
  base.k = j.value("k", 3);
  base.tolerance = j.value("fast_tolerance", 0.01);
  std::vector<std::uint64_t> seeds = j.value("seeds", std::vector<std::uint64_t>{1, 2, 3, 4, 5});
  if (seeds_n > 0) {
    seeds.clear();
    for (int s = 1; s <= seeds_n; ++s) seeds.push_back(s);
  }
  std::vector<Variant> variants;
  for (const auto& v : j.value("variants", nlohmann::json::array())) {
    Variant x;
    x.name = v.value("name", "?");
    x.memory = v.value("memory", false);
    x.credit = parse_credit(v.value("credit", "off")).value_or(Credit::Off);
    x.frozen_from = v.value("frozen_bank_from", "");
    x.bank_seed_offset = v.value("bank_seed_offset", 1000);
    if (demo && x.name != "sage") continue;
    if (!only_variant.empty() && x.name != only_variant) continue;
    variants.push_back(x);
  }
  if (demo) seeds = {seeds.front()};
  auto tasks = load_tasks(j.value("benchmark", "benchmark_v2"), only_tasks);
  if (probe_n > 0) {
    probe(tasks, probe_n, base.tolerance);
    return 0;
  }
  std::printf("%zu tasks, budget %d proposals per task, k=%d, %zu seeds, %zu variants\n", tasks.size(), base.budget,
              base.k, seeds.size(), variants.size());

  // results[variant][seed]
  std::map<std::string, std::vector<Opt2Result>> results;
  std::map<std::string, std::vector<RuleBank>> banks;
  for (const auto& v : variants) {
    for (auto seed : seeds) {
      auto t0 = std::chrono::steady_clock::now();
      Opt2Config cfg = base;
      cfg.seed = seed;
      cfg.memory = v.memory;
      cfg.credit = v.credit;
      RuleBank bank;
      if (!v.frozen_from.empty()) {
        std::vector<Opt2Task> split;
        for (std::size_t i = 1; i < tasks.size(); i += 2) split.push_back(tasks[i]);
        Opt2Config bc = cfg;
        bc.seed = seed + v.bank_seed_offset;
        run_campaign(split, bc, bank);
        bank.frozen = true;
      }
      auto r = run_campaign(tasks, cfg, bank);
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%-12s seed %-3llu median %.3fx geomean %.3fx fast_1 %.2f fast_1.5 %.2f fast_2 %.2f auc %.3f "
                  "rules %zu (%.1f s)\n",
                  v.name.c_str(), static_cast<unsigned long long>(seed), r.median_speedup, r.geomean_speedup, r.fast_1,
                  r.fast_1_5, r.fast_2, r.auc, bank.rules.size(), secs);
      std::fflush(stdout);
      if (demo) {
        std::printf("\n%-22s %10s %10s %8s %8s  %s\n", "task", "baseline", "best", "speedup", "% peak", "winning moves");
        for (const auto& o : r.tasks) {
          std::string moves;
          for (const auto& m : o.winning_moves) moves += (moves.empty() ? "" : ", ") + m;
          std::printf("%-22s %10lld %10lld %7.2fx %7.1f%%  %s\n", o.id.c_str(),
                      static_cast<long long>(o.baseline_cycles), static_cast<long long>(o.best_cycles), o.speedup,
                      o.pct_of_peak, moves.empty() ? "(no faster program)" : moves.c_str());
        }
        std::printf("\nFast_1.5 %.2f, median speedup %.2fx, geomean %.2fx\n", r.fast_1_5, r.median_speedup,
                    r.geomean_speedup);
        return 0;
      }
      results[v.name].push_back(std::move(r));
      banks[v.name].push_back(std::move(bank));
    }
  }
  std::printf("\n%-12s %10s %8s %9s %8s\n", "variant", "median", "auc", "fast_1.5", "fast_2");
  for (const auto& v : variants) {
    std::vector<double> med, auc, f15, f2;
    for (const auto& r : results[v.name]) {
      med.push_back(r.median_speedup);
      auc.push_back(r.auc);
      f15.push_back(r.fast_1_5);
      f2.push_back(r.fast_2);
    }
    std::printf("%-12s %9.3fx %8.3f %9.3f %8.3f\n", v.name.c_str(), mean(med), mean(auc), mean(f15), mean(f2));
  }
  // Per task: the median over seeds of the best speedup at the budget, per variant.
  if (!variants.empty() && !results[variants.front().name].empty()) {
    std::printf("\nper task, median over seeds of the best speedup:\n%-22s", "task");
    for (const auto& v : variants) std::printf(" %12s", v.name.c_str());
    std::printf("\n");
    const auto& first = results[variants.front().name].front().tasks;
    for (std::size_t t = 0; t < first.size(); ++t) {
      std::printf("%-22s", first[t].id.c_str());
      for (const auto& v : variants) {
        std::vector<double> sp;
        for (const auto& r : results[v.name])
          if (t < r.tasks.size()) sp.push_back(r.tasks[t].speedup);
        std::sort(sp.begin(), sp.end());
        std::printf(" %11.2fx", sp.empty() ? 1.0 : sp[sp.size() / 2]);
      }
      std::printf("\n");
    }
  }
  auto paired = [&](const std::string& a, const std::string& b) {
    if (!results.count(a) || !results.count(b)) return;
    for (const char* metric : {"median", "auc", "fast_1.5"}) {
      std::vector<double> d;
      for (std::size_t i = 0; i < results[a].size() && i < results[b].size(); ++i) {
        const auto& x = results[a][i];
        const auto& y = results[b][i];
        std::string m = metric;
        d.push_back(m == "median" ? x.median_speedup - y.median_speedup
                    : m == "auc"  ? x.auc - y.auc
                                  : x.fast_1_5 - y.fast_1_5);
      }
      auto [lo, hi] = bootstrap(d);
      std::printf("  %s - %s %-9s %+.3f [%+.3f, %+.3f]\n", a.c_str(), b.c_str(), metric, mean(d), lo, hi);
    }
  };
  std::printf("\npaired differences over seeds (95%% bootstrap):\n");
  for (const auto& v : variants)
    if (v.name != "random") paired(v.name, "random");
  paired("sage", "uniform");
  // How often the k slots of sage and uniform differ (same seed, same task, same round).
  if (results.count("sage") && results.count("uniform")) {
    int same = 0, diff = 0;
    for (std::size_t s = 0; s < results["sage"].size(); ++s)
      for (std::size_t t = 0; t < results["sage"][s].tasks.size(); ++t) {
        const auto& a = results["sage"][s].tasks[t].rounds;
        const auto& b = results["uniform"][s].tasks[t].rounds;
        for (std::size_t r = 0; r < a.size() && r < b.size(); ++r) {
          if (a[r].retrieved.empty() && b[r].retrieved.empty()) continue;
          (std::set<std::string>(a[r].retrieved.begin(), a[r].retrieved.end()) ==
                   std::set<std::string>(b[r].retrieved.begin(), b[r].retrieved.end())
               ? same
               : diff) += 1;
        }
      }
    std::printf("\nk slots of sage vs uniform (same seed/task/round): %d differ, %d identical\n", diff, same);
  }
  for (const auto& v : variants) {
    if (!v.memory || banks[v.name].empty()) continue;
    const auto& b = banks[v.name].front();
    std::printf("\nrule bank of %s, seed %llu: %zu rules\n", v.name.c_str(),
                static_cast<unsigned long long>(seeds.front()), b.rules.size());
    for (const auto& r : b.rules)
      std::printf("  %-4s %-26s adopted %2d won %2d lost %2d retrieved %3d best %.2fx  [%s/%s]\n", r.rule.id.c_str(),
                  move_key(r.rule.kind, r.rule.param).c_str(), r.wins + r.losses, r.wins, r.losses, r.retrieved,
                  r.best_speedup, r.bottleneck.c_str(), r.op_pattern.c_str());
  }
  return 0;
}
