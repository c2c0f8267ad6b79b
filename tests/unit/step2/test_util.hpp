// Helpers of the step-v2 front-end tests: a small task document and checks of the first diagnostic.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/step/task.hpp"
#include "core/step2/check.hpp"

namespace sf::step2::test {

// A v2 task with inputs A [M, K], B [K, N], X [M, N] and output C [M, N] (M=256, K=128, N=256).
inline step::TaskDoc small_task() {
  const char* text = R"(dialect: step-v2
id: test/small
title: t
description: d
sizes: {M: 256, K: 128, N: 256}
inputs:
  - {name: A, shape: [M, K], data_gen: randn}
  - {name: B, shape: [K, N], data_gen: randn}
  - {name: X, shape: [M, N], data_gen: rand}
outputs:
  - {name: C, shape: [M, N]}
reference: |
  return A @ B
)";
  Diagnostics d;
  auto t = step::load_task_text(text, "small.yaml", d);
  EXPECT_TRUE(t.has_value()) << (d.empty() ? "" : d[0].message);
  return t ? *t : step::TaskDoc{};
}

inline std::string replace(std::string s, const std::string& a, const std::string& b) {
  auto p = s.find(a);
  EXPECT_NE(p, std::string::npos) << a;
  if (p != std::string::npos) s.replace(p, a.size(), b);
  return s;
}

// The first error of checking `impl` against `task`: its code, line and column (impl-relative).
struct First {
  std::string code, message;
  int line = 0, col = 0;
};
inline First first_error(const step::TaskDoc& task, const std::string& impl) {
  auto r = check(task, impl);
  for (const auto& d : r.diags)
    if (d.is_error()) return {d.code, d.message, d.loc.line, d.loc.column};
  return {};
}

}  // namespace sf::step2::test
