// STeP-25 (dialect step-v2) static checks: parse -> names -> types under every size binding -> step2::Graph.
//
// API in one paragraph. Call `step2::check(task, impl, impl_line_starts)` with a loaded `step-v2` TaskDoc
// (core/step/task.hpp: tensor_inputs/tensor_outputs, sizes, verify.alt_sizes) and the program text with the
// file location of each impl line (ProgramFile::impl_line_starts; empty = impl-relative lines). It returns a
// CheckResult: `program` (the AST, when it parsed), `diags` (located, compiler-style: P-*, N-*, T2-*, C-BW,
// L-*; sorted, at most 20 errors) and, when there is no error, `graphs`: one resolved Graph per binding (sizes
// first, then verify.alt_sizes when it differs). `result.graph()` is the graph under `sizes` — the one the
// cost model times. Every Graph has concrete integer shapes, one consumer per stream (implicit Broadcasts
// inserted, `implicit = true`), nodes in program order. Thread-safe, no globals, never throws; bounded by
// CheckOptions (statements, bytes, tokens and scalars per stream and in total).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/task.hpp"
#include "core/step2/graph.hpp"
#include "core/step2/program.hpp"

namespace sf::step2 {

struct CheckOptions {
  std::size_t max_statements = 200;
  std::size_t max_bytes = 64 * 1024;
  std::int64_t max_stream_tokens = 1 << 22;          // elements of one stream (‖shape‖)
  std::int64_t max_stream_scalars = 16'000'000;      // ‖shape‖ · floats per element, one stream
  std::int64_t max_total_scalars = 64'000'000;       // the sum over all streams
  std::int64_t max_tensor_scalars = 4'000'000;       // one off-chip tensor (the fn language's limit)
};

struct BoundGraph {
  std::string binding;  // "sizes" or "verify.alt_sizes"
  step::SizeBinding sizes;
  Graph graph;
};

struct CheckResult {
  std::optional<Program> program;
  std::vector<BoundGraph> graphs;  // set only when there is no error
  Diagnostics diags;
  // The output types under `sizes` of each statement of `program` (parallel to its statements; empty when it
  // did not parse): every statement's when there is no error; otherwise only the statements before the first
  // one an error is located in keep theirs (the editor keeps showing them while a later line is wrong).
  std::vector<std::vector<StreamType>> types;
  bool ok() const { return !graphs.empty(); }
  const Graph* graph() const { return graphs.empty() ? nullptr : &graphs.front().graph; }
  const Graph* graph_for(const step::SizeBinding& sizes) const;
};

CheckResult check(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts = {},
                  const CheckOptions& opt = {});

// The graph of one already-parsed program under one binding (what check() runs per binding). Appends located
// diagnostics; nullopt on error.
std::optional<Graph> build_graph(const Program& prog, const step::TaskDoc& task, const step::SizeBinding& sizes,
                                 const CheckOptions& opt, Diagnostics& diags);

// The bindings a v2 program is checked and verified under: sizes, then verify.alt_sizes when present and
// different.
std::vector<std::pair<std::string, step::SizeBinding>> bindings_of(const step::TaskDoc& task);

// The concrete shape (outermost-first) of a task tensor under a binding; nullopt with `why` when a dim is not a
// positive integer.
std::optional<std::vector<std::int64_t>> tensor_shape(const step::TensorDecl& t, const step::SizeBinding& sizes,
                                                      std::string& why);

// "[1, 2, 2, 2]", "Tile[128, 128]" (or "Buffer[Tile[..], [..]]") and "Stream[Tile[128, 128], [1, 2, 2, 2]]".
std::string shape_text(const std::vector<std::int64_t>& s);
std::string elem_type_text(const ElemType& e);
std::string type_text(const StreamType& t);

}  // namespace sf::step2
