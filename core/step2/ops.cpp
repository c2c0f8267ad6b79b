#include "core/step2/ops.hpp"

#include <algorithm>

namespace sf::step2 {

namespace {
constexpr KwSpec kFn{"fn", KwKind::Fn, true};
constexpr KwSpec kWb{"write_back_mu", KwKind::Int, true};
constexpr KwSpec kBw{"compute_bw", KwKind::Int, true};
constexpr KwSpec kC{"c", KwKind::Float, false};
constexpr KwSpec kRank{"rank", KwKind::Int, true};
}  // namespace

const std::vector<OpInfo>& op_table() {
  static const std::vector<OpInfo> t{
      {Op::OffChipLoad, "OffChipLoad", Arity::One,
       {{"tile", KwKind::List, true}, {"stride", KwKind::List, true}, {"shape", KwKind::List, true},
        {"par_dispatch", KwKind::Int, true}},
       "tensor -> Stream[Tile[tr,tc], [1] + shape]: element i is tile (sum_d i_d*stride_d) mod nt"},
      {Op::OffChipStore, "OffChipStore", Arity::One, {{"par_dispatch", KwKind::Int, true}},
       "Stream[Tile, S] -> output tensor: rows of tiles closed by a stop, stacked"},
      {Op::UnaryMap, "UnaryMap", Arity::One, {kFn, kWb, kBw, kC}, "per element fn(x), levels unchanged"},
      {Op::BinaryMap, "BinaryMap", Arity::Two, {kFn, kWb, kBw, kC}, "per element pair fn(x1, x2), equal levels"},
      {Op::BinaryMapAccum, "BinaryMapAccum", Arity::Two, {kFn, kRank, kWb, kBw},
       "acc += fn(x1, x2); emit at level >= rank -> Stream[out, S[:-rank]]"},
      {Op::Accum, "Accum", Arity::One, {kFn, kRank, kWb, kBw, {"out", KwKind::Tile, true}},
       "fold into out; emit at level >= rank -> Stream[out, S[:-rank]]"},
      {Op::Broadcast, "Broadcast", Arity::One, {{"n", KwKind::Int, true}}, "n copies of the stream"},
      {Op::Bufferize, "Bufferize", Arity::One, {kRank},
       "Stream[Tile, S] -> Stream[Buffer[Tile, S[-rank:]], S[:-rank]]"},
      {Op::Streamify, "Streamify", Arity::One, {{"repeat", KwKind::List, false}, kRank},
       "Stream[Buffer[T, B], S] -> Stream[T, S + repeat + B]"},
      {Op::RepeatStatic, "RepeatStatic", Arity::One, {{"n", KwKind::Int, true}}, "Stream[T, S] -> Stream[T, S + [n]]"},
      {Op::ExpandRef, "ExpandRef", Arity::Two, {kRank}, "(x, ref) -> Stream[T_x, ref.shape]"},
      {Op::Promote, "Promote", Arity::One, {{"rank", KwKind::Int, true}}, "insert a 1 at position len - rank"},
      {Op::Flatten, "Flatten", Arity::One, {{"min", KwKind::Int, true}, {"max", KwKind::Int, true}},
       "merge dims min..max (counted from the innermost, 0-based)"},
      {Op::Reshape, "Reshape", Arity::One, {{"chunk", KwKind::Int, true}, kRank, {"write_back_mu", KwKind::Int, false}},
       "split the dim rank (from the innermost) into (D/chunk, chunk)"},
      {Op::RetileStreamify, "RetileStreamify", Arity::One, {{"split_row", KwKind::Int, false}},
       "Tile[r,c] -> r tiles Tile[1,c] (split_row=1) or c tiles Tile[r,1] (split_row=0)"},
      {Op::Parallelize, "Parallelize", Arity::One,
       {{"n", KwKind::Int, true}, kRank, {"switch", KwKind::List, false}},
       "deal the outermost dim's chunks round-robin to n streams [D/n, ...]"},
      {Op::StaticReassemble, "StaticReassemble", Arity::List, {kRank},
       "n streams [D/n, ...] -> [D, ...], chunk k from input k mod n"},
  };
  return t;
}

const OpInfo* find_op(std::string_view name) {
  for (const auto& o : op_table())
    if (name == o.name) return &o;
  return nullptr;
}

const OpInfo& op_info(Op op) { return op_table()[static_cast<std::size_t>(op)]; }
std::string_view op_name(Op op) { return op_info(op).name; }

std::string step_py_hint(Op op, std::string_view name) {
  if (name == "out_shape_tiled") return "shape";
  if (name == "num_consumers") return "n";
  if (name == "repeat_factor") return op == Op::RepeatStatic ? "n" : "repeat";
  if (name == "expand_rank" || name == "promote_rank" || name == "reshape_rank") return "rank";
  if (name == "min_rank") return "min";
  if (name == "max_rank") return "max";
  if (name == "chunk_size") return "chunk";
  if (name == "switch_cycles") return "switch";
  if (name == "output_stream_dtype") return "out";
  if (name == "bw") return "compute_bw";
  if (name == "wb" || name == "write_back") return "write_back_mu";
  if (name == "par" || name == "pd") return "par_dispatch";
  if (name == "tile_shape") return "tile";
  if (name == "strides") return "stride";
  if (name == "func" || name == "map_fn") return "fn";
  return "";
}

const std::vector<FnInfo>& fn_table() {
  static const std::vector<FnInfo> t{
      {Fn::Matmul, "matmul", FnKind::Matmul},     {Fn::MatmulT, "matmul_t", FnKind::Matmul},
      {Fn::Add, "add", FnKind::Binary},           {Fn::Mul, "mul", FnKind::Binary},
      {Fn::Div, "div", FnKind::Binary},           {Fn::Sub, "sub", FnKind::Binary},
      {Fn::Max, "max", FnKind::Binary},           {Fn::Silu, "silu", FnKind::Unary},
      {Fn::Exp, "exp", FnKind::Unary},            {Fn::Tanh, "tanh", FnKind::Unary},
      {Fn::Rsqrt, "rsqrt", FnKind::Unary},        {Fn::Square, "square", FnKind::Unary},
      {Fn::RowSum, "row_sum", FnKind::Reduce},    {Fn::RowMax, "row_max", FnKind::Reduce},
      {Fn::Scale, "scale", FnKind::Const},        {Fn::Shift, "shift", FnKind::Const},
      {Fn::Sigmoid, "sigmoid", FnKind::Unary},    {Fn::Gelu, "gelu", FnKind::Unary},
      {Fn::Relu, "relu", FnKind::Unary},          {Fn::RetileRow, "retile_row", FnKind::Retile},
      {Fn::RetileCol, "retile_col", FnKind::Retile},
  };
  return t;
}

std::optional<Fn> find_fn(std::string_view name) {
  for (const auto& f : fn_table())
    if (name == f.name) return f.fn;
  return std::nullopt;
}

std::string_view fn_name(Fn fn) {
  for (const auto& f : fn_table())
    if (f.fn == fn) return f.name;
  return "none";
}

FnKind fn_kind(Fn fn) {
  for (const auto& f : fn_table())
    if (f.fn == fn) return f.kind;
  return FnKind::Unary;
}

namespace {
std::string tile_text(TileShape t) { return "Tile[" + std::to_string(t.rows) + ", " + std::to_string(t.cols) + "]"; }
}  // namespace

std::optional<TileShape> fn_out_tile(Fn fn, TileShape a, TileShape b, std::string& why) {
  switch (fn_kind(fn)) {
    case FnKind::Unary:
    case FnKind::Const:
      return a;
    case FnKind::Reduce:
      return TileShape{a.rows, 1};
    case FnKind::Matmul: {
      std::int64_t k2 = fn == Fn::Matmul ? b.rows : b.cols;
      if (a.cols != k2) {
        why = std::string(fn_name(fn)) + " needs " +
              (fn == Fn::Matmul ? "[m,k]·[k,n]: the columns of the first tile equal the rows of the second"
                                : "[m,k]·[n,k]ᵀ: both tiles have the same number of columns") +
              ", but the tiles are " + tile_text(a) + " and " + tile_text(b);
        return std::nullopt;
      }
      return TileShape{a.rows, fn == Fn::Matmul ? b.cols : b.rows};
    }
    case FnKind::Binary: {
      auto one = [](std::int64_t x, std::int64_t y) { return x == y || x == 1 || y == 1; };
      if (!one(a.rows, b.rows) || !one(a.cols, b.cols)) {
        why = std::string(fn_name(fn)) + " broadcasts rows and columns only when they are equal or one side is 1, "
              "but the tiles are " + tile_text(a) + " and " + tile_text(b);
        return std::nullopt;
      }
      return TileShape{std::max(a.rows, b.rows), std::max(a.cols, b.cols)};
    }
    case FnKind::Fold:
    case FnKind::Retile:
      return a;
  }
  return a;
}

std::int64_t fn_flops(Fn fn, TileShape a, TileShape b, TileShape out) {
  const std::int64_t n = out.rows * out.cols;
  switch (fn) {
    case Fn::Matmul: return 2 * a.rows * a.cols * (b.cols);
    case Fn::MatmulT: return 2 * a.rows * a.cols * (b.rows);
    case Fn::Silu:
    case Fn::Gelu: return 8 * n;
    case Fn::Exp:
    case Fn::Tanh:
    case Fn::Rsqrt:
    case Fn::Square:
    case Fn::Sigmoid: return 4 * n;
    case Fn::Relu: return n;
    case Fn::RowSum:
    case Fn::RowMax: return a.rows * a.cols;
    case Fn::RetileRow:
    case Fn::RetileCol:
    case Fn::None: return 0;
    default: return n;  // add mul div sub max scale shift, Accum folds
  }
}

}  // namespace sf::step2
