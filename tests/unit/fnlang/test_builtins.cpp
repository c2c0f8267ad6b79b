// Every builtin of step-dialect §10.5 against hand-computed values, in float and in double.
#include <cmath>

#include "tests/unit/fnlang/fn_test_util.hpp"

namespace sf::fnlang::test {
namespace {

const double kNan = std::nan("");

// Runs `body` in float and double and compares every output with `want`.
void check(std::string_view body, const std::vector<In>& ins, const std::vector<std::vector<double>>& want,
           std::map<std::string, std::int64_t> sizes = {}) {
  auto f = run<float>(body, ins, sizes);
  auto d = run<double>(body, ins, sizes);
  ASSERT_EQ(f.size(), want.size()) << body;
  ASSERT_EQ(d.size(), want.size()) << body;
  for (std::size_t j = 0; j < want.size(); ++j) {
    ASSERT_EQ(d[j].size(), want[j].size()) << body;
    for (std::size_t i = 0; i < want[j].size(); ++i) {
      if (std::isnan(want[j][i])) {
        EXPECT_TRUE(std::isnan(f[j][i]) && std::isnan(d[j][i])) << body << " at " << i;
        continue;
      }
      if (std::isinf(want[j][i])) {
        EXPECT_EQ(f[j][i], want[j][i]) << body;
        EXPECT_EQ(d[j][i], want[j][i]) << body;
        continue;
      }
      const double tol = 1e-6 * std::max(1.0, std::fabs(want[j][i]));
      EXPECT_NEAR(d[j][i], want[j][i], tol * 1e-2) << body << " (double) at " << j << "," << i;
      EXPECT_NEAR(f[j][i], want[j][i], tol) << body << " (float) at " << j << "," << i;
    }
  }
}

const In X4{"x", {4}, {-1.5, 0.0, 0.5, 2.0}};
const In M22{"m", {2, 2}, {1, 2, 3, 4}};

TEST(FnlangBuiltins, UnaryElementwise) {
  check("return abs(x), -x, relu(x), square(x)", {X4},
        {{1.5, 0, 0.5, 2}, {1.5, 0, -0.5, -2}, {0, 0, 0.5, 2}, {2.25, 0, 0.25, 4}});
  check("return cos(x), sin(x), tanh(x)", {X4},
        {{0.0707372017, 1, 0.8775825619, -0.4161468365},
         {-0.9974949866, 0, 0.4794255386, 0.9092974268},
         {-0.9051482536, 0, 0.4621171573, 0.9640275801}});
  check("return exp(x), erf(x)", {X4},
        {{0.2231301601, 1, 1.6487212707, 7.3890560989}, {-0.9661051465, 0, 0.5204998778, 0.9953222650}});
  check("return log(m), sqrt(m), rsqrt(m)", {M22},
        {{0, 0.6931471806, 1.0986122887, 1.3862943611}, {1, 1.4142135624, 1.7320508076, 2},
         {1, 0.7071067812, 0.5773502692, 0.5}});
  check("return sigmoid(x), silu(x)", {X4},
        {{0.1824255238, 0.5, 0.6224593312, 0.8807970780}, {-0.2736382857, 0, 0.3112296656, 1.7615941560}});
  // exact erf-based gelu (PyTorch default) and the tanh approximation
  check("return gelu(x), gelu_tanh(x)", {X4},
        {{-0.1002108019, 0, 0.3457312306, 1.9544997361}, {-0.1004284230, 0, 0.3457140098, 1.9545976941}});
}

TEST(FnlangBuiltins, StableSigmoidAtExtremes) {
  check("return sigmoid(x * 1000.0)", {X4}, {{0, 0.5, 1, 1}});
}

TEST(FnlangBuiltins, BinaryBroadcastAndPower) {
  check("return x + m", {{"x", {3}, {1, 2, 3}}, {"m", {2, 1}, {10, 20}}}, {{11, 12, 13, 21, 22, 23}});
  check("return m - 1, 2 * m, m / 2, 1 / m", {M22}, {{0, 1, 2, 3}, {2, 4, 6, 8}, {0.5, 1, 1.5, 2}, {1, 0.5, 1.0 / 3, 0.25}});
  check("return m ** 2, 2 ** 3 ** 2, -m ** 2, pow(m, 0.5)", {M22},
        {{1, 4, 9, 16}, {512}, {-1, -4, -9, -16}, {1, 1.4142135624, 1.7320508076, 2}});
  check("return max(x, 0.25), min(x, 0.25)", {X4}, {{0.25, 0.25, 0.5, 2}, {-1.5, 0, 0.25, 0.25}});
  check("return m // 3, 7 // 2 + m * 0, -7 // 2 + m * 0", {M22}, {{0, 0, 1, 1}, {3, 3, 3, 3}, {-4, -4, -4, -4}});
  // "/" of two static ints is a tensor; a static int in a tensor context is a float scalar
  check("return D / 4, x / D", {{"x", {2}, {8, 4}}}, {{4}, {0.5, 0.25}}, {{"D", 16}});
}

TEST(FnlangBuiltins, Comparisons) {
  const In v{"x", {3}, {1, 2, 3}};
  check("return x > 2, x >= 2, x < 2, x <= 2, x == 2, x != 2", {v},
        {{0, 0, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1, 0, 1}});
}

TEST(FnlangBuiltins, WhereClamp) {
  check("return where(c, a, b)", {{"c", {3}, {1, 0, 2}}, {"a", {3}, {5, 6, 7}}, {"b", {1}, {-1}}}, {{5, -1, 7}});
  check("return clamp(x, -1, 1), clamp(x, 0.0, 0.25)", {X4}, {{-1, 0, 0.5, 1}, {0, 0, 0.25, 0.25}});
}

TEST(FnlangBuiltins, Reductions) {
  check("return sum(m), sum(m, axis=0), sum(m, axis=1, keepdim=True), sum(m, axis=[0, 1])", {M22},
        {{10}, {4, 6}, {3, 7}, {10}});
  check("return mean(m, axis=-1), max(m, axis=0), min(m, axis=1), max(m), min(m)", {M22},
        {{1.5, 3.5}, {3, 4}, {1, 3}, {4}, {1}});
  check("return var(x), var(m, axis=1), mean(m, 0, True)", {{"x", {4}, {1, 2, 3, 4}}, M22}, {{1.25}, {0.25, 0.25}, {2, 3}});
  // non-adjacent axes of a 3-D tensor
  check("y = reshape(arange(8), [2, 2, 2])\nreturn sum(y, axis=[0, 2]), sum(y, axis=[0, 2], keepdim=True)", {},
        {{10, 18}, {10, 18}});
  check("return max(x)", {{"x", {3}, {1, kNan, 2}}}, {{kNan}});
}

TEST(FnlangBuiltins, KeepdimShape) {
  sf::Diagnostics d;
  auto p = compile("return mean(m, axis=1, keepdim=True)", options({M22}), d);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->output_shapes()[0], (Shape{2, 1}));
}

TEST(FnlangBuiltins, CumsumSoftmax) {
  check("return cumsum(x), cumsum(m, axis=0)", {{"x", {3}, {1, 2, 3}}, M22}, {{1, 3, 6}, {1, 2, 4, 6}});
  const double l3 = std::log(3.0);
  check("return softmax(x), softmax(m, axis=0)", {{"x", {2}, {0, l3}}, {"m", {2, 2}, {0, 0, l3, 0}}},
        {{0.25, 0.75}, {0.25, 0.5, 0.75, 0.5}});
  check("return softmax(x * 1000.0)", {{"x", {2}, {1, 2}}}, {{0, 1}});
}

TEST(FnlangBuiltins, TopkMaskAndArgmax) {
  check("return topk_mask(x, 2), topk_mask(x, 0), topk_mask(x, 4)", {{"x", {4}, {3, 1, 3, 2}}},
        {{1, 0, 1, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}});
  check("return topk_mask(x, 2)", {{"x", {3}, {1, 1, 1}}}, {{1, 1, 0}});           // ties: lower index first
  check("return topk_mask(x, 1)", {{"x", {3}, {1, kNan, 2}}}, {{0, 1, 0}});        // NaN counts as largest
  check("return topk_mask(m, 1, axis=0)", {{"m", {3, 2}, {1, 9, 5, 2, 3, 4}}}, {{0, 1, 1, 0, 0, 0}});
  check("return argmax(x), argmax(m, axis=0), argmax(m)", {{"x", {4}, {1, 3, 3, 2}}, {"m", {2, 3}, {1, 5, 2, 4, 0, 2}}},
        {{1}, {1, 0, 0}, {1, 0}});
}

TEST(FnlangBuiltins, OneHot) {
  check("return one_hot(i, 3)", {{"i", {2}, {0, 2}}}, {{1, 0, 0, 0, 0, 1}});
  for (double bad : {1.5, 3.0, -1.0}) {
    sf::Diagnostics d;
    auto p = compile("return one_hot(i, 3)", options({{"i", {1}, {}}}), d);
    ASSERT_TRUE(p);
    Workspace<float> ws(*p);
    float in = static_cast<float>(bad), out[3];
    const float* a[] = {&in};
    float* o[] = {out};
    EvalReport r;
    EXPECT_FALSE(p->eval(a, o, ws, &r));
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->code, "R-ONEHOT");
    EXPECT_EQ(r.error->loc, (sf::Location{1, 8}));
  }
}

TEST(FnlangBuiltins, LinearAlgebra) {
  const In a{"a", {2}, {1, 2}};
  check("return a @ a, a @ m, m @ a, m @ m", {a, M22}, {{5}, {7, 10}, {5, 11}, {7, 10, 15, 22}});
  // batched with broadcast: (2, 1, 2) @ (2, 2)
  check("return b @ m, matmul(m, c)", {{"b", {2, 1, 2}, {1, 0, 0, 1}}, {"c", {2, 2, 1}, {1, 0, 0, 1}}, M22},
        {{1, 2, 3, 4}, {1, 3, 2, 4}});
  check("return outer(a, c)", {a, {"c", {3}, {3, 4, 5}}}, {{3, 4, 5, 6, 8, 10}});
  check("return einsum('ij,jk->ik', m, m), einsum('ij->ji', m), einsum('i,i->', a, a), einsum('ij->i', m)", {a, M22},
        {{7, 10, 15, 22}, {1, 3, 2, 4}, {5}, {3, 7}});
  check("return einsum('nm,nmd->nd', w, v)", {{"w", {1, 2}, {0.25, 0.75}}, {"v", {1, 2, 2}, {1, 2, 3, 4}}}, {{2.5, 3.5}});
}

TEST(FnlangBuiltins, ShapeOps) {
  const In t{"t", {2, 3}, {0, 1, 2, 3, 4, 5}};
  check("return transpose(t), permute(t, [1, 0]), transpose(t, 0, -1)", {t},
        {{0, 3, 1, 4, 2, 5}, {0, 3, 1, 4, 2, 5}, {0, 3, 1, 4, 2, 5}});
  check("return reshape(t, [3, -1]), flatten(t), unsqueeze(t, 0), squeeze(unsqueeze(t, -1), 2)", {t},
        {{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}});
  check("return broadcast(a, [2, 2])", {{"a", {2}, {1, 2}}}, {{1, 2, 1, 2}});
  check("return concat([t, t], axis=0), concat([t, t], axis=1), stack([a, a], axis=0), stack([a, a], axis=1)",
        {t, {"a", {2}, {1, 2}}}, {{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, {1, 2, 1, 2},
                                  {1, 1, 2, 2}});
  check("p, q = chunk(a, 2)\nu, v, w = chunk(t, 3, axis=1)\nreturn p, q, w", {{"a", {4}, {1, 2, 3, 4}}, t},
        {{1, 2}, {3, 4}, {2, 5}});
  check("return interleave(a, b), interleave(m, m, axis=0)", {{"a", {2}, {1, 2}}, {"b", {2}, {7, 8}}, M22},
        {{1, 7, 2, 8}, {1, 2, 1, 2, 3, 4, 3, 4}});
}

TEST(FnlangBuiltins, ShapesOfShapeOps) {
  sf::Diagnostics d;
  auto p = compile("return flatten(t, 1), unsqueeze(t, -1), reshape(t, [-1])", options({{"t", {2, 3, 4}, {}}}), d);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->output_shapes()[0], (Shape{2, 12}));
  EXPECT_EQ(p->output_shapes()[1], (Shape{2, 3, 4, 1}));
  EXPECT_EQ(p->output_shapes()[2], (Shape{24}));
}

TEST(FnlangBuiltins, Indexing) {
  const In t{"t", {2, 3}, {0, 1, 2, 3, 4, 5}};
  check("return t[1], t[-1, 0], t[:, 0:1], t[..., 2], t[0, ::2], t[0, 1::2]", {t},
        {{3, 4, 5}, {3}, {0, 3}, {2, 5}, {0, 2}, {1}});
  check("return t[0, 1:100], t[0, -100:2], t[0, -2:], t[0, 2:1]", {t}, {{1, 2}, {0, 1}, {1, 2}, {}});
  check("return t[0][D - 15]", {t}, {{1}}, {{"D", 16}});
}

TEST(FnlangBuiltins, Creation) {
  check("return arange(5), arange(0, 5, 2), arange(1, 8, 3), arange(3, 1)", {}, {{0, 1, 2, 3, 4}, {0, 2, 4}, {1, 4, 7}, {}});
  check("return zeros([2]), ones([1, 2]), full([3], 2.5), full([2], -1)", {}, {{0, 0}, {1, 1}, {2.5, 2.5, 2.5}, {-1, -1}});
  check("return zeros_like(a), ones_like(a)", {{"a", {2}, {7, 8}}}, {{0, 0}, {1, 1}});
  check("return inf + 0 * a, -inf + 0 * a, pi + 0 * a", {{"a", {1}, {1}}},
        {{INFINITY}, {-INFINITY}, {3.14159265358979}});
  check("return sum(a, axis=0, keepdim=True), sum(a, axis=0, keepdim=False), True + a", {{"a", {2}, {1, 2}}},
        {{3}, {3}, {2, 3}});
}

}  // namespace
}  // namespace sf::fnlang::test
