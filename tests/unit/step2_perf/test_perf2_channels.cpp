// The timeline's HBM channel rows (issue 33 item 4): the event model records, within the same bound as the
// node intervals, when each HBM channel takes a request (hbm_interval cycles per request, §7.3), without
// changing any number. Hand-worked on K1 (GEMM 256³, accelopt-step): 2 loads × 8 tiles + 1 store × 4 tiles,
// 128 rows × ⌈128·4 / 64⌉ = 1,024 requests per tile, so 20,480 requests and 20,480 × 2 = 40,960 channel-busy
// cycles (= 1,310,720 off-chip bytes / 64 B per request × 2 cycles per request).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/step2/perf/perf.hpp"
#include "tests/support/step2_graphs.hpp"

namespace sf::step2::perf {
namespace {

Report timed(const Graph& g, const Chip& c, std::size_t bound = 200000) {
  Options o;
  o.sim.timeline = true;
  o.sim.max_intervals = bound;
  return evaluate(g, c, o);
}

// Sum of (end - begin) per (row, activity).
std::map<std::pair<int, Activity>, std::int64_t> totals(const Report& r) {
  std::map<std::pair<int, Activity>, std::int64_t> t;
  for (const auto& iv : r.timeline) t[{iv.row, iv.what}] += iv.end - iv.begin;
  return t;
}

TEST(Perf2Channels, K1ChannelRowsAddUpToRequestsTimesInterval) {
  const Chip chip = accelopt_step();
  const Graph g = test::gemm_256(false);
  const Report r = timed(g, chip);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.cycles, 16938);  // unchanged by the recording
  EXPECT_EQ(evaluate(g, chip).cycles, 16938);
  EXPECT_FALSE(r.timeline_truncated);
  ASSERT_EQ(r.timeline_channels, 32);
  EXPECT_EQ(r.hbm_requests, 20480);
  const int nodes = static_cast<int>(r.nodes.size());
  std::int64_t channel_busy = 0;
  std::map<int, std::vector<Interval>> per_channel;
  for (const auto& iv : r.timeline) {
    ASSERT_GE(iv.row, 0);
    ASSERT_LT(iv.row, nodes + 32);
    if (iv.row < nodes) continue;
    EXPECT_EQ(iv.what, Activity::Busy);
    channel_busy += iv.end - iv.begin;
    per_channel[iv.row - nodes].push_back(iv);
  }
  EXPECT_EQ(channel_busy, 20480 * chip.hbm_interval);
  EXPECT_EQ(channel_busy * chip.hbm_request_bytes / chip.hbm_interval,
            r.offchip_read_bytes + r.offchip_write_bytes);
  EXPECT_EQ(per_channel.size(), 32u);  // every channel takes requests on K1
  for (auto& [ch, ivs] : per_channel) {
    SCOPED_TRACE("channel " + std::to_string(ch));
    std::sort(ivs.begin(), ivs.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    for (std::size_t k = 0; k < ivs.size(); ++k) {
      EXPECT_LT(ivs[k].begin, ivs[k].end);
      EXPECT_LE(ivs[k].end, r.cycles - chip.tail);  // within the channels' final clocks
      if (k) {
        EXPECT_GT(ivs[k].begin, ivs[k - 1].end);  // never overlapping, and touching ones are merged
      }
    }
  }
  // The first cycle of requests (§7.3 step 3): both loads' first bundles (4 + 4 requests) are visible at
  // cycle 1 and go to the cumulative offsets 0, 1, 3, 6, 10, 15, 21, 28; each channel starts at cycle 2.
  std::set<int> first;
  for (const auto& [ch, ivs] : per_channel)
    if (ivs.front().begin == 2) first.insert(ch);
  EXPECT_EQ(first, (std::set<int>{0, 1, 3, 6, 10, 15, 21, 28}));
  for (const auto& [ch, ivs] : per_channel) EXPECT_GE(ivs.front().begin, 2);
  // The node rows still add up to each node's busy, stalled and blocked cycles.
  const auto t = totals(r);
  for (int i = 0; i < nodes; ++i) {
    SCOPED_TRACE(r.nodes[static_cast<std::size_t>(i)].op);
    auto get = [&](Activity a) {
      auto it = t.find({i, a});
      return it == t.end() ? std::int64_t{0} : it->second;
    };
    EXPECT_EQ(get(Activity::Busy), r.nodes[static_cast<std::size_t>(i)].busy);
    EXPECT_EQ(get(Activity::StallIn), r.nodes[static_cast<std::size_t>(i)].stall_in);
    EXPECT_EQ(get(Activity::BlockedOut), r.nodes[static_cast<std::size_t>(i)].blocked_out);
  }
}

TEST(Perf2Channels, RowsFollowTheChipAndTheBoundSummarises) {
  Chip eight = accelopt_step();
  eight.hbm_channels = 8;
  const Graph g = test::gemm_256(true);
  const Report plain = evaluate(g, eight);
  const Report r = timed(g, eight);
  EXPECT_EQ(r.cycles, plain.cycles);
  ASSERT_EQ(r.timeline_channels, 8);
  std::int64_t channel_busy = 0;
  const int nodes = static_cast<int>(r.nodes.size());
  for (const auto& iv : r.timeline) {
    ASSERT_LT(iv.row, nodes + 8);
    if (iv.row >= nodes) channel_busy += iv.end - iv.begin;
  }
  EXPECT_EQ(channel_busy, r.hbm_requests * eight.hbm_interval);
  EXPECT_EQ(plain.timeline_channels, 0);  // not recorded unless asked
  // Past the bound: the first intervals are kept, nothing after, the numbers are exact.
  const Report s = timed(g, eight, 40);
  EXPECT_TRUE(s.timeline_truncated);
  EXPECT_EQ(s.timeline.size(), 40u);
  EXPECT_EQ(s.cycles, plain.cycles);
  for (std::size_t k = 0; k < s.timeline.size(); ++k) {
    EXPECT_EQ(s.timeline[k].row, r.timeline[k].row);
    EXPECT_EQ(s.timeline[k].begin, r.timeline[k].begin);
  }
}

}  // namespace
}  // namespace sf::step2::perf
