// synth: the built-in offline proposer (core/synth) on one or every benchmark task.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.hpp"
#include "core/common/speedup.hpp"
#include "app/cli/commands.hpp"
#include "core/bench/catalogue.hpp"
#include "core/cost/baseline.hpp"
#include "core/cost/cost_model.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/synth/synthesizer.hpp"

namespace sf::cli {

namespace {

struct SynthOpts {
  std::string task, demos, resources;
  bool demos_from_solved = false, json = false, show = false;
  int n = 64;
  double temperature = 0.5, time_limit = 1.0;
  std::int64_t budget = 40000;
  std::uint64_t seed = 0;
  std::vector<std::string> patterns;
  bool all_demos = false;
  bool perf = false, no_optimise = false, optimise_round = false, same_temperature = false;
  std::int64_t rewrite_budget = 300;
};

int cmd_synth(const SynthOpts& o) {
  Diagnostics ds;
  auto cat = bench::Catalogue::load(o.resources.empty() ? resources_dir() : o.resources, ds);
  if (has_errors(ds)) {
    print_diagnostics(ds, "");
    return 2;
  }
  std::vector<const step::TaskDoc*> tasks;
  if (o.task == "all" || o.task == "paper") {
    for (const auto& t : cat.tasks()) {
      if (o.task == "all" || t.group != "extra") tasks.push_back(&t);
    }
  } else if (const auto* t = cat.find(o.task)) {
    tasks.push_back(t);
  } else {
    std::cerr << "error: unknown task '" << o.task << "'\n";
    return 2;
  }
  std::vector<synth::Demonstration> demos;
  std::vector<std::unique_ptr<step::TaskDoc>> demo_tasks;
  if (!o.demos.empty()) {
    Diagnostics dd;
    auto any = step::load_any_file(o.demos, dd);
    if (any.solution) {
      if (const auto* t = cat.find(any.solution->task_id)) demos.push_back({t, any.solution->impl});
    } else if (any.task && any.task->impl) {
      demo_tasks.push_back(std::make_unique<step::TaskDoc>(*any.task));
      demos.push_back({demo_tasks.back().get(), *any.task->impl});
    }
    if (demos.empty()) {
      print_diagnostics(dd, o.demos);
      std::cerr << o.demos << ": error: not a solution file or a task with impl\n";
      return 2;
    }
  }
  verify::Verifier ver;
  cost::CostModel model;  // default chip
  cost::Baselines baselines(model, (o.resources.empty() ? resources_dir() : o.resources) + "/solutions");
  synth::Synthesizer syn(ver, &model);
  struct TaskRun {
    int successes = 0;
    std::int64_t cand = 0, pruned = 0;
    int depth = 0;
    double secs = 0;
    std::string first_impl;
    std::set<std::string> keys;  // canonical keys of the programs found (distinct programs)
    int demos_used = 0;
    int adopted = 0;  // samples whose program contains a --pattern
    // --perf: the fastest correct feasible program of the samples (cycles under the cost model)
    std::optional<std::int64_t> best_cycles;
    std::string best_impl, best_origin;
  };
  // n samples of one task with the given demonstrations (sample 0 at temperature 0)
  std::vector<synth::MemoryPattern> memory;
  for (std::size_t i = 0; i < o.patterns.size(); ++i)
    memory.push_back({"pattern-" + std::to_string(i + 1), o.patterns[i]});
  // relevant: mine only the demonstrations most relevant to the task (synth::kRelevantDemos)
  auto run_task = [&](const step::TaskDoc& t, const std::vector<synth::Demonstration>& ds_, bool relevant) {
    TaskRun tr;
    auto g = synth::mine_guidance(ds_, memory, relevant ? &t : nullptr);
    tr.demos_used = g.demos_used;
    synth::SynthOptions so;
    so.max_evaluations = o.budget;
    so.time_limit_s = o.time_limit;
    so.optimise = !o.no_optimise;
    so.rewrite_evaluations = o.rewrite_budget;
    auto keep_best = [&](const synth::SynthResult& r) {
      if (r.found && r.cycles && r.feasible && (!tr.best_cycles || *r.cycles < *tr.best_cycles)) {
        tr.best_cycles = r.cycles;
        tr.best_impl = r.impl;
        tr.best_origin = r.origin;
      }
    };
    for (int i = 0; i < o.n; ++i) {
      so.seed = o.seed * 1000003ULL + static_cast<std::uint64_t>(i);
      so.temperature = i == 0 && !o.same_temperature ? 0.0 : o.temperature;
      auto r = syn.run(t, g, so);
      tr.successes += r.found ? 1 : 0;
      if (r.found) {
        Diagnostics pd;
        if (auto prog = step::parse_impl(r.impl, {}, pd)) tr.keys.insert(step::canonical_key(*prog));
      }
      tr.cand += r.stats.candidates;
      tr.pruned += r.stats.pruned;
      tr.depth = std::max(tr.depth, r.stats.depth);
      tr.secs += r.stats.cpu_seconds;
      if (r.found && tr.first_impl.empty()) tr.first_impl = r.impl;
      keep_best(r);
      bool any = false;
      for (const auto& a : r.adoption) any = any || a.adopted;
      tr.adopted += any ? 1 : 0;
    }
    if (o.optimise_round && !tr.best_impl.empty()) {  // one optimisation round from the fastest program
      so.seed = o.seed * 1000003ULL;
      so.temperature = 0.0;
      so.previous_impl = tr.best_impl;
      keep_best(syn.run(t, g, so));
    }
    return tr;
  };
  auto report = [&](const char* label, const std::vector<TaskRun>& runs, nlohmann::json& out) {
    int solved = 0;
    double pass1 = 0;
    std::size_t distinct = 0;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      const auto& tr = runs[k];
      const auto* t = tasks[k];
      solved += tr.successes > 0 ? 1 : 0;
      distinct += tr.keys.size();
      pass1 += o.n > 0 ? double(tr.successes) / o.n : 0.0;
      double sps = o.n > 0 ? tr.secs / o.n : 0.0;
      if (o.json) {
        out.push_back({{"task", t->id},
                       {"n", o.n},
                       {"successes", tr.successes},
                       {"seconds_per_sample", sps},
                       {"candidates", tr.cand},
                       {"pruned", tr.pruned},
                       {"depth", tr.depth},
                       {"demos", label},
                       {"demos_used", tr.demos_used},
                       {"pattern_adopted", tr.adopted},
                       {"distinct", tr.keys.size()},
                       {"program", tr.first_impl}});
      } else {
        std::printf(
            "%-42s %3d/%-3d  distinct %2zu  candidates %8lld  pruned %8lld  depth %2d  %.3f CPU s/sample  demos %d\n",
            t->id.c_str(), tr.successes, o.n, tr.keys.size(), static_cast<long long>(tr.cand),
            static_cast<long long>(tr.pruned), tr.depth, sps, tr.demos_used);
        if (o.show && !tr.first_impl.empty()) std::printf("%s\n", tr.first_impl.c_str());
      }
    }
    if (o.perf) {
      // Fast_x: tasks whose fastest correct feasible program beats x times the reference solution's speed by the
      // tie tolerance (sf::faster_than: speedup ≥ x · 1.01)
      std::vector<double> sp;
      int fast1 = 0, fast15 = 0;
      for (std::size_t k = 0; k < tasks.size(); ++k) {
        const auto& tr = runs[k];
        auto base = baselines.cycles(*tasks[k]);
        double s = 0;
        if (tr.best_cycles && base && *tr.best_cycles > 0) s = double(*base) / double(*tr.best_cycles);
        sp.push_back(s);
        fast1 += faster_than(s, kDefaultFastTolerance, 1.0) ? 1 : 0;  // by the 1% tie tolerance
        fast15 += faster_than(s, kDefaultFastTolerance, 1.5) ? 1 : 0;
        if (o.json) {
          out.push_back({{"task", tasks[k]->id}, {"demos", label}, {"cycles", tr.best_cycles ? *tr.best_cycles : -1},
                         {"baseline", base ? *base : -1}, {"speedup", s}, {"origin", tr.best_origin},
                         {"fastest_program", tr.best_impl}});
        } else {
          std::printf("  perf %-40s cycles %8lld  baseline %8lld  speedup %7.4f  %s\n", tasks[k]->id.c_str(),
                      static_cast<long long>(tr.best_cycles ? *tr.best_cycles : -1),
                      static_cast<long long>(base ? *base : -1), s, tr.best_origin.c_str());
          if (o.show && !tr.best_impl.empty()) std::printf("%s\n", tr.best_impl.c_str());
        }
      }
      std::vector<double> sorted = sp;
      std::sort(sorted.begin(), sorted.end());
      double med = 0;
      if (!sorted.empty()) {
        std::size_t m = sorted.size() / 2;
        med = sorted.size() % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
      }
      if (!o.json)
        std::printf("[%s] Fast_1.0 %d / %zu  Fast_1.5 %d / %zu  median speedup %.3f (unsolved tasks count 0)\n",
                    label, fast1, tasks.size(), fast15, tasks.size(), med);
    }
    if (!o.json && tasks.size() > 1) {
      std::printf(
          "[%s] solved (at least one success, pass@%d): %d of %zu tasks; pass@1 (mean c/n): %.2f tasks; "
          "distinct correct programs: %zu\n",
          label, o.n, solved, tasks.size(), pass1, distinct);
    }
  };
  nlohmann::json all = nlohmann::json::array();
  std::vector<TaskRun> runs;
  for (const auto* t : tasks) runs.push_back(run_task(*t, demos, false));
  report(demos.empty() ? "none" : "file", runs, all);
  if (o.demos_from_solved) {
    // leave-one-out: every other task's program found in the first pass is a demonstration
    std::vector<TaskRun> runs2;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      std::vector<synth::Demonstration> loo;
      for (std::size_t j = 0; j < tasks.size(); ++j) {
        if (j != k && !runs[j].first_impl.empty()) loo.push_back({tasks[j], runs[j].first_impl});
      }
      runs2.push_back(run_task(*tasks[k], loo, !o.all_demos));
    }
    report("from-solved", runs2, all);
  }
  if (o.json) std::cout << (all.size() == 1 ? all[0].dump(2) : all.dump(2)) << "\n";
  return 0;
}

}  // namespace

void add_synth_commands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<SynthOpts>();
  auto* c = app.add_subcommand("synth", "Run the built-in offline synthesizer on a benchmark task (or all)");
  c->add_option("--task", o->task, "task id, 'all', or 'paper' (the 26 paper tasks)")->required();
  c->add_option("-n", o->n, "samples per task (sample 0 at temperature 0)");
  auto* d = c->add_option("--demos", o->demos, "a solution file (task: + impl:) used as demonstration");
  c->add_flag(
       "--demos-from-solved", o->demos_from_solved,
       "a second pass in which the programs found (first pass) for every other task are demonstrations")
      ->excludes(d);
  c->add_flag("--all-demos", o->all_demos,
              "with --demos-from-solved: mine every other solved task (default: the most relevant few)");
  c->add_option("--pattern", o->patterns,
                "a memory pattern (A>B>C) given as a retrieved experience (repeatable); it steers the search");
  c->add_flag("--json", o->json, "print one JSON object (an array for several tasks)");
  c->add_flag("--show", o->show, "print the first program found");
  c->add_option("--temperature", o->temperature, "temperature of samples 1..n-1 (search noise and spread)");
  c->add_flag("--same-temperature", o->same_temperature,
              "sample 0 at --temperature too (as in campaigns), not at temperature 0");
  c->add_option("--budget", o->budget, "candidate evaluations per sample");
  c->add_option("--time-limit", o->time_limit, "CPU seconds per sample");
  c->add_option("--seed", o->seed, "base seed");
  c->add_flag("--perf", o->perf,
              "cost model: the fastest correct program per task, its speedup over the reference solution, "
              "Fast_1.0, Fast_1.5 and the median speedup");
  c->add_flag("--no-optimise", o->no_optimise, "stop each search at its first correct program");
  c->add_flag("--optimise-round", o->optimise_round,
              "after the samples, one optimisation round (previous program = the fastest found)");
  c->add_option("--rewrite-budget", o->rewrite_budget, "programs verified by the rewrite hill-climb");
  c->add_option("--resources", o->resources, "resources directory");
  c->callback([o, &exit_code] { exit_code = cmd_synth(*o); });
}

}  // namespace sf::cli
