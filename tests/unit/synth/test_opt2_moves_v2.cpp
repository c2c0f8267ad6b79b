// The STeP-25 optimiser's moves, hand-worked (core/synth/opt2_moves*.cpp): the Bufferize/Streamify re-load
// rewrite on a program where it applies (exact text, then judged correct by the checker, the cost model and
// the simulator) and where it fails (C-ONCHIP on a chip whose memory is too small, C-DEADLOCK when the whole
// tensor is held back); parameters chosen from the divisors of the actual dims (no tile that does not divide,
// lane counts that divide); the splits restore the accumulation's dims; compute_bw reallocation keeps the sum;
// the perf report is read for nodes and limits.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/step2/check.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/synth/opt2_campaign.hpp"

namespace sf::synth::opt2 {
namespace moves_v2_test {

const std::string kRes = std::string(SF_SOURCE_DIR) + "/resources";

Opt2Task load(const std::string& id) {
  Diagnostics d;
  auto t = step::load_task_file(kRes + "/benchmark_v2/" + id + ".yaml", d);
  EXPECT_TRUE(t) << id;
  std::ifstream in(kRes + "/solutions_v2/" + id + ".yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str(), impl;
  std::istringstream body(text.substr(text.find("impl: |\n") + 8));
  for (std::string line; std::getline(body, line) && line.rfind("  ", 0) == 0;) impl += line.substr(2) + "\n";
  std::string err;
  auto chip = step2::perf::chip_for(*t, "", kRes, err);
  EXPECT_TRUE(chip) << err;
  return {*t, impl, *chip};
}

// The program after one move with a fixed parameter ("" when the move does not apply).
std::string after(const Opt2Task& t, MoveKind k, const std::string& param, std::uint64_t seed = 1) {
  auto lines = read_lines(t.baseline_impl);
  EXPECT_TRUE(lines);
  Rng rng(seed);
  if (!apply_move(t.task, *lines, {k, param, {}, {}}, rng).applied) return "";
  return print_lines(*lines);
}

bool correct(Verdict v) { return v == Verdict::Faster || v == Verdict::Slower; }

long long compute_sum(const std::string& impl) {
  long long s = 0;
  const auto lines = read_lines(impl);  // kept alive: a range-for over *read_lines(..) reads a dead optional
  if (!lines) return -1;
  for (const auto& l : *lines)
    if (const auto* b = l.kw("compute_bw")) s += std::stoll(*b);
  return s;
}

TEST(Opt2MovesV2, BufferizeReloadTurnsTheStrideZeroReloadIntoStreamifyAndPromote) {
  auto t = load("norm/rmsnorm");
  auto text = after(t, MoveKind::BufferizeReload, "");
  ASSERT_FALSE(text.empty());
  // xb re-read x with one more dim of stride 0 and extent 1 ([NB, F, 1]): the first load's stream is held per
  // F group and replayed, and the size-1 dim comes back as a Promote.
  EXPECT_NE(text.find("xb_buf = step.Bufferize(rank=1).apply(xa)\n"
                      "xb_str = step.Streamify(rank=1).apply(xb_buf)\n"
                      "xb = step.Promote(rank=0).apply(xb_str)\n"
                      "y = step.BinaryMap(fn=mul"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("OffChipLoad(tile=[32, 32], stride=[F, 1, 0]"), std::string::npos);
  auto base = judge(t, t.baseline_impl, 0, 0.01);
  auto j = judge(t, text, base.cycles, 0.01);
  EXPECT_TRUE(correct(j.verdict)) << verdict_name(j.verdict) << " " << j.detail << "\n" << text;
  // The same answer on a chip with 16 KiB of on-chip memory: the buffered F group does not fit.
  Opt2Task small = t;
  small.chip.onchip_capacity = 16 * 1024;
  auto k = judge(small, text, base.cycles, 0.01);
  EXPECT_EQ(k.verdict, Verdict::Infeasible);
  EXPECT_EQ(k.detail, "C-ONCHIP");
}

TEST(Opt2MovesV2, BufferizeReloadOfAnIdenticalLoadAndItsDeadlock) {
  auto t = load("activation/softmax");
  auto base = judge(t, t.baseline_impl, 0, 0.01);
  auto text = after(t, MoveKind::BufferizeReload, "1");
  ASSERT_FALSE(text.empty());
  // One of the three loads of x is gone; its stream is an earlier load's, held per row of tiles and replayed.
  auto count = [](const std::string& s, const std::string& w) {
    int n = 0;
    for (auto p = s.find(w); p != std::string::npos; p = s.find(w, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(text, "OffChipLoad"), 2) << text;
  EXPECT_EQ(count(text, "_buf = step.Bufferize(rank=1).apply(x"), 1) << text;
  EXPECT_EQ(count(text, " = step.Streamify(rank=1).apply(x"), 1) << text;
  auto j = judge(t, text, base.cycles, 0.01);
  EXPECT_TRUE(correct(j.verdict)) << verdict_name(j.verdict) << " " << j.detail << "\n" << text;
  // Holding the whole tensor back (rank 2) while the first stream's other consumer still runs deadlocks.
  auto whole = after(t, MoveKind::BufferizeReload, "2");
  ASSERT_FALSE(whole.empty());
  EXPECT_NE(whole.find("Bufferize(rank=2)"), std::string::npos);
  auto w = judge(t, whole, base.cycles, 0.01);
  EXPECT_EQ(w.verdict, Verdict::Infeasible) << w.detail;
  EXPECT_EQ(w.detail, "C-DEADLOCK");
  // No re-load, nothing to edit.
  EXPECT_EQ(after(load("gemm/small"), MoveKind::BufferizeReload, ""), "");
}

TEST(Opt2MovesV2, TileEditsOnlyDivideAndFollowEverywhere) {
  // mlp/small: BM = 16 is read in tiles of 16 rows, so BM*2 does not divide; H2/2 keeps every H2/t in step
  // (the Streamify repeat of layer 2 included).
  auto mlp = load("mlp/small");
  EXPECT_EQ(after(mlp, MoveKind::Tile, "BM*2"), "");
  auto h2 = after(mlp, MoveKind::Tile, "H2/2");
  ASSERT_FALSE(h2.empty());
  EXPECT_EQ(h2.find("H2/128"), std::string::npos) << h2;
  EXPECT_NE(h2.find("repeat=[H2/64]"), std::string::npos) << h2;
  EXPECT_TRUE(step2::check(mlp.task, h2).ok()) << h2;
  // gemm/rect verifies with M = 128 and 256: an M tile of 256 does not divide M = 128.
  EXPECT_EQ(after(load("gemm/rect"), MoveKind::Tile, "M*2"), "");
  // Every tile answer on gemm/batched checks.
  auto batched = load("gemm/batched");
  for (std::uint64_t s = 1; s <= 8; ++s) {
    auto text = after(batched, MoveKind::Tile, "", s);
    ASSERT_FALSE(text.empty());
    EXPECT_TRUE(step2::check(batched.task, text).ok()) << text;
  }
}

TEST(Opt2MovesV2, SplitsChooseLanesThatDivideAndRestoreTheDims) {
  // gemm/rect: M/128 = 1, N/128 = 2: a split over M alone cannot have 2 lanes, over (M, N) it can.
  auto rect = load("gemm/rect");
  auto base = judge(rect, rect.baseline_impl, 0, 0.01);
  for (std::uint64_t s = 1; s <= 6; ++s) {
    auto text = after(rect, MoveKind::ParallelSplit, "", s);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.find("Parallelize(n=4"), std::string::npos) << text;  // 4 lanes never divide M*N/128^2 = 2
    auto j = judge(rect, text, base.cycles, 0.01);
    EXPECT_TRUE(correct(j.verdict)) << j.detail << "\n" << text;
  }
  // gemm/scale_residual: the split accumulation feeds a BinaryMap with the bias, so its dims must come back
  // exactly ([1, M/64, N/128]).
  auto sr = load("gemm/scale_residual");
  auto srb = judge(sr, sr.baseline_impl, 0, 0.01);
  for (MoveKind k : {MoveKind::ParallelSplit, MoveKind::AddTreeSplit}) {
    auto text = after(sr, k, "");
    ASSERT_FALSE(text.empty()) << move_name(k);
    auto j = judge(sr, text, srb.cycles, 0.01);
    EXPECT_TRUE(correct(j.verdict)) << move_name(k) << " " << j.detail << "\n" << text;
  }
  // The add tree on gemm/small splits K/128 = 2 tiles in two halves and is faster (two PMU ports).
  auto small = load("gemm/small");
  auto text = after(small, MoveKind::AddTreeSplit, "");
  EXPECT_NE(text.find("Reshape(chunk=K/256, rank=0)"), std::string::npos) << text;
  auto j = judge(small, text, judge(small, small.baseline_impl, 0, 0.01).cycles, 0.01);
  EXPECT_EQ(j.verdict, Verdict::Faster) << j.detail << "\n" << text;
  // gemm/small_k reads K in one tile: there is nothing to halve.
  EXPECT_EQ(after(load("gemm/small_k"), MoveKind::AddTreeSplit, ""), "");
}

TEST(Opt2MovesV2, ComputeReallocationKeepsTheSumWhenTheDonorsCanPay) {
  auto t = load("gemm/scale_residual");  // four nodes of 1024: the budget 4096 is fully allocated
  const long long before = compute_sum(t.baseline_impl);
  auto lines = *read_lines(t.baseline_impl);
  Rng rng(3);
  auto out = apply_move(t.task, lines, {MoveKind::ComputeBw, "x2", {"mm", "y"}, {"compute", "compute"}}, rng);
  ASSERT_TRUE(out.applied);
  auto text = print_lines(lines);
  EXPECT_NE(text.find("mm = step.BinaryMapAccum(fn=matmul_t, rank=1, write_back_mu=1, compute_bw=2048)"),
            std::string::npos)
      << text;
  EXPECT_EQ(compute_sum(text), before) << out.what;
  // A single compute node has nobody to take from: no reallocation.
  auto g = load("gemm/small");
  auto gl = *read_lines(g.baseline_impl);
  EXPECT_FALSE(apply_move(g.task, gl, {MoveKind::ComputeBw, "", {}, {}}, rng).applied);
}

TEST(Opt2MovesV2, ReadsNodesAndLimitsFromThePerfReport) {
  auto t = load("gemm/scale_residual");
  auto j = judge(t, t.baseline_impl, 0, 0.01);
  auto v = read_perf(j.perf_text);
  ASSERT_EQ(v.busiest, j.busiest);
  ASSERT_EQ(v.limits.size(), v.busiest.size());
  EXPECT_EQ(v.limits.front(), j.bottleneck);
  auto junk = read_perf("  x (\n  (a, line 1): limit compute\nviolation\n  ok (Op, line 2): busy 1, limit hbm\n");
  ASSERT_EQ(junk.busiest.size(), 1u);
  EXPECT_EQ(junk.busiest[0], "ok");
  EXPECT_EQ(junk.limits[0], "hbm");
}

// Program text is untrusted: on baselines with one line garbled (a list cut, a tile of three entries, a shape
// emptied) every move either leaves the program alone or edits it into text the parser reads back.
TEST(Opt2MovesV2, GarbledProgramsNeverBreakTheMoves) {
  // (what, replacement) applied to the first occurrence; "shape=[]" empties the first shape list.
  const std::vector<std::pair<std::string, std::string>> garble{
      {"tile=[", "tile=[8, "}, {"shape=[", "shape=[]"}, {", 1]", "]"}, {"out=Tile[", "out=Tile[2, "}, {"rank=1", "rank=9"}};
  int edited = 0;
  for (const auto& id : {"activation/softmax", "gemm/batched", "norm/rmsnorm", "mlp/small"}) {
    auto t = load(id);
    for (const auto& [from, to] : garble) {
      std::string impl = t.baseline_impl;
      auto p = impl.find(from);
      if (p == std::string::npos) continue;
      const auto end = to == "shape=[]" ? impl.find(']', p) + 1 : p + from.size();
      impl.replace(p, end - p, to);
      auto lines = read_lines(impl);
      if (!lines) continue;
      for (MoveKind k : all_moves())
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
          auto copy = *lines;
          Rng rng(seed);
          if (!apply_move(t.task, copy, {k, "", {"x"}, {"compute"}}, rng).applied) continue;
          ++edited;
          EXPECT_TRUE(read_lines(print_lines(copy))) << id << " " << move_name(k) << " " << from;
        }
    }
  }
  EXPECT_GT(edited, 50);
}

}  // namespace moves_v2_test
}  // namespace sf::synth::opt2
