// STeP-25 (dialect step-v2): the resolved dataflow graph of one checked program under one size binding.
// This is the one shape that everything downstream of the v2 checker reads: the functional simulator
// (core/step2/sim*), the byte count and the discrete-event cycle model (core/step2/perf/), the CLI's
// `graph`/`perf` and the GUI's performance explorer. Every dim here is a concrete integer; every stream has
// exactly one producer port and exactly one consumer (fan-out already went through the implicit-Broadcast
// pass, whose nodes have `implicit = true`). Shapes are outermost-first, as everywhere in v2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"

namespace sf::step2 {

// The 17 phase-1 operators (step25 spec §4.1), in table order.
enum class Op {
  OffChipLoad,
  OffChipStore,
  UnaryMap,
  BinaryMap,
  BinaryMapAccum,
  Accum,
  Broadcast,
  Bufferize,
  Streamify,
  RepeatStatic,
  ExpandRef,
  Promote,
  Flatten,
  Reshape,
  RetileStreamify,
  Parallelize,
  StaticReassemble,
};

// Tile functions (`fn=`), §4.1's second table. `None` for operators without fn.
enum class Fn {
  None,
  Matmul,
  MatmulT,
  Add,
  Mul,
  Div,
  Sub,
  Max,
  Silu,
  Exp,
  Tanh,
  Rsqrt,
  Square,
  RowSum,
  RowMax,
  Scale,
  Shift,
  Sigmoid,
  Gelu,
  Relu,
  RetileRow,
  RetileCol,
};

struct TileShape {
  std::int64_t rows = 0, cols = 0;
  std::int64_t bytes() const { return rows * cols * 4; }  // fp32 only in v2.0
  friend bool operator==(const TileShape&, const TileShape&) = default;
};

// The element type of a stream: a tile, or a Buffer of tiles with its own shape (outermost-first).
struct ElemType {
  TileShape tile;
  bool is_buffer = false;
  std::vector<std::int64_t> buffer_shape;  // only when is_buffer
  std::int64_t bytes() const;              // tile bytes, or Π buffer_shape · tile bytes
  friend bool operator==(const ElemType&, const ElemType&) = default;
};

// Stream[elem, shape]; rank = shape.size() - 1 (step_py's rule: an OffChipLoad stream starts with a 1).
struct StreamType {
  ElemType elem;
  std::vector<std::int64_t> shape;  // outermost-first, never empty
  int rank() const { return static_cast<int>(shape.size()) - 1; }
  std::int64_t elements() const;  // ‖shape‖
  friend bool operator==(const StreamType&, const StreamType&) = default;
};

// Every kwarg of every phase-1 operator, resolved to integers; a field an operator does not take keeps its
// default. Names follow the v2 spelling of §2/§4.1.
struct Kwargs {
  Fn fn = Fn::None;
  double c = 0.0;                      // scale / shift constant
  int rank = 0;                        // BinaryMapAccum, Accum, Bufferize, Streamify, ExpandRef, Promote,
                                       // Reshape, Parallelize, StaticReassemble
  int n = 0;                           // Broadcast, RepeatStatic, Parallelize
  std::int64_t compute_bw = 0;         // only the four compute operators (0 = not a compute node)
  int write_back_mu = 0;               // 0 or 1
  int par_dispatch = 0;                // OffChipLoad / OffChipStore
  TileShape tile;                      // OffChipLoad `tile`; Accum `out`
  std::vector<std::int64_t> stride;    // OffChipLoad, same length as `shape`
  std::vector<std::int64_t> shape;     // OffChipLoad `shape` (the stream shape without the leading 1)
  std::vector<std::int64_t> repeat;    // Streamify (at most one entry in v2.0)
  int min = 0, max = 0;                // Flatten
  std::int64_t chunk = 0;              // Reshape
  int split_row = 1;                   // RetileStreamify
  std::vector<std::int64_t> switch_cycles;  // Parallelize `switch` (default {1})
};

struct Node {
  Op op = Op::UnaryMap;
  Kwargs kw;
  std::vector<int> inputs;   // stream ids, in argument order (BinaryMap: (x1, x2); ExpandRef: (x, ref))
  std::vector<int> outputs;  // stream ids, in port order; empty for OffChipStore
  std::string tensor;        // OffChipLoad: the input tensor read; OffChipStore: the output tensor written
  std::string target;        // the statement's target text as written ("c", "x0, x1", "C"); empty if implicit
  Location loc;              // the statement (an implicit Broadcast: the statement of the producer it copies)
  bool implicit = false;     // inserted by the implicit-Broadcast pass
  bool is_compute() const;   // UnaryMap, BinaryMap, BinaryMapAccum, Accum
  bool is_memory() const;    // OffChipLoad, OffChipStore
};

struct Stream {
  StreamType type;
  int producer = -1, port = 0;  // node id and its output port
  int consumer = -1;            // node id (exactly one after the Broadcast pass)
  int consumer_arg = 0;         // which of the consumer's inputs
  std::string name;             // the name it was bound to in the source ("" for implicit copies)
};

// An off-chip tensor (task input or output), shape outermost-first.
struct Tensor {
  std::string name;
  std::vector<std::int64_t> shape;
  bool is_output = false;
};

// The whole program under one binding, nodes in program order (an implicit Broadcast right after the node
// whose output it copies). Node ids and stream ids are indices into the vectors.
struct Graph {
  std::vector<Node> nodes;
  std::vector<Stream> streams;
  std::vector<Tensor> tensors;
  int compute_nodes() const;  // nodes with is_compute()
};

}  // namespace sf::step2
