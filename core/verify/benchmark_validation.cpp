#include "core/verify/benchmark_validation.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "core/bench/catalogue.hpp"
#include "core/verify/program_file.hpp"
#include "core/verify/task_audit.hpp"

namespace fs = std::filesystem;

namespace sf::verify {

namespace {

std::vector<std::string> yaml_files(const std::string& dir, const std::string& ext = ".yaml") {
  std::vector<std::string> out;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file() && it->path().extension() == ext) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_error(const Diagnostics& ds, const std::string& file) {
  for (const auto& d : ds)
    if (d.is_error()) return format_diagnostic(d, file);
  return file + ": failed";
}

}  // namespace

RejectionSummary check_rejected_files(const bench::Catalogue& cat, const std::vector<std::string>& files,
                                      const std::string& kind, Verifier& v, const std::function<void(const std::string&)>& tick) {
  RejectionSummary out;
  int& count = out.programs;
  int& count_ok = out.rejected_as_annotated;
  std::vector<std::string>& problems = out.problems;
  for (const auto& f : files) {
    Diagnostics ds;
    step::AnyDoc any = step::load_any_file(f, ds);
    if (!any.mutants) {
      problems.push_back(kind + "s " + first_error(ds, f));
      if (tick) tick(f);
      continue;
    }
    const step::TaskDoc* task = cat.find(any.mutants->task_id);
    if (!task) {
      problems.push_back(f + ": " + kind + "s name unknown task '" + any.mutants->task_id + "'");
      if (tick) tick(f);
      continue;
    }
    for (const auto& m : any.mutants->mutants) {
      ++count;
      Report r = v.verify(*task, m.impl, m.impl_line_starts);
      std::string where = f + ":" + std::to_string(m.loc.line) + ": " + kind + " '" + m.name + "'";
      Stage want{};
      if (!parse_stage(m.stage, want)) {
        problems.push_back(where + ": unknown stage '" + m.stage + "'");
        continue;
      }
      if (r.pass) {
        problems.push_back(where + " passes verification but must fail at stage " + m.stage);
      } else if (*r.stage != want) {
        problems.push_back(where + " fails at stage " + std::string(stage_name(*r.stage)) + " (" + r.code +
                           ") instead of " + m.stage + ": " + first_error(r.diags, ""));
      } else if (!m.code.empty() && r.code != m.code) {
        problems.push_back(where + " fails with " + r.code + " instead of " + m.code + ": " + first_error(r.diags, ""));
      } else {
        ++count_ok;
      }
    }
    if (tick) tick(f);
  }
  return out;
}

RejectionSummary check_rejected_dir(const bench::Catalogue& cat, const std::string& dir, const std::string& kind,
                                    Verifier& v) {
  return check_rejected_files(cat, yaml_files(dir), kind, v, {});
}


std::vector<MarkdownExample> yaml_examples(const std::string& markdown) {
  std::vector<MarkdownExample> out;
  std::istringstream in(markdown);
  std::string line;
  int n = 0;
  bool inside = false;
  MarkdownExample cur;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!inside) {
      if (line.rfind("```yaml", 0) == 0) {
        inside = true;
        cur = MarkdownExample{};
        cur.first_line = n + 1;
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      inside = false;
      if (cur.text.find("\nimpl:") != std::string::npos || cur.text.rfind("impl:", 0) == 0) out.push_back(cur);
      continue;
    }
    cur.text += line + "\n";
  }
  return out;
}

ValidationSummary validate_benchmark(const bench::Catalogue& cat, const ValidationPaths& paths, Verifier& v,
                                     const ProgressFn& progress) {
  ValidationSummary sum;
  auto solutions = yaml_files(paths.solutions_dir);
  auto mutant_files = yaml_files(paths.mutants_dir);
  auto hack_files = yaml_files(paths.hacks_dir);
  auto manual = yaml_files(paths.manual_dir, ".md");
  int total = static_cast<int>(cat.tasks().size() + solutions.size() + mutant_files.size() + hack_files.size() + manual.size());
  int done = 0;
  auto tick = [&](const std::string& what) {
    ++done;
    if (progress) progress(what, done, total);
  };

  // Tasks.
  for (const auto& t : cat.tasks()) {
    ++sum.tasks;
    Diagnostics ds;
    if (validate_task(v, t, ds) && audit_task(v, t, ds)) {
      ++sum.tasks_ok;
    } else {
      sum.problems.push_back("task " + t.id + ": " + first_error(ds, t.path));
    }
    tick(t.id);
  }

  // Solutions: every task needs one, and each passes on every binding.
  VerifyOptions strict_opt;
  strict_opt.use_general_sizes = true;
  Verifier strict(strict_opt);
  std::set<std::string> solved;
  for (const auto& f : solutions) {
    ++sum.solutions;
    Diagnostics ds;
    auto pf = load_program_file(f, &cat, ds);
    if (!pf) {
      sum.problems.push_back("solution " + first_error(ds, f));
      tick(f);
      continue;
    }
    // 16 seeds on every binding, general_sizes included (§15.11).
    Report r = strict.verify(pf->task, pf->impl, pf->impl_line_starts, validation_extra_seeds(pf->task));
    auto all = pf->task.static_bindings();
    auto want = static_cast<std::size_t>(
        std::count_if(all.begin(), all.end(), [](const step::NamedBinding& b) { return b.name != "perf_sizes"; }));
    std::set<std::string> ran;
    for (const auto& s : r.sets) ran.insert(s.binding);
    if (r.pass && ran.size() == want) {
      ++sum.solutions_ok;
      solved.insert(pf->task.id);
    } else {
      sum.problems.push_back("solution " + (r.pass ? f + ": not verified under every size binding"
                                                   : first_error(r.diags, f)));
    }
    tick(f);
  }
  if (!paths.solutions_dir.empty()) {
    for (const auto& t : cat.tasks()) {
      if (!solved.count(t.id)) {
        ++sum.tasks_without_solution;
        sum.problems.push_back("task " + t.id + ": no passing reference solution in " + paths.solutions_dir);
      }
    }
  }

  // Mutants and reward hacks: each must fail at its annotated stage (and code, when annotated).
  for (auto [files, kind, count, ok] : {std::tuple{&mutant_files, "mutant", &sum.mutants, &sum.mutants_ok},
                                        std::tuple{&hack_files, "hack", &sum.hacks, &sum.hacks_ok}}) {
    RejectionSummary r = check_rejected_files(cat, *files, kind, v, tick);
    *count = r.programs;
    *ok = r.rejected_as_annotated;
    sum.problems.insert(sum.problems.end(), r.problems.begin(), r.problems.end());
  }

  // Manual examples.
  for (const auto& f : manual) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    for (const auto& ex : yaml_examples(ss.str())) {
      ++sum.manual_examples;
      Diagnostics ds;
      auto doc = step::load_task_text(ex.text, f, ds);
      std::string where = f + ":" + std::to_string(ex.first_line);
      if (!doc || !doc->impl) {
        sum.problems.push_back(where + ": example does not load: " + first_error(ds, ""));
        continue;
      }
      Report r = v.verify(*doc, *doc->impl, doc->impl_line_starts);
      if (r.pass) {
        ++sum.manual_ok;
      } else {
        sum.problems.push_back(where + ": example '" + doc->id + "' fails: " + first_error(r.diags, ""));
      }
    }
    tick(f);
  }
  return sum;
}

}  // namespace sf::verify
