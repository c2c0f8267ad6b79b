// The catalogue of bundled tasks: every task document under <resources>/benchmark/**/*.yaml.
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

  const std::vector<step::TaskDoc>& tasks() const { return tasks_; }
  const step::TaskDoc* find(std::string_view id) const;
  std::vector<std::string> groups() const;  // distinct groups, sorted

 private:
  std::vector<step::TaskDoc> tasks_;  // sorted by id
};

}  // namespace sf::bench
