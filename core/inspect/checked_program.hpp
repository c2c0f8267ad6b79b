// A program as the workbench inspects it (issue 14 item 4), Qt-free: the editor's document (or a program
// file) loaded and statically checked, the type of every stream it defines, and one simulation of it against
// the reference with every named stream kept (the stream inspector's data). The GUI's engine thread
// (widgets/engine/engine_jobs.cpp, engine_worker.cpp) and the CLI call these; nothing here knows about threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/inspect/stream_data.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/verifier.hpp"

namespace sf::bench {
class Catalogue;
}

namespace sf::inspect {

// A task with a statically checked program. `result` refers to `task` (fn declarations): build it in place
// (load_and_check) and keep it where it is (share it through a pointer).
struct CheckedProgram {
  step::TaskDoc task;
  std::string impl;
  std::vector<Location> impl_line_starts;
  verify::CheckResult result;
};

// Loads `text` (a task document with `impl:`, or a solution file resolved against `cat`;
// verify::load_program_text) and runs the static checks of the whole document (verify::check_document, as
// `stepforge-cli check`). Null (with D-* diagnostics) when there is no program to check.
std::shared_ptr<CheckedProgram> load_and_check(std::string_view text, const std::string& path,
                                               const bench::Catalogue* cat, Diagnostics& diags);

// The inferred type of one stream (or stream list) a program defines, for inline annotations.
struct StreamAnnotation {
  std::string name;  // stream (or stream list) name
  int line = 0;      // file line of the defining statement's first token
  std::string type;  // "[N] of Buffer(fp32, [K])", "list of 3 × …", "list [a; b]"
};
// One annotation per stream (or stream list) a program defines, either dialect. With an error, the statements
// before the first one an error is located in keep theirs (v1: CheckResult::partial, v2: step2 types).
// v2: "[1, 2, 2] of Tile[128, 128]" (stream shape, then the element; outermost-first).
std::vector<StreamAnnotation> stream_annotations(const CheckedProgram& p);
// The first line of the first statement whose types an error took away (the one the error is in); 0 when every
// statement kept its types or none was typed.
int types_stop_line(const CheckedProgram& p);

// One simulation of a checked program on the task's first size binding and first verification seed, with
// every named stream kept, and the stream inspector's snapshot of it against the reference.
struct Simulation {
  step::SizeBinding sizes;
  std::uint64_t seed = 0;
  std::shared_ptr<const verify::Verifier::Prepared> prepared;  // inputs and reference of the input set
  std::shared_ptr<const sim::RunResult> run;                   // keep_streams
  std::shared_ptr<const InspectorSnapshot> inspector;
  double seconds = 0;  // the run alone (wall clock)
  bool ok() const { return run && !run->error; }
};
// The input set a single simulation uses: the task's first size binding and first verification seed (42 when
// the task lists none).
std::pair<step::SizeBinding, std::uint64_t> simulation_input(const step::TaskDoc& task);

// Null when the inputs or the reference could not be prepared (diagnostics say why); otherwise the run, whose
// runtime error (if any) is also appended to `diags`. `p.result` must be ok(). `step` (may be empty) is
// called before each phase — 1 "generating inputs and reference", 2 "simulating" — and stops the simulation
// (null result) when it returns false (a superseded request).
std::optional<Simulation> simulate_once(const CheckedProgram& p, verify::Verifier& verifier,
                                        Diagnostics& diags, const std::function<bool(int phase)>& step = {});

}  // namespace sf::inspect
