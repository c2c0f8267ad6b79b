// The event model beyond the calibration rows: every operator's procedure runs to completion and emits
// exactly its stream's element count (levels right), FIFO depth, deadlock, the C-* limits, the timeline.
#include <gtest/gtest.h>

#include "core/step2/perf/bytes.hpp"
#include "core/step2/perf/perf.hpp"
#include "tests/support/step2_graphs.hpp"

namespace sf::step2::perf {
namespace {

using test::GraphBuilder;

void expect_complete(const Graph& g, const Report& r) {
  ASSERT_EQ(r.nodes.size(), g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    SCOPED_TRACE(r.nodes[i].op + " #" + std::to_string(i));
    std::int64_t in = 0, out = 0;
    for (int s : g.nodes[i].inputs) in += stream_elements(g.streams[static_cast<std::size_t>(s)].type);
    for (int s : g.nodes[i].outputs) out += stream_elements(g.streams[static_cast<std::size_t>(s)].type);
    EXPECT_EQ(r.nodes[i].tokens_in, in);
    EXPECT_EQ(r.nodes[i].tokens_out, out);
  }
}

TEST(Step2Des, EveryOperatorEmitsItsStreamsElementCount) {
  // One load per branch: a fan-out to branches that hold back different numbers of elements would deadlock
  // on 2-slot FIFOs (see the deadlock test).
  GraphBuilder b;
  auto x = [&] { return b.load("X", {8, 16}, {1, 1, 1}, {2, 3, 4}, 2); };  // [1,2,3,4] of Tile[8,16]
  int c = b.broadcast(x(), 2);
  int buf = b.bufferize(c, 2);                 // [1,2] of Buffer[[3,4]]
  int s1 = b.streamify(buf, {2});              // [1,2,2,3,4]
  int s2 = b.flatten(s1, 0, 1);                // [1,2,2,12]
  int s3 = b.reshape(s2, 3, 0);                // [1,2,2,4,3]
  int s4 = b.promote(s3, 2);                   // [1,2,2,1,4,3]
  int s5 = b.map2(Fn::Add, b.promote(b.reshape(b.flatten(b.streamify(b.bufferize(c + 1, 2), {2}), 0, 1), 3, 0), 2),
                  s4, 0, 64);
  b.store(s5, "Y1", {1}, 1);
  int p = b.parallelize(x(), 1);               // the outermost dim is 1
  int r = b.reassemble({p});
  int rt = b.retile(r, true);                  // [1,2,3,32] of Tile[1,16]
  b.store(rt, "Y2", {1}, 1);
  int acc = b.accum(Fn::Add, x(), 1, {8, 16}, 0, 64);  // [1,2,3]
  int ex = b.expand(acc, x(), 1);              // over [1,2,3,4]
  int rep = b.repeat(ex, 3);                   // [1,2,3,4,3]
  b.store(rep, "Y3", {1}, 1);
  int acc2 = b.accum(Fn::Max, x(), 2, {8, 16}, 1, 64);  // [1,2]
  int unb = b.streamify(b.bufferize(b.repeat(acc2, 2), 1), {});  // [1,2] of Buffer[[2]] → [1,2,2]
  b.store(unb, "Y4", {1}, 1);
  GraphBuilder w;  // Parallelize over a real outer dim, then reassembled
  int wx = w.load("X", {8, 16}, {1, 1}, {4, 3}, 1);       // [1,4,3]
  int wf = w.flatten(wx, 1, 2);                           // [4,3]
  int wp = w.parallelize(wf, 2);                          // 2 × [2,3]
  int wa = w.map1(Fn::Exp, wp, 0, 64);
  int wb2 = w.map1(Fn::Exp, wp + 1, 0, 64);
  w.store(w.reassemble({wa, wb2}), "Y", {32, 48}, 1);
  Report wr = evaluate(w.g, accelopt_step());
  EXPECT_TRUE(wr.feasible) << (wr.violations.empty() ? "" : wr.violations[0].message);
  expect_complete(w.g, wr);
  Report rep_r = evaluate(b.g, accelopt_step());
  EXPECT_TRUE(rep_r.feasible) << (rep_r.violations.empty() ? "" : rep_r.violations[0].message);
  expect_complete(b.g, rep_r);
  Chip deep = accelopt_step();
  deep.fifo_depth = 1;
  Report one = evaluate(b.g, deep);
  EXPECT_TRUE(one.feasible) << (one.violations.empty() ? "" : one.violations[0].message);
  expect_complete(b.g, one);
}

TEST(Step2Des, ShallowerFifosNeverMakeAProgramFaster) {
  for (std::int64_t d : {1, 2, 4, 8}) {
    Chip c = accelopt_step();
    c.fifo_depth = d;
    Chip deeper = c;
    deeper.fifo_depth = d * 2;
    Graph g = test::swiglu(32, 64);
    EXPECT_GE(evaluate(g, c).cycles, evaluate(g, deeper).cycles) << d;
  }
}

TEST(Step2Des, ParallelDispatchSpeedsUpAMemoryBoundCopy) {
  GraphBuilder b;
  int x = b.load("X", {64, 64}, {1, 1}, {4, 4}, 1);
  b.store(x, "Y", {256, 256}, 1);
  Chip c = accelopt_step();
  std::int64_t pd1 = evaluate(b.g, c).cycles;
  b.g.nodes[0].kw.par_dispatch = 16;
  b.g.nodes[1].kw.par_dispatch = 16;
  std::int64_t pd16 = evaluate(b.g, c).cycles;
  EXPECT_LT(pd16, pd1);
  // A copy of 16 tiles of 64 requests: at pd 1 each tile takes at least 64 issue cycles.
  EXPECT_GT(pd1, 16 * 64);
}

TEST(Step2Des, AFanOutConsumedAtDifferentRatesDeadlocksAndIsReported) {
  GraphBuilder b;
  int x = b.load("X", {8, 16}, {1, 1}, {4, 8}, 1);  // [1,4,8]
  int c = b.broadcast(x, 2);
  int s = b.accum(Fn::Add, c, 1, {8, 16}, 0, 64);   // waits for 8 elements
  int rep = b.repeat(s, 8);                          // [1,4,8]
  int y = b.map2(Fn::Add, rep, c + 1, 1, 64);        // the copy's FIFO (2 slots) fills first
  b.store(y, "Y", {32, 128}, 1);
  Report r = evaluate(b.g, accelopt_step());
  EXPECT_FALSE(r.feasible);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].code, "C-DEADLOCK");
  Chip deep = accelopt_step();
  deep.fifo_depth = 16;  // enough slots: the same program runs
  Report ok = evaluate(b.g, deep);
  EXPECT_TRUE(ok.feasible) << (ok.violations.empty() ? "" : ok.violations[0].message);
}

TEST(Step2Des, PerfLimitIsCheckedBeforeSimulating) {
  GraphBuilder b;
  int x = b.load("X", {64, 64}, {1, 1, 1}, {1000, 1000, 100}, 4);  // 10^8 tiles
  b.store(x, "Y", {1}, 4);
  Report r = evaluate(b.g, accelopt_step());
  EXPECT_FALSE(r.simulated);
  EXPECT_FALSE(r.feasible);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].code, "C-PERF-LIMIT");
  EXPECT_NE(r.violations[0].message.find("2,000,000"), std::string::npos) << r.violations[0].message;
  EXPECT_EQ(r.offchip_read_bytes, 100000000LL * 64 * 64 * 4);
  EXPECT_EQ(r.events, 0);
}

TEST(Step2Des, EventLimitStopsTheModel) {
  Options o;
  o.sim.max_events = 5;
  Report r = evaluate(test::gemm_256(false), accelopt_step(), o);
  EXPECT_FALSE(r.simulated);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].code, "C-PERF-LIMIT");
}

TEST(Step2Des, UnitsOnchipAndSuspicious) {
  GraphBuilder b;
  int x = b.load("X", {8, 16}, {1, 1}, {1, 2}, 1);
  for (int k = 0; k < 17; ++k) x = b.map1(Fn::Relu, x, 0, 1);
  b.store(x, "Y", {8, 32}, 1);
  Chip capped = accelopt_step();
  capped.max_compute_nodes = 16;
  capped.onchip_capacity = 1000;
  Report r = evaluate(b.g, capped);
  EXPECT_EQ(r.compute_nodes, 17);
  EXPECT_TRUE(r.suspicious);
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_EQ(r.violations[0].code, "C-ONCHIP");
  EXPECT_NE(r.violations[0].message.find("1,024"), std::string::npos) << r.violations[0].message;
  EXPECT_EQ(r.violations[1].code, "C-UNITS");
  EXPECT_NE(r.violations[1].message.find("17"), std::string::npos);
  EXPECT_GT(r.cycles, 0);
  Report u = evaluate(b.g, accelopt_step());
  EXPECT_TRUE(u.feasible);
  EXPECT_TRUE(u.suspicious);
}

TEST(Step2Des, BaselineGivesSpeedupAndPeakUsesTheReferenceReads) {
  Options o;
  o.baseline_cycles = 16938 * 2;
  Report r = evaluate(test::gemm_256(false), accelopt_step(), o);
  EXPECT_DOUBLE_EQ(r.speedup, 2.0);
  EXPECT_EQ(r.min_offchip_bytes, 3 * 262144);
  Graph g = test::swish_scaling(2048, 1024, 1024);
  Options ro;
  ro.reference_reads = std::vector<std::string>{"x", "W"};  // the reference never reads the scale tensor S
  EXPECT_EQ(evaluate(g, accelopt_step(), ro).min_offchip_bytes, 4 * (128 * 256 + 256 * 256 + 128 * 256));
  EXPECT_EQ(evaluate(g, accelopt_step()).min_offchip_bytes, 4 * (3 * 128 * 256 + 256 * 256));
  Options fast;
  fast.baseline_cycles = 16938 * 11;
  EXPECT_TRUE(evaluate(test::gemm_256(false), accelopt_step(), fast).suspicious);  // above 10x
}

TEST(Step2Des, TimelineIsBoundedAndInsideTheRun) {
  Options o;
  o.sim.timeline = true;
  Report r = evaluate(test::gemm_256(false), accelopt_step(), o);
  ASSERT_FALSE(r.timeline.empty());
  EXPECT_FALSE(r.timeline_truncated);
  for (const auto& iv : r.timeline) {
    EXPECT_LT(iv.begin, iv.end);
    EXPECT_LE(iv.end, r.cycles);
    EXPECT_LT(iv.row, 4 + 32);  // 4 nodes, then the 32 HBM channels (test_perf2_channels.cpp)
  }
  o.sim.max_intervals = 3;
  Report t = evaluate(test::gemm_256(false), accelopt_step(), o);
  EXPECT_EQ(t.timeline.size(), 3u);
  EXPECT_TRUE(t.timeline_truncated);
  EXPECT_EQ(t.cycles, r.cycles);
}

}  // namespace
}  // namespace sf::step2::perf
