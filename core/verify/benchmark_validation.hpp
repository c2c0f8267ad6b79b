// `tasks validate`: every bundled task is well formed and sound (reference finite, no fragile input set),
// every reference solution passes on both size bindings, every mutant is rejected at its annotated stage,
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
  std::string manual_dir;     // resources/manual (empty: skipped)
};

struct ValidationSummary {
  int tasks = 0, tasks_ok = 0;
  int solutions = 0, solutions_ok = 0;
  int tasks_without_solution = 0;
  int mutants = 0, mutants_ok = 0;
  int manual_examples = 0, manual_ok = 0;
  std::vector<std::string> problems;  // one line per problem, "file:line:col: ..." where known
  bool ok() const { return problems.empty(); }
};

using ProgressFn = std::function<void(const std::string& what, int done, int total)>;

ValidationSummary validate_benchmark(const bench::Catalogue& cat, const ValidationPaths& paths, Verifier& v,
                                     const ProgressFn& progress = {});

// The fenced ```yaml blocks of a Markdown file that contain an `impl:` key, with their first line in the file.
struct MarkdownExample {
  std::string text;
  int first_line = 0;  // 1-based file line of the block's first content line
};
std::vector<MarkdownExample> yaml_examples(const std::string& markdown);

}  // namespace sf::verify
