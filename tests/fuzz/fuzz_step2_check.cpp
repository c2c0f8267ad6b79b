// libFuzzer: the step-v2 parser and checker (and, when a program checks, the functional simulator) on arbitrary
// impl text against a fixed task. Invariants: no crash, hang or unbounded allocation; every error is located; a
// program that checks has one graph per binding with exactly one consumer per stream, and simulates.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string_view>
#include <vector>

#include "core/step/task.hpp"
#include "core/step2/check.hpp"
#include "core/step2/sim.hpp"

using namespace sf;

namespace {

const step::TaskDoc& task() {
  static const step::TaskDoc t = [] {
    Diagnostics d;
    auto doc = step::load_task_text(R"(dialect: step-v2
id: fuzz/t
title: t
description: d
sizes: {M: 32, K: 16, N: 64}
inputs:
  - {name: A, shape: [M, K], data_gen: randn}
  - {name: B, shape: [K, N], data_gen: randn}
outputs:
  - {name: C, shape: [M, N]}
reference: |
  return A @ B
verify: {alt_sizes: {M: 64}}
)",
                                    "fuzz.yaml", d);
    if (!doc) std::abort();
    return *doc;
  }();
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  step2::CheckOptions opt;
  opt.max_stream_scalars = 1 << 16;  // keep each run small
  opt.max_total_scalars = 1 << 18;
  opt.max_stream_tokens = 1 << 12;
  auto r = step2::check(task(), text, {{3, 3}}, opt);
  for (const auto& d : r.diags)
    if (d.is_error() && !d.loc.known()) std::abort();
  if (!r.ok()) {
    if (!has_errors(r.diags)) std::abort();
    return 0;
  }
  if (r.graphs.size() != 2) std::abort();
  for (const auto& s : r.graph()->streams)
    if (s.consumer < 0 || s.producer < 0) std::abort();
  std::map<std::string, step2::HostTensor, std::less<>> in;
  in["A"] = {{32, 16}, std::vector<float>(32 * 16, 0.5f)};
  in["B"] = {{16, 64}, std::vector<float>(16 * 64, 0.25f)};
  auto s = step2::simulate(*r.graph(), in);
  if (s.error && !s.error->loc.known()) std::abort();
  return 0;
}
