// Golden token sequences of the step-v2 operators (docs/step25.md "Token rules"), worked by hand. The input X
// holds its element index, so with Tile[1, 16] tiles a tile's id is data[0] / 16 (its row). Each case prints
// a stream as "id:level" pairs.
#include <gtest/gtest.h>

#include "core/step2/sim.hpp"
#include "tests/unit/step2/test_util.hpp"

using namespace sf;
using namespace sf::step2;

namespace {

step::TaskDoc iota_task() {
  const char* text = R"(dialect: step-v2
id: test/tokens
title: t
description: d
sizes: {R: 8}
inputs:
  - {name: X, shape: [R, 16], data_gen: rand}
outputs:
  - {name: Y, shape: [R, 16]}
reference: |
  return X
)";
  Diagnostics d;
  auto t = step::load_task_text(text, "t.yaml", d);
  EXPECT_TRUE(t) << (d.empty() ? "" : d[0].message);
  return *t;
}

std::map<std::string, HostTensor, std::less<>> iota_inputs() {
  HostTensor x{{8, 16}, {}};
  for (int i = 0; i < 128; ++i) x.data.push_back(static_cast<float>(i));
  return {{"X", x}};
}

// Checks `body` (which ends in a store of `y`, added here) and returns the token view of stream `name`.
std::string tokens(const std::string& body, const std::string& name, SimResult* keep = nullptr) {
  auto task = iota_task();
  auto r = check(task, body + "Y = step.OffChipStore(par_dispatch=1).apply(y)\n");
  if (!r.ok()) return "check failed: " + r.diags[0].code + " " + r.diags[0].message;
  SimOptions o;
  o.keep_streams = true;
  auto s = simulate(*r.graph(), iota_inputs(), o);
  const Graph& g = *r.graph();
  for (std::size_t i = 0; i < g.streams.size(); ++i) {
    if (g.streams[i].name != name) continue;
    std::string out;
    for (const auto& t : s.streams[i]) {
      out += (out.empty() ? "" : " ") + std::to_string(static_cast<int>(t.v->data[0]) / 16) + ":" + std::to_string(t.lev);
    }
    if (keep) *keep = std::move(s);
    return out;
  }
  return "no stream " + name;
}

const std::string kLoad22 = "x = step.OffChipLoad(tile=[1, 16], stride=[2, 1], shape=[2, 2], par_dispatch=1).apply(X)\n";
const std::string kPad = "y = step.Broadcast(n=1).apply(z)\n";  // gives the stream named y for the store

}  // namespace

TEST(Step2Tokens, OffChipLoadLevelsAndStrides) {
  EXPECT_EQ(tokens("y = step.OffChipLoad(tile=[1, 16], stride=[3, 1], shape=[2, 3], par_dispatch=1).apply(X)\n", "y"),
            "0:0 1:0 2:1 3:0 4:0 5:2");
  // A size-1 dim is always at its last index.
  EXPECT_EQ(tokens("y = step.OffChipLoad(tile=[1, 16], stride=[3, 0, 1], shape=[2, 1, 3], par_dispatch=1).apply(X)\n", "y"),
            "0:0 1:0 2:2 3:0 4:0 5:3");
  // Stride 0 re-reads; indices wrap modulo the tile count (8).
  EXPECT_EQ(tokens("y = step.OffChipLoad(tile=[1, 16], stride=[0, 5], shape=[2, 2], par_dispatch=1).apply(X)\n", "y"),
            "0:0 5:1 0:0 5:2");
  EXPECT_EQ(tokens("y = step.OffChipLoad(tile=[1, 16], stride=[1, 7], shape=[2, 2], par_dispatch=1).apply(X)\n", "y"),
            "0:0 7:1 1:0 0:2");
}

TEST(Step2Tokens, RankZeroStreamsAndRepeatStatic) {
  EXPECT_EQ(tokens("z = step.OffChipLoad(tile=[1, 16], stride=[], shape=[], par_dispatch=1).apply(X)\n"
                   "y = step.RepeatStatic(n=3).apply(z)\n", "z"),
            "0:0");
  EXPECT_EQ(tokens("z = step.OffChipLoad(tile=[1, 16], stride=[], shape=[], par_dispatch=1).apply(X)\n"
                   "y = step.RepeatStatic(n=3).apply(z)\n", "y"),
            "0:0 0:0 0:1");
  EXPECT_EQ(tokens("z = step.OffChipLoad(tile=[1, 16], stride=[1], shape=[2], par_dispatch=1).apply(X)\n"
                   "y = step.RepeatStatic(n=2).apply(z)\n", "y"),
            "0:0 0:1 1:0 1:2");
}

TEST(Step2Tokens, Reshape) {
  // rank 1: the 4 splits into (2, 2); every 2nd element with level >= 1 gains a level.
  EXPECT_EQ(tokens("x = step.OffChipLoad(tile=[1, 16], stride=[2, 1], shape=[4, 2], par_dispatch=1).apply(X)\n"
                   "y = step.Reshape(chunk=2, rank=1).apply(x)\n", "y"),
            "0:0 1:1 2:0 3:2 4:0 5:1 6:0 7:3");
  // rank 0: every 2nd element gets max(l, 0) + 1.
  EXPECT_EQ(tokens("x = step.OffChipLoad(tile=[1, 16], stride=[1], shape=[4], par_dispatch=1).apply(X)\n"
                   "y = step.Reshape(chunk=2, rank=0).apply(x)\n", "y"),
            "0:0 1:1 2:0 3:2");
}

TEST(Step2Tokens, BufferizeAndStreamify) {
  EXPECT_EQ(tokens(kLoad22 + "b = step.Bufferize(rank=1).apply(x)\ny = step.Streamify(rank=1).apply(b)\n", "y"),
            "0:0 1:1 2:0 3:2");
  EXPECT_EQ(tokens(kLoad22 + "b = step.Bufferize(rank=1).apply(x)\ny = step.Streamify(repeat=[2], rank=1).apply(b)\n", "y"),
            "0:0 1:1 0:0 1:2 2:0 3:1 2:0 3:3");
  EXPECT_EQ(tokens(kLoad22 + "b = step.Bufferize(rank=2).apply(x)\ny = step.Streamify(repeat=[3], rank=2).apply(b)\n", "y"),
            "0:0 1:1 2:0 3:2 0:0 1:1 2:0 3:2 0:0 1:1 2:0 3:3");
}

TEST(Step2Tokens, PromoteFlattenExpandRef) {
  EXPECT_EQ(tokens(kLoad22 + "y = step.Promote(rank=0).apply(x)\n", "y"), "0:1 1:2 2:1 3:3");
  EXPECT_EQ(tokens(kLoad22 + "y = step.Promote(rank=1).apply(x)\n", "y"), "0:0 1:2 2:0 3:3");
  EXPECT_EQ(tokens(kLoad22 + "y = step.Flatten(min=0, max=1).apply(x)\n", "y"), "0:0 1:0 2:0 3:1");
  EXPECT_EQ(tokens("v = step.OffChipLoad(tile=[1, 16], stride=[1], shape=[2], par_dispatch=1).apply(X)\n"
                   "p = step.Promote(rank=0).apply(v)\n"
                   "r = step.OffChipLoad(tile=[1, 16], stride=[3, 1], shape=[2, 3], par_dispatch=1).apply(X)\n"
                   "y = step.ExpandRef(rank=1).apply((p, r))\n", "y"),
            "0:0 0:0 0:1 1:0 1:0 1:2");
}

TEST(Step2Tokens, ParallelizeReassembleRetileAccum) {
  const std::string flat = kLoad22 + "f = step.Flatten(min=1, max=2).apply(x)\n";
  EXPECT_EQ(tokens(flat + "p0, p1 = step.Parallelize(n=2, rank=1).apply(f)\ny = step.StaticReassemble(rank=1).apply([p1, p0])\n", "p1"),
            "2:0 3:1");
  EXPECT_EQ(tokens(flat + "p0, p1 = step.Parallelize(n=2, rank=1).apply(f)\ny = step.StaticReassemble(rank=1).apply([p1, p0])\n", "y"),
            "2:0 3:1 0:0 1:1");
  EXPECT_EQ(tokens("z = step.OffChipLoad(tile=[2, 16], stride=[1], shape=[2], par_dispatch=1).apply(X)\n"
                   "y = step.RetileStreamify(split_row=1).apply(z)\n", "y"),
            "0:0 1:0 2:0 3:1");
  // Accum add over groups of 2: rows 0+1 -> 16/16 = 1, rows 2+3 -> (32+48)/16 = 5.
  EXPECT_EQ(tokens(kLoad22 + "y = step.Accum(fn=add, rank=1, out=Tile[1, 16], write_back_mu=0, compute_bw=1).apply(x)\n", "y"),
            "1:0 5:1");
  EXPECT_EQ(tokens(kLoad22 + "y = step.Accum(fn=retile_row, rank=1, out=Tile[2, 16], write_back_mu=0, compute_bw=1).apply(x)\n", "y"),
            "0:0 2:1");
}

TEST(Step2Tokens, BinaryMapNeedsEqualLevels) {
  // Checked shapes make the levels agree; a graph whose Promote was changed after the check (rank 1 -> 0) gives
  // the second input other levels, and the simulator reports R2-STOPS at the BinaryMap's statement.
  auto task = iota_task();
  auto r = check(task, kLoad22 + "a = step.OffChipLoad(tile=[1, 16], stride=[2, 1], shape=[2, 2], par_dispatch=1).apply(X)\n"
                                 "p = step.Promote(rank=1).apply(x)\nq = step.Promote(rank=1).apply(a)\n"
                                 "s = step.BinaryMap(fn=add, write_back_mu=0, compute_bw=1).apply((p, q))\n"
                                 "f = step.Flatten(min=0, max=1).apply(s)\ny = step.Flatten(min=0, max=1).apply(f)\n"
                                 "Y = step.OffChipStore(par_dispatch=1).apply(y)\n");
  ASSERT_TRUE(r.ok()) << r.diags[0].message;
  Graph g = *r.graph();
  auto s0 = simulate(g, iota_inputs());  // 4 tiles for a 128-value output: R2-STORE, after the BinaryMap ran
  ASSERT_TRUE(s0.error);
  EXPECT_EQ(s0.error->code, "R2-STORE");
  g.nodes[3].kw.rank = 0;
  auto s = simulate(g, iota_inputs());
  ASSERT_TRUE(s.error);
  EXPECT_EQ(s.error->code, "R2-STOPS");
  EXPECT_EQ(s.error->loc.line, 5);
}

TEST(Step2Tokens, StoreAssemblesRowsAndChecksTheCount) {
  auto task = iota_task();
  auto r = check(task, "x = step.OffChipLoad(tile=[1, 16], stride=[1], shape=[4], par_dispatch=1).apply(X)\n"
                       "Y = step.OffChipStore(par_dispatch=1).apply(x)\n");
  ASSERT_TRUE(r.ok());
  auto s = simulate(*r.graph(), iota_inputs());
  ASSERT_TRUE(s.error);
  EXPECT_EQ(s.error->code, "R2-STORE");
  EXPECT_EQ(s.error->loc.line, 2);
  r = check(task, "x = step.OffChipLoad(tile=[1, 16], stride=[1], shape=[8], par_dispatch=1).apply(X)\n"
                  "Y = step.OffChipStore(par_dispatch=1).apply(x)\n");
  s = simulate(*r.graph(), iota_inputs());
  ASSERT_FALSE(s.error);
  // Eight tiles with level 0..0,1: one row of 8 x 16 values (128), equal to X flattened.
  EXPECT_EQ(s.outputs.at("Y").data, iota_inputs().at("X").data);
}

TEST(Step2Tokens, SimulationIsDeterministic) {
  SimResult a, b;
  const std::string body = kLoad22 + "e = step.UnaryMap(fn=silu, write_back_mu=0, compute_bw=1).apply(x)\n"
                                     "y = step.Accum(fn=add, rank=1, out=Tile[1, 16], write_back_mu=0, compute_bw=1).apply(e)\n";
  EXPECT_EQ(tokens(body, "y", &a), tokens(body, "y", &b));
  ASSERT_EQ(a.streams.size(), b.streams.size());
  for (std::size_t i = 0; i < a.streams.size(); ++i) EXPECT_EQ(token_view(a.streams[i]), token_view(b.streams[i]));
}
