// tasks list / show / validate: the bundled benchmark.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "core/bench/benchmark_v2.hpp"
#include "core/bench/catalogue.hpp"
#include "core/cost/baseline.hpp"
#include "core/verify/benchmark_validation.hpp"

namespace sf::cli {

namespace {

struct TaskOpts {
  std::string group, id, resources, solutions, mutants, hacks, manual, dialect;
  bool json = false;
};

std::optional<bench::Catalogue> load_catalogue(const TaskOpts& o) {
  Diagnostics ds;
  std::string dir = o.resources.empty() ? resources_dir() : o.resources;
  auto cat = bench::Catalogue::load(dir, ds);
  if (has_errors(ds)) {
    print_diagnostics(ds, "");
    return std::nullopt;
  }
  return cat;
}

// The STeP-25 optimisation benchmark (<resources>/benchmark_v2); nullopt after printing its problems.
std::optional<bench::Catalogue> load_catalogue_v2(const TaskOpts& o) {
  Diagnostics ds;
  std::string dir = o.resources.empty() ? resources_dir() : o.resources;
  auto cat = bench::Catalogue::load_v2(dir, ds);
  if (has_errors(ds)) {
    print_diagnostics(ds, "");
    return std::nullopt;
  }
  return cat;
}

// --dialect: "" (both), step-v1 or step-v2.
bool wants(const TaskOpts& o, bool v2) { return o.dialect.empty() || o.dialect == (v2 ? "step-v2" : "step-v1"); }

std::string tensor_io(const step::TaskDoc& t) {
  std::string s;
  for (std::size_t i = 0; i < t.tensor_inputs.size(); ++i) s += (i ? "," : "") + t.tensor_inputs[i].name;
  s += "->";
  for (std::size_t i = 0; i < t.tensor_outputs.size(); ++i) s += (i ? "," : "") + t.tensor_outputs[i].name;
  return s;
}

std::string tags(const step::TaskDoc& t) {
  if (!t.meta.present) return "-";
  std::string s = t.meta.copies == 0 ? "Once" : "Reuse(" + std::to_string(t.meta.copies) + ")";
  return s + "/" + t.meta.attr;
}

std::string io_summary(const step::TaskDoc& t) {
  std::string s;
  for (std::size_t i = 0; i < t.inputs.size(); ++i) s += (i ? "," : "") + t.inputs[i].name;
  s += "->";
  for (std::size_t i = 0; i < t.outputs.size(); ++i) s += (i ? "," : "") + t.outputs[i].name;
  return s;
}

int cmd_list(const TaskOpts& o) {
  std::optional<bench::Catalogue> cat, cat2;
  if (wants(o, false) && !(cat = load_catalogue(o))) return 1;
  if (wants(o, true) && !(cat2 = load_catalogue_v2(o))) return 1;
  nlohmann::json arr = nlohmann::json::array();
  int n = 0;
  if (cat && !o.json) std::printf("%-40s %-11s %-12s %4s  %s\n", "id", "group", "tags", "fns", "inputs->outputs");
  static const std::vector<step::TaskDoc> kNone;
  for (const auto& t : cat ? cat->tasks() : kNone) {
    if (!o.group.empty() && t.group != o.group) continue;
    ++n;
    if (o.json) {
      arr.push_back({{"id", t.id}, {"group", t.group}, {"title", t.title}, {"tags", tags(t)},
                     {"fns", t.fns.size()}, {"io", io_summary(t)}});
    } else {
      std::printf("%-40s %-11s %-12s %4zu  %s\n", t.id.c_str(), t.group.c_str(), tags(t).c_str(), t.fns.size(),
                  io_summary(t).c_str());
    }
  }
  if (cat && !o.json) std::printf("%d task(s)\n", n);
  // The STeP-25 tasks follow the step-v1 table (whose lines stay as they were), in their own columns.
  int n2 = 0;
  if (cat2) {
    if (!o.json) {
      if (cat) std::printf("\n");
      std::printf("%-40s %-11s %-8s %-14s %s\n", "id", "group", "dialect", "chip", "inputs->outputs");
    }
    for (const auto& t : cat2->tasks()) {
      if (!o.group.empty() && t.group != o.group) continue;
      ++n2;
      if (o.json) {
        arr.push_back({{"id", t.id}, {"group", t.group}, {"title", t.title}, {"dialect", t.dialect},
                       {"chip", t.chip}, {"io", tensor_io(t)}});
      } else {
        std::printf("%-40s %-11s %-8s %-14s %s\n", t.id.c_str(), t.group.c_str(), t.dialect.c_str(), t.chip.c_str(),
                    tensor_io(t).c_str());
      }
    }
    if (!o.json) std::printf("%d step-v2 task(s)\n", n2);
  }
  if (o.json) std::cout << arr.dump(2) << "\n";
  if (n + n2 == 0 && !o.group.empty()) {
    std::set<std::string> groups;
    for (const auto* c : {cat ? &*cat : nullptr, cat2 ? &*cat2 : nullptr})
      if (c)
        for (const auto& g : c->groups()) groups.insert(g);
    std::cerr << "error: no task in group '" << o.group << "' (groups:";
    for (const auto& g : groups) std::cerr << " " << g;
    std::cerr << ")\n";
    return 1;
  }
  return 0;
}

// A step-v2 task as agents see it: a header and the document without impl, verify, baseline and meta.
int show_v2(const step::TaskDoc& t) {
  std::cout << "# " << t.id << " — " << t.title << "\n# dialect: " << t.dialect << ", chip: " << t.chip
            << "\n# file: " << t.path << "\n";
  std::string text = bench::v2_agent_text(t);
  std::cout << text;
  if (!text.empty() && text.back() != '\n') std::cout << "\n";
  return 0;
}

int cmd_show(const TaskOpts& o) {
  std::optional<bench::Catalogue> cat;
  if (wants(o, false) && !(cat = load_catalogue(o))) return 1;
  const step::TaskDoc* t = cat ? cat->find(o.id) : nullptr;
  if (!t && wants(o, true)) {
    auto cat2 = load_catalogue_v2(o);
    if (!cat2) return 1;
    if (const step::TaskDoc* t2 = cat2->find(o.id)) return show_v2(*t2);
  }
  if (!t) {
    std::cerr << "error: no task '" << o.id << "' (see `stepforge-cli tasks list`)\n";
    return 1;
  }
  std::cout << "# " << t->id << " — " << t->title << "\n# tags: " << tags(*t) << "\n# file: " << t->path << "\n";
  cost::CostModel model;
  cost::Baselines baselines(model, resources_dir() + "/solutions");
  if (auto b = baselines.cycles(*t))
    std::cout << "# baseline: " << *b << " cycles (the reference solution under the cost model, chip "
              << model.chip().name << ", perf_sizes)\n";
  std::cout << t->raw_text_without_impl;
  if (!t->raw_text_without_impl.empty() && t->raw_text_without_impl.back() != '\n') std::cout << "\n";
  return 0;
}

int cmd_validate(const TaskOpts& o) {
  auto cat = load_catalogue(o);
  if (!cat) return 1;
  verify::ValidationPaths paths;
  std::string src = source_dir();
  std::string res = o.resources.empty() ? resources_dir() : o.resources;
  paths.solutions_dir = !o.solutions.empty() ? o.solutions : res + "/solutions";
  paths.mutants_dir = !o.mutants.empty() ? o.mutants : (src.empty() ? "" : src + "/tests/data/mutants");
  paths.manual_dir = !o.manual.empty() ? o.manual : res + "/manual";
  paths.hacks_dir = !o.hacks.empty() ? o.hacks : (src.empty() ? "" : src + "/tests/data/hacks");
  verify::Verifier v;
  Progress bar("validate");
  auto sum = verify::validate_benchmark(*cat, paths, v, [&](const std::string& what, int d, int t) {
    bar.update(d, t, what);
  });
  bar.finish();
  // Baselines: every reference solution must be timed by the cost model and be feasible on the default chip.
  cost::CostModel model;
  cost::Baselines baselines(model, paths.solutions_dir);
  int timed = 0;
  std::int64_t lo = INT64_MAX, hi = 0;
  for (const auto& t : cat->tasks()) {
    std::string why;
    auto r = baselines.report(t, &why);
    if (!r) {
      sum.problems.push_back("baseline of " + t.id + ": " + why);
      continue;
    }
    if (!r->feasible) {
      sum.problems.push_back("baseline of " + t.id + ": the reference solution is not feasible on chip " +
                             model.chip().name + ": " + r->violations.front().code + " " +
                             r->violations.front().message);
      continue;
    }
    ++timed;
    lo = std::min(lo, r->cycles);
    hi = std::max(hi, r->cycles);
  }
  for (const auto& p : sum.problems) std::cerr << "problem: " << p << "\n";
  std::printf("tasks: %d/%d sound\n", sum.tasks_ok, sum.tasks);
  std::printf("solutions: %d/%d pass on every size binding (%d task(s) without a passing solution)\n",
              sum.solutions_ok, sum.solutions, sum.tasks_without_solution);
  std::printf("mutants: %d/%d rejected at their annotated stage\n", sum.mutants_ok, sum.mutants);
  std::printf("reward hacks: %d/%d rejected with their annotated verdict\n", sum.hacks_ok, sum.hacks);
  std::printf("manual examples: %d/%d verify\n", sum.manual_ok, sum.manual_examples);
  std::printf("baselines: %d/%zu reference solutions timed and feasible (chip %s, perf_sizes; %lld to %lld cycles)\n",
              timed, cat->tasks().size(), model.chip().name.c_str(), static_cast<long long>(timed ? lo : 0),
              static_cast<long long>(hi));
  // The STeP-25 benchmark (resources/benchmark_v2): its lines follow the step-v1 ones, which stay as they were.
  std::size_t problems = sum.problems.size();
  bool ok = sum.ok();
  if (auto cat2 = load_catalogue_v2(o); !cat2) {
    ++problems;
    ok = false;
  } else if (!cat2->tasks().empty()) {
    bench::V2Paths p2;
    p2.resources_dir = res;
    p2.mutants_dir = src.empty() ? "" : src + "/tests/data/mutants_v2";
    p2.hacks_dir = src.empty() ? "" : src + "/tests/data/hacks_v2";
    p2.manual_dir = res + "/manual_v2";
    auto s2 = bench::validate_benchmark_v2(*cat2, p2, v);
    for (const auto& p : s2.problems) std::cerr << "problem: " << p << "\n";
    std::printf("v2 tasks: %d/%d sound\n", s2.tasks_ok, s2.tasks);
    std::printf("v2 baselines: %d/%d pass and are feasible (%lld to %lld cycles)\n", s2.baselines_ok, s2.baselines,
                static_cast<long long>(s2.baseline_lo), static_cast<long long>(s2.baseline_hi));
    std::string near;
    for (const auto& id : s2.near_peak) near += (near.empty() ? "" : ", ") + id;
    std::printf("v2 known-optimised: %d/%d pass and beat their baseline (median best speedup %.2fx, largest %.2fx; "
                ">= 90%% of peak: %s)\n",
                s2.known_ok, s2.known, s2.median_best_speedup, s2.max_best_speedup, near.empty() ? "none" : near.c_str());
    std::printf("v2 mutants: %d/%d rejected at their annotated stage\n", s2.mutants_ok, s2.mutants);
    std::printf("v2 reward hacks: %d/%d rejected or flagged with their annotated verdict\n", s2.hacks_ok, s2.hacks);
    std::printf("v2 manual examples: %d/%d verify and show their perf\n", s2.manual_ok, s2.manual_examples);
    problems += s2.problems.size();
    ok = ok && s2.ok();
  }
  std::printf("%s: %zu problem(s)\n", ok ? "OK" : "FAILED", problems);
  return ok ? 0 : 1;
}

int cmd_table(const TaskOpts& o) {
  auto cat2 = load_catalogue_v2(o);
  if (!cat2) return 1;
  std::vector<std::string> problems;
  auto rows = bench::time_benchmark_v2(*cat2, o.resources.empty() ? resources_dir() : o.resources, nullptr, problems);
  for (const auto& p : problems) std::cerr << "problem: " << p << "\n";
  for (const auto& r : rows) {
    if (!r.baseline.problem.empty()) std::cerr << "problem: " << r.baseline.problem << "\n";
    for (const auto& k : r.known)
      if (!k.problem.empty()) std::cerr << "problem: " << k.problem << "\n";
  }
  std::cout << bench::benchmark_v2_table(*cat2, rows);
  return problems.empty() ? 0 : 1;
}

}  // namespace

void add_task_commands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TaskOpts>();
  auto* tasks = app.add_subcommand("tasks", "The bundled benchmark tasks");
  tasks->require_subcommand(1);
  tasks->add_option("--resources", o->resources, "resources directory (default: the bundled one)");
  auto* list = tasks->add_subcommand("list", "A table of tasks: id, group, tags, fns, inputs->outputs");
  list->add_option("--group", o->group, "only this group");
  list->add_option("--dialect", o->dialect, "only tasks of this dialect (default: both; step-v2 tasks follow)")
      ->check(CLI::IsMember({"step-v1", "step-v2"}));
  list->add_flag("--json", o->json, "JSON output");
  list->callback([o, &exit_code] { exit_code = cmd_list(*o); });
  auto* show = tasks->add_subcommand("show", "Print a task as agents see it");
  show->add_option("id", o->id, "task id, e.g. attention/online_softmax_fused")->required();
  show->add_option("--dialect", o->dialect, "look the id up only among tasks of this dialect")
      ->check(CLI::IsMember({"step-v1", "step-v2"}));
  show->callback([o, &exit_code] { exit_code = cmd_show(*o); });
  auto* val = tasks->add_subcommand(
      "validate", "Check every task, reference solution, mutant and manual example (non-zero exit on any problem)");
  val->add_option("--solutions", o->solutions, "reference solutions directory (default: <resources>/solutions)");
  val->add_option("--mutants", o->mutants, "mutants directory (default: tests/data/mutants of the source)");
  val->add_option("--hacks", o->hacks, "reward-hack corpus directory (default: tests/data/hacks of the source)");
  val->add_option("--manual", o->manual, "manual directory (default: resources/manual)");
  val->callback([o, &exit_code] { exit_code = cmd_validate(*o); });
  auto* table = tasks->add_subcommand(
      "table", "The STeP-25 benchmark table (docs/benchmark-v2.md): baseline and best known program per task");
  table->add_option("--dialect", o->dialect, "the benchmark to tabulate (only step-v2 has one)")
      ->check(CLI::IsMember({"step-v2"}));
  table->callback([o, &exit_code] { exit_code = cmd_table(*o); });
}

}  // namespace sf::cli
