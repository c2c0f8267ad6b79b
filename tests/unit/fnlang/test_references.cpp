// The 26 reference bodies of step-dialect Appendix B compile for the shapes of benchmark.md; values on
// small inputs; fragile-gap detection (§11.4).
#include <cmath>

#include "tests/unit/fnlang/fn_test_util.hpp"

namespace sf::fnlang::test {
namespace {

struct Ref {
  const char* id;
  std::string body;
  std::vector<Arg> args;
  std::vector<Shape> out;
  std::int64_t E;
};

std::vector<Ref> appendix_b() {
  const std::string att = "return einsum('nm,nmd->nd', softmax(E0, axis=1), E1)";
  const std::string ln = "mu = mean(E0, axis=1, keepdim=True)\nreturn (E0 - mu) / sqrt(var(E0, axis=1, keepdim=True) + 1e-5)";
  const std::string rope_head =
      "inv_freq = 1.0 / 10000.0 ** (arange(0, D, 2) / D)\nang = outer(arange(0, N), inv_freq)\nc = cos(ang)\ns = sin(ang)\n";
  const std::string neox = rope_head + "x1, x2 = chunk(E1, 2, axis=-1)\nreturn concat([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1)";
  const std::string gptj = rope_head + "x1 = E1[..., 0::2]\nx2 = E1[..., 1::2]\nreturn interleave(x1 * c - x2 * s, x1 * s + x2 * c)";
  const std::string resid = "return (a * gelu(E0 @ W) + E0) * s + E0 * (1.0 - s)";
  const std::string ffn3 =
      "return w[..., 0:1] * (gelu(E0 @ W0_0) @ W0_1) + w[..., 1:2] * (gelu(E0 @ W1_0) @ W1_1) + w[..., 2:3] * (gelu(E0 @ W2_0) @ W2_1)";
  const std::vector<Arg> experts = {{"W0_0", {K, D}}, {"W0_1", {D, K}}, {"W1_0", {K, D}},
                                    {"W1_1", {D, K}}, {"W2_0", {K, D}}, {"W2_1", {D, K}}};
  auto with = [](std::vector<Arg> a, const std::vector<Arg>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  return {
      {"attention/online_softmax_fused", att, {{"E0", {N, M}}, {"E1", {N, M, D}}}, {{N, D}}, 0},
      {"attention/online_softmax_scan_divsum", att, {{"E0", {N, M}}, {"E1", {N, M, D}}}, {{N, D}}, 0},
      {"attention/online_softmax_split_sums", att, {{"E0", {N, M}}, {"E1", {N, M, D}}}, {{N, D}}, 0},
      {"bmm/outer_product", "return einsum('mkn,mkd->mnd', E0, E1)", {{"E0", {M, K, N}}, {"E1", {M, K, D}}}, {{M, N, D}}, 0},
      {"bmm/row_wise", "return einsum('mnk,mkd->mnd', E0, E1)", {{"E0", {M, N, K}}, {"E1", {M, K, D}}}, {{M, N, D}}, 0},
      {"bmm/inner_product", "return einsum('mnk,mdk->mnd', E0, E1)", {{"E0", {M, N, K}}, {"E1", {M, D, K}}}, {{M, N, D}}, 0},
      {"gemm_easy/outer_k_reduce_scalar", "return sum(E0 * E1, axis=0)", {{"E0", {K, M, N}}, {"E1", {K, M, N}}}, {{M, N}}, 0},
      {"gemm_easy/outer_k_reduce_buffer", "return sum(E0 * E1, axis=0)", {{"E0", {K, M, N}}, {"E1", {K, M, N}}}, {{M, N}}, 0},
      {"gemm_easy/batched_matvec", "return einsum('nmk,nk->nm', E0, E1)", {{"E0", {N, M, K}}, {"E1", {N, K}}}, {{N, M}}, 0},
      {"norm/layernorm_buffer", ln, {{"E0", {N, D}}}, {{N, D}}, 0},
      {"norm/layernorm_streaming", ln, {{"E0", {N, D}}}, {{N, D}}, 0},
      {"norm/rmsnorm_streaming", "return E0 / sqrt(mean(E0 * E0, axis=1, keepdim=True) + 1e-5)", {{"E0", {N, D}}}, {{N, D}}, 0},
      {"rope/neox_halves", neox, {{"E0", {M, N}}, {"E1", {M, N, D}}}, {{M, N, D}}, 0},
      {"rope/gptj_interleaved", gptj, {{"E0", {M, N}}, {"E1", {M, N, D}}}, {{M, N, D}}, 0},
      {"rope/neox_broadcast_positions", neox, {{"E0", {M}}, {"E1", {M, N, D}}}, {{M, N, D}}, 0},
      {"moe_index/softmax_top1", "aff = softmax(E0 @ Wg, axis=-1)\nreturn topk_mask(aff, 1, axis=-1), aff",
       {{"E0", {M, K}}, {"Wg", {K, 3}}}, {{M, 3}, {M, 3}}, 3},
      {"moe_index/expert_choice_top3", "aff = softmax(E0 @ Wg, axis=-1)\nreturn topk_mask(aff, 3, axis=0), aff",
       {{"E0", {M, K}}, {"Wg", {K, 3}}}, {{M, 3}, {M, 3}}, 3},
      {"moe_index/sigmoid_token_top3", "aff = sigmoid(E0 @ Wg)\nreturn topk_mask(aff, 3, axis=0), aff",
       {{"E0", {M, K}}, {"Wg", {K}}}, {{M}, {M}}, 0},
      {"moe_index/mlp_score_threshold", "c = sigmoid(silu(E0 @ Wa_0) @ Wa_1) > 0.5\nreturn stack([c, 1.0 - c], axis=-1)",
       {{"E0", {M, N, D}}, {"Wa_0", {D, K}}, {"Wa_1", {K}}}, {{M, N, 2}}, 2},
      {"moe_expert/residual_given_route", "s = E1[..., 0:1]\na = unsqueeze(sigmoid(E0 @ Wg), -1)\n" + resid,
       {{"E0", {M, N, D}}, {"E1", {M, N, 2}}, {"W", {D, D}}, {"Wg", {D}}}, {{M, N, D}}, 2},
      {"moe_expert/ffn3_weighted",
       "y0 = gelu(E0 @ W0_0) @ W0_1\ny1 = gelu(E0 @ W1_0) @ W1_1\ny2 = gelu(E0 @ W2_0) @ W2_1\n"
       "return E1[..., 0:1] * E2[..., 0:1] * y0 + E1[..., 1:2] * E2[..., 1:2] * y1 + E1[..., 2:3] * E2[..., 2:3] * y2",
       with({{"E0", {M, N, K}}, {"E1", {M, N, 3}}, {"E2", {M, N, 3}}}, experts), {{M, N, K}}, 3},
      {"moe_expert/residual_binary_route", "s = unsqueeze(E1, -1)\na = unsqueeze(E2, -1)\n" + resid,
       {{"E0", {M, K}}, {"E1", {M}}, {"E2", {M}}, {"W", {K, K}}}, {{M, K}}, 2},
      {"moe_e2e/softmax_top1_ffn3", "aff = softmax(E0 @ Wg, axis=-1)\nw = topk_mask(aff, 1, axis=-1) * aff\n" + ffn3,
       with({{"E0", {M, N, K}}, {"Wg", {K, 3}}}, experts), {{M, N, K}}, 3},
      {"moe_e2e/softmax_top2_ffn3", "aff = softmax(E0 @ Wg, axis=-1)\nw = topk_mask(aff, 2, axis=-1) * aff\n" + ffn3,
       with({{"E0", {M, N, K}}, {"Wg", {K, 3}}}, experts), {{M, N, K}}, 3},
      {"moe_e2e/sigmoid_token_top3_residual",
       "g = sigmoid(E0 @ Wg)\ns = unsqueeze(topk_mask(g, 3, axis=0), -1)\na = unsqueeze(g, -1)\n" + resid,
       {{"E0", {M, K}}, {"Wg", {K}}, {"W", {K, K}}}, {{M, K}}, 2},
      {"moe_e2e/mlp_threshold_residual",
       "s = unsqueeze(sigmoid(silu(E0 @ Wa_0) @ Wa_1) > 0.5, -1)\na = unsqueeze(sigmoid(E0 @ Wg), -1)\n" + resid,
       {{"E0", {M, N, D}}, {"Wa_0", {D, K}}, {"Wa_1", {K}}, {"W", {D, D}}, {"Wg", {D}}}, {{M, N, D}}, 2},
  };
}

CompileOptions ref_options(const Ref& r, std::map<std::string, std::int64_t> sizes = {{"D", D}, {"K", K}, {"M", M}, {"N", N}}) {
  CompileOptions o;
  o.fn_name = r.id;
  o.mode = Mode::Reference;
  o.sizes = std::move(sizes);
  if (r.E) o.sizes["E"] = r.E;
  o.args = r.args;
  o.expected_outputs = r.out;
  return o;
}

TEST(FnlangAppendixB, All26ReferencesCompileAndRun) {
  const auto refs = appendix_b();
  ASSERT_EQ(refs.size(), 26u);
  for (const auto& r : refs) {
    sf::Diagnostics d;
    auto p = compile(r.body, ref_options(r), d);
    ASSERT_TRUE(p) << r.id << ": " << (d.empty() ? "" : d[0].message);
    EXPECT_EQ(p->output_shapes(), r.out) << r.id;
    std::vector<std::vector<double>> in;
    std::vector<const double*> ap;
    int seed = 1;
    for (const auto& a : r.args) {
      std::int64_t n = 1;
      for (auto x : a.shape) n *= x;
      std::vector<double> v(static_cast<std::size_t>(n));
      for (auto& x : v) x = std::sin(seed++ * 0.7);  // deterministic, no exact ties
      in.push_back(std::move(v));
    }
    for (auto& x : in) ap.push_back(x.data());
    std::vector<std::vector<double>> out;
    std::vector<double*> op;
    for (const auto& s : r.out) {
      std::int64_t n = 1;
      for (auto x : s) n *= x;
      out.emplace_back(static_cast<std::size_t>(n), std::nan(""));
    }
    for (auto& x : out) op.push_back(x.data());
    Workspace<double> ws(*p);
    EvalReport rep;
    ASSERT_TRUE(p->eval(ap.data(), op.data(), ws, &rep)) << r.id;
    for (const auto& o : out) {
      for (double x : o) EXPECT_TRUE(std::isfinite(x)) << r.id;
    }
  }
}

TEST(FnlangAppendixB, LayerNormAndAttentionValues) {
  const auto refs = appendix_b();
  auto ln = run<double>(refs[9].body, {{"E0", {1, 4}, {1, 2, 3, 4}}}, {}, nullptr, Mode::Reference);
  const double sd = std::sqrt(1.25 + 1e-5);
  expect_near(ln[0], {-1.5 / sd, -0.5 / sd, 0.5 / sd, 1.5 / sd}, 1e-12);
  // equal scores: uniform weights -> the mean of the value vectors
  auto at = run<double>(refs[0].body, {{"E0", {1, 2}, {0.3, 0.3}}, {"E1", {1, 2, 2}, {1, 2, 3, 6}}}, {}, nullptr,
                        Mode::Reference);
  expect_near(at[0], {2, 4}, 1e-12);
  // rope reference at position 0 (first row of every sequence) is the identity
  auto ro = run<double>(refs[12].body, {{"E0", {1, 2}, {1, 1}}, {"E1", {1, 2, 4}, {1, 2, 3, 4, 1, 2, 3, 4}}},
                        {{"D", 4}, {"N", 2}}, nullptr, Mode::Reference);
  expect_near({ro[0].begin(), ro[0].begin() + 4}, {1, 2, 3, 4}, 1e-12);
}

TEST(FnlangFragile, TopkNearTieIsRecordedWithLocation) {
  auto o = options({{"E0", {3}, {}}}, {}, {}, Mode::Reference);
  o.line_starts = {{40, 5}, {41, 5}};
  sf::Diagnostics d;
  auto p = compile("a = E0 * 1.0\nreturn topk_mask(a, 1)", o, d);
  ASSERT_TRUE(p);
  Workspace<double> ws(*p);
  double in[3] = {1.0, 1.0 + 4e-6, 0.0}, out[3];
  const double* a[] = {in};
  double* r[] = {out};
  EvalReport rep;
  ASSERT_TRUE(p->eval(a, r, ws, &rep));
  EXPECT_EQ(out[1], 1.0);
  ASSERT_EQ(rep.fragile.size(), 1u);
  EXPECT_NEAR(rep.fragile[0].gap, 4e-6, 1e-12);
  EXPECT_EQ(rep.fragile[0].loc, (sf::Location{41, 12}));
  // a clear gap is not fragile
  in[1] = 2.0;
  EvalReport rep2;
  ASSERT_TRUE(p->eval(a, r, ws, &rep2));
  EXPECT_TRUE(rep2.fragile.empty());
}

TEST(FnlangFragile, ComparisonsAndArgmax) {
  auto o = options({{"E0", {3}, {}}}, {}, {}, Mode::Reference);
  sf::Diagnostics d;
  auto p = compile("return E0 > 0.5, E0 == 1.0, argmax(E0)", o, d);
  ASSERT_TRUE(p);
  Workspace<double> ws(*p);
  double in[3] = {0.5 + 1e-7, 1.0, 1.0 - 2e-6}, o1[3], o2[3], o3[1];
  const double* a[] = {in};
  double* r[] = {o1, o2, o3};
  EvalReport rep;
  ASSERT_TRUE(p->eval(a, r, ws, &rep));
  // 0.5+1e-7 vs 0.5 (comparison), 1-2e-6 vs 0.5? no; == : 1-2e-6 vs 1.0; argmax: 1.0 vs 1-2e-6
  ASSERT_EQ(rep.fragile.size(), 3u);
  EXPECT_EQ(rep.fragile[0].loc, (sf::Location{1, 11}));
  EXPECT_EQ(rep.fragile[1].loc, (sf::Location{1, 21}));
  EXPECT_EQ(rep.fragile[2].what, "argmax");
  EXPECT_EQ(o3[0], 1.0);
  // the same body in Fn mode never records gaps
  auto pf = compile("return E0 > 0.5, E0 == 1.0, argmax(E0)", options({{"E0", {3}, {}}}), d);
  ASSERT_TRUE(pf);
  Workspace<float> wf(*pf);
  float fin[3] = {0.5f, 1.0f, 1.0f}, f1[3], f2[3], f3[1];
  const float* fa[] = {fin};
  float* fr[] = {f1, f2, f3};
  EvalReport rf;
  ASSERT_TRUE(pf->eval(fa, fr, wf, &rf));
  EXPECT_TRUE(rf.fragile.empty());
}

}  // namespace
}  // namespace sf::fnlang::test
