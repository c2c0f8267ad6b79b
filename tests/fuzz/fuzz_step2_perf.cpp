// libFuzzer: a program through the STeP-25 cost model, in two modes chosen by the first byte. '#': the rest is
// the impl of a v2 program of a fixed task (A [64,128], B [128,64] → C [64,64]), checked by core/step2 and,
// when it checks, timed. Otherwise the input bytes describe a small dataflow graph (loads,
// every phase-1 operator, stores; small dims) and a chip (FIFO depth, channels, par_dispatch); the graph is
// built the way the v2 checker types it (binary operators only on equal shapes), then timed. Invariants: no
// crash, no hang (events and requests are bounded), bytes and cycles never negative, the timeline within its
// bound, the same cycles twice.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/step/task.hpp"
#include "core/step2/check.hpp"
#include "core/step2/perf/bytes.hpp"
#include "core/step2/perf/perf.hpp"
#include "tests/support/step2_graphs.hpp"

namespace {

struct Reader {
  const std::uint8_t* d;
  std::size_t n, i = 0;
  int byte() { return i < n ? d[i++] : 0; }
  int pick(int k) { return k <= 0 ? 0 : byte() % k; }
};

using sf::step2::Fn;
using sf::test::GraphBuilder;

const sf::step::TaskDoc& fixed_task() {
  static const sf::step::TaskDoc task = [] {
    sf::Diagnostics ds;
    auto t = sf::step::load_task_text(R"(dialect: step-v2
id: fuzz/gemm
title: t
description: d
sizes: {M: 64, K: 128, N: 64}
inputs:
  - {name: A, shape: [M, K], data_gen: randn}
  - {name: B, shape: [K, N], data_gen: randn}
outputs:
  - {name: C, shape: [M, N]}
reference: |
  return A @ B
)",
                                      "fuzz.yaml", ds);
    if (!t) std::abort();
    return *t;
  }();
  return task;
}

// A v2 program text through check → cost model; the bytes are counted first and a program with more than
// 10^5 HBM requests is not simulated (the model's own limit is 2·10^6; the fuzzer keeps each run short).
int run_source(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::string_view impl(reinterpret_cast<const char*>(data), size);
  auto cr = sf::step2::check(fixed_task(), impl);
  const sf::step2::Graph* g = cr.graph();
  if (!g) return 0;
  auto chip = sf::step2::perf::accelopt_step();
  if (sf::step2::perf::count_bytes(*g, chip.hbm_request_bytes).hbm_requests > 100000) return 0;
  sf::step2::perf::Options opt;
  opt.sim.max_events = 200000;
  auto r = sf::step2::perf::evaluate(*g, chip, opt);
  if (r.offchip_read_bytes < 0 || r.onchip_bytes < 0 || r.cycles < 0) std::abort();
  if (r.nodes.size() != g->nodes.size()) std::abort();
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data[0] == '#') return run_source(data + 1, size - 1);
  Reader in{data, size};
  sf::step2::perf::Chip chip = sf::step2::perf::accelopt_step();
  chip.fifo_depth = 1 + in.pick(4);
  chip.hbm_channels = 1 + in.pick(8);
  chip.hbm_interval = 1 + in.pick(3);
  chip.pmu_bw = 16 << in.pick(4);
  GraphBuilder b;
  std::vector<int> open;  // streams without a consumer yet
  auto take = [&](bool buffer) {
    for (std::size_t k = 0; k < open.size(); ++k) {
      std::size_t j = (k + static_cast<std::size_t>(in.byte())) % open.size();
      if (b.type(open[j]).elem.is_buffer == buffer) {
        int s = open[j];
        open.erase(open.begin() + static_cast<std::ptrdiff_t>(j));
        return s;
      }
    }
    return -1;
  };
  const Fn unary[] = {Fn::Exp, Fn::Silu, Fn::RowSum, Fn::Relu, Fn::Scale};
  const int ops = in.pick(20);
  for (int op = 0; op < ops && b.g.nodes.size() < 60; ++op) {
    switch (in.pick(14)) {
      case 0: {
        int dims = 1 + in.pick(3);
        std::vector<std::int64_t> shape, stride;
        for (int k = 0; k < dims; ++k) {
          shape.push_back(1 + in.pick(4));
          stride.push_back(in.pick(3));
        }
        open.push_back(b.load("X", {8 * (1 + in.pick(4)), 16 * (1 + in.pick(2))}, stride, shape, 1 + in.pick(8)));
        break;
      }
      case 1: {
        int s = take(false);
        if (s < 0) break;
        int n = 2 + in.pick(2);
        int f = b.broadcast(s, n);
        for (int k = 0; k < n; ++k) open.push_back(f + k);
        break;
      }
      case 2: {
        int s = take(false);
        if (s >= 0) open.push_back(b.map1(unary[in.pick(5)], s, in.pick(2), 1 + in.pick(4096)));
        break;
      }
      case 3: {
        int s = take(false), t = take(false);
        if (s >= 0 && t >= 0 && b.type(s).shape == b.type(t).shape) {
          open.push_back(b.map2(Fn::Add, s, t, in.pick(2), 1 + in.pick(4096)));
        } else {
          if (s >= 0) open.push_back(s);
          if (t >= 0) open.push_back(t);
        }
        break;
      }
      case 4: {
        int s = take(false), t = take(false);
        if (s >= 0 && t >= 0 && b.type(s).rank() >= 1 && b.type(s).shape == b.type(t).shape) {
          int rank = 1 + in.pick(b.type(s).rank());
          if (b.type(t).rank() >= rank) open.push_back(b.bma(Fn::Matmul, s, t, rank, in.pick(2), 1 + in.pick(4096)));
          else open.insert(open.end(), {s, t});
        } else {
          if (s >= 0) open.push_back(s);
          if (t >= 0) open.push_back(t);
        }
        break;
      }
      case 5: {
        int s = take(false);
        if (s < 0) break;
        if (b.type(s).rank() < 1) {
          open.push_back(s);
          break;
        }
        auto tile = b.type(s).elem.tile;
        open.push_back(b.accum(Fn::Add, s, 1 + in.pick(b.type(s).rank()), tile, in.pick(2), 1 + in.pick(4096)));
        break;
      }
      case 6: {
        int s = take(false);
        if (s < 0) break;
        if (b.type(s).rank() < 1) {
          open.push_back(s);
          break;
        }
        open.push_back(b.bufferize(s, 1 + in.pick(b.type(s).rank())));
        break;
      }
      case 7: {
        int s = take(true);
        if (s < 0) break;
        std::vector<std::int64_t> rep;
        if (in.pick(2)) rep.push_back(1 + in.pick(3));
        open.push_back(b.streamify(s, rep));
        break;
      }
      case 8: {
        int s = take(false);
        if (s >= 0) open.push_back(b.repeat(s, 1 + in.pick(3)));
        break;
      }
      case 9: {
        int s = take(false);
        if (s < 0) break;
        int rank = in.pick(b.type(s).rank() + 1);
        std::int64_t d = b.type(s).shape[b.type(s).shape.size() - 1 - static_cast<std::size_t>(rank)];
        open.push_back(b.reshape(s, d % 2 == 0 && in.pick(2) ? 2 : 1, rank));
        break;
      }
      case 10: {
        int s = take(false);
        if (s >= 0) open.push_back(b.promote(s, in.pick(b.type(s).rank() + 1)));
        break;
      }
      case 11: {
        int s = take(false);
        if (s < 0) break;
        int hi = in.pick(b.type(s).rank() + 1), lo = in.pick(hi + 1);
        open.push_back(b.flatten(s, lo, hi));
        break;
      }
      case 12: {
        int s = take(false);
        if (s >= 0) open.push_back(b.retile(s, in.pick(2)));
        break;
      }
      case 13: {
        int s = take(false);
        if (s < 0) break;
        std::int64_t d0 = b.type(s).shape[0];
        int n = d0 % 2 == 0 ? 2 : 1;
        int f = b.parallelize(s, n);
        if (in.pick(2)) {
          std::vector<int> parts;
          for (int k = 0; k < n; ++k) parts.push_back(f + k);
          open.push_back(b.reassemble(parts));
        } else {
          for (int k = 0; k < n; ++k) open.push_back(f + k);
        }
        break;
      }
    }
  }
  for (int s : open) {
    if (b.type(s).elem.is_buffer) s = b.streamify(s, {});
    b.store(s, "Y", {1}, 1 + in.pick(8));
  }
  sf::step2::perf::Options opt;
  opt.sim.max_events = 200000;
  opt.sim.timeline = true;
  opt.sim.max_intervals = 256;
  auto r = sf::step2::perf::evaluate(b.g, chip, opt);
  if (r.offchip_read_bytes < 0 || r.offchip_write_bytes < 0 || r.onchip_bytes < 0 || r.cycles < 0) std::abort();
  if (r.timeline.size() > 256) std::abort();
  auto again = sf::step2::perf::evaluate(b.g, chip, opt);
  if (again.cycles != r.cycles) std::abort();
  return 0;
}
