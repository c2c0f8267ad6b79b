// Wall-clock cost of the STeP-25 cost model on the 21 calibration programs (K1–K6 and the 15 SwiGLU sweep
// points, built as graphs, so the number is the cost model alone: bytes + the event model + the report):
//   build/default/tests/perf/bench_step2_perf [--reps N]
// Prints the median per program and the ratios to the targets (K1 ≤ 1 ms, the 21 programs < 50 ms in total),
// and what recording the explorer's timeline (node and HBM channel intervals) costs on K1.
// Run it on an idle core (taskset -c 1) for numbers worth recording (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/step2/perf/perf.hpp"
#include "tests/support/step2_graphs.hpp"

using namespace sf;

int main(int argc, char** argv) {
  int reps = 200;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
  struct Prog {
    std::string name;
    step2::Graph g;
    step2::perf::Chip chip;
  };
  step2::perf::Chip acc = step2::perf::accelopt_step(), hdl = acc;
  hdl.name = "step-hdl";
  hdl.pmu_bw = 256;
  hdl.hbm_channels = 8;
  hdl.fifo_depth = 1;
  hdl.compute_budget = 20480;
  hdl.tail = 1;
  const std::int64_t bw5[6] = {4096, 4096, 4096, 4096, 4096, 4096}, bw6[6] = {1024, 256, 1024, 512, 256, 1024};
  std::vector<Prog> progs = {{"K1 gemm", test::gemm_256(false), acc},
                             {"K2 gemm+silu", test::gemm_256(true), acc},
                             {"K3 swish 4096x3", test::swish_scaling(4096, 4096, 4096), acc},
                             {"K4 swish", test::swish_scaling(2048, 1024, 1024), acc},
                             {"K5 sdpa 4096x6", test::sdpa(bw5), acc},
                             {"K6 sdpa", test::sdpa(bw6), acc}};
  for (auto [m, n] : test::swiglu_points())
    progs.push_back({"H m" + std::to_string(m) + " n" + std::to_string(n), test::swiglu(m, n), hdl});
  std::printf("%-18s %10s %10s %10s %10s %12s\n", "program", "cycles", "requests", "events", "median_us", "p90_us");
  double total = 0, k1 = 0;
  for (const auto& p : progs) {
    auto first = step2::perf::evaluate(p.g, p.chip);
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
      auto a = std::chrono::steady_clock::now();
      auto r = step2::perf::evaluate(p.g, p.chip);
      auto b = std::chrono::steady_clock::now();
      if (r.cycles != first.cycles) {
        std::fprintf(stderr, "%s: not deterministic\n", p.name.c_str());
        return 1;
      }
      t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    double med = t[t.size() / 2];
    total += med;
    if (p.name.starts_with("K1")) k1 = med;
    std::printf("%-18s %10lld %10lld %10lld %10.1f %12.1f\n", p.name.c_str(), static_cast<long long>(first.cycles),
                static_cast<long long>(first.hbm_requests), static_cast<long long>(first.events), med,
                t[t.size() * 9 / 10]);
  }
  std::printf("K1: %.1f us per evaluation; target 1000 us (ratio %.3f)\n", k1, k1 / 1000.0);
  std::printf("all %zu programs: %.1f us; target 50000 us (ratio %.3f)\n", progs.size(), total, total / 50000.0);
  // The explorer's timing records the timeline (node and HBM channel intervals, at most 50,000): its cost on K1.
  step2::perf::Options tl;
  tl.sim.timeline = true;
  tl.sim.max_intervals = 50000;
  const auto k1g = test::gemm_256(false);
  const auto rec = step2::perf::evaluate(k1g, acc, tl);
  std::size_t chan = 0;
  for (const auto& iv : rec.timeline) chan += iv.row >= static_cast<int>(rec.nodes.size());
  std::vector<double> tt;
  for (int i = 0; i < reps; ++i) {
    auto a = std::chrono::steady_clock::now();
    auto r = step2::perf::evaluate(k1g, acc, tl);
    tt.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
    if (r.cycles != rec.cycles) return 1;
  }
  std::sort(tt.begin(), tt.end());
  std::printf("K1 with the timeline (%zu node + %zu HBM channel intervals%s): %.1f us; ratio to without %.2f\n",
              rec.timeline.size() - chan, chan, rec.timeline_truncated ? ", summarised" : "", tt[tt.size() / 2],
              tt[tt.size() / 2] / std::max(1e-9, k1));
  return 0;
}
