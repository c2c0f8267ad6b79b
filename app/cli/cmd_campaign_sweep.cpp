// Campaign sweeps on Slurm (issue 35; docs/cluster.md): submit one job array, watch it (status, wait),
// recover (resubmit, cancel) and run one cell per array task (sweep-cell). Slurm does the scheduling: this
// file writes the script, calls its client commands and reads the cells' workspaces.
#include "app/cli/cmd_campaign_sweep.hpp"

#include <sys/vfs.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/cli/cli_util.hpp"
#include "core/common/subprocess.hpp"
#include "core/learn/engine_setup.hpp"
#include "core/store/event_log.hpp"

namespace sf::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string host_name() {
  char h[256] = {};
  if (::gethostname(h, sizeof h - 1) != 0) return "?";
  return h;
}

fs::path absolute_dir(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p) : a;
}

struct Loaded {
  fs::path root;
  learn::SweepFolder folder;
  std::optional<learn::SlurmJobs> jobs;
};

std::optional<Loaded> load(const std::string& dir) {
  std::string err;
  Loaded l;
  l.root = absolute_dir(dir);
  auto f = learn::read_sweep_folder(l.root, err);
  if (!f) {
    std::cerr << "error: " << err << " (create one with: stepforge-cli campaign sweep CONFIG --seeds ... --out DIR)\n";
    return std::nullopt;
  }
  l.folder = std::move(*f);
  l.jobs = learn::read_slurm_jobs(l.root, err);
  if (!l.jobs && !err.empty()) {
    std::cerr << "error: " << err << "\n";
    return std::nullopt;
  }
  return l;
}

std::vector<std::string> job_ids(const learn::SlurmJobs& j) {
  std::vector<std::string> ids;
  for (const auto& s : j.submissions) ids.push_back(s.job_id);
  return ids;
}

std::vector<learn::CellStatus> current_status(const Loaded& l, bool quiet = false) {
  std::optional<learn::SlurmView> view;
  if (l.jobs && !l.jobs->submissions.empty()) {
    view = learn::query_slurm(job_ids(*l.jobs));
    if (!view->error.empty() && !quiet)
      std::cerr << "note: " << view->error << "; the states below come from the cells' own records\n";
  }
  return learn::sweep_status(l.root, l.folder, l.jobs ? &*l.jobs : nullptr, view ? &*view : nullptr);
}

std::string summary(const std::vector<learn::CellStatus>& cells) { return learn::sweep_status_summary(cells); }

bool live(learn::CellState s) { return s == learn::CellState::Pending || s == learn::CellState::Running; }

int print_action(const learn::SlurmAction& a) {
  std::cout << a.out;
  if (!a.err.empty()) std::cerr << (a.code == 0 || a.err.rfind("note:", 0) == 0 ? "" : "error: ") << a.err
                                << (a.err.back() == '\n' ? "" : "\n");
  return a.code;
}

int cmd_status(const std::string& dir, bool as_json) {
  auto l = load(dir);
  if (!l) return 2;
  auto cells = current_status(*l, as_json);
  if (as_json) {
    std::cout << learn::sweep_status_json(cells).dump(2) << "\n";
    return 0;
  }
  char line[512];
  std::snprintf(line, sizeof line, "%5s  %-8s %6s  %-13s %8s  %-14s %s\n", "cell", "variant", "seed", "state",
                "samples", "job", "last error");
  std::cout << line;
  for (const auto& c : cells) {
    std::string e = c.last_error.substr(0, c.last_error.find('\n'));
    std::snprintf(line, sizeof line, "%5d  %-8s %6lld  %-13s %8lld  %-14s %s\n", c.cell.index, c.cell.variant.c_str(),
                  static_cast<long long>(c.cell.seed), learn::cell_state_name(c.state),
                  static_cast<long long>(c.samples_done), c.job_id.empty() ? "-" : c.job_id.c_str(),
                  e.substr(0, 200).c_str());
    std::cout << line;
  }
  std::cout << summary(cells) << "\n";
  return 0;
}

int cmd_wait(const std::string& dir, double timeout_s, double interval_s) {
  auto l = load(dir);
  if (!l) return 2;
  const auto t0 = std::chrono::steady_clock::now();
  std::string last;
  while (true) {
    auto cells = current_status(*l);
    const std::string s = summary(cells);
    if (s != last) std::cerr << s << "\n";
    last = s;
    bool any_live = false, all_finished = true;
    for (const auto& c : cells) {
      any_live = any_live || live(c.state);
      all_finished = all_finished && c.state == learn::CellState::Finished;
    }
    if (!any_live) {
      if (!all_finished)
        std::cerr << "not every cell finished: see `stepforge-cli campaign sweep status " << l->root.string()
                  << "`; recover with `campaign sweep resubmit " << l->root.string() << "`\n";
      return all_finished ? 0 : 1;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (timeout_s > 0 && elapsed >= timeout_s) {
      std::cerr << "timed out after " << fmt(timeout_s, 0) << " s; cells still queued or running (the jobs go on)\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(
        timeout_s > 0 ? std::min(interval_s, std::max(0.05, timeout_s - elapsed)) : interval_s));
  }
}

int cmd_resubmit(const std::string& dir, bool retry_failed) {
  if (!slurm_client_available()) return 2;
  auto l = load(dir);
  if (!l) return 2;
  if (!l->jobs) {
    std::cerr << "error: " << l->root.string() << " was never submitted to Slurm (no slurm/jobs.json); submit it with "
              << "campaign sweep CONFIG ... --out " << l->root.string() << " --scheduler slurm\n";
    return 2;
  }
  if (!fs::exists(learn::slurm_dir(l->root) / "sweep.sbatch")) {
    std::cerr << "error: " << (learn::slurm_dir(l->root) / "sweep.sbatch").string()
              << " is missing; rerun the campaign sweep command with --scheduler slurm to write it again\n";
    return 2;
  }
  return print_action(learn::slurm_resubmit(l->root, l->folder, *l->jobs, retry_failed));
}

int cmd_cancel(const std::string& dir) {
  auto l = load(dir);
  if (!l) return 2;
  return print_action(learn::slurm_cancel(l->root, l->jobs.value_or(learn::SlurmJobs{})));
}

std::atomic<bool> g_stop{false};
void on_term(int) { g_stop.store(true); }

// One array task: the cell's own record (attempts), then the campaign, resumed when it has events.
int cmd_sweep_cell(const std::string& dir, int index) {
  const fs::path root = absolute_dir(dir);
  std::string err;
  auto f = learn::read_sweep_folder(root, err);
  if (!f) {
    std::cerr << "error: on host " << host_name() << ": " << err
              << "\nfix: the sweep folder must be on a filesystem that the compute nodes share with the machine that "
                 "submitted it (docs/cluster.md); move it there and resubmit\n";
    return 2;
  }
  auto cells = learn::sweep_cells(*f);
  if (index < 0 || index >= static_cast<int>(cells.size())) {
    std::cerr << "error: cell " << index << " does not exist (the sweep has " << cells.size() << " cells: 0-"
              << cells.size() - 1 << ")\n";
    return 2;
  }
  const auto& cell = cells[static_cast<std::size_t>(index)];
  auto jobs = learn::read_slurm_jobs(root, err);
  const int max_attempts = jobs ? jobs->max_attempts : learn::kDefaultMaxAttempts;
  auto rec = learn::read_cell_record(root, index).value_or(learn::CellRecord{});
  const char* aj = std::getenv("SLURM_ARRAY_JOB_ID");
  rec.job_id = aj ? std::string(aj) + "_" + std::to_string(index) : std::string();
  rec.host = host_name();
  if (rec.attempts >= max_attempts) {
    const std::string tail = learn::cell_log_tail(root, index, 5);
    rec.state = "failed";
    rec.last_error = "gave up after " + std::to_string(rec.attempts) + " attempts; the log ends with:\n" + tail;
    learn::write_cell_record(root, index, rec, err);
    std::cerr << "error: cell " << index << " (" << cell.variant << " seed " << cell.seed << ") already failed "
              << rec.attempts << " times; fix the cause (see " << learn::cell_log_path(root, index).string()
              << "), then: stepforge-cli campaign sweep resubmit --retry-failed " << root.string() << "\n";
    return 1;
  }
  ++rec.attempts;
  rec.state = "running";
  rec.last_error.clear();
  if (!learn::write_cell_record(root, index, rec, err)) {
    std::cerr << "error: on host " << host_name() << ": " << err
              << "\nfix: the sweep folder must be writable from the compute nodes (a shared filesystem, "
                 "docs/cluster.md)\n";
    return 2;
  }
  std::cout << "stepforge sweep cell " << index << ": " << cell.variant << " seed " << cell.seed << " on "
            << rec.host << " (attempt " << rec.attempts << " of " << max_attempts << ")" << std::endl;
  auto finish = [&](const std::string& state, const std::string& error) {
    rec.state = state;
    rec.last_error = error;
    if (state == "cancelled") rec.attempts = std::max(0, rec.attempts - 1);  // a cancel or preemption is no failure
    std::string e;
    if (!learn::write_cell_record(root, index, rec, e)) std::cerr << "error: " << e << "\n";
  };
  const auto& variant = *std::find_if(f->variants.begin(), f->variants.end(),
                                      [&](const learn::SweepVariant& v) { return v.name == cell.variant; });
  auto cfg = cell_config(f->json["config"], variant, cell.seed, err);
  if (!cfg) {
    std::cerr << "error: " << err << "\n";
    finish("failed", err);
    return 2;
  }
  const fs::path cdir = learn::sweep_cell_dir(root, cell.variant, cell.seed);
  std::unique_ptr<store::Workspace> ws;
  std::error_code ec;
  if (fs::exists(cdir / "campaign.json", ec)) {
    ws = store::Workspace::open(cdir, err);
    if (ws && ws->config() != learn::config_to_json(*cfg))
      err = cdir.string() + ": its campaign.json is not this cell's config", ws.reset();
  } else {
    fs::create_directories(cdir.parent_path(), ec);
    ws = store::Workspace::create(cdir, learn::config_to_json(*cfg), err);
  }
  if (!ws) {
    std::cerr << "error: " << err << "\n";
    finish("failed", err);
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  std::string run_error;
  int rc = execute(*ws, true, false, &run_error, &g_stop);
  if (rc == 0) finish("finished", "");
  else if (g_stop.load()) finish("cancelled", "cancelled (scancel or preemption); resubmit resumes it");
  else finish("failed", run_error);
  std::cout << "stepforge sweep cell " << index << ": " << (rc == 0 ? "finished" : rec.state) << std::endl;
  return rc;
}

}  // namespace

bool slurm_client_available() {
  const std::string missing = learn::slurm_client_missing();
  if (!missing.empty()) std::cerr << "error: " << missing << "\n";
  return missing.empty();
}

int prepare_and_submit_slurm(const fs::path& out, const json& base, const std::vector<learn::SweepVariant>& variants,
                             const std::vector<std::int64_t>& seeds, const SlurmSubmitOpts& o) {
  std::string err;
  auto l = load(out.string());
  if (!l) return 2;
  // Every cell's workspace exists before any job starts (a rerun reopens the existing ones).
  for (const auto& cell : learn::sweep_cells(l->folder)) {
    const auto& v = variants[static_cast<std::size_t>(cell.index) % variants.size()];
    auto cfg = cell_config(base, v, cell.seed, err);
    if (!cfg) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
    const fs::path dir = learn::sweep_cell_dir(l->root, v.name, cell.seed);
    json have;
    if (fs::exists(dir / "campaign.json")) {
      if (!store::Workspace::read_config(dir, have, err)) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
      if (have != learn::config_to_json(*cfg)) {
        std::cerr << "error: " << dir.string() << ": its campaign.json is not this cell's config\n";
        return 2;
      }
      continue;
    }
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    if (!store::Workspace::create(dir, learn::config_to_json(*cfg), err)) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
  }
  (void)seeds;
  std::error_code ec;
  fs::create_directories(learn::slurm_dir(l->root) / "logs", ec);
  if (ec || !store::write_file_atomic(learn::slurm_dir(l->root) / "logs" / ".probe", "ok\n", err)) {
    std::cerr << "error: cannot write under " << learn::slurm_dir(l->root).string() << ": "
              << (ec ? ec.message() : err) << "\nfix: choose an --out folder you can write on the shared filesystem\n";
    return 2;
  }
  fs::remove(learn::slurm_dir(l->root) / "logs" / ".probe", ec);
  struct statfs sfs {};
  if (::statfs(l->root.c_str(), &sfs) == 0 && sfs.f_type == 0x01021994 /* TMPFS_MAGIC */)
    std::cerr << "note: " << l->root.string() << " is on tmpfs (memory of this machine): jobs on other nodes cannot "
              << "see it; use a folder on the cluster's shared filesystem unless the cluster is this one machine\n";
  learn::SlurmJobs jobs = l->jobs.value_or(learn::SlurmJobs{});
  jobs.sbatch_args = o.sbatch_args;
  jobs.max_parallel = o.max_parallel;
  jobs.max_attempts = o.max_attempts;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "error: cannot find this program's path (/proc/self/exe): " << ec.message() << "\n";
    return 1;
  }
  auto script = learn::sbatch_script(l->root, exe, static_cast<int>(l->folder.seeds.size() * variants.size()),
                                     jobs.max_parallel, jobs.sbatch_args, err);
  if (!script) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  if (!store::write_file_atomic(learn::slurm_dir(l->root) / "sweep.sbatch", *script, err)) {
    std::cerr << "error: " << err << "\n";
    return 1;
  }
  fs::permissions(learn::slurm_dir(l->root) / "sweep.sbatch", fs::perms::owner_exec | fs::perms::group_exec,
                  fs::perm_options::add, ec);
  // Submitting settings change only with a new submission; record them with it.
  l->jobs = jobs;
  return print_action(learn::slurm_resubmit(l->root, l->folder, *l->jobs, false));
}

void add_sweep_cluster_commands(CLI::App& campaign, CLI::App& sweep, int& exit_code) {
  auto dir = std::make_shared<std::string>();
  auto js = std::make_shared<bool>(false);
  auto* st = sweep.add_subcommand("status", "one row per cell: state (pending, running, finished, failed, cancelled, "
                                            "not_submitted), samples done, job id, last error");
  st->add_option("dir", *dir, "sweep folder")->required();
  st->add_flag("--json", *js, R"(as {"cells": [{variant, seed, state, samples_done, job_id, last_error}]})");
  st->callback([dir, js, &exit_code] { exit_code = guarded([&] { return cmd_status(*dir, *js); }); });

  auto wdir = std::make_shared<std::string>();
  auto timeout = std::make_shared<double>(0), interval = std::make_shared<double>(10);
  auto* wt = sweep.add_subcommand("wait", "block until every cell has ended; exit 0 only if all finished");
  wt->add_option("dir", *wdir, "sweep folder")->required();
  wt->add_option("--timeout", *timeout, "give up after S seconds (exit 1; the jobs go on); 0: no limit")
      ->check(CLI::NonNegativeNumber);
  wt->add_option("--interval", *interval, "seconds between two looks at the cells and Slurm")
      ->check(CLI::Range(0.2, 3600.0))
      ->capture_default_str();
  wt->callback([wdir, timeout, interval, &exit_code] {
    exit_code = guarded([&] { return cmd_wait(*wdir, *timeout, *interval); });
  });

  auto rdir = std::make_shared<std::string>();
  auto retry = std::make_shared<bool>(false);
  auto* rs = sweep.add_subcommand("resubmit", "submit again only the cells that are not finished (nor queued)");
  rs->add_option("dir", *rdir, "sweep folder")->required();
  rs->add_flag("--retry-failed", *retry, "also the cells that reached --max-attempts (their count starts again)");
  rs->callback([rdir, retry, &exit_code] { exit_code = guarded([&] { return cmd_resubmit(*rdir, *retry); }); });

  auto cdir = std::make_shared<std::string>();
  auto* cn = sweep.add_subcommand("cancel", "scancel the sweep's Slurm jobs (finished cells keep their results)");
  cn->add_option("dir", *cdir, "sweep folder")->required();
  cn->callback([cdir, &exit_code] { exit_code = guarded([&] { return cmd_cancel(*cdir); }); });

  auto sdir = std::make_shared<std::string>();
  auto idx = std::make_shared<int>(0);
  auto* sc = campaign.add_subcommand("sweep-cell", "run one cell of a sweep (what each Slurm array task runs; a cell "
                                                   "with events resumes)");
  sc->add_option("dir", *sdir, "sweep folder")->required();
  sc->add_option("index", *idx, "the cell's index (its array index)")->required()->check(CLI::NonNegativeNumber);
  sc->callback([sdir, idx, &exit_code] { exit_code = guarded([&] { return cmd_sweep_cell(*sdir, *idx); }); });
}

}  // namespace sf::cli
