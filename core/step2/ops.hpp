// STeP-25 operator and tile-function tables (docs/step25.md, "Operators"): names, kwargs, the step_py long
// names they replace, and each fn's tile rule. The checker (check.cpp), the simulator (sim.cpp), the graph
// printers and the docs read them; nothing else lists operators.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/step2/graph.hpp"

namespace sf::step2 {

enum class KwKind {
  Int,      // a non-negative integer (a dim monomial that evaluates to one)
  Fn,       // a tile-function name
  Float,    // c=: a float or integer
  List,     // [dim, ...]
  Tile,     // Tile[r, c]
};

struct KwSpec {
  const char* name;
  KwKind kind;
  bool required;
};

enum class Arity { One, Two, List };  // apply(x) / apply((x, y)) / apply([x0, x1, ...]) or apply((x0, ...))

struct OpInfo {
  Op op;
  const char* name;
  Arity arity;
  std::vector<KwSpec> kwargs;
  const char* doc;  // one line
};

const std::vector<OpInfo>& op_table();
const OpInfo* find_op(std::string_view name);
const OpInfo& op_info(Op op);
std::string_view op_name(Op op);

// The StepForge kwarg for a step_py long name ("out_shape_tiled" -> "shape"), "" when `name` is not one.
std::string step_py_hint(Op op, std::string_view name);

enum class FnKind { Unary, Reduce, Const, Binary, Matmul, Fold, Retile };
struct FnInfo {
  Fn fn;
  const char* name;
  FnKind kind;
};
const std::vector<FnInfo>& fn_table();
std::optional<Fn> find_fn(std::string_view name);
std::string_view fn_name(Fn fn);
FnKind fn_kind(Fn fn);

// Output tile of a map fn from its input tile(s) (b ignored for unary fns); nullopt with `why` when the fn's
// tile rule fails (matmul inner dims, broadcast rows/cols).
std::optional<TileShape> fn_out_tile(Fn fn, TileShape a, TileShape b, std::string& why);

// FLOPs of one call (docs/step25.md fn table): matmul 2mkn, silu 8/elem, exp/tanh/rsqrt/square/sigmoid 4/elem,
// gelu 8, relu 1, row_sum/row_max r*c, binary and scale/shift R*C of the output, Accum folds R*C, retiles 0.
std::int64_t fn_flops(Fn fn, TileShape a, TileShape b, TileShape out);

}  // namespace sf::step2
