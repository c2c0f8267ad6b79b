// Opening a program file the way users hand them to us: a task document with `impl`, or a solution file
// (`task: <id>` + `impl`) resolved against the bundled catalogue.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::verify {

struct ProgramFile {
  std::string path;
  step::TaskDoc task;
  std::string impl;
  std::vector<Location> impl_line_starts;
};

// D-* diagnostics for unreadable or malformed files; D-NO-IMPL for a task without impl; D-TASK-UNKNOWN for a
// solution naming a task the catalogue does not have (catalogue may be null: then solutions are rejected).
std::optional<ProgramFile> load_program_file(const std::string& path, const bench::Catalogue* catalogue,
                                             Diagnostics& diags);
// The same for a document's text (the GUI editor's buffer); `path` names it in diagnostics.
std::optional<ProgramFile> load_program_text(std::string_view text, const std::string& path,
                                             const bench::Catalogue* catalogue, Diagnostics& diags);

}  // namespace sf::verify
