// The dataflow graph of a STeP program as a value snapshot (Qt-free): nodes are primitive applications
// (plus task inputs, returned outputs and a marker per unused stream), edges are stream values labelled with
// their type and shape. Affinity violations (step-dialect §6) are flagged on the edges.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/cost/cost_model.hpp"
#include "core/step/ast.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::inspect {

struct GraphNode {
  enum class Kind { Input, Primitive, Output, Unused };
  Kind kind = Kind::Primitive;
  std::string title;     // "Map(fn=fn_score)", "E0", "S0", "unused"
  std::string subtitle;  // "line 6", "for f, s in zip(experts, T12)", "task input", "return"
  int statement = -1;    // index into Program::stmts (Primitive and Output nodes), -1 otherwise
  int line = 0;          // first file line of the statement (0 = none)
  int end_line = 0;      // last file line of the statement
};

struct GraphEdge {
  int from = -1, to = -1;     // node indices
  std::string stream;         // "T2", "L[1]", or a stream-list name "L" (whole-list use)
  std::string type;           // "[N, M] of B[D]" (compact), empty when the program is not typed
  std::string full_type;      // "[N, M] of Buffer(fp32, [D])", empty when not typed
  bool violation = false;     // part of an affinity violation (A-MULTI, A-LIST, A-DEAD)
  std::string label() const;  // "T2: [N, M] of B[D]" or just "T2"
};

struct DataflowGraph {
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  int violation_count() const;
  // The node whose statement spans `line`, or -1.
  int node_at_line(int line) const;
};

// Compact type text: Buffer(fp32, [D]) -> B[D], Multihot(fp32, E) -> MH(E), tuples as [a, b].
std::string compact_dtype(const step::DType& t);
// "[N, M] of B[D]" (compact) or "[N, M] of Buffer(fp32, [D])".
std::string stream_type_text(const step::StreamType& t, bool compact);

// Builds the graph of a parsed program. `typed` (may be null) supplies edge types. Works on any parsed
// program: references to unknown names are skipped, a stream used before its definition is ignored.
DataflowGraph build_dataflow_graph(const step::Program& prog, const step::TypedProgram* typed,
                                   const step::TaskDoc& task);

// Parses and checks `impl` (names, then types even when the affine rule fails) and builds its graph.
// On a parse or name error the graph is empty and the diagnostics explain why.
DataflowGraph dataflow_graph_from_impl(const step::TaskDoc& task, std::string_view impl,
                                       const std::vector<Location>& line_starts,
                                       Diagnostics* diags = nullptr);

// The cost model's numbers on the graph (docs/gui-panes.md): per node its share of all units' busy cycles
// (Input ↔ its Load, Primitive ↔ the units of its statement lines, Output k ↔ the k-th Store; -1 for Unused
// markers and nodes without a unit) and per edge the tokens that passed (-1 when the unit counts do not
// determine it, e.g. the lanes of a Partition).
struct GraphCostOverlay {
  // node_share: the node's share of all busy cycles (sums to 1). node_utilisation: busy / total cycles of the
  // node's units (their mean when a statement has several), 0..1 — what the graph shows (issue 34 item 7).
  // -1 for nodes without a unit.
  std::vector<double> node_share;
  std::vector<double> node_utilisation;
  std::vector<std::int64_t> node_busy;
  std::vector<std::int64_t> edge_tokens;
  double max_share = 0;
};
GraphCostOverlay graph_cost_overlay(const DataflowGraph& g, const cost::CostReport& r);

}  // namespace sf::inspect
