// Byte and FLOP formulas per operator (step_py's on_chip_requirement column, off-chip streams, §4.1's fn table).
#include <gtest/gtest.h>

#include "core/step2/perf/bytes.hpp"
#include "tests/support/step2_graphs.hpp"

namespace sf::step2::perf {
namespace {

using test::GraphBuilder;

TEST(Step2Bytes, LoadAndStoreCountStreamElementsTimesTileBytes) {
  GraphBuilder b;
  int a = b.load("X", {16, 32}, {1, 0, 1}, {4, 3, 2}, 2);  // stream [1,4,3,2] of Tile[16,32] (2 KiB)
  b.store(a, "Y", {96, 64}, 4);
  Bytes r = count_bytes(b.g, 64);
  EXPECT_EQ(r.offchip_read, 24 * 2048);
  EXPECT_EQ(r.offchip_write, 24 * 2048);
  EXPECT_EQ(r.nodes[0].onchip, 2048);
  EXPECT_EQ(r.nodes[1].onchip, 2048);
  EXPECT_EQ(r.hbm_requests, 2 * 24 * 16 * 2);  // 16 rows · 128 B / 64 B per tile
  EXPECT_EQ(r.tokens, 24);
}

TEST(Step2Bytes, OnChipColumnPerOperator) {
  GraphBuilder b;
  int a = b.load("X", {8, 16}, {1, 1}, {2, 4}, 1);  // Tile[8,16] = 512 B, stream [1,2,4]
  int c = b.broadcast(a, 3);
  int buf = b.bufferize(c, 1);          // Buffer[Tile, [4]] = 2048 B: 2·2048 + 512
  int s = b.streamify(buf, {3});        // |Buffer| + |T| = 2048 + 512
  int rep = b.repeat(c + 1, 2);         // |T| = 512
  int acc = b.accum(Fn::Add, c + 2, 1, {8, 16}, 0, 64);  // |out| = 512
  int m = b.map1(Fn::Exp, acc, 1, 64);  // 0
  b.store(s, "Y", {1}, 1);
  b.store(rep, "Z", {1}, 1);
  b.store(m, "W", {1}, 1);
  Bytes r = count_bytes(b.g, 64);
  EXPECT_EQ(r.nodes[0].onchip, 512);
  EXPECT_EQ(r.nodes[1].onchip, 0);
  EXPECT_EQ(r.nodes[2].onchip, 2 * 2048 + 512);
  EXPECT_EQ(r.nodes[3].onchip, 2048 + 512);
  EXPECT_EQ(r.nodes[4].onchip, 512);
  EXPECT_EQ(r.nodes[5].onchip, 512);
  EXPECT_EQ(r.nodes[6].onchip, 0);
  // Stores: Streamify's stream [1,2,3,4] (24 tiles), RepeatStatic's [1,2,4,2] (16), Map's [1,2] (2).
  EXPECT_EQ(r.offchip_write, (24 + 16 + 2) * 512);
  EXPECT_EQ(r.onchip, 512 + (2 * 2048 + 512) + (2048 + 512) + 512 + 512 + 3 * 512);
}

TEST(Step2Bytes, FlopsPerFunction) {
  GraphBuilder b;
  int x = b.load("X", {32, 64}, {0, 1}, {1, 1}, 1);
  int w = b.load("W", {64, 16}, {0, 1}, {1, 1}, 1);
  int wt = b.load("T", {16, 64}, {0, 1}, {1, 1}, 1);
  int x2 = b.broadcast(x, 8);
  int mm = b.bma(Fn::Matmul, x2, w, 1, 0, 1);        // 2·32·64·16
  int mt = b.bma(Fn::MatmulT, x2 + 1, wt, 1, 0, 1);  // 2·32·64·16
  int si = b.map1(Fn::Silu, x2 + 2, 0, 1);           // 8 per element
  int ex = b.map1(Fn::Exp, x2 + 3, 0, 1);            // 4
  int rs = b.map1(Fn::RowSum, x2 + 4, 0, 1);         // r·c of the input
  int re = b.map1(Fn::Relu, x2 + 5, 0, 1);           // 1
  int ad = b.map2(Fn::Div, x2 + 6, rs, 0, 1);        // R·C of the output
  int ac = b.accum(Fn::RetileRow, x2 + 7, 1, {32, 64}, 0, 1);  // 0
  for (int s : {mm, mt, si, ex, re, ad, ac}) b.store(s, "Y" + std::to_string(s), {1}, 1);
  Bytes r = count_bytes(b.g, 64);
  const std::int64_t e = 32 * 64;
  EXPECT_EQ(r.nodes[4].flops, 2 * 32 * 64 * 16);
  EXPECT_EQ(r.nodes[5].flops, 2 * 32 * 64 * 16);
  EXPECT_EQ(r.nodes[6].flops, 8 * e);
  EXPECT_EQ(r.nodes[7].flops, 4 * e);
  EXPECT_EQ(r.nodes[8].flops, e);
  EXPECT_EQ(r.nodes[9].flops, e);
  EXPECT_EQ(r.nodes[10].flops, e);
  EXPECT_EQ(r.nodes[11].flops, 0);
  EXPECT_EQ(r.flops, 4 * 32 * 64 * 16 + 8 * e + 4 * e + 3 * e);
}

TEST(Step2Bytes, HugeShapesSaturateInsteadOfOverflowing) {
  GraphBuilder b;
  int a = b.load("X", {1 << 20, 1 << 20}, {1, 1, 1}, {1 << 30, 1 << 30, 1 << 30}, 1);
  b.store(a, "Y", {1}, 1);
  Bytes r = count_bytes(b.g, 64);
  EXPECT_EQ(r.offchip_read, kSaturated);
  EXPECT_EQ(r.hbm_requests, kSaturated);
  EXPECT_EQ(mul_sat(kSaturated, 2), kSaturated);
  EXPECT_EQ(requests_per_tile({2, 24}, 64), 4);  // 96 B rows: two requests each
}

}  // namespace
}  // namespace sf::step2::perf
