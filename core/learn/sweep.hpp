// Campaign sweeps (issue 19 item 6): a grid of config variants × campaign seeds, one workspace per cell, and
// the statistics a comparison needs (per-variant means and, against the reference variant, the mean paired
// difference with a 95% bootstrap interval over seeds). Pure functions; the CLI runs the cells.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::learn {

// "1-5", "1,3,7", "1-3,9" → the seeds in the order written (duplicates dropped). Error: empty, not a
// number, a descending range, more than 1000 seeds.
std::optional<std::vector<std::int64_t>> parse_seed_list(std::string_view text, std::string& error);

struct SweepVariant {
  std::string name;                    // "v0", "v1", ...
  std::vector<std::string> overrides;  // key=value, applied with apply_override in this order
};

// The variants: the grid of every `vary` ("key=a,b,c"; the product in the order given, the first key
// varying slowest), then one variant per `ablate` ("key=value") applied to the grid's first cell. The first
// variant (every first value, no ablation) is the reference. No vary and no ablate: one variant.
std::optional<std::vector<SweepVariant>> sweep_variants(const std::vector<std::string>& vary,
                                                        const std::vector<std::string>& ablate,
                                                        std::string& error);

// The variants of a config's `sweep` plan ({"variants": [{"name", "set": ["key=value", ...]}]}, checked by
// config_from_json), in the order given; the first is the reference.
std::optional<std::vector<SweepVariant>> sweep_plan_variants(const nlohmann::json& plan, std::string& error);

struct BootstrapInterval {
  double mean = 0.0;  // mean of the differences
  double lo = 0.0;    // 2.5th percentile of the resampled means
  double hi = 0.0;    // 97.5th percentile
  int n = 0;          // paired seeds
};
inline constexpr int kBootstrapResamples = 10000;
inline constexpr std::uint64_t kBootstrapSeed = 19;

// 95% paired bootstrap over seeds: `resamples` times draw n differences with replacement (sim::Rng(seed,
// "bootstrap")), take the mean; the interval is [m(floor(0.025 R)), m(ceil(0.975 R) − 1)] of the sorted
// means. Empty input: n = 0 and zeros.
BootstrapInterval paired_bootstrap(const std::vector<double>& diffs, int resamples = kBootstrapResamples,
                                   std::uint64_t seed = kBootstrapSeed);

// Per-cell figures from a campaign report (report_json): er (sage: `er`; other modes: tasks solved / tasks),
// rounds_to_first_correct (sage), samples_to_first_correct (mean over solved tasks of the samples spent on
// the task up to and including its first correct one: sage from the episodes, other modes null), fast_1
// (only when the campaign's objective is performance).
struct CellMetrics {
  double er = 0.0;
  std::optional<double> rounds_to_first_correct;
  std::optional<double> samples_to_first_correct;
  std::optional<double> fast_1;
  // Performance campaigns: the median speedup over tasks, the area under the best-speedup-against-proposals
  // curve (step-v2 campaigns: `auc`), Fast_1.5.
  std::optional<double> median_speedup, auc, fast_1_5;
};
CellMetrics cell_metrics(const nlohmann::json& report, bool cost_model_on);

// The sweep report: per variant the means over its finished seeds and, against the reference (variant
// `reference`, 0 = the sweep's own reference), the mean paired difference with its bootstrap interval for every
// metric both have on common seeds. cells[variant index][seed] = metrics of a finished cell.
nlohmann::json sweep_report_json(const std::vector<SweepVariant>& variants, const std::vector<std::int64_t>& seeds,
                                 const std::vector<std::map<std::int64_t, CellMetrics>>& cells,
                                 std::size_t reference = 0);
// A partly finished sweep: "missing": [{variant, seed}] names every cell without a finished campaign (absent
// when every cell finished, so a finished sweep's report is unchanged); such cells count in no mean and no
// paired difference. The same as a Markdown table (one row per variant, then the missing cells).
std::string sweep_report_markdown(const nlohmann::json& report);
// "missing (...): v1 seed 2, v2 seed 5"; empty when nothing is missing.
std::string sweep_missing_text(const nlohmann::json& report);

// A sweep folder (`campaign sweep --out DIR`): sweep.json {format "stepforge-sweep", version, config, seeds,
// variants [{name, overrides}]} and one campaign workspace per cell under cells/<variant>/seed-<s>/.
struct SweepFolder {
  nlohmann::json json;  // sweep.json as read
  std::vector<std::int64_t> seeds;
  std::vector<SweepVariant> variants;
};
// nullopt with `error` when DIR has no sweep.json ("not a sweep folder") or it is not a stepforge-sweep file.
std::optional<SweepFolder> read_sweep_folder(const std::filesystem::path& dir, std::string& error);
std::filesystem::path sweep_cell_dir(const std::filesystem::path& root, const std::string& variant,
                                     std::int64_t seed);

}  // namespace sf::learn
