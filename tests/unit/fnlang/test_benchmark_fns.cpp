// The 58 benchmark fns of step-dialect Appendix A: they compile with their declared shapes and give
// hand-checked values on small inputs.
#include <cmath>

#include "tests/unit/fnlang/fn_test_util.hpp"

namespace sf::fnlang::test {
namespace {

struct FnDef {
  const char* name;
  const char* body;
  std::vector<Shape> in;
  std::vector<Shape> out;
  bool stateful;
  std::vector<std::pair<const char*, Shape>> params;
  std::int64_t E;
};

std::vector<FnDef> appendix_a() {
  const char* maxsum =
      "m = max(state0, in0)\nl_old = exp(state0 - m) * state1\np = exp(in0 - m)\nl = p + l_old\n"
      "return m, l, l_old * state2 / l + p * in1 / l";
  const char* neox =
      "freq = in0 / 10000.0 ** (arange(0, D, 2) / D)\nc = cos(freq)\ns = sin(freq)\nx1, x2 = chunk(in1, 2, axis=-1)\n"
      "return concat([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1)";
  const char* gptj =
      "freq = in0 / 10000.0 ** (arange(0, D, 2) / D)\nc = cos(freq)\ns = sin(freq)\nx1 = in1[0::2]\nx2 = in1[1::2]\n"
      "return interleave(x1 * c - x2 * s, x1 * s + x2 * c)";
  std::vector<FnDef> v = {
      {"fn_maxsum", maxsum, {{}, {D}}, {{}, {}, {D}}, true, {}, 3},
      {"fn_getthird", "return in2", {{}, {}, {D}}, {{D}}, false, {}, 3},
      {"fn_expmaxdiff", "m = max(state0, in0)\nreturn m, exp(in0 - m), exp(state0 - m)", {{}}, {{}, {}, {}}, true, {}, 3},
      {"fn_divsum", "l_old = in2 * state0\nl = in1 + l_old\nreturn l, l_old * state1 / l + in1 * in0 / l",
       {{D}, {}, {}}, {{D}, {D}}, true, {}, 3},
      {"fn_getsecondthird", "return in1, in2", {{}, {}, {}}, {{}, {}}, false, {}, 3},
      {"fn_getsecond", "return in1", {{D}, {D}}, {{D}}, false, {}, 3},
      {"fn_wssingle", "return state0 * in1 + in0", {{}, {}}, {{}}, true, {}, 3},
      {"fn_wsdouble", "return state0 * in2 + in1 * in0", {{D}, {}, {}}, {{D}}, true, {}, 3},
      {"fn_div", "return in1 / in0", {{}, {D}}, {{D}}, false, {}, 3},
      {"fn_div", "return in0 / in1", {{D}, {D}}, {{D}}, false, {}, 3},
      {"fn_div", "return in0 / in1", {{}, {}}, {{}}, false, {}, 3},
      {"fn_mul", "return in0 * in1", {{}, {}}, {{}}, false, {}, 3},
      {"fn_mul", "return in0 * in1", {{M, N}, {M, N}}, {{M, N}}, false, {}, 3},
      {"fn_mul", "return in0 * in1", {{}, {D}}, {{D}}, false, {}, 3},
      {"fn_add", "return state0 + in0", {{M, N}}, {{M, N}}, true, {}, 3},
      {"fn_add", "return state0 + in0", {{}}, {{}}, true, {}, 3},
      {"fn_outer_product", "return outer(in0, in1)", {{N}, {D}}, {{N, D}}, false, {}, 3},
      {"fn_sum", "return state0 + in0", {{N, D}}, {{N, D}}, true, {}, 3},
      {"fn_sum", "return state0 + in0", {{D}}, {{D}}, true, {}, 3},
      {"fn_sum", "return state0 + in0", {{}}, {{}}, true, {}, 3},
      {"fn_sum", "return in0 + state0", {{}}, {{}}, true, {}, 3},
      {"fn_sum", "return state0 + in0", {{K}}, {{K}}, true, {}, 3},
      {"fn_sum", "return state0 + in0", {{K}}, {{K}}, true, {}, 3},
      {"fn_mean", "return broadcast(mean(in0), [D])", {{D}}, {{D}}, false, {}, 3},
      {"fn_minus", "return in0 - in1", {{D}, {D}}, {{D}}, false, {}, 3},
      {"fn_minus", "return in0 - in1", {{}, {}}, {{}}, false, {}, 3},
      {"fn_square", "return in0 * in0", {{D}}, {{D}}, false, {}, 3},
      {"fn_square", "return in0 * in0", {{}}, {{}}, false, {}, 3},
      {"fn_addeps", "return in0 + 1e-5", {{D}}, {{D}}, false, {}, 3},
      {"fn_addeps", "return in0 + 1e-5", {{}}, {{}}, false, {}, 3},
      {"fn_sqrt", "return sqrt(in0)", {{D}}, {{D}}, false, {}, 3},
      {"fn_sqrt", "return sqrt(in0)", {{}}, {{}}, false, {}, 3},
      {"fn_divbyD", "return in0 / D", {{}}, {{}}, false, {}, 3},
      {"fn_neoxrope", neox, {{}, {D}}, {{D}}, false, {}, 3},
      {"fn_gptjrope", gptj, {{}, {D}}, {{D}}, false, {}, 3},
      {"fn_gate", "return softmax(in0 @ Wg, axis=-1)", {{K}}, {{3}}, false, {{"Wg", {K, 3}}}, 3},
      {"fn_gate", "return sigmoid(in0 @ Wg)", {{K}}, {{}}, false, {{"Wg", {K}}}, 3},
      {"fn_top1", "return topk_mask(in0, 1, axis=-1)", {{3}}, {{3}}, false, {}, 3},
      {"fn_top2", "return topk_mask(in0, 2, axis=-1)", {{3}}, {{3}}, false, {}, 3},
      {"fn_top3", "return topk_mask(in0, 3, axis=0)", {{M}}, {{M}}, false, {}, 3},
      {"fn_top3", "return topk_mask(in0, 3, axis=0)", {{M}}, {{M}}, false, {}, 3},
      {"fn_transpose_0", "return transpose(in0)", {{M, 3}}, {{3, M}}, false, {}, 3},
      {"fn_transpose_1", "return transpose(in0)", {{3, M}}, {{M, 3}}, false, {}, 3},
      {"fn_score", "return sigmoid(silu(in0 @ Wa_0) @ Wa_1)", {{D}}, {{}}, false, {{"Wa_0", {D, K}}, {"Wa_1", {K}}}, 2},
      {"fn_filter", "c = in0 > 0.5\nreturn stack([c, 1.0 - c], axis=0)", {{}}, {{2}}, false, {}, 2},
      {"fn_filter", "c = in0 == 1.0\nreturn stack([c, 1.0 - c], axis=0)", {{}}, {{2}}, false, {}, 2},
      {"fn_affinity", "return sigmoid(in0 @ Wg)", {{D}}, {{}}, false, {{"Wg", {D}}}, 2},
      {"fn_expert0", "return in1 * gelu(in0 @ W) + in0", {{D}, {}}, {{D}}, false, {{"W", {D, D}}}, 2},
      {"fn_expert0", "return gelu(in0 @ W) * in1 + in0", {{K}, {}}, {{K}}, false, {{"W", {K, K}}}, 2},
      {"fn_expert1", "return in0", {{D}, {}}, {{D}}, false, {}, 2},
      {"fn_expert1", "return in0", {{K}, {}}, {{K}}, false, {}, 2},
  };
  static const char* two[] = {"return gelu(in0 @ W0_0) @ W0_1, in1[0]", "return gelu(in0 @ W1_0) @ W1_1, in1[1]",
                              "return gelu(in0 @ W2_0) @ W2_1, in1[2]"};
  static const char* one[] = {"return gelu(in0 @ W0_0) @ W0_1 * in1[0]", "return gelu(in0 @ W1_0) @ W1_1 * in1[1]",
                              "return gelu(in0 @ W2_0) @ W2_1 * in1[2]"};
  static const char* pn[3][2] = {{"W0_0", "W0_1"}, {"W1_0", "W1_1"}, {"W2_0", "W2_1"}};
  for (int e = 0; e < 3; ++e) {
    v.push_back({"fn_expert", two[e], {{K}, {3}}, {{K}, {}}, false, {{pn[e][0], {K, D}}, {pn[e][1], {D, K}}}, 3});
  }
  for (int e = 0; e < 3; ++e) {
    v.push_back({"fn_expert", one[e], {{K}, {3}}, {{K}}, false, {{pn[e][0], {K, D}}, {pn[e][1], {D, K}}}, 3});
  }
  v.push_back({"fn_weighted_sum", "return state0 + in0 * in1", {{K}, {}}, {{K}}, true, {}, 3});
  return v;
}

CompileOptions fn_options(const FnDef& f) {
  CompileOptions o;
  o.fn_name = f.name;
  o.sizes = {{"D", D}, {"K", K}, {"M", M}, {"N", N}, {"E", f.E}};
  for (std::size_t i = 0; i < f.in.size(); ++i) o.args.push_back({"in" + std::to_string(i), f.in[i]});
  if (f.stateful) {
    for (std::size_t i = 0; i < f.out.size(); ++i) o.args.push_back({"state" + std::to_string(i), f.out[i]});
  }
  for (const auto& [n, s] : f.params) o.args.push_back({n, s});
  o.expected_outputs = f.out;
  return o;
}

TEST(FnlangAppendixA, All58FnsCompileWithDeclaredShapes) {
  const auto fns = appendix_a();
  ASSERT_EQ(fns.size(), 58u);
  for (const auto& f : fns) {
    sf::Diagnostics d;
    auto p = compile(f.body, fn_options(f), d);
    ASSERT_TRUE(p) << f.name << ": " << (d.empty() ? "" : d[0].message);
    EXPECT_EQ(p->output_shapes(), f.out) << f.name;
    // and run once on zeros-ish inputs without error
    std::vector<std::vector<float>> in;
    std::vector<const float*> ap;
    for (const auto& a : fn_options(f).args) {
      std::int64_t n = 1;
      for (auto x : a.shape) n *= x;
      in.emplace_back(static_cast<std::size_t>(n), 0.5f);
    }
    for (auto& x : in) ap.push_back(x.data());
    std::vector<std::vector<float>> out;
    std::vector<float*> op;
    for (const auto& s : f.out) {
      std::int64_t n = 1;
      for (auto x : s) n *= x;
      out.emplace_back(static_cast<std::size_t>(n));
    }
    for (auto& x : out) op.push_back(x.data());
    Workspace<float> ws(*p);
    EvalReport r;
    EXPECT_TRUE(p->eval(ap.data(), op.data(), ws, &r)) << f.name;
  }
}

TEST(FnlangAppendixA, WrongDeclaredShapeIsReported) {
  auto f = appendix_a()[4];  // fn_getsecondthird, output field 1 declared (9) instead of ()
  auto o = fn_options(f);
  o.expected_outputs[1] = {K};
  o.line_starts = {{22, 7}};
  auto d = compile_error(f.body, o);
  EXPECT_EQ(d.code, "X-FN-SHAPE");
  EXPECT_EQ(d.message, "fn fn_getsecondthird line 22: returns shape () for output field 1, declared (9)");
  EXPECT_EQ(d.loc, (sf::Location{22, 7}));
}

// Online softmax over two steps: scores (1, 0), values [2, 4] and [6, 8] -> softmax-weighted sum.
template <class S>
void maxsum_two_steps() {
  FnDef f = appendix_a()[0];
  auto o = fn_options(f);
  o.sizes["D"] = 2;
  o.args = {{"in0", {}}, {"in1", {2}}, {"state0", {}}, {"state1", {}}, {"state2", {2}}};
  o.expected_outputs = {{}, {}, {2}};
  sf::Diagnostics d;
  auto p = compile(f.body, o, d);
  ASSERT_TRUE(p);
  Workspace<S> ws(*p);
  S s0 = -std::numeric_limits<S>::infinity(), s1 = 0, s2[2] = {0, 0};
  S x0 = 1, v0[2] = {2, 4}, x1 = 0, v1[2] = {6, 8};
  S m, l, o2[2];
  S* outs[] = {&m, &l, o2};
  const S* a1[] = {&x0, v0, &s0, &s1, s2};
  ASSERT_TRUE(p->eval(a1, outs, ws, nullptr));
  EXPECT_EQ(m, 1);
  EXPECT_EQ(l, 1);
  EXPECT_EQ(o2[0], 2);
  EXPECT_EQ(o2[1], 4);
  S t0 = m, t1 = l, t2[2] = {o2[0], o2[1]};
  const S* a2[] = {&x1, v1, &t0, &t1, t2};
  ASSERT_TRUE(p->eval(a2, outs, ws, nullptr));
  const double w1 = std::exp(1.0) / (std::exp(1.0) + 1), w2 = 1 - w1;
  EXPECT_EQ(m, 1);
  EXPECT_NEAR(l, 1 + std::exp(-1.0), 1e-6);
  EXPECT_NEAR(o2[0], w1 * 2 + w2 * 6, 1e-5);
  EXPECT_NEAR(o2[1], w1 * 4 + w2 * 8, 1e-5);
}
TEST(FnlangAppendixA, MaxSumTwoStepsFloat) { maxsum_two_steps<float>(); }
TEST(FnlangAppendixA, MaxSumTwoStepsDouble) { maxsum_two_steps<double>(); }

TEST(FnlangAppendixA, RopeAtPositionZeroIsIdentityAndRotatesAtOne) {
  const auto fns = appendix_a();
  std::vector<double> x(16);
  for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(i)] = i + 1;
  for (int which : {33, 34}) {
    auto r0 = run<float>(fns[static_cast<std::size_t>(which)].body, {{"in0", {}, {0}}, {"in1", {16}, x}}, {{"D", 16}});
    ASSERT_EQ(r0.size(), 1u);
    expect_near(r0[0], x, 1e-6);
  }
  const std::vector<double> x4 = {1, 2, 3, 4};
  const double c1 = std::cos(1.0), s1 = std::sin(1.0), c2 = std::cos(0.01), s2 = std::sin(0.01);
  auto neox = run<double>(fns[33].body, {{"in0", {}, {1}}, {"in1", {4}, x4}}, {{"D", 4}});
  expect_near(neox[0], {c1 - 3 * s1, 2 * c2 - 4 * s2, s1 + 3 * c1, 2 * s2 + 4 * c2}, 1e-12);
  auto gptj = run<double>(fns[34].body, {{"in0", {}, {1}}, {"in1", {4}, x4}}, {{"D", 4}});
  expect_near(gptj[0], {c1 - 2 * s1, s1 + 2 * c1, 3 * c2 - 4 * s2, 3 * s2 + 4 * c2}, 1e-12);
}

TEST(FnlangAppendixA, SmallValues) {
  const auto fns = appendix_a();
  auto body = [&](const char* name, int nth = 0) {
    for (const auto& f : fns) {
      if (std::string(f.name) == name && nth-- == 0) return std::string(f.body);
    }
    return std::string();
  };
  // fn_gate (softmax): logits [0, 1]
  auto g = run<double>(body("fn_gate"), {{"in0", {2}, {1, 1}}, {"Wg", {2, 2}, {0, 0.5, 0, 0.5}}});
  expect_near(g[0], {1 / (1 + std::exp(1.0)), std::exp(1.0) / (1 + std::exp(1.0))}, 1e-12);
  auto t2 = run<float>(body("fn_top2"), {{"in0", {3}, {0.1, 0.5, 0.3}}});
  EXPECT_EQ(t2[0], (std::vector<double>{0, 1, 1}));
  auto tr = run<float>(body("fn_transpose_1"), {{"in0", {2, 3}, {1, 0, 0, 0, 1, 1}}});
  EXPECT_EQ(tr[0], (std::vector<double>{1, 0, 0, 1, 0, 1}));
  EXPECT_EQ(run<float>(body("fn_filter", 0), {{"in0", {}, {0.7}}})[0], (std::vector<double>{1, 0}));
  EXPECT_EQ(run<float>(body("fn_filter", 0), {{"in0", {}, {0.5}}})[0], (std::vector<double>{0, 1}));
  EXPECT_EQ(run<float>(body("fn_filter", 1), {{"in0", {}, {1}}})[0], (std::vector<double>{1, 0}));
  EXPECT_EQ(run<float>(body("fn_filter", 1), {{"in0", {}, {0}}})[0], (std::vector<double>{0, 1}));
  EXPECT_EQ(run<float>(body("fn_mean"), {{"in0", {4}, {1, 2, 3, 4}}}, {{"D", 4}})[0], (std::vector<double>(4, 2.5)));
  EXPECT_EQ(run<float>(body("fn_divbyD"), {{"in0", {}, {8}}}, {{"D", 16}})[0], (std::vector<double>{0.5}));
  EXPECT_EQ(run<float>(body("fn_weighted_sum"), {{"in0", {2}, {2, 3}}, {"in1", {}, {2}}, {"state0", {2}, {1, 1}}})[0],
            (std::vector<double>{5, 7}));
  // expert0 with identity weights: in1 * gelu(x) + x
  auto e0 = run<double>(body("fn_expert0"), {{"in0", {2}, {1, 0}}, {"in1", {}, {2}}, {"W", {2, 2}, {1, 0, 0, 1}}});
  expect_near(e0[0], {1 + 2 * 0.8413447460685429, 0}, 1e-12);
  // fn_expert{e} picks its own gate weight in1[e]
  auto ex = run<double>(body("fn_expert", 2), {{"in0", {1}, {1}}, {"in1", {3}, {0.1, 0.2, 0.3}}, {"W2_0", {1, 1}, {1}},
                                               {"W2_1", {1, 1}, {2}}});
  expect_near(ex[0], {2 * 0.8413447460685429}, 1e-12);
  expect_near(ex[1], {0.3}, 1e-12);
  auto os = run<float>(body("fn_outer_product"), {{"in0", {2}, {1, 2}}, {"in1", {2}, {3, 4}}});
  EXPECT_EQ(os[0], (std::vector<double>{3, 4, 6, 8}));
  auto ds = run<double>(body("fn_divsum"), {{"in0", {1}, {5}}, {"in1", {}, {1}}, {"in2", {}, {0.5}},
                                             {"state0", {1}, {2}}, {"state1", {1}, {3}}});
  // l_old = 1, l = 2, o = 1 * 3 / 2 + 1 * 5 / 2 = 4
  expect_near(ds[0], {2}, 1e-12);
  expect_near(ds[1], {4}, 1e-12);
}

}  // namespace
}  // namespace sf::fnlang::test
