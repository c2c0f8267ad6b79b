// The catalogue of bundled tasks: every task document under <resources>/benchmark/**/*.yaml (dialect step-v1),
// and, loaded separately, the STeP-25 optimisation benchmark under <resources>/benchmark_v2/**/*.yaml
// (dialect step-v2; its baselines and known-optimised programs live in <resources>/solutions_v2 and are never
// part of what agents see).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"

namespace sf::bench {

// $STEPFORGE_RESOURCES, else <exe>/../share/stepforge/resources, else the compiled-in source tree's resources/.
std::string resource_dir();

class Catalogue {
 public:
  // Loads dir/benchmark/**/*.yaml in path order. A file that fails to load is skipped; its diagnostics are
  // appended with the file's path (relative to dir) prepended to the message. Duplicate ids (D-DUP) and ids
  // that do not match the file's place benchmark/<group>/<name>.yaml (D-VALUE) are reported and skipped too.
  static Catalogue load(const std::string& dir, Diagnostics& diags);
  // The same rules for dir/benchmark_v2/**/*.yaml; every document must be `dialect: step-v2` (D-DIALECT
  // otherwise). A v2 document has no `group` key: the group is the first part of its id. A directory without
  // benchmark_v2/ has no v2 tasks (no diagnostic).
  static Catalogue load_v2(const std::string& dir, Diagnostics& diags);
  // Both catalogues in one (for looking up the task a program file names): the step-v1 tasks and the step-v2
  // tasks, sorted by id; an id in both is reported (D-DUP) and the step-v2 one left out.
  static Catalogue load_all(const std::string& dir, Diagnostics& diags);

  const std::vector<step::TaskDoc>& tasks() const { return tasks_; }
  const step::TaskDoc* find(std::string_view id) const;
  std::vector<std::string> groups() const;  // distinct groups, sorted

 private:
  static Catalogue load_from(const std::string& dir, const char* subdir, bool v2, Diagnostics& diags);
  std::vector<step::TaskDoc> tasks_;  // sorted by id
};

// Where a v2 task's baseline lives: <dir>/solutions_v2/<group>/<baseline> ("" when the task names none).
std::string v2_baseline_path(const std::string& dir, const step::TaskDoc& task);
// The task text agents see for a v2 task (what `tasks show` prints after its header): the document without
// impl, verify, baseline and meta. Never a baseline or a known-optimised program.
std::string v2_agent_text(const step::TaskDoc& task);

}  // namespace sf::bench
