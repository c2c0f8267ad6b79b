#include "core/learn/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/sim/datagen.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

std::vector<std::string> sweep_split_commas(std::string_view s) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (true) {
    std::size_t e = s.find(',', p);
    out.emplace_back(s.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p));
    if (e == std::string_view::npos) break;
    p = e + 1;
  }
  return out;
}

std::optional<std::int64_t> sweep_parse_int(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<double> sweep_mean_of(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

using SweepGetter = std::optional<double> (*)(const CellMetrics&);
struct SweepMetricDef {
  const char* name;
  SweepGetter get;
};
const SweepMetricDef kSweepMetrics[] = {
    {"er", [](const CellMetrics& m) -> std::optional<double> { return m.er; }},
    {"rounds_to_first_correct", [](const CellMetrics& m) { return m.rounds_to_first_correct; }},
    {"samples_to_first_correct", [](const CellMetrics& m) { return m.samples_to_first_correct; }},
    {"fast_1", [](const CellMetrics& m) { return m.fast_1; }},
    {"median_speedup", [](const CellMetrics& m) { return m.median_speedup; }},
    {"auc", [](const CellMetrics& m) { return m.auc; }},
    {"fast_1_5", [](const CellMetrics& m) { return m.fast_1_5; }},
};

}  // namespace

std::optional<std::vector<std::int64_t>> parse_seed_list(std::string_view text, std::string& error) {
  std::vector<std::int64_t> out;
  if (text.empty()) return error = "--seeds: empty", std::nullopt;
  for (const auto& part : sweep_split_commas(text)) {
    std::size_t dash = part.find('-');
    auto lo = sweep_parse_int(std::string_view(part).substr(0, dash));
    auto hi = dash == std::string::npos ? lo : sweep_parse_int(std::string_view(part).substr(dash + 1));
    if (!lo || !hi) return error = "--seeds: '" + part + "' is not a seed or a range a-b", std::nullopt;
    if (*hi < *lo) return error = "--seeds: descending range '" + part + "'", std::nullopt;
    if (*hi - *lo >= 1000) return error = "--seeds: more than 1000 seeds", std::nullopt;
    for (std::int64_t s = *lo; s <= *hi; ++s) {
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
      if (out.size() > 1000) return error = "--seeds: more than 1000 seeds", std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<SweepVariant>> sweep_variants(const std::vector<std::string>& vary,
                                                        const std::vector<std::string>& ablate,
                                                        std::string& error) {
  std::vector<std::vector<std::string>> axes;  // per --vary: "key=value" for each value
  for (const auto& v : vary) {
    std::size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
      return error = "--vary '" + v + "': expected key=a,b,...", std::nullopt;
    std::vector<std::string> axis;
    for (const auto& value : sweep_split_commas(std::string_view(v).substr(eq + 1))) {
      if (value.empty()) return error = "--vary '" + v + "': an empty value", std::nullopt;
      axis.push_back(v.substr(0, eq) + "=" + value);
    }
    axes.push_back(std::move(axis));
  }
  std::vector<std::vector<std::string>> grid{{}};
  for (const auto& axis : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& cell : grid)
      for (const auto& kv : axis) {
        next.push_back(cell);
        next.back().push_back(kv);
      }
    grid = std::move(next);
    if (grid.size() > 1000) return error = "--vary: more than 1000 variants", std::nullopt;
  }
  for (const auto& a : ablate) {
    std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
      return error = "--ablate '" + a + "': expected key=value", std::nullopt;
    grid.push_back(grid.front());
    grid.back().push_back(a);
  }
  std::vector<SweepVariant> out;
  for (std::size_t i = 0; i < grid.size(); ++i) out.push_back({"v" + std::to_string(i), grid[i]});
  return out;
}

std::optional<std::vector<SweepVariant>> sweep_plan_variants(const json& plan, std::string& error) {
  std::vector<SweepVariant> out;
  if (!plan.is_object() || !plan.contains("variants") || !plan["variants"].is_array() || plan["variants"].empty())
    return error = "sweep: the plan names no variants", std::nullopt;
  for (const auto& v : plan["variants"]) {
    if (!v.is_object() || !v.value("name", json()).is_string()) return error = "sweep.variants: expected {name, set}", std::nullopt;
    SweepVariant sv{v["name"].get<std::string>(), {}};
    for (const auto& o : v.value("set", json::array()))
      if (o.is_string()) sv.overrides.push_back(o.get<std::string>());
    out.push_back(std::move(sv));
  }
  return out;
}

BootstrapInterval paired_bootstrap(const std::vector<double>& diffs, int resamples, std::uint64_t seed) {
  BootstrapInterval b;
  b.n = static_cast<int>(diffs.size());
  if (diffs.empty() || resamples < 1) return b;
  b.mean = *sweep_mean_of(diffs);
  sim::Rng rng(seed, "bootstrap");
  std::vector<double> means(static_cast<std::size_t>(resamples));
  for (auto& m : means) {
    double s = 0;
    for (std::size_t i = 0; i < diffs.size(); ++i) s += diffs[rng.bounded(diffs.size())];
    m = s / static_cast<double>(diffs.size());
  }
  std::sort(means.begin(), means.end());
  const auto R = static_cast<double>(resamples);
  b.lo = means[static_cast<std::size_t>(std::floor(0.025 * R))];
  b.hi = means[static_cast<std::size_t>(std::max(0.0, std::ceil(0.975 * R) - 1))];
  return b;
}

CellMetrics cell_metrics(const json& report, bool cost_model_on) {
  CellMetrics m;
  if (report.contains("er") && report["er"].is_number()) {
    m.er = report["er"].get<double>();
  } else {
    const double total = report.value("tasks_total", 0);
    m.er = total > 0 ? report.value("tasks_solved", 0) / total : 0.0;
  }
  if (report.contains("rounds_to_first_correct") && report["rounds_to_first_correct"].is_number())
    m.rounds_to_first_correct = report["rounds_to_first_correct"].get<double>();
  if (report.contains("episodes") && report["episodes"].is_array()) {
    // Per task: the rounds of its episodes up to and including the first correct round.
    std::map<std::string, std::int64_t> spent, first;
    for (const auto& e : report["episodes"]) {
      const std::string task = e.value("task", "");
      if (first.count(task)) continue;
      if (e.value("solved", false)) {
        first[task] = spent[task] + e.value("first_correct_round", 0) + 1;
      } else {
        spent[task] += e.value("rounds", 0);
      }
    }
    std::vector<double> v;
    for (const auto& [t, n] : first) v.push_back(static_cast<double>(n));
    m.samples_to_first_correct = sweep_mean_of(v);
  }
  if (cost_model_on) {
    auto num = [&](const char* k) -> std::optional<double> {
      auto it = report.find(k);
      return it != report.end() && it->is_number() ? std::optional(it->get<double>()) : std::nullopt;
    };
    m.fast_1 = num("fast_1");
    m.median_speedup = num("median_speedup");
    m.auc = num("auc");
    m.fast_1_5 = num("fast_1_5");
  }
  return m;
}

json sweep_report_json(const std::vector<SweepVariant>& variants, const std::vector<std::int64_t>& seeds,
                       const std::vector<std::map<std::int64_t, CellMetrics>>& cells, std::size_t reference) {
  if (reference >= variants.size()) reference = 0;
  json out = {{"seeds", seeds},
              {"reference", variants.empty() ? "" : variants[reference].name},
              {"bootstrap", {{"resamples", kBootstrapResamples}, {"seed", kBootstrapSeed}, {"level", 0.95}}}};
  json vs = json::array();
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const auto& mine = v < cells.size() ? cells[v] : std::map<std::int64_t, CellMetrics>{};
    json row = {{"name", variants[v].name}, {"overrides", variants[v].overrides}, {"seeds_done", mine.size()}};
    for (const auto& def : kSweepMetrics) {
      std::vector<double> vals;
      for (const auto& [s, m] : mine)
        if (auto x = def.get(m)) vals.push_back(*x);
      auto mean = sweep_mean_of(vals);
      row[def.name] = mean ? json(*mean) : json(nullptr);
      if (v == reference || reference >= cells.size()) continue;
      std::vector<double> diffs;  // paired: seeds where both have the metric
      for (const auto& [s, m] : mine) {
        auto it = cells[reference].find(s);
        if (it == cells[reference].end()) continue;
        auto a = def.get(m), b = def.get(it->second);
        if (a && b) diffs.push_back(*a - *b);
      }
      if (diffs.empty()) continue;
      BootstrapInterval bi = paired_bootstrap(diffs);
      row["vs_reference"][def.name] = {{"mean_diff", bi.mean}, {"lo", bi.lo}, {"hi", bi.hi}, {"n", bi.n}};
    }
    vs.push_back(std::move(row));
  }
  out["variants"] = std::move(vs);
  json missing = json::array();  // cells not finished (yet): named, and out of every mean and interval
  for (std::int64_t seed : seeds)
    for (std::size_t v = 0; v < variants.size(); ++v)
      if (v >= cells.size() || !cells[v].count(seed)) missing.push_back({{"variant", variants[v].name}, {"seed", seed}});
  if (!missing.empty()) out["missing"] = std::move(missing);
  return out;
}

std::string sweep_report_markdown(const json& report) {
  auto num = [](const json& j, int prec) {
    if (!j.is_number()) return std::string("–");
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, j.get<double>());
    return std::string(b);
  };
  auto diff = [&](const json& row, const char* key) {
    if (!row.contains("vs_reference") || !row["vs_reference"].contains(key)) return std::string("–");
    const json& d = row["vs_reference"][key];
    char b[128];
    std::snprintf(b, sizeof b, "%+.3f [%+.3f, %+.3f]", d["mean_diff"].get<double>(), d["lo"].get<double>(),
                  d["hi"].get<double>());
    return std::string(b);
  };
  std::string s =
      "| variant | overrides | seeds | ER | ΔER vs " + report.value("reference", std::string("v0")) +
      " (95% CI) | rounds to first correct | samples to first correct | Fast_1.0 |\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : report["variants"]) {
    std::string ov;
    for (const auto& o : row["overrides"]) ov += (ov.empty() ? "" : ", ") + o.get<std::string>();
    s += "| " + row["name"].get<std::string>() + " | " + (!ov.empty() ? "`" + ov + "`" : row["name"] == report["reference"] ? std::string("(reference)") : std::string("(the base config)")) + " | " +
         std::to_string(row["seeds_done"].get<int>()) + " | " + num(row["er"], 3) + " | " + diff(row, "er") +
         " | " + num(row["rounds_to_first_correct"], 2) + " | " + num(row["samples_to_first_correct"], 2) +
         " | " + num(row["fast_1"], 3) + " |\n";
  }
  bool speed = false;  // performance sweeps: a second table with the speed metrics
  for (const auto& row : report["variants"]) speed = speed || row.value("median_speedup", json()).is_number();
  if (speed) {
    s += "\n| variant | median speedup | Δ (95% CI) | AUC | Δ (95% CI) | Fast_1.5 | Δ (95% CI) |\n"
         "|---|---|---|---|---|---|---|\n";
    for (const auto& row : report["variants"])
      s += "| " + row["name"].get<std::string>() + " | " + num(row.value("median_speedup", json()), 3) + " | " +
           diff(row, "median_speedup") + " | " + num(row.value("auc", json()), 3) + " | " + diff(row, "auc") + " | " +
           num(row.value("fast_1_5", json()), 3) + " | " + diff(row, "fast_1_5") + " |\n";
  }
  if (report.contains("missing")) s += "\n" + sweep_missing_text(report) + "\n";
  return s;
}

std::string sweep_missing_text(const json& report) {
  if (!report.contains("missing") || !report["missing"].is_array() || report["missing"].empty()) return "";
  std::string s = "missing (not finished, left out; intervals over complete pairs only):";
  for (const auto& m : report["missing"])
    s += " " + m.value("variant", std::string()) + " seed " + std::to_string(m.value("seed", std::int64_t{0})) + ",";
  s.pop_back();
  return s;
}

std::optional<SweepFolder> read_sweep_folder(const std::filesystem::path& dir, std::string& error) {
  const auto file = dir / "sweep.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) return error = file.string() + ": not a sweep folder", std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  auto corrupted = [&] { return error = file.string() + ": corrupted (expected format stepforge-sweep)", std::nullopt; };
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != "stepforge-sweep" || !j.contains("config") ||
      !j["seeds"].is_array() || !j["variants"].is_array())
    return corrupted();
  SweepFolder f;
  for (const auto& s : j["seeds"]) {
    if (!s.is_number_integer()) return corrupted();
    f.seeds.push_back(s.get<std::int64_t>());
  }
  for (const auto& v : j["variants"]) {
    if (!v.is_object() || !v.value("name", nlohmann::json()).is_string()) return corrupted();
    SweepVariant sv;
    sv.name = v["name"].get<std::string>();
    if (sv.name.empty() || sv.name.find('/') != std::string::npos || sv.name.find("..") != std::string::npos)
      return corrupted();  // a variant name is a folder under cells/
    if (auto o = v.find("overrides"); o != v.end()) {
      if (!o->is_array()) return corrupted();
      for (const auto& x : *o) {
        if (!x.is_string()) return corrupted();
        sv.overrides.push_back(x.get<std::string>());
      }
    }
    f.variants.push_back(std::move(sv));
  }
  f.json = std::move(j);
  return f;
}

std::filesystem::path sweep_cell_dir(const std::filesystem::path& root, const std::string& variant,
                                     std::int64_t seed) {
  return root / "cells" / variant / ("seed-" + std::to_string(seed));
}

}  // namespace sf::learn
