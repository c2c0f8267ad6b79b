// Value snapshot shown by the stream inspector (Qt-free): the named streams of one simulation and every
// output field next to its reference. Built from core results by make_inspector_snapshot; the widget never
// runs the engine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/compare.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::inspect {

struct InspectedStream {
  std::string name;  // "T3", "L[1]", task inputs by name
  std::string type;  // "[N, M] of Buffer(fp32, [D])", empty if unknown
  sim::StreamValue value;
};

struct InspectedOutput {
  std::string name;               // "S0", or "S0.1" for field 1 of a tuple output
  sim::StreamValue value;         // the program's output, this field only
  std::vector<double> reference;  // the reference full tensor of this field (double, as evaluated)
  double atol = 1e-5, rtol = 1.3e-6;
  sim::CompareStats stats;     // over min(program size, reference size) values
  bool size_mismatch = false;  // the program produced a different number of values than the reference
  std::string summary;         // pass_message / mismatch_message (spec §12 texts)
  bool pass() const { return !size_mismatch && stats.ok(); }
};

struct InspectorSnapshot {
  std::vector<InspectedStream> streams;  // program order: inputs, then definitions
  std::vector<InspectedOutput> outputs;
  std::string error;  // run error ("R-SHAPE: ..."), empty on success
};

// Per-value comparison status, as §12 decides it for one value.
enum class ValueStatus { Ok, Mismatch, RefNaN };
ValueStatus compare_value(float out, double ref, double atol, double rtol);

// The declared type of every stream value of a (typed) program: inputs, targets, "L[i]" list elements.
std::map<std::string, step::StreamType, std::less<>> stream_types(const step::Program& prog,
                                                                  const step::TypedProgram& typed,
                                                                  const step::TaskDoc& task);

// Builds a snapshot from a run (with RunOptions::keep_streams for the stream list) and, when available, the
// reference of the same input set. `typed`/`prog` (may be null) supply type texts and the stream order.
InspectorSnapshot make_inspector_snapshot(const step::TaskDoc& task, const step::Program* prog,
                                          const step::TypedProgram* typed, const sim::RunResult& run,
                                          const sim::ReferenceResult* reference);

// The comparison of one output field (used by make_inspector_snapshot; exposed for tests and tools).
InspectedOutput compare_output(std::string name, const sim::StreamValue& out, std::size_t field,
                               std::vector<double> reference, double atol, double rtol);

}  // namespace sf::inspect
