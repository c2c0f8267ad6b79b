#include "core/step2/perf/bytes.hpp"

#include <algorithm>

namespace sf::step2::perf {

std::int64_t mul_sat(std::int64_t a, std::int64_t b) {
  if (a <= 0 || b <= 0) return 0;
  if (a >= kSaturated / b) return kSaturated;
  return std::min(a * b, kSaturated);
}

std::int64_t add_sat(std::int64_t a, std::int64_t b) { return a >= kSaturated - b ? kSaturated : a + b; }

std::int64_t elem_bytes(const ElemType& e) {
  std::int64_t b = mul_sat(mul_sat(e.tile.rows, e.tile.cols), 4);
  if (e.is_buffer)
    for (auto d : e.buffer_shape) b = mul_sat(b, d);
  return b;
}

std::int64_t stream_elements(const StreamType& s) {
  std::int64_t n = 1;
  for (auto d : s.shape) n = mul_sat(n, d);
  return n;
}

bool is_compute(Op op) {
  return op == Op::UnaryMap || op == Op::BinaryMap || op == Op::BinaryMapAccum || op == Op::Accum;
}
bool is_memory(Op op) { return op == Op::OffChipLoad || op == Op::OffChipStore; }

const char* op_name(Op op) {
  static const char* const names[] = {"OffChipLoad", "OffChipStore", "UnaryMap",     "BinaryMap",   "BinaryMapAccum",
                                      "Accum",       "Broadcast",    "Bufferize",    "Streamify",   "RepeatStatic",
                                      "ExpandRef",   "Promote",      "Flatten",      "Reshape",     "RetileStreamify",
                                      "Parallelize", "StaticReassemble"};
  auto i = static_cast<std::size_t>(op);
  return i < std::size(names) ? names[i] : "?";
}

const char* fn_name(Fn fn) {
  static const char* const names[] = {"",      "matmul", "matmul_t", "add",   "mul",     "div",       "sub",
                                      "max",   "silu",   "exp",      "tanh",  "rsqrt",   "square",    "row_sum",
                                      "row_max", "scale", "shift",   "sigmoid", "gelu",  "relu",      "retile_row",
                                      "retile_col"};
  auto i = static_cast<std::size_t>(fn);
  return i < std::size(names) ? names[i] : "?";
}

std::int64_t requests_per_tile(const TileShape& t, std::int64_t hbm_request_bytes) {
  std::int64_t rb = std::max<std::int64_t>(1, hbm_request_bytes);
  std::int64_t row = mul_sat(std::max<std::int64_t>(0, t.cols), 4);
  return mul_sat(std::max<std::int64_t>(0, t.rows), row / rb + (row % rb != 0));
}

namespace {

const StreamType* in_type(const Graph& g, const Node& n, std::size_t i) {
  if (i >= n.inputs.size()) return nullptr;
  auto s = static_cast<std::size_t>(n.inputs[i]);
  return s < g.streams.size() ? &g.streams[s].type : nullptr;
}
const StreamType* out_type(const Graph& g, const Node& n, std::size_t i) {
  if (i >= n.outputs.size()) return nullptr;
  auto s = static_cast<std::size_t>(n.outputs[i]);
  return s < g.streams.size() ? &g.streams[s].type : nullptr;
}
std::int64_t tile_elems(const TileShape& t) { return mul_sat(t.rows, t.cols); }

}  // namespace

std::int64_t flops_per_call(const Graph& g, const Node& n) {
  if (!is_compute(n.op)) return 0;
  const StreamType* a = in_type(g, n, 0);
  const StreamType* b = in_type(g, n, 1);
  const StreamType* o = out_type(g, n, 0);
  std::int64_t in_elems = a ? tile_elems(a->elem.tile) : 0;
  std::int64_t out_elems = o ? tile_elems(o->elem.tile) : 0;
  switch (n.kw.fn) {
    case Fn::Matmul:  // [m,k]·[k,n]
      if (!a || !b) return 0;
      return mul_sat(mul_sat(mul_sat(2, a->elem.tile.rows), a->elem.tile.cols), b->elem.tile.cols);
    case Fn::MatmulT:  // [m,k]·[n,k]ᵀ
      if (!a || !b) return 0;
      return mul_sat(mul_sat(mul_sat(2, a->elem.tile.rows), a->elem.tile.cols), b->elem.tile.rows);
    case Fn::Add:
    case Fn::Mul:
    case Fn::Div:
    case Fn::Sub:
    case Fn::Max:
    case Fn::Scale:
    case Fn::Shift:
      return n.op == Op::UnaryMap ? in_elems : out_elems;
    case Fn::Silu:
    case Fn::Gelu:
      return mul_sat(8, in_elems);
    case Fn::Exp:
    case Fn::Tanh:
    case Fn::Rsqrt:
    case Fn::Square:
    case Fn::Sigmoid:
      return mul_sat(4, in_elems);
    case Fn::Relu:
    case Fn::RowSum:
    case Fn::RowMax:
      return in_elems;
    case Fn::RetileRow:
    case Fn::RetileCol:
    case Fn::None:
      return 0;
  }
  return 0;
}

Bytes count_bytes(const Graph& g, std::int64_t hbm_request_bytes) {
  Bytes r;
  r.nodes.resize(g.nodes.size());
  for (const auto& s : g.streams) r.tokens = add_sat(r.tokens, stream_elements(s.type));
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    NodeBytes& nb = r.nodes[i];
    const StreamType* in0 = in_type(g, n, 0);
    const StreamType* out0 = out_type(g, n, 0);
    switch (n.op) {
      case Op::OffChipLoad:
        if (out0) {
          std::int64_t tb = elem_bytes(out0->elem);
          nb.offchip_read = mul_sat(stream_elements(*out0), tb);
          nb.onchip = tb;
          std::int64_t q = requests_per_tile(out0->elem.tile, hbm_request_bytes);
          r.hbm_requests = add_sat(r.hbm_requests, mul_sat(stream_elements(*out0), q));
        }
        break;
      case Op::OffChipStore:
        if (in0) {
          std::int64_t tb = elem_bytes(in0->elem);
          nb.offchip_write = mul_sat(stream_elements(*in0), tb);
          nb.onchip = tb;
          std::int64_t q = requests_per_tile(in0->elem.tile, hbm_request_bytes);
          r.hbm_requests = add_sat(r.hbm_requests, mul_sat(stream_elements(*in0), q));
        }
        break;
      case Op::BinaryMapAccum:
      case Op::Accum:
        if (out0) nb.onchip = elem_bytes(out0->elem);
        break;
      case Op::Bufferize:  // 2·|Buffer| + |Tile|
        if (in0 && out0) nb.onchip = add_sat(mul_sat(2, elem_bytes(out0->elem)), elem_bytes(in0->elem));
        break;
      case Op::Streamify:  // |Buffer| + |T|
        if (in0 && out0) nb.onchip = add_sat(elem_bytes(in0->elem), elem_bytes(out0->elem));
        break;
      case Op::RepeatStatic:
      case Op::ExpandRef:  // |T| (ExpandRef: the data input x)
        if (in0) nb.onchip = elem_bytes(in0->elem);
        break;
      default:
        break;
    }
    if (is_compute(n.op)) {
      nb.flops_per_call = flops_per_call(g, n);
      nb.calls = in0 ? stream_elements(*in0) : 0;
      nb.flops = mul_sat(nb.flops_per_call, nb.calls);
      r.flops = add_sat(r.flops, nb.flops);
    }
    r.offchip_read = add_sat(r.offchip_read, nb.offchip_read);
    r.offchip_write = add_sat(r.offchip_write, nb.offchip_write);
    r.onchip = add_sat(r.onchip, nb.onchip);
  }
  return r;
}

}  // namespace sf::step2::perf
