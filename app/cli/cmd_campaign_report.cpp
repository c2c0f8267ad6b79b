// The printed reports of `stepforge-cli campaign`: the table after a run or resume, `campaign report` (per
// task, speed, pass@k and the learning curve; --csv, --json) and `campaign sweep-report` (per variant, paired
// differences against the reference; --json, --md).
#include "app/cli/cmd_campaign_report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "app/cli/cli_util.hpp"
#include "core/common/speedup.hpp"
#include "core/learn/engine_state.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/learn/sweep.hpp"
#include "core/store/workspace.hpp"

namespace sf::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Mode sage: one line per episode, then ER, rounds to first correct and the memory's activity.
void print_sage_table(const json& r, std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%7s %-40s %6s %6s %7s\n", "episode", "task", "rounds", "first", "solved");
  out << line;
  for (const auto& e : r["episodes"]) {
    std::snprintf(line, sizeof line, "%7d %-40s %6d %6d %7s\n", e["episode"].get<int>(),
                  e["task"].get<std::string>().c_str(), e["rounds"].get<int>(), e["first_correct_round"].get<int>(),
                  e["solved"].get<bool>() ? "yes" : "no");
    out << line;
  }
  const json& m = r["memory"];
  out << "ER " << fmt(r["er"].get<double>()) << "  rounds to first correct "
      << (r["rounds_to_first_correct"].is_null() ? std::string("-") : fmt(r["rounds_to_first_correct"].get<double>(), 2))
      << "  episodes " << r["episodes_solved"] << "/" << r["episodes_total"] << " solved";
  for (const auto& [k, v] : r["pass_at_k_episodes"].items()) out << "  pass@" << k << " " << fmt(v.get<double>());
  out << "\nmemory: " << m["experiences"] << " experiences, " << m["adopted_records"] << "/" << m["adoption_records"]
      << " adoption records adopted, " << m["credits"] << " credits, " << m["validated"] << " validated, "
      << m["promoted"] << " promoted, " << m["demoted"] << " demoted  tokens " << r["tokens"]["total"]
      << "  stop: " << (r["finished"].is_null() ? "(not finished)" : r["finished"].get<std::string>()) << "\n";
}

// "programs/failed/passed" of a report's diversity object (core/learn Diversity).
std::string diversity_text(const json& d) {
  return std::to_string(d.value("programs", 0)) + "/" + std::to_string(d.value("failed", 0)) + "/" +
         std::to_string(d.value("passed", 0));
}

// The median speedup as a reader should see it (sf::speedup_text: "1.25x", "tie (1.00x)", "0.80x (slower)"; "-"
// when no task has one), and "; no faster program" after it when no task beat its baseline by the tie tolerance.
std::string median_speedup_text(const json& r) {
  if (!r.contains("median_speedup") || !r["median_speedup"].is_number()) return "-";
  const double tol = r.value("fast_tolerance", kDefaultFastTolerance);
  std::string s = speedup_text(r["median_speedup"].get<double>(), tol, 2, true);
  if (r.value("fast_1", 0.0) == 0.0) s += "; no faster program";
  return s;
}

// "1%": the report's tie tolerance as a percentage.
std::string tolerance_percent(const json& r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", 100.0 * r.value("fast_tolerance", kDefaultFastTolerance));
  return buf;
}

// A STeP-25 optimisation campaign: one row per task (baseline -> best cycles, speedup, % of peak, the round of
// the best, verdict counts, winning moves), then the speed metrics and the rule bank.
void print_opt2_table(const json& r, std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, "%-24s %10s %10s %8s %7s %5s %-34s %s\n", "task", "baseline", "best", "speedup",
                "% peak", "round", "faster/slower/infeasible/incorrect", "winning moves");
  out << line;
  const double tol = r.value("fast_tolerance", kDefaultFastTolerance);
  for (const auto& t : r["tasks"]) {
    const json& v = t["verdicts"];
    std::string counts = std::to_string(v.value("correct+faster", 0)) + "/" + std::to_string(v.value("correct+slower", 0)) +
                         "/" + std::to_string(v.value("infeasible", 0)) + "/" + std::to_string(v.value("incorrect", 0));
    std::string moves;
    for (const auto& m : t["winning_moves"]) moves += (moves.empty() ? "" : ", ") + m.get<std::string>();
    std::snprintf(line, sizeof line, "%-24s %10lld %10lld %8s %6.1f%% %5s %-34s %s\n", t["id"].get<std::string>().c_str(),
                  static_cast<long long>(t["baseline_cycles"].get<std::int64_t>()),
                  static_cast<long long>(t["best_cycles"].get<std::int64_t>()),
                  speedup_text(t["speedup"].get<double>(), tol, 2, false).c_str(), t["pct_of_peak"].get<double>(),
                  t["best_round"].is_null() ? "-" : std::to_string(t["best_round"].get<int>()).c_str(), counts.c_str(),
                  moves.empty() ? "(no faster program)" : moves.c_str());
    out << line;
  }
  const json& m = r["memory"];
  out << "Fast_1 " << fmt(r["fast_1"].get<double>()) << "  Fast_1.5 " << fmt(r["fast_1_5"].get<double>()) << "  Fast_2 "
      << fmt(r["fast_2"].get<double>()) << "  median speedup " << fmt(r["median_speedup"].get<double>(), 2)
      << "x  geomean " << fmt(r["geomean_speedup"].get<double>(), 2) << "x  AUC " << fmt(r["auc"].get<double>())
      << "  (faster = at least " << tolerance_percent(r) << " faster)\nmemory: "
      << (m["enabled"].get<bool>() ? "credit " + m["credit"].get<std::string>() + ", k " + std::to_string(m["k"].get<int>()) +
                                         (m["frozen"].get<bool>() ? ", frozen" : "") + ", from " + m["source"].get<std::string>()
                                   : std::string("off"))
      << ", " << m["rules"] << " rules  tokens " << r["tokens"]["total"] << "  stop: "
      << (r["finished"].is_null() ? "(not finished)" : r["finished"].get<std::string>()) << "\n";
}

}  // namespace

void print_campaign_table(const learn::CampaignState& st, std::ostream& out) {
  json r = learn::report_json(st);
  if (st.is_opt2()) {
    print_opt2_table(r, out);
    return;
  }
  if (st.is_sage()) {
    print_sage_table(r, out);
    return;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%4s %4s %5s %5s %7s %4s %6s %9s %9s %9s %9s %10s\n", "iter", "step", "demos",
                "tasks", "samples", "new", "solved", "pass@1", "pass@n", "cum@1", "cum@n", "tokens");
  out << line;
  for (const auto& e : r["iterations"]) {
    const json& it = e["sampled"];
    const json& cu = e["cumulative"];
    std::snprintf(line, sizeof line, "%4d %4d %5zu %5d %7d %4d %6d %9s %9s %9s %9s %10lld\n", e["iteration"].get<int>(),
                  e["step"].get<int>(), e["demos"].size(), e["tasks_sampled"].get<int>(), e["samples"].get<int>(),
                  e["newly_solved"].get<int>(), cu.value("solved", 0), fmt(it.value("pass_at_1", 0.0)).c_str(),
                  fmt(it.value("pass_at_n", 0.0)).c_str(), fmt(cu.value("pass_at_1", 0.0)).c_str(),
                  fmt(cu.value("pass_at_n", 0.0)).c_str(),
                  static_cast<long long>(e["tokens"].value("total", std::int64_t{0})));
    out << line;
  }
  out << "tasks solved: " << r["tasks_solved"] << "/" << r["tasks_total"] << "  pass@1 " << fmt(r["pass_at_1"].get<double>())
      << "  pass@n " << fmt(r["pass_at_n"].get<double>());
  if (r.contains("fast_1") && r["fast_1"].is_number())
    out << "  Fast_1.0 " << fmt(r["fast_1"].get<double>()) << "  median speedup " << median_speedup_text(r);
  out << "  tokens " << r["tokens"]["total"] << "  cost $"
      << fmt(r["cost_usd"].get<double>(), 4) << "  stop: " << (r["finished"].is_null() ? "(not finished)" : r["finished"].get<std::string>())
      << "\n";
}

int cmd_campaign_report(const std::string& dir, bool csv, bool as_json) {
  std::string err;
  auto ws = store::Workspace::open_read_only(dir, err);
  if (!ws) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  learn::CampaignState st;
  if (!learn::fold_workspace(*ws, st, err)) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  if (as_json) {
    std::cout << learn::report_json(st).dump(2) << "\n";
    return 0;
  }
  if (csv) {
    std::cout << learn::report_csv(st);
    return 0;
  }
  json r = learn::report_json(st);
  if (st.is_opt2()) {
    std::cout << "campaign " << r["name"].get<std::string>() << " (STeP-25 optimisation, " << r["model"].get<std::string>()
              << ", " << r["proposals"] << " proposals per task)\n\n";
    print_opt2_table(r, std::cout);
    return 0;
  }
  std::cout << "campaign " << r["name"].get<std::string>() << " (" << r["mode"].get<std::string>() << ", "
            << r["model"].get<std::string>() << ", n=" << r["n"] << ")\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-40s %-9s %4s %9s %7s %6s %10s %14s  %s\n", "task", "tag", "c", "successes",
                "samples", "solved", "cycles", "speedup", "distinct all/fail/pass");
  std::cout << line;
  for (const auto& t : r["tasks"]) {
    // The fastest correct feasible program: cycles and speedup ("tie (1.00x)" within the tie tolerance; '!' marks
    // a suspicious speedup above 10x).
    std::string cyc = "-", sp = "-";
    if (t.contains("fastest")) {
      const json& f = t["fastest"];
      cyc = std::to_string(f["cycles"].get<std::int64_t>());
      if (f["speedup"].is_number())
        sp = speedup_text(f["speedup"].get<double>(), r.value("fast_tolerance", kDefaultFastTolerance), 2, true) +
             (f["suspicious"].get<bool>() ? "!" : "");
    }
    std::snprintf(line, sizeof line, "%-40s %-9s %4d %9lld %7lld %6s %10s %14s  %s\n", t["id"].get<std::string>().c_str(),
                  t["tag"].get<std::string>().c_str(), t["c"].get<int>(),
                  static_cast<long long>(t["successes"].get<std::int64_t>()),
                  static_cast<long long>(t["samples"].get<std::int64_t>()),
                  t["solved"].get<bool>() ? ((st.is_sage() ? "ep " : "it ") + std::to_string(t.value("solved_iteration", 0))).c_str() : "-",
                  cyc.c_str(), sp.c_str(), diversity_text(t["diversity"]).c_str());
    std::cout << line;
  }
  std::cout << "\ndistinct programs (all/fail/pass, summed over tasks): " << diversity_text(r["diversity"]) << "\n";
  std::cout << "\nspeed: fast_1 " << fmt(r["fast_1"].get<double>()) << "  fast_1.5 " << fmt(r["fast_1_5"].get<double>())
            << "  median speedup " << median_speedup_text(r) << "  (faster = at least " << tolerance_percent(r)
            << " faster than the reference)\n";
  if (st.is_sage()) {
    std::cout << "\n";
    print_sage_table(r, std::cout);
    return 0;
  }
  std::cout << "\npass@k:";
  for (const auto& [k, v] : r["pass_at_k"].items()) std::cout << "  @" << k << " " << fmt(v.get<double>());
  std::cout << "\n\n";
  print_campaign_table(st, std::cout);
  return 0;
}

// Performance sweeps: per variant the median speedup, the AUC of the best-speedup curve and Fast_1.5, each with its
// paired difference to the reference (95% bootstrap interval over seeds). Nothing when no cell has them.
static void print_sweep_speed(const json& r, std::ostream& out) {
  bool any = false;
  for (const auto& row : r["variants"]) any = any || row["median_speedup"].is_number();
  if (!any) return;
  auto cell = [](const json& row, const char* k, int p) {
    std::string s = row[k].is_number() ? fmt(row[k].get<double>(), p) : std::string("-");
    if (row.contains("vs_reference") && row["vs_reference"].contains(k)) {
      const json& d = row["vs_reference"][k];
      char b[128];
      std::snprintf(b, sizeof b, " (%+.3f [%+.3f, %+.3f])", d["mean_diff"].get<double>(), d["lo"].get<double>(),
                    d["hi"].get<double>());
      s += b;
    }
    return s;
  };
  out << "\nspeed (means over seeds; vs " << r["reference"].get<std::string>()
      << ": mean paired difference [95% bootstrap interval]):\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-12s %-34s %-34s %-34s\n", "variant", "median speedup", "AUC", "Fast_1.5");
  out << line;
  for (const auto& row : r["variants"]) {
    std::snprintf(line, sizeof line, "%-12s %-34s %-34s %-34s\n", row["name"].get<std::string>().c_str(),
                  cell(row, "median_speedup", 3).c_str(), cell(row, "auc", 3).c_str(), cell(row, "fast_1_5", 3).c_str());
    out << line;
  }
}

int cmd_sweep_report(const std::string& dir, bool as_json, bool md, const std::string& reference) {
  std::string err;
  auto sweep = learn::read_sweep_folder(dir, err);
  if (!sweep) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  const auto& variants = sweep->variants;
  const auto& seeds = sweep->seeds;
  std::vector<std::map<std::int64_t, learn::CellMetrics>> cells(variants.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    for (std::int64_t seed : seeds) {
      const fs::path cd = learn::sweep_cell_dir(dir, variants[v].name, seed);
      if (!fs::exists(cd / "campaign.json")) continue;
      auto ws = store::Workspace::open_read_only(cd, err);
      learn::CampaignState st;
      if (!ws || !learn::fold_workspace(*ws, st, err)) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
      if (!st.finished) continue;  // unfinished cells are not reported
      const bool cost_on = ws->config().value("objective", "") == "performance";
      cells[v][seed] = learn::cell_metrics(learn::report_json(st), cost_on);
    }
  }
  std::size_t ref = 0;
  if (!reference.empty()) {
    auto it = std::find_if(variants.begin(), variants.end(), [&](const auto& v) { return v.name == reference; });
    if (it == variants.end()) {
      std::string names;
      for (const auto& v : variants) names += (names.empty() ? "" : ", ") + v.name;
      std::cerr << "error: --reference " << reference << ": no such variant in this sweep (" << names << ")\n";
      return 2;
    }
    ref = static_cast<std::size_t>(it - variants.begin());
  }
  json r = learn::sweep_report_json(variants, seeds, cells, ref);
  if (as_json) {
    std::cout << r.dump(2) << "\n";
    return 0;
  }
  if (md) {
    std::cout << learn::sweep_report_markdown(r);
    return 0;
  }
  std::cout << "sweep " << dir << ": seeds";
  for (auto s : seeds) std::cout << " " << s;
  std::cout << "; reference " << r["reference"].get<std::string>()
            << "; differences: mean over paired seeds, 95% bootstrap interval (10000 resamples)\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-4s %5s %7s %-30s %8s %8s %8s  %s\n", "var", "seeds", "ER", "dER [95% CI]",
                "rounds", "samples", "fast_1", "overrides");
  std::cout << line;
  for (const auto& row : r["variants"]) {
    auto num = [](const json& j, int p) { return j.is_number() ? fmt(j.get<double>(), p) : std::string("-"); };
    std::string d = "-";
    if (row.contains("vs_reference") && row["vs_reference"].contains("er")) {
      const json& e = row["vs_reference"]["er"];
      d = fmt(e["mean_diff"].get<double>()) + " [" + fmt(e["lo"].get<double>()) + ", " + fmt(e["hi"].get<double>()) + "]";
    }
    std::string ov;
    for (const auto& o : row["overrides"]) ov += (ov.empty() ? "" : " ") + o.get<std::string>();
    std::snprintf(line, sizeof line, "%-4s %5d %7s %-30s %8s %8s %8s  %s\n", row["name"].get<std::string>().c_str(),
                  row["seeds_done"].get<int>(), num(row["er"], 3).c_str(), d.c_str(),
                  num(row["rounds_to_first_correct"], 2).c_str(), num(row["samples_to_first_correct"], 2).c_str(),
                  num(row["fast_1"], 3).c_str(),
                  !ov.empty() ? ov.c_str() : row["name"] == r["reference"] ? "(reference)" : "(the base config)");
    std::cout << line;
  }
  print_sweep_speed(r, std::cout);
  if (auto missing = learn::sweep_missing_text(r); !missing.empty()) std::cout << "\n" << missing << "\n";
  return 0;
}

}  // namespace sf::cli
