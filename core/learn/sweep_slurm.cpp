#include "core/learn/sweep_slurm.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "core/common/subprocess.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/store/event_log.hpp"

namespace sf::learn {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<json> read_json_file(const fs::path& file, std::size_t max_bytes = 4 << 20) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string s(max_bytes + 1, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<std::size_t>(in.gcount()));
  if (s.size() > max_bytes) return json();  // too large: treated as corrupted
  json j = json::parse(s, nullptr, false);
  if (j.is_discarded()) return json();
  return j;
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string bounded(std::string s, std::size_t n = 2000) {
  if (s.size() > n) s = "…" + s.substr(s.size() - n);
  return s;
}

// Slurm's state word → our state (Finished is decided by the workspace, never by Slurm).
std::optional<CellState> live_state(const std::string& w) {
  static const std::set<std::string> running = {"RUNNING",  "COMPLETING", "CONFIGURING", "SUSPENDED",
                                                "STOPPED",  "SIGNALING",  "STAGE_OUT",   "RESIZING"};
  static const std::set<std::string> pending = {"PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
                                                "RESV_DEL_HOLD"};
  if (running.count(w)) return CellState::Running;
  if (pending.count(w)) return CellState::Pending;
  return std::nullopt;
}

// Expands an ArrayTaskId value ("3", "0-3%2", "1,4-5") into indices (bounded to 100000 entries).
std::vector<int> expand_indices(const std::string& spec) {
  std::vector<int> out;
  std::string s = spec.substr(0, spec.find('%'));
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    std::size_t dash = part.find('-');
    try {
      int lo = std::stoi(part.substr(0, dash));
      int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
      for (int i = lo; i <= hi && out.size() < 100000; ++i) out.push_back(i);
    } catch (...) {
    }
  }
  return out;
}

}  // namespace

std::vector<SweepCell> sweep_cells(const SweepFolder& f) {
  std::vector<SweepCell> out;
  for (std::int64_t seed : f.seeds)
    for (const auto& v : f.variants) out.push_back({static_cast<int>(out.size()), v.name, seed});
  return out;
}

const char* cell_state_name(CellState s) {
  switch (s) {
    case CellState::NotSubmitted: return "not_submitted";
    case CellState::Pending: return "pending";
    case CellState::Running: return "running";
    case CellState::Finished: return "finished";
    case CellState::Failed: return "failed";
    case CellState::Cancelled: return "cancelled";
  }
  return "not_submitted";
}

fs::path slurm_dir(const fs::path& root) { return root / "slurm"; }

std::optional<SlurmJobs> read_slurm_jobs(const fs::path& root, std::string& error) {
  const fs::path file = slurm_dir(root) / "jobs.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  auto j = read_json_file(file);
  auto corrupted = [&] {
    error = file.string() + ": corrupted (expected format stepforge-sweep-slurm); delete it to submit again";
    return std::nullopt;
  };
  if (!j || !j->is_object() || j->value("format", "") != "stepforge-sweep-slurm") return corrupted();
  SlurmJobs s;
  try {
    s.max_parallel = j->value("max_parallel", 0);
    s.max_attempts = j->value("max_attempts", kDefaultMaxAttempts);
    const json args = j->value("sbatch_args", json::array()), subs = j->value("submissions", json::array());
    for (const auto& a : args) s.sbatch_args.push_back(a.get<std::string>());
    for (const auto& sub : subs)
      s.submissions.push_back({sub.at("job_id").get<std::string>(), sub.at("indices").get<std::vector<int>>()});
    const json cells = j->value("cells", json::object());
    for (const auto& [k, v] : cells.items()) s.cell_job[std::stoi(k)] = v.get<std::string>();
  } catch (...) {
    return corrupted();
  }
  return s;
}

bool write_slurm_jobs(const fs::path& root, const SlurmJobs& s, std::string& error) {
  json subs = json::array(), cells = json::object();
  for (const auto& sub : s.submissions) subs.push_back({{"job_id", sub.job_id}, {"indices", sub.indices}});
  for (const auto& [i, id] : s.cell_job) cells[std::to_string(i)] = id;
  json j = {{"format", "stepforge-sweep-slurm"}, {"version", 1},        {"max_parallel", s.max_parallel},
            {"max_attempts", s.max_attempts},    {"sbatch_args", s.sbatch_args}, {"submissions", subs},
            {"cells", cells}};
  std::error_code ec;
  fs::create_directories(slurm_dir(root), ec);
  return store::write_file_atomic(slurm_dir(root) / "jobs.json", j.dump(2) + "\n", error);
}

std::optional<CellRecord> read_cell_record(const fs::path& root, int index) {
  auto j = read_json_file(slurm_dir(root) / "cells" / (std::to_string(index) + ".json"), 1 << 20);
  if (!j || !j->is_object()) return std::nullopt;
  CellRecord r;
  auto str = [&](const char* k) { return (*j)[k].is_string() ? (*j)[k].get<std::string>() : std::string(); };
  r.attempts = (*j)["attempts"].is_number_integer() ? (*j)["attempts"].get<int>() : 0;
  r.state = str("state");
  r.job_id = str("job_id");
  r.host = str("host");
  r.last_error = bounded(str("last_error"));
  return r;
}

bool write_cell_record(const fs::path& root, int index, const CellRecord& r, std::string& error) {
  const fs::path dir = slurm_dir(root) / "cells";
  std::error_code ec;
  fs::create_directories(dir, ec);
  json j = {{"attempts", r.attempts}, {"state", r.state}, {"job_id", r.job_id}, {"host", r.host},
            {"last_error", r.last_error}};
  return store::write_file_atomic(dir / (std::to_string(index) + ".json"), j.dump(2) + "\n", error);
}

fs::path cell_log_path(const fs::path& root, int index) {
  return slurm_dir(root) / "logs" / ("cell-" + std::to_string(index) + ".out");
}

std::string cell_log_tail(const fs::path& root, int index, int lines) {
  std::ifstream in(cell_log_path(root, index), std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - 65536);
  in.seekg(from);
  std::string s(static_cast<std::size_t>(size - from), '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  std::vector<std::string> kept;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) {
    if (auto cr = line.find('\r'); cr != std::string::npos) line = line.substr(cr + 1);  // progress bars
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    kept.push_back(line.substr(0, 500));
  }
  std::string out;
  for (std::size_t i = kept.size() > static_cast<std::size_t>(lines) ? kept.size() - lines : 0; i < kept.size(); ++i)
    out += (out.empty() ? "" : "\n") + kept[i];
  return out;
}

std::string array_spec(const std::vector<int>& indices, int max_parallel) {
  std::vector<int> v = indices;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  if (max_parallel > 0) s += "%" + std::to_string(max_parallel);
  return s;
}

std::optional<std::string> sbatch_script(const fs::path& root, const fs::path& exe, int cells, int max_parallel,
                                         const std::vector<std::string>& sbatch_args, std::string& error) {
  if (!root.is_absolute() || !exe.is_absolute()) return error = "the sweep folder and the binary need absolute paths", std::nullopt;
  for (const auto& a : sbatch_args)
    if (a.empty() || a[0] != '-' || a.find_first_of("\n\r") != std::string::npos)
      return error = "--sbatch-arg '" + a + "': expected one sbatch option such as --partition=gpu or --time=02:00:00",
             std::nullopt;
  if (root.string().find_first_of("%\n") != std::string::npos)
    return error = root.string() + ": a sweep folder for Slurm cannot contain '%' or a newline; use another --out",
           std::nullopt;
  std::vector<int> all(static_cast<std::size_t>(cells));
  for (int i = 0; i < cells; ++i) all[static_cast<std::size_t>(i)] = i;
  const std::string spec = array_spec(all, max_parallel);
  std::string s = "#!/bin/bash\n";
  s += "# StepForge campaign sweep: one array task per cell (index = the cell's place in the run order; see\n"
       "# `stepforge-cli campaign sweep status " + root.string() + "`).\n"
       "# Resubmit cells by hand: sbatch --array=1,3 " + (root / "slurm" / "sweep.sbatch").string() + "\n"
       "# or let StepForge pick the unfinished ones: stepforge-cli campaign sweep resubmit " + root.string() + "\n"
       "# The jobs inherit the submitting shell's environment (API keys included); no key is written here.\n";
  s += "#SBATCH --job-name=sf-sweep\n";
  s += "#SBATCH --array=" + spec + "\n";
  s += "#SBATCH --output=" + cell_log_path(root, 0).parent_path().string() + "/cell-%a.out\n";
  s += "#SBATCH --open-mode=append\n";
  for (const auto& a : sbatch_args) s += "#SBATCH " + a + "\n";
  s += "\n# A cell that already has events resumes where it stopped (no paid sample is asked twice).\n";
  s += "exec " + sh_quote(exe.string()) + " campaign sweep-cell " + sh_quote(root.string()) +
       " \"$SLURM_ARRAY_TASK_ID\"\n";
  return s;
}

void parse_squeue(const std::string& out, std::map<std::string, std::string>& tasks) {
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line)) {
    std::size_t bar = line.find('|');
    if (bar == std::string::npos) continue;
    std::string id = line.substr(0, bar), st = line.substr(bar + 1);
    while (!st.empty() && (st.back() == ' ' || st.back() == '\r')) st.pop_back();
    std::size_t us = id.find('_');
    if (us == std::string::npos || st.empty()) continue;
    std::string rest = id.substr(us + 1);
    if (!rest.empty() && rest.front() == '[') rest = rest.substr(1, rest.find(']') - 1);
    for (int i : expand_indices(rest)) tasks[id.substr(0, us) + "_" + std::to_string(i)] = st;
  }
}

void parse_scontrol(const std::string& out, std::map<std::string, std::string>& tasks) {
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line)) {
    std::map<std::string, std::string> kv;
    std::stringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      std::size_t eq = tok.find('=');
      if (eq != std::string::npos && !kv.count(tok.substr(0, eq))) kv[tok.substr(0, eq)] = tok.substr(eq + 1);
    }
    if (!kv.count("ArrayJobId") || !kv.count("ArrayTaskId") || !kv.count("JobState")) continue;
    for (int i : expand_indices(kv["ArrayTaskId"])) {
      const std::string key = kv["ArrayJobId"] + "_" + std::to_string(i);
      if (!tasks.count(key)) tasks[key] = kv["JobState"];
    }
  }
}

SlurmView query_slurm(const std::vector<std::string>& job_ids) {
  SlurmView v;
  if (const char* conf = std::getenv("SLURM_CONF"); conf && *conf && !job_ids.empty()) {
    std::error_code ec;  // Slurm's clients retry a missing config for 60 s: say so at once instead
    if (!fs::exists(conf, ec)) {
      v.error = std::string("SLURM_CONF=") + conf + " does not exist (unset it or point it at the cluster's slurm.conf)";
      return v;
    }
  }
  for (const auto& id : job_ids) {
    auto q = run_process({"squeue", "-h", "-r", "-j", id, "-o", "%i|%T"}, 30);
    if (!q.started) {
      v.error = "squeue: " + q.error;
      return v;
    }
    if (q.ok()) parse_squeue(q.out, v.tasks);  // an unknown (forgotten) job id is an error: nothing to add
    auto c = run_process({"scontrol", "show", "job", "-o", id}, 30);
    if (c.ok()) parse_scontrol(c.out, v.tasks);
  }
  return v;
}

std::vector<CellStatus> sweep_status(const fs::path& root, const SweepFolder& f, const SlurmJobs* jobs,
                                     const SlurmView* view) {
  std::vector<CellStatus> out;
  for (const auto& cell : sweep_cells(f)) {
    CellStatus c;
    c.cell = cell;
    const fs::path dir = sweep_cell_dir(root, cell.variant, cell.seed);
    bool finished = false;
    std::error_code ec;
    if (fs::exists(dir / "campaign.json", ec)) {
      CampaignState st;
      std::string err;
      if (load_campaign_state(dir, st, err)) {
        for (const auto& [task, t] : st.totals) c.samples_done += t.samples;
        finished = st.finished.has_value();
      } else {
        c.last_error = err;
      }
    }
    auto rec = read_cell_record(root, cell.index);
    if (rec) c.attempts = rec->attempts;
    if (jobs)
      if (auto it = jobs->cell_job.find(cell.index); it != jobs->cell_job.end())
        c.job_id = it->second + "_" + std::to_string(cell.index);
    if (finished) {
      c.state = CellState::Finished;
      c.last_error.clear();
      out.push_back(std::move(c));
      continue;
    }
    if (c.job_id.empty()) {
      c.state = CellState::NotSubmitted;
      out.push_back(std::move(c));
      continue;
    }
    const std::string record_error = rec ? rec->last_error : std::string();
    std::string word;
    if (view)
      if (auto it = view->tasks.find(c.job_id); it != view->tasks.end()) word = it->second;
    if (auto live = live_state(word)) {
      c.state = *live;
    } else if (!word.empty()) {  // Slurm knows it ended
      c.state = word == "CANCELLED" || word == "PREEMPTED" ? CellState::Cancelled : CellState::Failed;
      if (c.state == CellState::Failed)
        c.last_error = word == "COMPLETED" ? "the job ended but the campaign is not finished" : "Slurm: " + word;
    } else if (view && !view->error.empty() && rec && rec->state == "running") {
      c.state = CellState::Running;  // Slurm could not be asked: trust the cell's own record
    } else if (rec && rec->state == "cancelled") {
      c.state = CellState::Cancelled;
    } else if (rec && (rec->state == "failed" || rec->state == "finished")) {
      c.state = CellState::Failed;
    } else if (rec && rec->state == "running") {
      c.state = CellState::Failed;
      c.last_error = "the job ended without finishing the campaign (killed or node lost); resubmit resumes it";
    } else if (view && view->error.empty()) {
      c.state = CellState::Failed;
      c.last_error = "job " + c.job_id + " ended without writing " + (slurm_dir(root) / "cells").string() +
                     ": is the sweep folder on a filesystem the compute nodes can see? (put it on a shared "
                     "filesystem, then resubmit)";
    } else {
      c.state = CellState::Pending;  // submitted, nothing known yet
    }
    if (c.state == CellState::Failed || c.state == CellState::Cancelled) {
      if (!record_error.empty()) c.last_error = c.last_error.empty() ? record_error : c.last_error + ": " + record_error;
      if (c.last_error.empty()) c.last_error = cell_log_tail(root, cell.index, 1);
    }
    out.push_back(std::move(c));
  }
  return out;
}

json sweep_status_json(const std::vector<CellStatus>& cells) {
  json a = json::array();
  for (const auto& c : cells)
    a.push_back({{"variant", c.cell.variant},
                 {"seed", c.cell.seed},
                 {"state", cell_state_name(c.state)},
                 {"samples_done", c.samples_done},
                 {"job_id", c.job_id.empty() ? json(nullptr) : json(c.job_id)},
                 {"last_error", c.last_error.empty() ? json(nullptr) : json(c.last_error)}});
  return {{"cells", a}};
}

}  // namespace sf::learn
