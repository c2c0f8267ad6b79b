// Flat intermediate representation of a compiled fn body: slots (tensors of static size) and ops.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"

namespace sf::fnlang::ir {

constexpr int kMaxRank = 8;
using Dims = std::array<std::int64_t, kMaxRank>;

enum class OpKind : std::uint8_t { Unary, Binary, Ternary, Reduce, Cumsum, Softmax, TopK, Argmax, OneHot, Matmul, Einsum, Copy };
enum class UnFn : std::uint8_t { Neg, Abs, Cos, Erf, Exp, Log, Relu, Rsqrt, Sigmoid, Silu, Sin, Sqrt, Square, Tanh, Gelu, GeluTanh };
enum class BinFn : std::uint8_t { Add, Sub, Mul, Div, Pow, Max, Min, FloorDiv, Gt, Ge, Lt, Le, Eq, Ne };
enum class TerFn : std::uint8_t { Where, Clamp };
enum class RedFn : std::uint8_t { Sum, Mean, Max, Min, Var };

// Broadcast pattern of an elementwise op.
enum class Pattern : std::uint8_t { General, Same, ScalarA, ScalarB };

struct Op {
  OpKind kind = OpKind::Copy;
  int fn = 0;
  int out = -1;
  std::array<int, 3> in{-1, -1, -1};
  std::int64_t n = 0;  // elements written
  // Elementwise/Copy: iteration shape and per-operand strides (Copy: st[0] = source strides).
  int rank = 0;
  Dims shape{};
  std::array<Dims, 3> st{};
  Dims dst_st{};
  std::int64_t src_off = 0, dst_off = 0;
  Pattern pat = Pattern::General;
  bool contiguous = false;  // Copy: both sides contiguous -> one block copy
  // Axis ops: outer x len x inner decomposition; k for topk / one_hot depth.
  std::int64_t outer = 1, len = 1, inner = 1, k = 0;
  // Matmul: per-batch offsets, m x kk times kk x nn.
  std::int64_t mm_m = 0, mm_k = 0, mm_n = 0;
  std::vector<std::int64_t> a_off, b_off;
  int plan = -1;  // Einsum plan
  // FLOPs of one run of this op under the cost-model table (docs/fn-flops.md), set once at emission from the
  // builtin the user wrote: 0 for copies, one_hot and anything that is not arithmetic. A builtin lowered to
  // several ops carries its whole count on one of them and 0 on the others. Never read by the evaluator.
  std::int64_t flops = 0;
  sf::Location loc;
  std::string what;  // for fragile-gap and run-time reports
};

struct EinsumPlan {
  int nops = 0;
  std::vector<int> operand_slots;
  int nout = 0;                 // first nout letters index the output (row-major)
  std::vector<std::int64_t> sizes;  // per letter
  std::vector<std::vector<std::int64_t>> strides;  // [operand][letter]
};

struct Slot {
  std::int64_t size = 0;
  int arg = -1;                 // >= 0: bound to args[arg]
  std::int64_t const_off = -1;  // >= 0: initial data from Module::consts
  bool is_const = false;        // fully known before the first eval
};

struct Module {
  std::vector<Slot> slot_defs;
  std::vector<double> consts;
  std::vector<Op> prologue;  // ops on constants, run once per Workspace
  std::vector<Op> ops;       // ops run on every eval
  std::vector<EinsumPlan> plans;
  std::vector<int> out_slots;
  std::vector<int> arg_slots;  // per argument
  std::vector<std::vector<std::int64_t>> out_shapes;
  std::vector<std::vector<std::int64_t>> arg_shapes;
  bool reference = false;
  std::string code_prefix;  // "X-FN-" / "X-REF-"
  std::int64_t dacc_size = 0, idx_size = 0;
};

}  // namespace sf::fnlang::ir
