// `tasks validate`: every bundled task is well formed and sound (reference finite, no fragile input set),
// every reference solution passes on every size binding (sizes, alt_sizes, general_sizes) and 16 seeds, every mutant and every
// reward hack (tests/data/hacks) is rejected with its annotated verdict, every task passes the quality audit,
// and every worked example of the agents' manual verifies.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/verify/verifier.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::verify {

struct ValidationPaths {
  std::string solutions_dir;  // resources/solutions (empty: skipped)
  std::string mutants_dir;    // tests/data/mutants (empty: skipped)
  std::string hacks_dir;      // tests/data/hacks: reward-hack programs, mutant format (empty: skipped)
  std::string manual_dir;     // resources/manual (empty: skipped)
};

struct ValidationSummary {
  int tasks = 0, tasks_ok = 0;
  int solutions = 0, solutions_ok = 0;
  int tasks_without_solution = 0;
  int mutants = 0, mutants_ok = 0;
  int hacks = 0, hacks_ok = 0;  // reward hacks rejected with their annotated verdict
  int manual_examples = 0, manual_ok = 0;
  std::vector<std::string> problems;  // one line per problem, "file:line:col: ..." where known
  bool ok() const { return problems.empty(); }
};

using ProgressFn = std::function<void(const std::string& what, int done, int total)>;

ValidationSummary validate_benchmark(const bench::Catalogue& cat, const ValidationPaths& paths, Verifier& v,
                                     const ProgressFn& progress = {});

// Files in the mutant format (`task:` + a list of programs, each annotated with the stage and code it must fail
// with): tests/data/mutants and the reward-hack corpus tests/data/hacks. Every program is verified with `v`.
struct RejectionSummary {
  int programs = 0, rejected_as_annotated = 0;
  std::vector<std::string> problems;  // a program that passes, or fails at another stage / with another code
};
RejectionSummary check_rejected_files(const bench::Catalogue& cat, const std::vector<std::string>& files,
                                      const std::string& kind, Verifier& v,
                                      const std::function<void(const std::string&)>& tick = {});
// Every .yaml file under `dir` (recursively, sorted).
RejectionSummary check_rejected_dir(const bench::Catalogue& cat, const std::string& dir, const std::string& kind,
                                    Verifier& v);

// The fenced ```yaml blocks of a Markdown file that contain an `impl:` key, with their first line in the file.
struct MarkdownExample {
  std::string text;
  int first_line = 0;  // 1-based file line of the block's first content line
};
std::vector<MarkdownExample> yaml_examples(const std::string& markdown);

}  // namespace sf::verify
