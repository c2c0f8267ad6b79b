// Helpers shared by the impl parser/checker tests.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/step/affine.hpp"
#include "core/step/names.hpp"
#include "core/step/parser.hpp"

namespace sf::step::testutil {

inline Program parse_ok(const std::string& text, const ParseOptions& opt = {}) {
  Diagnostics d;
  auto p = parse_impl(text, opt, d);
  EXPECT_TRUE(p.has_value()) << (d.empty() ? std::string("?") : d.front().code + " " + d.front().message);
  EXPECT_TRUE(d.empty());
  return p ? *p : Program{};
}

// Parses text that must fail; returns the single diagnostic.
inline Diagnostic parse_err(const std::string& text, const ParseOptions& opt = {}) {
  Diagnostics d;
  auto p = parse_impl(text, opt, d);
  EXPECT_FALSE(p.has_value());
  EXPECT_EQ(d.size(), 1u);
  return d.empty() ? Diagnostic{} : d.front();
}

// The §5.4 toy task's namespace.
inline TaskNames toy_names() {
  TaskNames n;
  n.inputs = {"E0", "E1"};
  n.parameters = {"W"};
  n.fns = {"fn_a", "fn_b", "fn_sum", "fn_mul"};
  n.outputs = {"S0"};
  n.sizes = {"D", "M", "E"};
  return n;
}

inline const char* kExample54 =
    "expert_fns = [fn_a, fn_b]                      # fn list (not a stream)\n"
    "E2 = step.Bufferize(a=1).apply(E0)             # dims [D, M] -> [M] of Buffer(fp32, [D])\n"
    "E1_0, E1_1 = step.Copy().apply(E1)             # selector used twice -> Copy\n"
    "E3 = step.Partition(N=E_value).apply((E2, E1_0))\n"
    "E4 = [step.Map(fn=f).apply(s) for f, s in zip(expert_fns, E3)]\n"
    "E5 = step.Merge(fn=fn_sum).apply((E4, E1_1))\n"
    "E6 = step.Streamify().apply(E5)\n"
    "return E6\n";

inline Diagnostics affine(const std::string& text, const TaskNames& names = toy_names()) {
  Diagnostics d;
  Program p = parse_ok(text);
  EXPECT_TRUE(check_names(p, names, d)) << (d.empty() ? "" : d.front().message);
  check_affine(p, names, d);
  return d;
}

inline Diagnostics names_of(const std::string& text, const TaskNames& names = toy_names(),
                            const SizeBinding* sizes = nullptr) {
  Diagnostics d;
  Program p = parse_ok(text);
  check_names(p, names, d, sizes);
  return d;
}

}  // namespace sf::step::testutil
