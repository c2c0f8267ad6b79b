// Campaign sweeps on a Slurm cluster (issue 35): one job array with one array task per cell, its records in
// the sweep folder, and each cell's state read from the cell's own workspace first and from Slurm
// (squeue, then scontrol) second. Slurm is the scheduler: this file only writes the job script, calls
// sbatch / squeue / scontrol / scancel and reads what they say.
//
// Files under the sweep folder DIR (all written atomically; no secret is ever written):
//   DIR/slurm/sweep.sbatch     the job array script (readable; `sbatch --array=LIST DIR/slurm/sweep.sbatch`
//                              resubmits cells by hand)
//   DIR/slurm/jobs.json        {format "stepforge-sweep-slurm", version 1, max_parallel, max_attempts,
//                              sbatch_args, submissions [{job_id, indices}], cells {"<index>": job_id}}
//   DIR/slurm/cells/<i>.json   written by the array task of cell i: {attempts, state running|finished|failed|
//                              cancelled, job_id, host, last_error}
//   DIR/slurm/logs/cell-<i>.out  the array task's stdout + stderr (Slurm appends every attempt)
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/learn/sweep.hpp"

namespace sf::learn {

// The cells of a sweep in run order (seeds outermost, variants inside, as the local sweep runs them); a
// cell's index is its Slurm array index.
struct SweepCell {
  int index = 0;
  std::string variant;
  std::int64_t seed = 0;
};
std::vector<SweepCell> sweep_cells(const SweepFolder& f);

enum class CellState { NotSubmitted, Pending, Running, Finished, Failed, Cancelled };
const char* cell_state_name(CellState s);  // "not_submitted", "pending", ...

inline constexpr int kDefaultMaxAttempts = 3;

struct SlurmSubmission {
  std::string job_id;
  std::vector<int> indices;
};
struct SlurmJobs {
  int max_parallel = 0;  // 0: no throttle
  int max_attempts = kDefaultMaxAttempts;
  std::vector<std::string> sbatch_args;
  std::vector<SlurmSubmission> submissions;  // oldest first
  std::map<int, std::string> cell_job;       // cell index → the job id of its latest submission
};
std::filesystem::path slurm_dir(const std::filesystem::path& root);
// nullopt: absent (error empty) or unreadable/corrupted (error set).
std::optional<SlurmJobs> read_slurm_jobs(const std::filesystem::path& root, std::string& error);
bool write_slurm_jobs(const std::filesystem::path& root, const SlurmJobs& jobs, std::string& error);

struct CellRecord {
  int attempts = 0;
  std::string state;  // running | finished | failed | cancelled
  std::string job_id, host, last_error;
};
std::optional<CellRecord> read_cell_record(const std::filesystem::path& root, int index);
bool write_cell_record(const std::filesystem::path& root, int index, const CellRecord& r, std::string& error);
std::filesystem::path cell_log_path(const std::filesystem::path& root, int index);
// The last `lines` non-empty lines of a cell's Slurm log (at most 64 KiB read), joined by '\n'.
std::string cell_log_tail(const std::filesystem::path& root, int index, int lines = 5);

// "0-3", "1,3,5-7", with "%N" appended when max_parallel > 0.
std::string array_spec(const std::vector<int>& indices, int max_parallel);
// The job array script. `root` and `exe` must be absolute. Arguments are checked: an --sbatch-arg must start
// with '-' and hold no newline. Returns nullopt with `error` otherwise.
std::optional<std::string> sbatch_script(const std::filesystem::path& root, const std::filesystem::path& exe,
                                         int cells, int max_parallel, const std::vector<std::string>& sbatch_args,
                                         std::string& error);

// What Slurm says about the array tasks of some jobs: "JOB_INDEX" → Slurm state word (PENDING, RUNNING,
// COMPLETED, CANCELLED, FAILED, TIMEOUT, ...). squeue first (live tasks, pending ones expanded), scontrol for
// the rest (recently ended ones). `error` is set when squeue itself could not be asked.
struct SlurmView {
  std::map<std::string, std::string> tasks;
  std::string error;
};
SlurmView query_slurm(const std::vector<std::string>& job_ids);
// Parsers of the two commands' outputs (exposed for tests).
void parse_squeue(const std::string& out, std::map<std::string, std::string>& tasks);
void parse_scontrol(const std::string& out, std::map<std::string, std::string>& tasks);

struct CellStatus {
  SweepCell cell;
  CellState state = CellState::NotSubmitted;
  std::int64_t samples_done = 0;
  std::string job_id;  // "JOB_INDEX" when submitted
  std::string last_error;
  int attempts = 0;
};
// Every cell's state: a finished workspace is finished whatever Slurm says; a submitted cell is pending or
// running as Slurm says; an ended one failed or was cancelled (Slurm's word, else the cell's own record, so
// the status survives a scheduler that forgot the job). `view` may be null (local sweep, or no query).
std::vector<CellStatus> sweep_status(const std::filesystem::path& root, const SweepFolder& f, const SlurmJobs* jobs,
                                     const SlurmView* view);
// {"cells": [{"variant", "seed", "state", "samples_done", "job_id", "last_error"}]}
nlohmann::json sweep_status_json(const std::vector<CellStatus>& cells);

}  // namespace sf::learn

namespace sf::learn {

// "4 cells: 2 finished 1 running 1 pending"
std::string sweep_status_summary(const std::vector<CellStatus>& cells);

// The actions the CLI and the GUI share (sweep_slurm_submit.cpp). `out` is what to show on success, `err` the
// cause and the fix; code 0 done, 1 failed (nothing half-recorded: a rerun repairs it), 2 usage.
struct SlurmAction {
  int code = 0;
  std::string out, err;
};
// sbatch --parsable --array=<indices>%N DIR/slurm/sweep.sbatch; records the job id for the cells.
SlurmAction slurm_submit_cells(const std::filesystem::path& root, const SweepFolder& f, SlurmJobs& jobs,
                               const std::vector<int>& indices);
// Submits the cells that are not finished nor queued (and below max_attempts unless retry_failed, which
// starts their count again).
SlurmAction slurm_resubmit(const std::filesystem::path& root, const SweepFolder& f, SlurmJobs& jobs,
                           bool retry_failed);
// scancel every job of the sweep.
SlurmAction slurm_cancel(const std::filesystem::path& root, const SlurmJobs& jobs);
// The cause and the fix when sbatch is not on PATH; empty when it is.
std::string slurm_client_missing();

}  // namespace sf::learn
