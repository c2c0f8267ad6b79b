// The step-v2 checker: the GEMM baseline's graph, the implicit Broadcast pass, and every T2-* / C-BW code with
// its location.
#include <gtest/gtest.h>

#include "core/step2/ops.hpp"
#include "tests/unit/step2/test_util.hpp"

using namespace sf;
using sf::step2::test::replace;
using namespace sf::step2;
using sf::step2::test::first_error;
using sf::step2::test::small_task;

namespace {

const std::string kLoadA =
    "a = step.OffChipLoad(tile=[128, 128], stride=[K/128, 0, 1], shape=[M/128, N/128, K/128], par_dispatch=4).apply(A)\n";
const std::string kLoadB =
    "b = step.OffChipLoad(tile=[128, 128], stride=[0, 1, N/128], shape=[M/128, N/128, K/128], par_dispatch=4).apply(B)\n";
const std::string kGemm = kLoadA + kLoadB +
                          "c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))\n"
                          "C = step.OffChipStore(par_dispatch=4).apply(c)\n";


}  // namespace

TEST(Step2Check, GemmBaselineGivesTheResolvedGraph) {
  auto task = small_task();
  auto r = check(task, kGemm);
  ASSERT_TRUE(r.ok()) << (r.diags.empty() ? "" : r.diags[0].message);
  const Graph& g = *r.graph();
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[0].op, Op::OffChipLoad);
  EXPECT_EQ(g.nodes[0].tensor, "A");
  EXPECT_EQ(g.nodes[0].kw.stride, (std::vector<std::int64_t>{1, 0, 1}));
  EXPECT_EQ(g.nodes[0].kw.par_dispatch, 4);
  EXPECT_EQ(g.nodes[2].kw.fn, Fn::Matmul);
  EXPECT_EQ(g.nodes[2].kw.compute_bw, 4096);
  EXPECT_EQ(g.nodes[2].kw.write_back_mu, 1);
  EXPECT_EQ(g.nodes[3].tensor, "C");
  EXPECT_TRUE(g.nodes[3].outputs.empty());
  ASSERT_EQ(g.streams.size(), 3u);
  EXPECT_EQ(type_text(g.streams[0].type), "Stream[Tile[128, 128], [1, 2, 2, 1]]");
  EXPECT_EQ(g.streams[0].type.rank(), 3);
  EXPECT_EQ(type_text(g.streams[2].type), "Stream[Tile[128, 128], [1, 2, 2]]");
  EXPECT_EQ(g.streams[2].consumer, 3);
  EXPECT_EQ(g.streams[1].consumer_arg, 1);
  EXPECT_EQ(g.compute_nodes(), 1);
  EXPECT_EQ(g.tensors.size(), 4u);
}

TEST(Step2Check, EveryBindingGetsAGraph) {
  auto task = small_task();
  task.verify.alt_sizes = task.sizes;
  (*task.verify.alt_sizes)["M"] = 512;
  auto r = check(task, kGemm);
  ASSERT_EQ(r.graphs.size(), 2u);
  EXPECT_EQ(r.graphs[1].binding, "verify.alt_sizes");
  EXPECT_EQ(r.graphs[1].graph.streams[2].type.shape, (std::vector<std::int64_t>{1, 4, 2}));
  // Under alt sizes only: M=200 does not divide by 128.
  (*task.verify.alt_sizes)["M"] = 200;
  auto e = first_error(task, kGemm);
  EXPECT_EQ(e.code, "T2-ARG");
  EXPECT_NE(e.message.find("M=200"), std::string::npos) << e.message;
}

TEST(Step2Check, ImplicitBroadcastForAStreamUsedTwice) {
  auto task = small_task();
  std::string p =
      "x = step.OffChipLoad(tile=[128, 128], stride=[2, 1], shape=[2, 2], par_dispatch=4).apply(X)\n"
      "y = step.BinaryMap(fn=add, write_back_mu=0, compute_bw=64).apply((x, x))\n"
      "C = step.OffChipStore(par_dispatch=4).apply(y)\n";
  auto r = check(task, p);
  ASSERT_TRUE(r.ok()) << r.diags[0].message;
  const Graph& g = *r.graph();
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[1].op, Op::Broadcast);
  EXPECT_TRUE(g.nodes[1].implicit);
  EXPECT_EQ(g.nodes[1].kw.n, 2);
  EXPECT_EQ(g.nodes[2].inputs, (std::vector<int>{g.nodes[1].outputs[0], g.nodes[1].outputs[1]}));
  for (const auto& s : g.streams) EXPECT_GE(s.consumer, 0);
}

TEST(Step2Check, EveryCodeIsLocatedAndSaysTheFix) {
  auto task = small_task();
  struct Case {
    std::string impl, code;
    int line, col;
    std::string says;
  };
  std::vector<Case> cases{
      {replace(kGemm, "stride=[K/128, 0, 1]", "stride=[K/128, 0]"), "T2-ARG", 1, 46, "one stride per dim"},
      {replace(kGemm, "tile=[128, 128], stride=[K/128", "tile=[96, 128], stride=[K/128"), "T2-TILE", 1, 27, "divide"},
      {replace(kGemm, "tile=[128, 128], stride=[K/128", "tile=[128, 8], stride=[K/128"), "T2-TILE", 1, 27, "64 bytes"},
      {replace(kGemm, "compute_bw=4096", "compute_bw=0"), "C-BW", 3, 72, "compute_bw"},
      {replace(kGemm, "shape=[M/128, N/128, K/128], par_dispatch=4).apply(A)",
               "shape=[M/128, N/128, K/128], par_dispatch=0).apply(A)"), "C-BW", 1, 103, "par_dispatch"},
      {replace(kGemm, "rank=1", "rank=4"), "T2-RANK", 3, 41, "rank"},
      {replace(kGemm, "fn=matmul", "fn=matmull"), "T2-FN", 3, 28, "unknown fn"},
      {replace(kGemm, "fn=matmul", "fn=silu"), "T2-FN", 3, 28, "matmul"},
      {replace(kGemm, "write_back_mu=1", "wb=1"), "T2-ARG", 3, 44, "write_back_mu"},
      {replace(kGemm, "shape=[M/128, N/128, K/128], par_dispatch=4).apply(A)",
               "out_shape_tiled=[M/128, N/128, K/128], par_dispatch=4).apply(A)"), "T2-ARG", 1, 61, "'shape'"},
      {replace(kGemm, "C = step.OffChipStore", "D = step.OffChipStore"), "T2-STORE", 4, 1, "not an output"},
      {kGemm + "C = step.OffChipStore(par_dispatch=4).apply(c)\n", "T2-STORE", 5, 1, "twice"},
      {replace(kGemm, "C = step.OffChipStore(par_dispatch=4).apply(c)\n", "d = step.Broadcast(n=1).apply(c)\n"), "T2-STORE", 4, 1, "never stored"},
      {replace(replace(kGemm, "fn=matmul, rank=1", "fn=matmul_t, rank=1"), "b = step.OffChipLoad(tile=[128, 128]",
               "b = step.OffChipLoad(tile=[128, 64]"), "T2-TILE", 3, 90, "same number of columns"},
      {replace(kGemm, "c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))",
               "c = step.Bufferize(rank=1).apply(a)\nz = step.Broadcast(n=1).apply(b)"), "T2-DTYPE", 0, 0, "Buffer"},
      {replace(kGemm, "c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))",
               "c = step.BinaryMap(fn=add, write_back_mu=1, compute_bw=4096).apply((a, d))\n"
               "d = step.Promote(rank=0).apply(b)"), "N-UNDEF", 3, 0, "not defined"},
      {replace(kGemm, ".apply((a, b))", ".apply((a, A))"), "N-UNDEF", 3, 0, "OffChipLoad"},
      {replace(kGemm, "c = step.", "a = step."), "N-REDEF", 3, 1, "already defined"},
      {replace(kGemm, "c = step.BinaryMapAccum(fn=matmul, rank=1, write_back_mu=1, compute_bw=4096).apply((a, b))",
               "bb = step.Promote(rank=0).apply(b)\nc = step.BinaryMap(fn=add, write_back_mu=1, compute_bw=4).apply((a, bb))"),
       "T2-SHAPE", 4, 0, "equal shapes"},
      {replace(kGemm, "C = step.OffChipStore(par_dispatch=4).apply(c)\n",
               "C = step.OffChipStore(par_dispatch=4).apply(c)\nd = step.Broadcast(n=1).apply(C)\n"), "T2-STORE", 5, 0, "not a stream"},
      {replace(kGemm, "c = step.BinaryMapAccum", "x = step.Promote(rank=0).apply(a)\nc = step.BinaryMapAccum"), "T2-UNUSED", 3, 1, "never used"},
      {replace(kGemm, "(tile=[128, 128], stride=[K/128", "(tile=[128, 128], stride=[K/1.5"), "P-SYNTAX", 1, 0, "c="},
      {replace(kGemm, "step.BinaryMapAccum", "step.BinaryMapAcc"), "T2-ARG", 3, 10, "unknown operator"},
  };
  for (const auto& c : cases) {
    auto e = first_error(task, c.impl);
    EXPECT_EQ(e.code, c.code) << c.impl << "\n" << e.message;
    if (c.line) {
      EXPECT_EQ(e.line, c.line) << e.message;
    } else {
      EXPECT_GT(e.line, 0) << e.message;
    }
    if (c.col) {
      EXPECT_EQ(e.col, c.col) << e.message;
    } else {
      EXPECT_GT(e.col, 0) << e.message;
    }
    EXPECT_NE(e.message.find(c.says), std::string::npos) << e.message;
    if (e.code[0] == 'T' || e.code[0] == 'C') {
      EXPECT_NE(e.message.find("fix:"), std::string::npos) << e.message;
    }
  }
}

TEST(Step2Check, OperatorShapeRules) {
  auto task = small_task();
  const std::string x = "x = step.OffChipLoad(tile=[128, 128], stride=[2, 1], shape=[2, 2], par_dispatch=4).apply(X)\n";
  auto type_of = [&](const std::string& body) {
    auto r = check(task, x + body + "C = step.OffChipStore(par_dispatch=4).apply(y)\n");
    if (!r.ok()) return "error " + r.diags[0].code + ": " + r.diags[0].message;
    const Graph& g = *r.graph();
    return type_text(g.streams[g.nodes.back().inputs[0]].type);
  };
  EXPECT_EQ(type_of("y = step.Promote(rank=0).apply(x)\n"), "Stream[Tile[128, 128], [1, 2, 2, 1]]");
  EXPECT_EQ(type_of("y = step.Promote(rank=1).apply(x)\n"), "Stream[Tile[128, 128], [1, 2, 1, 2]]");
  EXPECT_EQ(type_of("y = step.Flatten(min=0, max=1).apply(x)\n"), "Stream[Tile[128, 128], [1, 4]]");
  EXPECT_EQ(type_of("y = step.Reshape(chunk=2, rank=1).apply(x)\n"), "Stream[Tile[128, 128], [1, 1, 2, 2]]");
  EXPECT_EQ(type_of("y = step.RepeatStatic(n=3).apply(x)\n"), "Stream[Tile[128, 128], [1, 2, 2, 3]]");
  EXPECT_EQ(type_of("y = step.RetileStreamify(split_row=1).apply(x)\n"), "Stream[Tile[1, 128], [1, 2, 256]]");
  EXPECT_EQ(type_of("z = step.Bufferize(rank=1).apply(x)\ny = step.Streamify(repeat=[3], rank=1).apply(z)\n"),
            "Stream[Tile[128, 128], [1, 2, 3, 2]]");
  EXPECT_EQ(type_of("z = step.Accum(fn=retile_row, rank=1, out=Tile[256, 128], write_back_mu=0, compute_bw=1).apply(x)\n"
                    "y = step.RetileStreamify(split_row=1).apply(z)\n"),
            "Stream[Tile[1, 128], [1, 512]]");
  EXPECT_EQ(type_of("z = step.UnaryMap(fn=row_sum, write_back_mu=0, compute_bw=8).apply(x)\n"
                    "y = step.ExpandRef(rank=1).apply((z, x))\n").substr(0, 8),
            "error T2");  // row_sum gives [1, 2, 2] of Tile[128, 1]: the expanded stream needs a 1 inner dim
  EXPECT_EQ(type_of("z = step.Accum(fn=add, rank=1, out=Tile[128, 128], write_back_mu=0, compute_bw=8).apply(x)\n"
                    "w = step.Promote(rank=0).apply(z)\n"
                    "y = step.ExpandRef(rank=1).apply((w, x))\n"),
            "Stream[Tile[128, 128], [1, 2, 2]]");
  EXPECT_EQ(type_of("p = step.Parallelize(n=1, rank=2).apply(x)\ny = step.StaticReassemble(rank=2).apply(p)\n"),
            "Stream[Tile[128, 128], [1, 2, 2]]");
  EXPECT_EQ(type_of("p0, p1 = step.Broadcast(n=2).apply(x)\ny = step.BinaryMap(fn=scale, c=0.5, write_back_mu=0, compute_bw=8).apply((p0, p1))\n")
                .substr(0, 11),
            "error T2-FN");
  EXPECT_EQ(type_of("y = step.UnaryMap(fn=scale, c=-0.5, write_back_mu=0, compute_bw=8).apply(x)\n"),
            "Stream[Tile[128, 128], [1, 2, 2]]");
  EXPECT_EQ(type_of("y = step.UnaryMap(fn=shift, write_back_mu=0, compute_bw=8).apply(x)\n").substr(0, 11), "error T2-FN");
  EXPECT_EQ(type_of("y = step.Reshape(chunk=3, rank=0).apply(x)\n").substr(0, 13), "error T2-RANK");
  EXPECT_EQ(type_of("z = step.Bufferize(rank=1).apply(x)\ny = step.Streamify(repeat=[2, 2], rank=1).apply(z)\n").substr(0, 12),
            "error T2-ARG");
  EXPECT_EQ(type_of("z = step.Bufferize(rank=1).apply(x)\ny = step.UnaryMap(fn=exp, write_back_mu=0, compute_bw=8).apply(z)\n")
                .substr(0, 14),
            "error T2-DTYPE");
}

TEST(Step2Check, HugeShapesEndInALimitDiagnostic) {
  auto task = small_task();
  auto e = first_error(task,
                       "x = step.OffChipLoad(tile=[128, 128], stride=[0, 0, 0, 0], shape=[4096, 4096, 4096, 4096], "
                       "par_dispatch=4).apply(X)\nC = step.OffChipStore(par_dispatch=4).apply(x)\n");
  EXPECT_EQ(e.code, "L-ELEMENTS") << e.message;
  std::string deep = "x = step.OffChipLoad(tile=[128, 128], stride=[";
  for (int i = 0; i < 40; ++i) deep += "1, ";
  deep += "1], shape=[1], par_dispatch=4).apply(X)\n";
  EXPECT_EQ(first_error(task, deep).code, "P-SYNTAX");
  EXPECT_EQ(first_error(task, "x = step.OffChipLoad(tile=[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]").code, "P-SYNTAX");
}
