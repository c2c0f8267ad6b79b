#include "core/verify/benchmark_validation.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/bench/catalogue.hpp"
#include "core/verify/program_file.hpp"

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
  auto manual = yaml_files(paths.manual_dir, ".md");
  int total = static_cast<int>(cat.tasks().size() + solutions.size() + mutant_files.size() + manual.size());
  int done = 0;
  auto tick = [&](const std::string& what) {
    ++done;
    if (progress) progress(what, done, total);
  };

  // Tasks.
  for (const auto& t : cat.tasks()) {
    ++sum.tasks;
    Diagnostics ds;
    if (validate_task(v, t, ds)) {
      ++sum.tasks_ok;
    } else {
      sum.problems.push_back("task " + t.id + ": " + first_error(ds, t.path));
    }
    tick(t.id);
  }

  // Solutions: every task needs one, and each passes on every binding.
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
    Report r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
    bool both = std::count_if(r.sets.begin(), r.sets.end(), [](const InputSetReport& s) { return s.alt; }) > 0 ||
                !pf->task.verify.alt_sizes;
    if (r.pass && both) {
      ++sum.solutions_ok;
      solved.insert(pf->task.id);
    } else {
      sum.problems.push_back("solution " + (r.pass ? f + ": not verified under the alternative sizes"
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

  // Mutants: each must fail at its annotated stage (and code, when annotated).
  for (const auto& f : mutant_files) {
    Diagnostics ds;
    step::AnyDoc any = step::load_any_file(f, ds);
    if (!any.mutants) {
      sum.problems.push_back("mutants " + first_error(ds, f));
      tick(f);
      continue;
    }
    const step::TaskDoc* task = cat.find(any.mutants->task_id);
    if (!task) {
      sum.problems.push_back(f + ": mutants name unknown task '" + any.mutants->task_id + "'");
      tick(f);
      continue;
    }
    for (const auto& m : any.mutants->mutants) {
      ++sum.mutants;
      Report r = v.verify(*task, m.impl, m.impl_line_starts);
      std::string where = f + ":" + std::to_string(m.loc.line) + ": mutant '" + m.name + "'";
      Stage want{};
      if (!parse_stage(m.stage, want)) {
        sum.problems.push_back(where + ": unknown stage '" + m.stage + "'");
        continue;
      }
      if (r.pass) {
        sum.problems.push_back(where + " passes verification but must fail at stage " + m.stage);
      } else if (*r.stage != want) {
        sum.problems.push_back(where + " fails at stage " + std::string(stage_name(*r.stage)) + " (" + r.code +
                               ") instead of " + m.stage + ": " + first_error(r.diags, ""));
      } else if (!m.code.empty() && r.code != m.code) {
        sum.problems.push_back(where + " fails with " + r.code + " instead of " + m.code + ": " +
                               first_error(r.diags, ""));
      } else {
        ++sum.mutants_ok;
      }
    }
    tick(f);
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
