// `campaign sweep --scheduler slurm` and its watch/recover commands (issue 35, docs/cluster.md):
// `campaign sweep status|wait|resubmit|cancel DIR` and `campaign sweep-cell DIR INDEX` (one array task).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/learn/config.hpp"
#include "core/learn/sweep.hpp"
#include "core/learn/sweep_slurm.hpp"
#include "core/store/workspace.hpp"

namespace sf::cli {

struct SlurmSubmitOpts {
  std::vector<std::string> sbatch_args;
  int max_parallel = 0;
  int max_attempts = learn::kDefaultMaxAttempts;
};

// cmd_campaign.cpp: runs (or continues) a workspace's campaign; `error_out` gets the one-line cause of a
// non-zero result; a set `stop` cancels the engine (the sample in flight is not logged; resume re-asks it).
int execute(store::Workspace& ws, bool quiet, bool print_result = true, std::string* error_out = nullptr,
            const std::atomic<bool>* stop = nullptr);
// cmd_campaign.cpp: the config of one cell (base + the variant's overrides, seed = the cell's seed).
std::optional<learn::CampaignConfig> cell_config(const nlohmann::json& base, const learn::SweepVariant& v,
                                                 std::int64_t seed, std::string& err);

// False after printing the cause and the fix when sbatch is not on PATH.
bool slurm_client_available();
// Creates every cell's workspace that is missing, writes DIR/slurm/sweep.sbatch and submits the cells that
// are not finished (nor queued) as one job array. The sweep folder (sweep.json) must exist.
int prepare_and_submit_slurm(const std::filesystem::path& root, const nlohmann::json& base,
                             const std::vector<learn::SweepVariant>& variants, const std::vector<std::int64_t>& seeds,
                             const SlurmSubmitOpts& o);
// Adds status / wait / resubmit / cancel under `campaign sweep` and `sweep-cell` under `campaign`.
void add_sweep_cluster_commands(CLI::App& campaign, CLI::App& sweep, int& exit_code);

}  // namespace sf::cli
