// Submitting, resubmitting and cancelling a sweep's Slurm jobs (the CLI's `campaign sweep --scheduler slurm`,
// `resubmit`, `cancel` and the GUI's sweep window's buttons).
#include <map>

#include "core/common/subprocess.hpp"
#include "core/learn/sweep_slurm.hpp"

namespace sf::learn {

namespace fs = std::filesystem;

namespace {

bool live(CellState s) { return s == CellState::Pending || s == CellState::Running; }

std::vector<std::string> ids_of(const SlurmJobs& j) {
  std::vector<std::string> ids;
  for (const auto& s : j.submissions) ids.push_back(s.job_id);
  return ids;
}

}  // namespace

std::string sweep_status_summary(const std::vector<CellStatus>& cells) {
  std::map<std::string, int> n;
  for (const auto& c : cells) ++n[cell_state_name(c.state)];
  std::string s = std::to_string(cells.size()) + " cells:";
  for (const char* k : {"finished", "running", "pending", "failed", "cancelled", "not_submitted"})
    if (n.count(k)) s += " " + std::to_string(n[k]) + " " + k;
  return s;
}

std::string slurm_client_missing() {
  if (find_on_path("sbatch")) return "";
  return "sbatch is not on PATH, so the sweep cannot go to Slurm\n"
         "fix: run this on the cluster's login node (or a machine with Slurm's client commands: Debian "
         "slurm-client), or load its module (e.g. `module load slurm`), or run the sweep here with --scheduler local";
}

SlurmAction slurm_submit_cells(const fs::path& root, const SweepFolder& f, SlurmJobs& jobs,
                               const std::vector<int>& indices) {
  SlurmAction a;
  const fs::path script = slurm_dir(root) / "sweep.sbatch";
  const std::string spec = array_spec(indices, jobs.max_parallel);
  auto r = run_process({"sbatch", "--parsable", "--array=" + spec, script.string()}, 120);
  if (!r.started) {
    a.code = 2;
    a.err = "cannot run sbatch: " + r.error +
            "\nfix: install Slurm's client commands (Debian: slurm-client) or run this on the cluster's login node";
    return a;
  }
  if (!r.ok()) {
    a.code = 1;
    a.err = "sbatch refused " + script.string() +
            (r.timed_out ? " (no answer within 120 s)" : " (exit " + std::to_string(r.exit_code) + ")") + ":\n" +
            r.err + (r.err.empty() || r.err.back() == '\n' ? "" : "\n") +
            "fix: act on sbatch's message above: correct the --sbatch-arg options (partition, account, time, "
            "memory: see `sinfo` and your site's rules) or the Slurm client setup (SLURM_CONF), then rerun the "
            "same command; nothing was submitted";
    return a;
  }
  const std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    a.code = 1;
    a.err = "sbatch --parsable printed '" + r.out + "', not a job id; check with squeue, scancel any job it made, "
            "then rerun";
    return a;
  }
  SlurmJobs next = jobs;
  next.submissions.push_back({id, indices});
  for (int i : indices) next.cell_job[i] = id;
  std::string err;
  if (!write_slurm_jobs(root, next, err)) {
    a.code = 1;
    a.err = "submitted job " + id + " but cannot record it: " + err + "\nfix: scancel " + id + ", make " +
            root.string() + " writable, then rerun";
    return a;
  }
  jobs = std::move(next);
  a.out = "submitted job " + id + ": array " + spec + " (" + std::to_string(indices.size()) + " cells)\n";
  const auto cells = sweep_cells(f);
  for (int i : indices)
    if (i >= 0 && i < static_cast<int>(cells.size()))
      a.out += "  " + id + "_" + std::to_string(i) + "  " + cells[static_cast<std::size_t>(i)].variant + " seed " +
               std::to_string(cells[static_cast<std::size_t>(i)].seed) + "\n";
  a.out += "watch: stepforge-cli campaign sweep status " + root.string() + "\n";
  return a;
}

SlurmAction slurm_resubmit(const fs::path& root, const SweepFolder& f, SlurmJobs& jobs, bool retry_failed) {
  SlurmAction a;
  SlurmView view = query_slurm(ids_of(jobs));
  if (!view.error.empty()) {  // without the scheduler's word a queued cell could be submitted twice
    a.code = 1;
    a.err = view.error + "\nfix: make squeue work here (SLURM_CONF, munge), then resubmit";
    return a;
  }
  const auto status = sweep_status(root, f, &jobs, &view);
  std::vector<int> todo;
  std::string notes;
  for (const auto& c : status) {
    if (c.state == CellState::Finished || live(c.state)) continue;
    if (c.attempts >= jobs.max_attempts) {
      if (!retry_failed) {
        notes += "note: " + c.cell.variant + " seed " + std::to_string(c.cell.seed) + " failed " +
                 std::to_string(c.attempts) +
                 " times and is not resubmitted (its last_error is in `campaign sweep status`; after fixing the "
                 "cause: campaign sweep resubmit --retry-failed)\n";
        continue;
      }
      auto rec = read_cell_record(root, c.cell.index).value_or(CellRecord{});
      rec.attempts = 0;
      std::string err;
      if (!write_cell_record(root, c.cell.index, rec, err)) return a.code = 1, a.err = err, a;
    }
    todo.push_back(c.cell.index);
  }
  if (todo.empty()) {
    a.out = "nothing to submit: " + sweep_status_summary(status) + "\n";
    a.err = notes;
    a.code = notes.empty() ? 0 : 1;
    return a;
  }
  a = slurm_submit_cells(root, f, jobs, todo);
  a.err = notes + a.err;
  return a;
}

SlurmAction slurm_cancel(const fs::path& root, const SlurmJobs& jobs) {
  SlurmAction a;
  if (jobs.submissions.empty()) return a.out = "nothing to cancel: " + root.string() + " has no Slurm jobs\n", a;
  std::vector<std::string> argv = {"scancel"};
  for (const auto& id : ids_of(jobs)) argv.push_back(id);
  auto r = run_process(argv, 60);
  if (!r.started) {
    a.code = 2;
    a.err = "cannot run scancel: " + r.error +
            "\nfix: run this on a machine with Slurm's client commands (the cluster's login node)";
    return a;
  }
  std::string ids;
  for (std::size_t i = 1; i < argv.size(); ++i) ids += " " + argv[i];
  if (!r.ok() && r.err.find("already completed") == std::string::npos &&
      r.err.find("Invalid job id") == std::string::npos) {
    a.code = 1;
    a.err = "scancel" + ids + " failed:\n" + r.err;
    return a;
  }
  a.out = "cancelled jobs" + ids + " (finished cells keep their results; continue with: stepforge-cli campaign "
          "sweep resubmit " + root.string() + ")\n";
  return a;
}

}  // namespace sf::learn
