// campaign: run / resume / report a self-improvement campaign (adaptive, algorithms §3; sage, §4) in a workspace
// folder;
// `campaign prompt` prints a logged call's full prompt; `campaign bench` measures the engine's overhead per sample
// with an instant backend. The printed tables and reports are cmd_campaign_report.cpp.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.hpp"
#include "app/cli/cmd_campaign_report.hpp"
#include "app/cli/cmd_campaign_sweep.hpp"
#include "app/cli/commands.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/engine_setup.hpp"
#include "core/learn/launcher.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/learn/sweep.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/store/content_store.hpp"
#include "core/store/event_log.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/provider.hpp"

namespace sf::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void register_providers() {
  sf::synth::register_builtin_provider();
}

}  // namespace

// Runs (or continues) the campaign of an open workspace with a progress bar on stderr.
int execute(store::Workspace& ws, bool quiet, bool print_result, std::string* error_out,
            const std::atomic<bool>* stop) {
  register_providers();
  auto report = [&](const std::string& e) {
    if (error_out) *error_out = e;
  };
  learn::Launch l = learn::launch_campaign(ws, resources_dir());
  const bool halted = l.outcome == learn::LaunchOutcome::Halted;
  if (!l.ok() && !halted) {  // config, setup or log error
    std::cerr << "error: " << (l.file.empty() ? std::string() : l.file.string() + ": ") << l.error << "\n";
    report((l.file.empty() ? std::string() : l.file.string() + ": ") + l.error);
    return 2;
  }
  if (ws.had_truncated_tail() && !quiet) std::cerr << "note: ignored a truncated last line in events.jsonl\n";
  const std::string resume_hint = "fix it, then continue with: stepforge-cli campaign resume " + ws.dir().string();
  if (halted) {
    std::cerr << "paused before the first sample: " << l.error << "\n" << resume_hint << "\n";
    report("paused before the first sample: " + l.error);
    return 3;
  }
  learn::CampaignEngine& engine = *l.engine;
  engine.start();
  std::unique_ptr<Progress> bar;
  int bar_iter = -2;
  while (true) {
    auto p = engine.progress();
    if (!quiet && p.iteration >= 0) {
      if (p.iteration != bar_iter) {
        if (bar) bar->finish();
        bar = std::make_unique<Progress>(l.config.is_v2()                  ? std::string("proposals")
                                         : l.config.mode == learn::Mode::Sage ? std::string("episodes")
                                             : "iteration " + std::to_string(p.iteration));
        bar_iter = p.iteration;
      }
      bar->update(static_cast<int>(p.done), static_cast<int>(p.total),
                  std::to_string(p.solved) + "/" + std::to_string(p.tasks) + " solved");
    }
    if (!p.running) break;
    if (stop && stop->load()) engine.cancel();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  auto r = engine.wait();
  if (bar) bar->finish();
  if (print_result) print_campaign_table(engine.state(), std::cout);
  if (r.status == learn::RunStatus::Failed) {
    std::cerr << "error: " << r.error << "\n";
    report(r.error);
    return 1;
  }
  if (r.status == learn::RunStatus::Paused) {
    std::cerr << "paused (" << r.reason << "): " << r.error << "\n" << resume_hint << "\n";
    report("paused (" + r.reason + "): " + r.error);
    return 3;
  }
  if (r.status == learn::RunStatus::Cancelled) {
    std::cerr << "cancelled; continue with: stepforge-cli campaign resume " << ws.dir().string() << "\n";
    report("cancelled");
    return 1;
  }
  return 0;
}

namespace {

struct RunOpts {
  std::string config, out, prices;
  std::vector<std::string> sets;
  bool quiet = false;
};

// The config JSON of a file with --set overrides applied; nullopt after printing the error.
std::optional<json> read_config(const std::string& path, const std::vector<std::string>& sets) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "error: cannot read " << path << "\n";
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false, true);
  if (j.is_discarded()) {
    std::cerr << "error: " << path << ": not valid JSON\n";
    return std::nullopt;
  }
  std::string err;
  for (const auto& s : sets) {
    if (!learn::apply_override(j, s, err)) {
      std::cerr << "error: --set " << s << ": " << err << "\n";
      return std::nullopt;
    }
  }
  return j;
}

int cmd_run(const RunOpts& o) {
  auto j = read_config(o.config, o.sets);
  if (!j) return 2;
  std::string err;
  auto cfg = learn::config_from_json(*j, err);
  if (!cfg) {
    std::cerr << "error: " << o.config << ": " << err << "\n";
    return 2;
  }
  if (!o.prices.empty() && !llm::PriceTable::load(o.prices, err)) {
    std::cerr << "error: --prices " << o.prices << ": " << err << "\n";
    return 2;
  }
  auto ws = store::Workspace::create(o.out, learn::config_to_json(*cfg), err);
  if (!ws) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  if (!o.prices.empty()) {
    std::error_code ec;  // the campaign's own price table: resume prices the same way
    fs::copy_file(o.prices, ws->dir() / "prices.json", fs::copy_options::overwrite_existing, ec);
    if (ec) {
      std::cerr << "error: cannot copy " << o.prices << " into the workspace: " << ec.message() << "\n";
      return 2;
    }
  }
  return execute(*ws, o.quiet);
}

int cmd_resume(const std::string& dir, bool quiet) {
  std::string err;
  auto ws = store::Workspace::open(dir, err);
  if (!ws) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  return execute(*ws, quiet);
}

// ---- campaign sweep / sweep-report (docs/learn.md "Sweeps") ----

struct SweepOpts {
  std::string config, out, seeds, scheduler = "local";
  std::vector<std::string> vary, ablate, sets;
  SlurmSubmitOpts slurm;
};

}  // namespace

// The config of one cell: the sweep's base config, the variant's overrides, seed = the cell's seed.
std::optional<learn::CampaignConfig> cell_config(const json& base, const learn::SweepVariant& v, std::int64_t seed,
                                                 std::string& err) {
  json j = base;
  for (const auto& o : v.overrides)
    if (!learn::apply_override(j, o, err)) return err = v.name + ": " + o + ": " + err, std::nullopt;
  j["seed"] = seed;
  auto cfg = learn::config_from_json(j, err);
  if (!cfg) err = v.name + " (" + std::to_string(seed) + "): " + err;
  return cfg;
}

namespace {

// The full prompt of one llm_call event (reassembled from the workspace's content store).
int cmd_prompt(const std::string& dir, std::int64_t seq, bool as_json) {
  std::string err;
  auto ws = store::Workspace::open_read_only(dir, err);
  if (!ws) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  for (const json& e : ws->loaded_events()) {
    if (!e.contains("seq") || e["seq"] != seq) continue;
    const json* trace = e.value("type", json()) == "llm_call" && e.contains("trace") && e["trace"].is_object()
                            ? &e["trace"]
                            : nullptr;
    if (!trace || !trace->contains("prompt")) {
      std::cerr << "error: event " << seq << " of " << dir << "/events.jsonl is not a model call with a prompt\n";
      return 2;
    }
    auto messages = store::load_prompt((*trace)["prompt"], ws->blobs(), err);
    if (!messages) {
      std::cerr << "error: event " << seq << ": " << err << "\n";
      return 2;
    }
    if (as_json) {
      std::cout << messages->dump(2) << "\n";
      return 0;
    }
    for (std::size_t i = 0; i < messages->size(); ++i)
      std::cout << (i ? "\n" : "") << "[" << (*messages)[i]["role"].get<std::string>() << "]\n"
                << (*messages)[i]["content"].get<std::string>() << "\n";
    return 0;
  }
  std::cerr << "error: " << dir << "/events.jsonl has no event " << seq << "\n";
  return 2;
}

int cmd_sweep(const SweepOpts& o) {
  std::string err;
  if (o.config.empty() || o.out.empty()) {
    std::cerr << "error: campaign sweep needs CONFIG, --seeds and --out (or one of: status, wait, resubmit, cancel DIR)\n";
    return 2;
  }
  const bool slurm = o.scheduler == "slurm";
  if (slurm && !slurm_client_available()) return 2;  // before anything is written
  auto base = read_config(o.config, o.sets);
  if (!base) return 2;
  // A config with a `sweep` plan names its variants and seeds (used unless --vary / --ablate / --seeds are given);
  // the plan is no part of a cell's config.
  json plan;
  if (base->is_object() && base->contains("sweep")) {
    plan = (*base)["sweep"];
    base->erase("sweep");
  }
  const bool use_plan = plan.is_object() && o.vary.empty() && o.ablate.empty();
  const std::string seed_text = !o.seeds.empty() ? o.seeds : use_plan ? plan.value("seeds", std::string()) : "";
  if (seed_text.empty()) {
    std::cerr << "error: campaign sweep needs --seeds (the config has no sweep.seeds)\n";
    return 2;
  }
  auto seeds = learn::parse_seed_list(seed_text, err);
  auto variants = !seeds ? std::nullopt
                  : use_plan ? learn::sweep_plan_variants(plan, err)
                             : learn::sweep_variants(o.vary, o.ablate, err);
  if (!seeds || !variants) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  // Every cell's config must parse before anything runs.
  for (const auto& v : *variants)
    if (!cell_config(*base, v, seeds->front(), err)) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
  json vj = json::array();
  for (const auto& v : *variants) vj.push_back({{"name", v.name}, {"overrides", v.overrides}});
  json sweep = {{"format", "stepforge-sweep"}, {"version", 1}, {"config", *base}, {"seeds", *seeds}, {"variants", vj}};
  const fs::path root = o.out;
  if (fs::exists(root / "sweep.json")) {  // resume: the same sweep or nothing
    auto old = learn::read_sweep_folder(root, err);
    if (!old) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
    if (old->json["config"] != sweep["config"] || old->json["seeds"] != sweep["seeds"] ||
        old->json["variants"] != sweep["variants"]) {
      std::cerr << "error: " << root.string()
                << " holds a different sweep (config, seeds or variants differ); use another --out\n";
      return 2;
    }
  } else {
    std::error_code ec;
    fs::create_directories(root, ec);
    if (!store::write_file_atomic(root / "sweep.json", sweep.dump(2) + "\n", err)) {
      std::cerr << "error: " << err << "\n";
      return 1;
    }
  }
  if (slurm) return prepare_and_submit_slurm(root, *base, *variants, *seeds, o.slurm);
  register_providers();
  const std::size_t total = variants->size() * seeds->size();
  std::size_t done = 0, ran = 0;
  double spent = 0;
  int failures = 0;
  for (std::int64_t seed : *seeds) {  // seeds outermost: a partial sweep is balanced over variants
    for (const auto& v : *variants) {
      auto cfg = cell_config(*base, v, seed, err);
      if (!cfg) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
      const fs::path dir = learn::sweep_cell_dir(root, v.name, seed);
      std::unique_ptr<store::Workspace> ws;
      if (fs::exists(dir / "campaign.json")) {
        ws = store::Workspace::open(dir, err);
        if (ws && ws->config() != learn::config_to_json(*cfg)) {
          std::cerr << "error: " << dir.string() << ": its campaign.json is not this cell's config\n";
          return 2;
        }
        learn::CampaignState st;
        if (ws && learn::fold_workspace(*ws, st, err) && st.finished) {
          ++done;
          continue;
        }
      } else {
        fs::create_directories(dir.parent_path());
        ws = store::Workspace::create(dir, learn::config_to_json(*cfg), err);
      }
      if (!ws) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
      auto t0 = std::chrono::steady_clock::now();
      std::cerr << "cell " << done + 1 << "/" << total << ": " << v.name << " seed " << seed;
      for (const auto& ov : v.overrides) std::cerr << " " << ov;
      std::cerr << "\n";
      if (execute(*ws, true, false) != 0) ++failures;
      spent += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++done;
      ++ran;
      const double eta = spent / static_cast<double>(ran) * static_cast<double>(total - done);
      std::cerr << "  done " << done << "/" << total << " (" << fmt(spent, 0) << " s elapsed, ETA " << fmt(eta, 0)
                << " s)\n";
    }
  }
  std::cerr << "sweep: " << total << " cells in " << root.string()
            << (failures ? " (" + std::to_string(failures) + " failed: resume with the same command)" : "") << "\n";
  return failures ? 1 : 0;
}

// An instant backend: answers every proposer request with a fixed short program (no model, no network).
int cmd_bench(int tasks, int n, int threads) {
  learn::CampaignConfig cfg;
  cfg.mode = learn::Mode::Agent;
  cfg.n = n;
  cfg.in_flight = threads;
  cfg.verify_threads = threads;
  cfg.backend.kind = llm::BackendKind::Builtin;
  cfg.backend.model = "instant";
  std::string err;
  std::atomic<std::int64_t> model_ns{0};
  auto instant = std::make_unique<llm::BuiltinBackend>(
      [&model_ns](const llm::ChatRequest& req, const llm::CancelToken&) {
        auto t0 = std::chrono::steady_clock::now();
        llm::ChatResponse r;
        r.text = "```yaml\nimpl: |\n  Y = step.Map(fn=f).apply(E0)\n  return Y\n```\n";
        r.usage.input_tokens = static_cast<std::int64_t>(req.messages.size());
        r.usage.output_tokens = 10;
        model_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
        return llm::ChatResult::success(r);
      },
      "instant");
  auto setup = learn::prepare_campaign(cfg, fs::temp_directory_path(), resources_dir(), err, std::move(instant));
  if (!setup) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  if (tasks > 0 && tasks < static_cast<int>(setup->deps.tasks.size())) setup->deps.tasks.resize(static_cast<std::size_t>(tasks));
  const std::size_t ntasks = setup->deps.tasks.size();
  std::int64_t samples = static_cast<std::int64_t>(ntasks) * n;
  learn::CampaignEngine engine(cfg, std::move(setup->deps));
  auto t0 = std::chrono::steady_clock::now();
  auto r = engine.run();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.status != learn::RunStatus::Finished) {
    std::cerr << "error: " << r.error << "\n";
    return 1;
  }
  double overhead_ms = (wall * 1000.0 - static_cast<double>(model_ns.load()) / 1e6 / threads) / static_cast<double>(samples);
  std::cout << "engine bench: " << ntasks << " tasks x " << n << " samples, " << threads
            << " threads: wall " << fmt(wall) << " s, engine overhead " << fmt(overhead_ms, 4)
            << " ms/sample (wall per sample minus the instant model's time; includes prompt building, "
               "guardian, verification and event handling)\n";
  return 0;
}

}  // namespace

void add_campaign_commands(CLI::App& app, int& exit_code) {
  auto* c = app.add_subcommand("campaign",
                               "run, resume and report self-improvement campaigns (workspace folders); exit status 0 "
                               "finished, 1 failed or cancelled, 2 usage/config error, 3 paused (endpoint failure or "
                               "budget: fix it, then `campaign resume`)");
  c->require_subcommand(1);

  auto ro = std::make_shared<RunOpts>();
  auto* run = c->add_subcommand("run", "start a campaign from a config file in a new workspace folder");
  run->add_option("config", ro->config, "campaign config (JSON), e.g. resources/configs/demo.json")->required();
  run->add_option("--out", ro->out, "workspace folder to create")->required();
  run->add_option("--set", ro->sets, "override a config field: key=value (dotted keys, e.g. backend.model=gpt-4o)")
      ->take_all()
      ->expected(1, 1)
      ->allow_extra_args(false);
  run->add_flag("--quiet", ro->quiet, "no progress bar");
  run->add_option("--prices", ro->prices,
                  "a prices.json (USD per million tokens per model) copied into the workspace; replaces the bundled "
                  "table (required for an unlisted model when budget.cost_usd is set)");
  run->callback([ro, &exit_code] { exit_code = guarded([&] { return cmd_run(*ro); }); });

  auto dir = std::make_shared<std::string>();
  auto quiet = std::make_shared<bool>(false);
  auto* res = c->add_subcommand("resume", "continue a campaign after a crash, kill or cancel");
  res->add_option("dir", *dir, "workspace folder")->required();
  res->add_flag("--quiet", *quiet, "no progress bar");
  res->callback([dir, quiet, &exit_code] { exit_code = guarded([&] { return cmd_resume(*dir, *quiet); }); });

  auto rdir = std::make_shared<std::string>();
  auto csv = std::make_shared<bool>(false), js = std::make_shared<bool>(false);
  auto* rep = c->add_subcommand("report", "per-task success counts, pass@k table and learning curve");
  rep->add_option("dir", *rdir, "workspace folder")->required();
  auto* f1 = rep->add_flag("--csv", *csv, "learning curve as CSV");
  auto* f2 = rep->add_flag("--json", *js, "the full report as JSON");
  f1->excludes(f2);
  rep->callback([rdir, csv, js, &exit_code] { exit_code = guarded([&] { return cmd_campaign_report(*rdir, *csv, *js); }); });

  auto pdir = std::make_shared<std::string>();
  auto pseq = std::make_shared<std::int64_t>(0);
  auto pjs = std::make_shared<bool>(false);
  auto* pr = c->add_subcommand("prompt",
                               "print the full prompt of one model call (an llm_call event, by its seq), reassembled "
                               "from the workspace's blobs/");
  pr->add_option("dir", *pdir, "workspace folder")->required();
  pr->add_option("seq", *pseq, "the event's seq (events.jsonl)")->required()->check(CLI::NonNegativeNumber);
  pr->add_flag("--json", *pjs, "the messages as JSON [{role, content}]");
  pr->callback([pdir, pseq, pjs, &exit_code] { exit_code = guarded([&] { return cmd_prompt(*pdir, *pseq, *pjs); }); });

  auto so = std::make_shared<SweepOpts>();
  auto* sw = c->add_subcommand("sweep",
                               "run a grid of config variants x campaign seeds, one workspace per cell "
                               "(resumable: rerun the same command)");
  sw->add_option("config", so->config,
                 "campaign config (JSON); its `sweep` plan {seeds, variants: [{name, set}]} gives the variants when "
                 "there is no --vary / --ablate (resources/configs/optimise-sage.json)");
  sw->add_option("--seeds", so->seeds,
                 "campaign seeds: 1-5, 1,3,7 or 1-3,9 (required unless the config's sweep plan names them)");
  sw->add_option("--vary", so->vary, "key=a,b,...: one grid axis (repeatable; the first values are the reference)")
      ->take_all()
      ->expected(1, 1)
      ->allow_extra_args(false);
  sw->add_option("--ablate", so->ablate, "key=value: one more variant, the reference with this override (repeatable)")
      ->take_all()
      ->expected(1, 1)
      ->allow_extra_args(false);
  sw->add_option("--set", so->sets, "override a field of the base config: key=value")
      ->take_all()
      ->expected(1, 1)
      ->allow_extra_args(false);
  sw->add_option("--out", so->out, "sweep folder (sweep.json + cells/<variant>/seed-<s>/) (required)");
  sw->add_option("--scheduler", so->scheduler,
                 "local (default: the cells run here, one after another) or slurm (one job array, docs/cluster.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  sw->add_option("--sbatch-arg", so->slurm.sbatch_args,
                 "one sbatch option written into the job script, e.g. --partition=gpu, --account=lab, "
                 "--time=02:00:00, --mem=8G (repeatable; --scheduler slurm)")
      ->take_all()
      ->expected(1, 1)
      ->allow_extra_args(false);
  sw->add_option("--max-parallel", so->slurm.max_parallel,
                 "at most N cells run at once (the job array's %N throttle; --scheduler slurm)")
      ->check(CLI::PositiveNumber);
  sw->add_option("--max-attempts", so->slurm.max_attempts,
                 "a cell that failed this many times is marked failed and not run again (default 3)")
      ->check(CLI::PositiveNumber);
  add_sweep_cluster_commands(*c, *sw, exit_code);
  sw->callback([so, sw, &exit_code] {
    if (!sw->get_subcommands().empty()) return;  // status / wait / resubmit / cancel ran
    exit_code = guarded([&] { return cmd_sweep(*so); });
  });

  auto sdir = std::make_shared<std::string>();
  auto sjs = std::make_shared<bool>(false), smd = std::make_shared<bool>(false);
  auto sref = std::make_shared<std::string>();
  auto* sr = c->add_subcommand("sweep-report",
                               "per variant ER, rounds and samples to first correct, Fast_1.0 (performance campaigns: "
                               "median speedup, AUC of the best-speedup curve, Fast_1.5); vs the reference: mean "
                               "paired difference with a 95% bootstrap interval over seeds");
  sr->add_option("dir", *sdir, "sweep folder")->required();
  auto* g1 = sr->add_flag("--json", *sjs, "as JSON");
  auto* g2 = sr->add_flag("--md", *smd, "as a Markdown table");
  sr->add_option("--reference", *sref,
                 "the variant the differences are taken against (default: the sweep's first variant)");
  g1->excludes(g2);
  sr->callback([sdir, sjs, smd, sref, &exit_code] {
    exit_code = guarded([&] { return cmd_sweep_report(*sdir, *sjs, *smd, *sref); });
  });

  auto bt = std::make_shared<int>(26), bn = std::make_shared<int>(64), bth = std::make_shared<int>(2);
  auto* bench = c->add_subcommand("bench", "engine overhead per sample with an instant backend (no model)");
  bench->add_option("--tasks", *bt, "number of tasks")->capture_default_str();
  bench->add_option("--n", *bn, "samples per task")->capture_default_str();
  bench->add_option("--threads", *bth, "worker threads")->capture_default_str();
  bench->callback([bt, bn, bth, &exit_code] { exit_code = guarded([&] { return cmd_bench(*bt, *bn, *bth); }); });
}

}  // namespace sf::cli
