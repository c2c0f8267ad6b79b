// Helpers for fnlang tests: compile a body with named args and evaluate it on small inputs.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/fnlang/fnlang.hpp"

namespace sf::fnlang::test {

// The benchmark sizes (benchmark.md).
inline constexpr std::int64_t D = 16, K = 9, M = 5, N = 7;

struct In {
  std::string name;
  Shape shape;
  std::vector<double> data;
};

inline CompileOptions options(const std::vector<In>& ins, std::map<std::string, std::int64_t> sizes = {},
                              std::vector<Shape> outs = {}, Mode mode = Mode::Fn) {
  CompileOptions o;
  o.fn_name = "fn_t";
  o.mode = mode;
  o.sizes = std::move(sizes);
  for (const auto& i : ins) o.args.push_back({i.name, i.shape});
  o.expected_outputs = std::move(outs);
  return o;
}

// Compiles and evaluates in scalar type S; returns every output as doubles. Fails the test on error.
template <class S>
std::vector<std::vector<double>> run(std::string_view body, const std::vector<In>& ins,
                                     std::map<std::string, std::int64_t> sizes = {}, EvalReport* rep = nullptr,
                                     Mode mode = Mode::Fn) {
  sf::Diagnostics d;
  auto p = compile(body, options(ins, sizes, {}, mode), d);
  if (!p) {
    ADD_FAILURE() << "compile failed: " << (d.empty() ? "" : d[0].code + " " + d[0].message);
    return {};
  }
  std::vector<std::vector<S>> in(ins.size());
  std::vector<const S*> ap;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    in[i].assign(ins[i].data.begin(), ins[i].data.end());
    ap.push_back(in[i].data());
  }
  std::vector<std::vector<S>> out;
  std::vector<S*> op;
  for (const auto& s : p->output_shapes()) {
    std::int64_t n = 1;
    for (auto v : s) n *= v;
    out.emplace_back(static_cast<std::size_t>(n), S(-12345));
  }
  for (auto& o : out) op.push_back(o.data());
  Workspace<S> ws(*p);
  EvalReport local;
  EvalReport* r = rep ? rep : &local;
  if (!p->eval(ap.data(), op.data(), ws, r)) {
    ADD_FAILURE() << "eval failed: " << (r->error ? r->error->message : "");
    return {};
  }
  std::vector<std::vector<double>> res;
  for (auto& o : out) res.emplace_back(o.begin(), o.end());
  return res;
}

// First diagnostic of a failing compile (empty code if it compiled).
inline sf::Diagnostic compile_error(std::string_view body, const CompileOptions& o) {
  sf::Diagnostics d;
  auto p = compile(body, o, d);
  if (p || d.empty()) return {};
  return d[0];
}

inline void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace sf::fnlang::test
