// Hand-built STeP-25 graphs (step2::Graph) for the cost model's tests, benchmark and fuzzer: a small builder
// that types each node by the rules of the v2 checker (shapes outermost-first, one consumer per stream), and
// the calibration programs K1–K6 and the SwiGLU sweep H of the cost model's calibration table
// (docs/cost-model.md), written exactly as the v2 programs in tests/data/step25/ are.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/step2/graph.hpp"

namespace sf::test {

using step2::Fn;
using step2::Graph;
using step2::Node;
using step2::Op;
using step2::StreamType;
using step2::TileShape;

class GraphBuilder {
 public:
  Graph g;

  // An input tensor (shape outermost-first); returns its name.
  std::string input(const std::string& name, std::vector<std::int64_t> shape) {
    g.tensors.push_back({name, std::move(shape), false});
    return name;
  }

  int load(const std::string& tensor, TileShape tile, std::vector<std::int64_t> stride, std::vector<std::int64_t> shape,
           int pd) {
    Node n = node(Op::OffChipLoad);
    n.kw.tile = tile;
    n.kw.stride = std::move(stride);
    n.kw.shape = shape;
    n.kw.par_dispatch = pd;
    n.tensor = tensor;
    StreamType t;
    t.elem.tile = tile;
    t.shape = {1};
    t.shape.insert(t.shape.end(), shape.begin(), shape.end());
    return add(std::move(n), {}, {t})[0];
  }

  void store(int s, const std::string& tensor, std::vector<std::int64_t> shape, int pd) {
    g.tensors.push_back({tensor, std::move(shape), true});
    Node n = node(Op::OffChipStore);
    n.kw.par_dispatch = pd;
    n.tensor = tensor;
    add(std::move(n), {s}, {});
  }

  int bma(Fn fn, int a, int b, int rank, int wb, std::int64_t bw) {
    Node n = compute(Op::BinaryMapAccum, fn, wb, bw);
    n.kw.rank = rank;
    StreamType t = type(a);
    TileShape x = t.elem.tile, y = type(b).elem.tile;
    t.elem.tile = {x.rows, fn == Fn::MatmulT ? y.rows : y.cols};
    t.shape.resize(t.shape.size() - static_cast<std::size_t>(rank));
    return add(std::move(n), {a, b}, {t})[0];
  }

  int accum(Fn fn, int a, int rank, TileShape out, int wb, std::int64_t bw) {
    Node n = compute(Op::Accum, fn, wb, bw);
    n.kw.rank = rank;
    n.kw.tile = out;
    StreamType t = type(a);
    t.elem.tile = out;
    t.shape.resize(t.shape.size() - static_cast<std::size_t>(rank));
    return add(std::move(n), {a}, {t})[0];
  }

  int map1(Fn fn, int a, int wb, std::int64_t bw) {
    StreamType t = type(a);
    if (fn == Fn::RowSum || fn == Fn::RowMax) t.elem.tile.cols = 1;
    return add(compute(Op::UnaryMap, fn, wb, bw), {a}, {t})[0];
  }

  int map2(Fn fn, int a, int b, int wb, std::int64_t bw) {
    StreamType t = type(a);
    TileShape y = type(b).elem.tile;
    t.elem.tile = {std::max(t.elem.tile.rows, y.rows), std::max(t.elem.tile.cols, y.cols)};
    return add(compute(Op::BinaryMap, fn, wb, bw), {a, b}, {t})[0];
  }

  // Broadcast(n): returns the first of n consecutive stream ids.
  int broadcast(int a, int copies, bool implicit = true) {
    Node n = node(Op::Broadcast);
    n.kw.n = copies;
    n.implicit = implicit;
    std::vector<StreamType> outs(static_cast<std::size_t>(copies), type(a));
    return add(std::move(n), {a}, outs)[0];
  }

  // Reshape(chunk, rank): the dim at len−1−rank split into (D/chunk, chunk).
  int reshape(int a, std::int64_t chunk, int rank) {
    Node n = node(Op::Reshape);
    n.kw.chunk = chunk;
    n.kw.rank = rank;
    StreamType t = type(a);
    std::size_t pos = t.shape.size() - 1 - static_cast<std::size_t>(rank);
    std::int64_t d = t.shape[pos];
    t.shape[pos] = (d + chunk - 1) / chunk;
    t.shape.insert(t.shape.begin() + static_cast<std::ptrdiff_t>(pos) + 1, chunk);
    return add(std::move(n), {a}, {t})[0];
  }

  int repeat(int a, int n_copies) {
    Node n = node(Op::RepeatStatic);
    n.kw.n = n_copies;
    StreamType t = type(a);
    t.shape.push_back(n_copies);
    return add(std::move(n), {a}, {t})[0];
  }

  int bufferize(int a, int rank) {
    Node n = node(Op::Bufferize);
    n.kw.rank = rank;
    StreamType t = type(a);
    t.elem.is_buffer = true;
    t.elem.buffer_shape.assign(t.shape.end() - rank, t.shape.end());
    t.shape.resize(t.shape.size() - static_cast<std::size_t>(rank));
    return add(std::move(n), {a}, {t})[0];
  }

  int streamify(int a, std::vector<std::int64_t> rep) {
    Node n = node(Op::Streamify);
    StreamType t = type(a);
    n.kw.rank = static_cast<int>(t.elem.buffer_shape.size());
    n.kw.repeat = rep;
    auto b = t.elem.buffer_shape;
    t.elem.is_buffer = false;
    t.elem.buffer_shape.clear();
    t.shape.insert(t.shape.end(), rep.begin(), rep.end());
    t.shape.insert(t.shape.end(), b.begin(), b.end());
    return add(std::move(n), {a}, {t})[0];
  }

  // Promote(p): a 1 inserted at position len − p.
  int promote(int a, int p) {
    Node n = node(Op::Promote);
    n.kw.rank = p;
    StreamType t = type(a);
    t.shape.insert(t.shape.end() - p, 1);
    return add(std::move(n), {a}, {t})[0];
  }

  // Flatten(min, max): dims min..max (counted from the innermost, 0-based) merged.
  int flatten(int a, int lo, int hi) {
    Node n = node(Op::Flatten);
    n.kw.min = lo;
    n.kw.max = hi;
    StreamType t = type(a);
    std::size_t len = t.shape.size();
    std::size_t first = len - 1 - static_cast<std::size_t>(hi), last = len - 1 - static_cast<std::size_t>(lo);
    std::int64_t prod = 1;
    for (std::size_t k = first; k <= last; ++k) prod *= t.shape[k];
    t.shape.erase(t.shape.begin() + static_cast<std::ptrdiff_t>(first) + 1,
                  t.shape.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    t.shape[first] = prod;
    return add(std::move(n), {a}, {t})[0];
  }

  int retile(int a, bool split_row) {
    Node n = node(Op::RetileStreamify);
    n.kw.split_row = split_row ? 1 : 0;
    StreamType t = type(a);
    std::int64_t pieces = split_row ? t.elem.tile.rows : t.elem.tile.cols;
    t.shape.back() *= pieces;
    (split_row ? t.elem.tile.rows : t.elem.tile.cols) = 1;
    return add(std::move(n), {a}, {t})[0];
  }

  // Parallelize(n): returns the first of n consecutive stream ids.
  int parallelize(int a, int ways) {
    Node n = node(Op::Parallelize);
    n.kw.n = ways;
    StreamType t = type(a);
    n.kw.rank = t.rank();
    n.kw.switch_cycles = {1};
    t.shape[0] /= ways;
    std::vector<StreamType> outs(static_cast<std::size_t>(ways), t);
    return add(std::move(n), {a}, outs)[0];
  }

  int reassemble(const std::vector<int>& ins) {
    Node n = node(Op::StaticReassemble);
    StreamType t = type(ins[0]);
    n.kw.rank = t.rank();
    t.shape[0] *= static_cast<std::int64_t>(ins.size());
    return add(std::move(n), ins, {t})[0];
  }

  // ExpandRef(e): x's elements replicated over ref's shape.
  int expand(int x, int ref, int e) {
    Node n = node(Op::ExpandRef);
    n.kw.rank = e;
    StreamType t = type(ref);
    t.elem = type(x).elem;
    return add(std::move(n), {x, ref}, {t})[0];
  }

  const StreamType& type(int s) const { return g.streams[static_cast<std::size_t>(s)].type; }

 private:
  int line_ = 0;

  Node node(Op op) {
    Node n;
    n.op = op;
    n.loc.line = ++line_;
    return n;
  }
  Node compute(Op op, Fn fn, int wb, std::int64_t bw) {
    Node n = node(op);
    n.kw.fn = fn;
    n.kw.write_back_mu = wb;
    n.kw.compute_bw = bw;
    return n;
  }
  std::vector<int> add(Node n, std::vector<int> ins, const std::vector<StreamType>& outs) {
    int id = static_cast<int>(g.nodes.size());
    for (std::size_t k = 0; k < ins.size(); ++k) {
      auto& s = g.streams[static_cast<std::size_t>(ins[k])];
      s.consumer = id;
      s.consumer_arg = static_cast<int>(k);
    }
    n.inputs = std::move(ins);
    std::vector<int> out;
    for (std::size_t k = 0; k < outs.size(); ++k) {
      step2::Stream s;
      s.type = outs[k];
      s.producer = id;
      s.port = static_cast<int>(k);
      out.push_back(static_cast<int>(g.streams.size()));
      g.streams.push_back(std::move(s));
    }
    n.outputs = out;
    g.nodes.push_back(std::move(n));
    return out;
  }
};

// K1 / K2: GEMM 256³ (task 1 baseline); `silu` adds K2's UnaryMap(silu, wb 1) after a wb 0 matmul.
inline Graph gemm_256(bool silu) {
  GraphBuilder b;
  b.input("A", {256, 256});
  b.input("B", {256, 256});
  int a = b.load("A", {128, 128}, {2, 0, 1}, {2, 2, 2}, 4);
  int bb = b.load("B", {128, 128}, {0, 1, 2}, {2, 2, 2}, 4);
  int c = b.bma(Fn::Matmul, a, bb, 1, silu ? 0 : 1, 4096);
  if (silu) c = b.map1(Fn::Silu, c, 1, 4096);
  b.store(c, "C", {256, 256}, 4);
  return b.g;
}

// K3 / K4: task 6 (gemm/swish_scaling) baseline, M=128 K=256 N=256, with the given compute_bw of the
// matmul, the silu and the mul.
inline Graph swish_scaling(std::int64_t bw_mm, std::int64_t bw_silu, std::int64_t bw_mul) {
  GraphBuilder b;
  b.input("x", {128, 256});
  b.input("W", {256, 256});
  b.input("S", {128, 256});
  int xs = b.load("x", {128, 128}, {2, 0, 1}, {1, 2, 2}, 4);
  int ws = b.load("W", {128, 128}, {0, 2, 1}, {1, 2, 2}, 4);
  int mm = b.bma(Fn::MatmulT, xs, ws, 1, 0, bw_mm);
  int ac = b.map1(Fn::Silu, mm, 0, bw_silu);
  int ss = b.load("S", {128, 128}, {2, 1}, {1, 2}, 4);
  int y = b.map2(Fn::Mul, ac, ss, 1, bw_mul);
  b.store(y, "Y", {128, 256}, 4);
  return b.g;
}

// K5 / K6: task 8 (attention/sdpa) baseline, S=64 D=128, with the compute_bw of qk, exp, pv, the row-sum
// Accum, row_sum and div.
inline Graph sdpa(const std::int64_t bw[6]) {
  GraphBuilder b;
  b.input("Qs", {64, 128});
  b.input("K", {64, 128});
  b.input("V", {64, 128});
  int q = b.load("Qs", {64, 128}, {1, 1, 0, 1}, {1, 1, 1, 1}, 4);
  int k = b.load("K", {64, 128}, {1, 0, 1, 1}, {1, 1, 1, 1}, 4);
  int qk = b.bma(Fn::MatmulT, q, k, 1, 0, bw[0]);
  int e = b.map1(Fn::Exp, qk, 0, bw[1]);
  int e0 = b.broadcast(e, 2);
  int v = b.load("V", {64, 128}, {1, 0, 1}, {1, 1, 1}, 4);
  int pv = b.bma(Fn::Matmul, e0, v, 1, 0, bw[2]);
  int rs = b.accum(Fn::Add, e0 + 1, 1, {64, 64}, 0, bw[3]);
  int rr = b.map1(Fn::RowSum, rs, 0, bw[4]);
  int o = b.map2(Fn::Div, pv, rr, 1, bw[5]);
  b.store(o, "O", {64, 128}, 4);
  return b.g;
}

// H: the SwiGLU "mn_mk" sweep point (B=64 D=256 I=512) with row tile m and column tile n, pd 4; compute_bw
// of gate, up, silu, mul, down (the sweep: 4096 each).
inline Graph swiglu(std::int64_t m, std::int64_t n, std::array<std::int64_t, 5> bw = {4096, 4096, 4096, 4096, 4096}) {
  GraphBuilder b;
  b.input("x", {64, 256});
  b.input("Wg", {256, 512});
  b.input("Wu", {256, 512});
  b.input("Wd", {512, 256});
  int x = b.load("x", {m, 256}, {1, 0, 1}, {64 / m, 512 / n, 1}, 4);
  int x0 = b.broadcast(x, 2);
  int wg = b.load("Wg", {256, n}, {0, 1, 512 / n}, {64 / m, 512 / n, 1}, 4);
  int gate = b.bma(Fn::Matmul, x0, wg, 1, 0, bw[0]);
  int wu = b.load("Wu", {256, n}, {0, 1, 512 / n}, {64 / m, 512 / n, 1}, 4);
  int up = b.bma(Fn::Matmul, x0 + 1, wu, 1, 0, bw[1]);
  int act = b.map1(Fn::Silu, gate, 0, bw[2]);
  int h = b.map2(Fn::Mul, act, up, 0, bw[3]);
  int hr = b.reshape(h, 1, 1);
  int wd = b.load("Wd", {n, 256}, {0, 1, 1}, {64 / m, 1, 512 / n}, 4);
  int y = b.bma(Fn::Matmul, hr, wd, 1, 1, bw[4]);
  b.store(y, "Y", {64, 256}, 4);
  return b.g;
}

// The 15 (m, n) points of the sweep.
inline std::vector<std::pair<std::int64_t, std::int64_t>> swiglu_points() {
  std::vector<std::pair<std::int64_t, std::int64_t>> p;
  for (std::int64_t m : {16, 32, 64})
    for (std::int64_t n : {16, 32, 64, 128, 256}) p.push_back({m, n});
  return p;
}

}  // namespace sf::test
