// Program::flops(): the cost-model table of docs/fn-flops.md, one test per builtin on small non-square shapes
// (hand-computed counts), plus combined bodies, constant folding into the prologue, broadcasting (per output
// scalar) and reductions (per input scalar).
#include <cstdint>

#include "tests/unit/fnlang/fn_test_util.hpp"

namespace sf::fnlang::test {
namespace {

// Compiles `body` for the shapes of `ins` (data unused); returns the program (nullptr + test failure on error).
std::shared_ptr<const Program> prog(std::string_view body, const std::vector<In>& ins, Mode mode = Mode::Fn,
                                    std::map<std::string, std::int64_t> sizes = {}) {
  sf::Diagnostics d;
  auto p = compile(body, options(ins, std::move(sizes), {}, mode), d);
  if (!p) ADD_FAILURE() << body << ": compile failed: " << (d.empty() ? "" : d[0].code + " " + d[0].message);
  return p;
}

std::int64_t flops(std::string_view body, const std::vector<In>& ins, Mode mode = Mode::Fn,
                   std::map<std::string, std::int64_t> sizes = {}) {
  auto p = prog(body, ins, mode, std::move(sizes));
  return p ? p->flops() : -1;
}

const In X{"x", {3, 5}, {}};     // 15 scalars
const In Y{"y", {3, 5}, {}};     // 15 scalars
const In V{"v", {5}, {}};        // row vector, broadcasts against X
const In COL{"col", {3, 1}, {}};  // column, broadcasts against X / V
const In S{"s", {}, {}};         // rank-0
const In C{"c", {2, 3, 4}, {}};  // 24 scalars, for axis builtins

// ---- elementwise unary: 1 per output scalar ----
TEST(FnlangFlops, UnaryMinus) { EXPECT_EQ(flops("return -x", {X}), 15); }
TEST(FnlangFlops, Abs) { EXPECT_EQ(flops("return abs(x)", {X}), 15); }
TEST(FnlangFlops, Relu) { EXPECT_EQ(flops("return relu(x)", {X}), 15); }
TEST(FnlangFlops, Square) { EXPECT_EQ(flops("return square(x)", {X}), 15); }
TEST(FnlangFlops, UnaryPlusIsFree) { EXPECT_EQ(flops("return +x", {X}), 0); }

// ---- elementwise transcendental: 8 per output scalar ----
TEST(FnlangFlops, Exp) { EXPECT_EQ(flops("return exp(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Log) { EXPECT_EQ(flops("return log(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Sqrt) { EXPECT_EQ(flops("return sqrt(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Rsqrt) { EXPECT_EQ(flops("return rsqrt(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Sigmoid) { EXPECT_EQ(flops("return sigmoid(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Silu) { EXPECT_EQ(flops("return silu(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Tanh) { EXPECT_EQ(flops("return tanh(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Erf) { EXPECT_EQ(flops("return erf(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Sin) { EXPECT_EQ(flops("return sin(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Cos) { EXPECT_EQ(flops("return cos(x)", {X}), 8 * 15); }
TEST(FnlangFlops, Gelu) { EXPECT_EQ(flops("return gelu(x)", {X}), 8 * 15); }
TEST(FnlangFlops, GeluTanh) { EXPECT_EQ(flops("return gelu_tanh(x)", {X}), 8 * 15); }
TEST(FnlangFlops, UnaryOnRank0) { EXPECT_EQ(flops("return exp(s), -s", {S}), 8 + 1); }

// ---- binary operators: 1 per OUTPUT scalar (after broadcasting); ** 8 ----
TEST(FnlangFlops, Add) { EXPECT_EQ(flops("return x + y", {X, Y}), 15); }
TEST(FnlangFlops, Sub) { EXPECT_EQ(flops("return x - y", {X, Y}), 15); }
TEST(FnlangFlops, Mul) { EXPECT_EQ(flops("return x * y", {X, Y}), 15); }
TEST(FnlangFlops, Div) { EXPECT_EQ(flops("return x / y", {X, Y}), 15); }
TEST(FnlangFlops, FloorDiv) { EXPECT_EQ(flops("return x // y", {X, Y}), 15); }
TEST(FnlangFlops, PowOperator) { EXPECT_EQ(flops("return x ** y", {X, Y}), 8 * 15); }
TEST(FnlangFlops, PowBuiltin) { EXPECT_EQ(flops("return pow(x, 2)", {X}), 8 * 15); }
TEST(FnlangFlops, BinaryWithScalar) {
  EXPECT_EQ(flops("return x + 1.0, 2 * x, x ** 2, s - x", {X, S}), 15 + 15 + 8 * 15 + 15);
}
TEST(FnlangFlops, BroadcastCountsOutputScalars) {
  EXPECT_EQ(flops("return x + v", {X, V}), 15);         // (3,5) + (5) -> (3,5)
  EXPECT_EQ(flops("return v * col", {V, COL}), 15);     // (5) * (3,1) -> (3,5): more than either input
  EXPECT_EQ(flops("return col ** v", {V, COL}), 8 * 15);
  EXPECT_EQ(flops("return c - v[0:4]", {C, V}), 24);    // (2,3,4) - (4); the slice is a free view
}
TEST(FnlangFlops, StaticIntArithmeticIsFree) {
  // + - * // of static ints is evaluated by the compiler; the result is a constant.
  EXPECT_EQ(flops("return x[D // 8 - 1] * (D * 2 - 30)", {X}, Mode::Fn, {{"D", 16}}), 5);
}

// ---- max / min of two tensors, comparisons: 1 per output scalar ----
TEST(FnlangFlops, MaxElementwise) {
  EXPECT_EQ(flops("return max(x, y)", {X, Y}), 15);
  EXPECT_EQ(flops("return max(x, 0.0)", {X}), 15);
  EXPECT_EQ(flops("return max(v, col)", {V, COL}), 15);
}
TEST(FnlangFlops, MinElementwise) {
  EXPECT_EQ(flops("return min(x, y)", {X, Y}), 15);
  EXPECT_EQ(flops("return min(col, v)", {V, COL}), 15);
}
TEST(FnlangFlops, Gt) { EXPECT_EQ(flops("return x > y", {X, Y}), 15); }
TEST(FnlangFlops, Ge) { EXPECT_EQ(flops("return x >= v", {X, V}), 15); }
TEST(FnlangFlops, Lt) { EXPECT_EQ(flops("return x < 0.5", {X}), 15); }
TEST(FnlangFlops, Le) { EXPECT_EQ(flops("return x <= y", {X, Y}), 15); }
TEST(FnlangFlops, Eq) { EXPECT_EQ(flops("return col == v", {V, COL}), 15); }
TEST(FnlangFlops, Ne) { EXPECT_EQ(flops("return x != y", {X, Y}), 15); }

// ---- where, clamp: 1 per output scalar ----
TEST(FnlangFlops, Where) {
  EXPECT_EQ(flops("return where(x > 0, x, y)", {X, Y}), 15 + 15);
  EXPECT_EQ(flops("return where(col, v, s)", {V, COL, S}), 15);  // (3,1), (5), () -> (3,5)
}
TEST(FnlangFlops, Clamp) {
  EXPECT_EQ(flops("return clamp(x, -1, 1)", {X}), 15);
  EXPECT_EQ(flops("return clamp(v, col, 1.0)", {V, COL}), 15);  // bounds broadcast: (5), (3,1) -> (3,5)
}

// ---- reductions: 1 per INPUT scalar, whatever the axes / keepdim (a transposing gather is free) ----
TEST(FnlangFlops, Sum) {
  EXPECT_EQ(flops("return sum(c)", {C}), 24);
  EXPECT_EQ(flops("return sum(c, axis=1)", {C}), 24);
  EXPECT_EQ(flops("return sum(c, axis=[0, 2], keepdim=True)", {C}), 24);
  EXPECT_EQ(flops("return sum(s)", {S}), 1);
}
TEST(FnlangFlops, Mean) {
  EXPECT_EQ(flops("return mean(c)", {C}), 24);
  EXPECT_EQ(flops("return mean(c, 0, True)", {C}), 24);
}
TEST(FnlangFlops, MaxReduction) {
  EXPECT_EQ(flops("return max(c)", {C}), 24);
  EXPECT_EQ(flops("return max(c, 1)", {C}), 24);  // static int second argument: a reduction over axis 1
}
TEST(FnlangFlops, MinReduction) {
  EXPECT_EQ(flops("return min(c)", {C}), 24);
  EXPECT_EQ(flops("return min(c, axis=-1)", {C}), 24);
}
TEST(FnlangFlops, Var) {
  EXPECT_EQ(flops("return var(c)", {C}), 24);
  EXPECT_EQ(flops("return var(c, axis=[1, 2])", {C}), 24);
}

// ---- axis builtins: cumsum, argmax, topk_mask 1 per input scalar; softmax 10 ----
TEST(FnlangFlops, Cumsum) {
  EXPECT_EQ(flops("return cumsum(c)", {C}), 24);
  EXPECT_EQ(flops("return cumsum(c, axis=0)", {C}), 24);
}
TEST(FnlangFlops, Softmax) {
  EXPECT_EQ(flops("return softmax(c)", {C}), 10 * 24);
  EXPECT_EQ(flops("return softmax(c, axis=1)", {C}), 10 * 24);
}
TEST(FnlangFlops, Argmax) {
  EXPECT_EQ(flops("return argmax(c)", {C}), 24);
  EXPECT_EQ(flops("return argmax(c, axis=0)", {C}), 24);  // 12 outputs, 24 inputs
}
TEST(FnlangFlops, TopkMask) {
  EXPECT_EQ(flops("return topk_mask(c, 2)", {C}), 24);
  EXPECT_EQ(flops("return topk_mask(c, 1, axis=1)", {C}), 24);
}
TEST(FnlangFlops, OneHot) {
  auto p = prog("return one_hot(i, 7)", {{"i", {4}, {}}});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->op_count(), 1u);  // run on every eval, counted 0
  EXPECT_EQ(p->flops(), 0);
}

// ---- matmul / @: 2·m·k·n, times the (broadcast) batch ----
TEST(FnlangFlops, MatmulOperator) { EXPECT_EQ(flops("return a @ b", {{"a", {3, 5}, {}}, {"b", {5, 4}, {}}}), 2 * 3 * 5 * 4); }
TEST(FnlangFlops, MatmulBuiltin) {
  EXPECT_EQ(flops("return matmul(a, b)", {{"a", {3, 5}, {}}, {"b", {5, 4}, {}}}), 2 * 3 * 5 * 4);
}
TEST(FnlangFlops, MatmulVectors) {
  EXPECT_EQ(flops("return v @ v", {V}), 2 * 5);                                   // (k)·(k)
  EXPECT_EQ(flops("return v @ b", {V, {"b", {5, 4}, {}}}), 2 * 5 * 4);            // (k)·(k×n)
  EXPECT_EQ(flops("return a @ v", {V, {"a", {3, 5}, {}}}), 2 * 3 * 5);            // (m×k)·(k)
  EXPECT_EQ(flops("return v @ b", {V, {"b", {2, 5, 4}, {}}}), 2 * 2 * 5 * 4);     // (k)·batched (2,k×n)
}
TEST(FnlangFlops, MatmulBatched) {
  EXPECT_EQ(flops("return a @ b", {{"a", {2, 3, 5}, {}}, {"b", {5, 4}, {}}}), 2 * 2 * 3 * 5 * 4);
  EXPECT_EQ(flops("return a @ b", {{"a", {2, 3, 5}, {}}, {"b", {2, 5, 4}, {}}}), 2 * 2 * 3 * 5 * 4);
  // batch (2,1) with (4): output batch (2,4) = 8
  EXPECT_EQ(flops("return a @ b", {{"a", {2, 1, 3, 5}, {}}, {"b", {4, 5, 6}, {}}}), 8 * 2 * 3 * 5 * 6);
}

// ---- outer: 1 per output scalar ----
TEST(FnlangFlops, Outer) { EXPECT_EQ(flops("return outer(a, v)", {{"a", {3}, {}}, V}), 3 * 5); }

// ---- einsum: n operands × the product of all letter sizes ----
TEST(FnlangFlops, Einsum) {
  const In A{"a", {3, 5}, {}}, B{"b", {5, 4}, {}};
  EXPECT_EQ(flops("return einsum('ij,jk->ik', a, b)", {A, B}), 2 * 3 * 5 * 4);
  EXPECT_EQ(flops("return einsum('i,i->', v, v)", {V}), 2 * 5);
  EXPECT_EQ(flops("return einsum('ij,j->ij', a, v)", {A, V}), 2 * 3 * 5);  // elementwise product
  EXPECT_EQ(flops("return einsum('ij->i', a)", {A}), 3 * 5);              // one operand: 1 per combination
  EXPECT_EQ(flops("return einsum('ij->ji', a)", {A}), 3 * 5);
  EXPECT_EQ(flops("return einsum('ij,jk,kl->il', p, q, r)",
                  {{"p", {2, 3}, {}}, {"q", {3, 4}, {}}, {"r", {4, 5}, {}}}),
            3 * 2 * 3 * 4 * 5);
  EXPECT_EQ(flops("return einsum('nm,nmd->nd', w, u)", {{"w", {2, 3}, {}}, {"u", {2, 3, 4}, {}}}), 2 * 2 * 3 * 4);
}

// ---- shape, indexing and creation builtins, constants: 0 (even where a copy runs on every eval) ----
void expect_free_with_ops(std::string_view body, const std::vector<In>& ins) {
  auto p = prog(body, ins);
  ASSERT_TRUE(p);
  EXPECT_GT(p->op_count(), 0u) << body;  // a Copy runs on every eval but costs no FLOPs
  EXPECT_EQ(p->flops(), 0) << body;
}
TEST(FnlangFlops, Transpose) { expect_free_with_ops("return transpose(x), transpose(c, 0, 2)", {X, C}); }
TEST(FnlangFlops, Permute) { expect_free_with_ops("return permute(c, [2, 0, 1])", {C}); }
TEST(FnlangFlops, Reshape) { EXPECT_EQ(flops("return reshape(x, [5, 3]), reshape(c, [-1])", {X, C}), 0); }
TEST(FnlangFlops, Flatten) { EXPECT_EQ(flops("return flatten(c), flatten(c, 1)", {C}), 0); }
TEST(FnlangFlops, Unsqueeze) { EXPECT_EQ(flops("return unsqueeze(x, 1)", {X}), 0); }
TEST(FnlangFlops, Squeeze) { EXPECT_EQ(flops("return squeeze(col, 1)", {COL}), 0); }
TEST(FnlangFlops, Broadcast) { expect_free_with_ops("return broadcast(v, [3, 5])", {V}); }
TEST(FnlangFlops, Concat) { expect_free_with_ops("return concat([x, y], axis=1)", {X, Y}); }
TEST(FnlangFlops, Stack) { expect_free_with_ops("return stack([x, y], axis=2)", {X, Y}); }
TEST(FnlangFlops, Chunk) { expect_free_with_ops("a, b, d = chunk(x, 3, axis=0)\nreturn d, b", {X}); }
TEST(FnlangFlops, Interleave) { expect_free_with_ops("return interleave(x, y, axis=0)", {X, Y}); }
TEST(FnlangFlops, Indexing) {
  expect_free_with_ops("return x[1], x[:, 2], x[0, ::2], c[..., 1:3], x[-1, -2]", {X, C});
}
TEST(FnlangFlops, Arange) { EXPECT_EQ(flops("return arange(5), arange(1, 8, 3)", {}), 0); }
TEST(FnlangFlops, Zeros) { EXPECT_EQ(flops("return zeros([2, 3])", {}), 0); }
TEST(FnlangFlops, Ones) { EXPECT_EQ(flops("return ones([3, 2])", {}), 0); }
TEST(FnlangFlops, Full) {
  EXPECT_EQ(flops("return full([2, 3], 2.5)", {}), 0);
  expect_free_with_ops("return full([2, 3], s)", {S});  // broadcast of an argument: a copy
}
TEST(FnlangFlops, ZerosLike) { EXPECT_EQ(flops("return zeros_like(x)", {X}), 0); }
TEST(FnlangFlops, OnesLike) { EXPECT_EQ(flops("return ones_like(c)", {C}), 0); }
TEST(FnlangFlops, InfPi) { EXPECT_EQ(flops("return inf, pi, -inf", {}), 0); }  // -inf: folded at compile time
TEST(FnlangFlops, Literals) { EXPECT_EQ(flops("return 2.5, 3", {}), 0); }
TEST(FnlangFlops, ReturnArgument) { EXPECT_EQ(flops("return x", {X}), 0); }

// ---- combined bodies ----
TEST(FnlangFlops, GeluMlp) {
  // in0 (9), W0 (9,16), W1 (16,9): (9)·(9×16) + gelu on 16 + (16)·(16×9)
  EXPECT_EQ(flops("return gelu(in0 @ W0) @ W1", {{"in0", {9}, {}}, {"W0", {9, 16}, {}}, {"W1", {16, 9}, {}}}),
            2 * 9 * 16 + 8 * 16 + 2 * 16 * 9);
}
TEST(FnlangFlops, MoeExpert) {
  // the expert of docs/fnlang.md: ... * in1[0] is one multiply per output scalar (9)
  EXPECT_EQ(flops("return gelu(in0 @ W0_0) @ W0_1 * in1[0]",
                  {{"in0", {9}, {}}, {"in1", {2}, {}}, {"W0_0", {9, 16}, {}}, {"W0_1", {16, 9}, {}}}),
            2 * 9 * 16 + 8 * 16 + 2 * 16 * 9 + 9);
}
TEST(FnlangFlops, Attention) {
  // q (3,4), k (5,4), v (5,2): q·kᵀ 2·3·4·5, / 15, softmax 10·15, ·v 2·3·5·2
  EXPECT_EQ(flops("s = q @ transpose(k) / 2.0\nreturn softmax(s) @ u",
                  {{"q", {3, 4}, {}}, {"k", {5, 4}, {}}, {"u", {5, 2}, {}}}),
            2 * 3 * 4 * 5 + 15 + 10 * 15 + 2 * 3 * 5 * 2);
}
TEST(FnlangFlops, LayerNorm) {
  // x (3,5): mean 15, - 15, square 15, mean 15, + 3, rsqrt 8·3, * 15
  EXPECT_EQ(flops("mu = mean(x, -1, keepdim=True)\nd = x - mu\n"
                  "return d * rsqrt(mean(square(d), -1, keepdim=True) + 1e-5)",
                  {X}),
            15 + 15 + 15 + 15 + 3 + 8 * 3 + 15);
}
TEST(FnlangFlops, SeveralOutputsAreSummed) {
  EXPECT_EQ(flops("return sum(c, 2), softmax(c), c * 2", {C}), 24 + 240 + 24);
}
TEST(FnlangFlops, UnusedValuesStillRun) {
  // every emitted op runs on every eval, used or not
  EXPECT_EQ(flops("a = exp(x)\nreturn x + 1.0", {X}), 8 * 15 + 15);
}

// ---- constant subexpressions run once (the prologue) and are not counted ----
TEST(FnlangFlops, ConstantSubexpressionFolded) {
  // 2.0 ** 3.0, exp(pi) and their product depend on constants only: prologue. Only "x + const" counts.
  const char* body = "k = 2.0 ** 3.0 * exp(pi)\nreturn x + k";
  auto p = prog(body, {X});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->op_count(), 1u);
  EXPECT_EQ(p->flops(), 15);
  // A reference runs everything on every eval (no prologue), so the same body counts every op.
  EXPECT_EQ(flops(body, {X}, Mode::Reference), 8 + 8 + 1 + 15);
}
TEST(FnlangFlops, ConstantTensorsFolded) {
  // softmax(arange(15)) and the + on ones([3, 5]) are constant; x * c counts 15.
  EXPECT_EQ(flops("c = ones([3, 5]) + reshape(softmax(arange(15)), [3, 5])\nreturn x * c", {X}), 15);
  EXPECT_EQ(flops("return zeros_like(x) + 1.0", {X}), 0);
}

// ---- the count does not depend on evaluation, and evaluation is unaffected ----
TEST(FnlangFlops, EvaluationUnchanged) {
  auto r = run<double>("return gelu(a @ w) @ u", {{"a", {2}, {1, 2}}, {"w", {2, 3}, {1, 0, 0, 0, 1, 0}},
                                                 {"u", {3, 1}, {1, 1, 1}}});
  ASSERT_EQ(r.size(), 1u);
  expect_near(r[0], {0.8413447461 + 1.9544997361}, 1e-9);
  EXPECT_EQ(flops("return gelu(a @ w) @ u", {{"a", {2}, {}}, {"w", {2, 3}, {}}, {"u", {3, 1}, {}}}),
            2 * 2 * 3 + 8 * 3 + 2 * 3 * 1);
}

}  // namespace
}  // namespace sf::fnlang::test
