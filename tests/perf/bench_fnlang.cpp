// Per-call cost of compiled fns: fn_maxsum (D=16) and the MoE expert fn (K=9, D=16), in float.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "core/fnlang/fnlang.hpp"

namespace {

using sf::fnlang::CompileOptions;

struct Fixture {
  std::shared_ptr<const sf::fnlang::Program> prog;
  std::vector<std::vector<float>> in, out;
  std::vector<const float*> ap;
  std::vector<float*> op;
};

Fixture make(const char* body, CompileOptions o) {
  Fixture f;
  sf::Diagnostics d;
  f.prog = sf::fnlang::compile(body, o, d);
  if (!f.prog) std::abort();
  int seed = 1;
  for (const auto& a : o.args) {
    std::int64_t n = 1;
    for (auto x : a.shape) n *= x;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = static_cast<float>(std::sin(seed++ * 0.37));
    f.in.push_back(std::move(v));
  }
  for (auto& v : f.in) f.ap.push_back(v.data());
  for (const auto& s : f.prog->output_shapes()) {
    std::int64_t n = 1;
    for (auto x : s) n *= x;
    f.out.emplace_back(static_cast<std::size_t>(n));
  }
  for (auto& v : f.out) f.op.push_back(v.data());
  return f;
}

void BM_MaxSum(benchmark::State& state) {
  CompileOptions o;
  o.fn_name = "fn_maxsum";
  o.sizes = {{"D", 16}};
  o.args = {{"in0", {}}, {"in1", {16}}, {"state0", {}}, {"state1", {}}, {"state2", {16}}};
  o.expected_outputs = {{}, {}, {16}};
  Fixture f = make(
      "m = max(state0, in0)\nl_old = exp(state0 - m) * state1\np = exp(in0 - m)\nl = p + l_old\n"
      "return m, l, l_old * state2 / l + p * in1 / l",
      o);
  sf::fnlang::Workspace<float> ws(*f.prog);
  for (auto _ : state) {
    f.prog->eval(f.ap.data(), f.op.data(), ws, nullptr);
    benchmark::DoNotOptimize(f.out[2].data());
  }
}
BENCHMARK(BM_MaxSum);

void BM_MoeExpert(benchmark::State& state) {
  CompileOptions o;
  o.fn_name = "fn_expert0";
  o.sizes = {{"D", 16}, {"K", 9}, {"E", 3}};
  o.args = {{"in0", {9}}, {"in1", {3}}, {"W0_0", {9, 16}}, {"W0_1", {16, 9}}};
  o.expected_outputs = {{9}};
  Fixture f = make("return gelu(in0 @ W0_0) @ W0_1 * in1[0]", o);
  sf::fnlang::Workspace<float> ws(*f.prog);
  for (auto _ : state) {
    f.prog->eval(f.ap.data(), f.op.data(), ws, nullptr);
    benchmark::DoNotOptimize(f.out[0].data());
  }
}
BENCHMARK(BM_MoeExpert);

}  // namespace

BENCHMARK_MAIN();
