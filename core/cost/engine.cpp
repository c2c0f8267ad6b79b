#include "core/cost/engine.hpp"

#include <algorithm>
#include <queue>

namespace sf::cost {

namespace {

using i64 = std::int64_t;

// One action of a unit: dequeue one token from each listed input, spend `busy` cycles, then send one token
// to each listed output (waiting for a free slot in all of them).
struct Step {
  int in[2] = {-1, -1};
  int nin = 0;
  bool all_in = false;
  int out = -1;
  bool all_out = false;
  bool emits = false;
  i64 busy = 0;
  i64 request = -1;  // Load: the off-chip request that must be answered first
};

// Progress of one unit through its steps.
struct Cursor {
  i64 clock = 0;
  i64 i = 0;   // elements / selector positions done
  i64 k = 0;   // position inside the current group or chunk
  i64 j = 0;   // Partition/Merge: index into the current position's lanes
  bool head = true;  // Partition/Merge: the selector token of position i is still to be read
  bool done = false;
  // Store: bytes packed and requests issued so far, time of the last issue.
  i64 bytes = 0, issued = 0, last_issue = -1;
};

struct ChanState {
  i64 sent = 0, recv = 0;
  bool cons_waiting = false, prod_waiting = false;
};

struct Request {
  i64 time;
  int unit;
  i64 seq;
  bool operator>(const Request& o) const {
    if (time != o.time) return time > o.time;
    if (unit != o.unit) return unit > o.unit;
    return seq > o.seq;
  }
};

class Engine {
 public:
  Engine(const std::vector<Unit>& units, const std::vector<Channel>& chans, const ChipProfile& chip,
         int timeline_buckets = 0)
      : u_(units), ch_(chans), chip_(chip), cur_(units.size()), cs_(chans.size()), st_(units.size()),
        depth_(chip.fifo_depth) {
    if (timeline_buckets > 0) {
      tl_buckets_ = std::min(timeline_buckets, 4096);
      tl_.assign(units.size(), UnitTimeline{std::vector<i64>(static_cast<std::size_t>(tl_buckets_), 0),
                                            std::vector<i64>(static_cast<std::size_t>(tl_buckets_), 0)});
    }
    // Per token: when it becomes visible to the consumer, and when the consumer dequeued it.
    base_.assign(chans.size() + 1, 0);
    for (std::size_t c = 0; c < chans.size(); ++c) base_[c + 1] = base_[c] + chans[c].count;
    stamp_.assign(static_cast<std::size_t>(base_.back()), 0);
    deq_.assign(static_cast<std::size_t>(base_.back()), 0);
    cap_.assign(chans.size(), depth_);
    chan_free_.assign(static_cast<std::size_t>(chip.hbm_channels), 0);
    store_done_.assign(units.size(), 0);
    for (std::size_t x = 0; x < units.size(); ++x) {
      if (units[x].kind != UnitKind::Load) continue;
      const Channel& c = chans[static_cast<std::size_t>(units[x].outs[0])];
      Load l;
      l.unit = static_cast<int>(x);
      l.bytes = c.elem_bytes;
      l.requests = ceil_div(c.count * c.elem_bytes, chip.hbm_request_bytes);
      l.answer.assign(static_cast<std::size_t>(l.requests), -1);
      load_of_.resize(units.size(), -1);
      load_of_[x] = static_cast<int>(loads_.size());
      max_requests_ = std::max(max_requests_, l.requests);
      loads_.push_back(std::move(l));
    }
    load_of_.resize(units.size(), -1);
  }

  // Units that touch off-chip memory (Load, Store) run in the global order of their step times, because they
  // share the off-chip channels in issue order. Every other unit's times follow from its inputs and credits
  // alone (max-plus), whatever the order it is advanced in, so those units run from a plain work list as soon
  // as something they wait for changes; the ordered queue only sees the off-chip units.
  TimingResult run() {
    queued_.assign(u_.size(), 0);
    for (std::size_t x = u_.size(); x-- > 0;) wake(static_cast<int>(x), 0);
    while (true) {
      while (true) {
        while (!work_.empty()) {
          int x = work_.back();
          work_.pop_back();
          queued_[static_cast<std::size_t>(x)] = 0;
          advance(x);
        }
        if (heap_.empty()) break;
        auto [key, x] = heap_.top();
        heap_.pop();
        now_ = std::max(now_, key);
        advance(x);
      }
      if (!grow_blocked_channels()) break;
    }
    assign_until(INT64_MAX);
    TimingResult r;
    r.complete = true;
    for (std::size_t x = 0; x < u_.size(); ++x) {
      if (!cur_[x].done) {
        r.complete = false;
        if (r.problem.empty())
          r.problem = "unit '" + u_[x].primitive + "' of line " + std::to_string(u_[x].line) + " (" + u_[x].name +
                      ") never finished";
      }
      st_[x].finish = cur_[x].clock;
      if (u_[x].kind == UnitKind::Store) {
        st_[x].finish = std::max(st_[x].finish, store_done_[x]);
        r.cycles = std::max(r.cycles, st_[x].finish);
      }
    }
    r.read_requests = 0;
    for (const auto& l : loads_) r.read_requests += l.requests;
    r.write_requests = write_requests_;
    r.units = st_;
    r.depth = cap_;
    if (tl_buckets_ > 0) {
      cover(r.cycles);
      const i64 n = std::max<i64>(1, ceil_div(r.cycles, tl_width_));
      for (auto& t : tl_) {
        t.busy.resize(static_cast<std::size_t>(n));
        t.stalled.resize(static_cast<std::size_t>(n));
      }
      r.bucket_cycles = tl_width_;
      r.timeline = std::move(tl_);
    }
    return r;
  }

 private:
  struct Load {
    int unit = -1;
    i64 bytes = 0, requests = 0;
    std::vector<i64> answer;
  };

  static i64 ceil_div(i64 a, i64 b) { return b <= 0 ? 0 : (a + b - 1) / b; }

  // --- the optional timeline ------------------------------------------------------------------------------
  // Buckets of tl_width_ cycles (a power of two) from cycle 0; when an interval ends past the last bucket, the
  // width doubles and neighbouring buckets merge, so memory stays units × tl_buckets_ whatever the run's length.
  void cover(i64 end) {
    while (end > tl_width_ * tl_buckets_) {
      for (auto& t : tl_) {
        for (auto* v : {&t.busy, &t.stalled}) {
          std::size_t half = (v->size() + 1) / 2;
          for (std::size_t b = 0; b < half; ++b) (*v)[b] = (*v)[2 * b] + (2 * b + 1 < v->size() ? (*v)[2 * b + 1] : 0);
          std::fill(v->begin() + static_cast<std::ptrdiff_t>(half), v->end(), 0);
        }
      }
      tl_width_ *= 2;
    }
  }
  void record(int x, i64 from, i64 to, bool busy) {
    if (tl_buckets_ <= 0 || to <= from) return;
    cover(to);
    auto& v = busy ? tl_[static_cast<std::size_t>(x)].busy : tl_[static_cast<std::size_t>(x)].stalled;
    for (i64 b = from / tl_width_; b * tl_width_ < to; ++b) {
      i64 lo = std::max(from, b * tl_width_), hi = std::min(to, (b + 1) * tl_width_);
      v[static_cast<std::size_t>(b)] += hi - lo;
    }
  }

  void push(int x, i64 key) { heap_.emplace(key, x); }

  bool offchip(int x) const {
    UnitKind k = u_[static_cast<std::size_t>(x)].kind;
    return k == UnitKind::Load || k == UnitKind::Store;
  }

  // Something unit x waits for changed at time `key` (a lower bound of its next step).
  void wake(int x, i64 key) {
    if (offchip(x)) {
      push(x, key);
    } else if (!queued_[static_cast<std::size_t>(x)]) {
      queued_[static_cast<std::size_t>(x)] = 1;
      work_.push_back(x);
    }
  }

  i64& stamp(int c, i64 token) { return stamp_[static_cast<std::size_t>(base_[static_cast<std::size_t>(c)] + token)]; }
  i64& deq(int c, i64 token) { return deq_[static_cast<std::size_t>(base_[static_cast<std::size_t>(c)] + token)]; }

  // Every unit waits and nothing is in flight: with `fifo_depth` slots the program deadlocks (typically a Copy
  // whose two branches meet again after one of them reduced a whole group). Like a compiler sizing that FIFO,
  // each full channel whose producer waits gets one more slot, and the simulation goes on. False when no
  // channel can grow (a unit waits for a token that will never come: an inconsistent graph).
  bool grow_blocked_channels() {
    bool grown = false;
    for (std::size_t c = 0; c < cs_.size(); ++c) {
      ChanState& s = cs_[c];
      if (!s.prod_waiting || s.sent - s.recv < cap_[c]) continue;
      ++cap_[c];
      s.prod_waiting = false;
      int p = ch_[c].producer;
      wake(p, std::max(cur_[static_cast<std::size_t>(p)].clock, now_));
      grown = true;
    }
    return grown;
  }

  // --- off-chip channels -------------------------------------------------------------------------------------
  // Requests are assigned to channels round robin in the order they are issued; at equal issue times loads go
  // before stores, each in unit order. Load unit l issues its request q at cycle q (one per cycle, never
  // throttled by its consumer); stores issue when their bytes are packed.
  i64 serve(i64 issue) {
    auto ch = static_cast<std::size_t>(next_channel_++ % chip_.hbm_channels);
    i64 accept = std::max(issue, chan_free_[ch]);
    chan_free_[ch] = accept + chip_.hbm_interval;
    return accept + chip_.hbm_latency;
  }

  // Serves every request issued before time `t`.
  void assign_until(i64 t) {
    while (true) {
      i64 next_store = pending_.empty() ? INT64_MAX : pending_.top().time;
      i64 next_load = load_time_ < max_requests_ ? load_time_ : INT64_MAX;
      i64 next = std::min(next_store, next_load);
      if (next >= t || next == INT64_MAX) return;
      if (next_load <= next_store) {
        for (auto& l : loads_)
          if (load_time_ < l.requests) l.answer[static_cast<std::size_t>(load_time_)] = serve(load_time_);
        ++load_time_;
        if (next_store != next_load) continue;
      }
      while (!pending_.empty() && pending_.top().time == next) {
        Request q = pending_.top();
        pending_.pop();
        auto& done = store_done_[static_cast<std::size_t>(q.unit)];
        done = std::max(done, serve(q.time));
      }
    }
  }

  void issue_store(int x, i64 t) {
    Cursor& c = cur_[static_cast<std::size_t>(x)];
    i64 at = std::max(t, c.last_issue + 1);
    c.last_issue = at;
    ++write_requests_;
    Request q{at, x, c.issued++};
    if (at < assigned_until_) {  // cannot happen with time-ordered processing; served at once to stay total
      auto& done = store_done_[static_cast<std::size_t>(x)];
      done = std::max(done, serve(at));
    } else {
      pending_.push(q);
    }
  }

  // --- the steps of each kind of unit ----------------------------------------------------------------------
  // Fills `s` with the unit's next step; false when the unit has done all its steps.
  bool plan(int x, Step& s) {
    const Unit& u = u_[static_cast<std::size_t>(x)];
    Cursor& c = cur_[static_cast<std::size_t>(x)];
    s = Step{};
    switch (u.kind) {
      case UnitKind::Load: {
        const Channel& ch = ch_[static_cast<std::size_t>(u.outs[0])];
        if (c.i >= ch.count) return false;
        const Load& l = loads_[static_cast<std::size_t>(load_of_[static_cast<std::size_t>(x)])];
        s.request = ((c.i + 1) * l.bytes - 1) / chip_.hbm_request_bytes;
        s.busy = u.c_elem;
        s.all_out = s.emits = true;
        return true;
      }
      case UnitKind::Store: {
        if (c.i >= ch_[static_cast<std::size_t>(u.ins[0])].count) return false;
        s.all_in = true;
        s.busy = u.c_elem;
        return true;
      }
      case UnitKind::Elementwise: {
        if (c.i >= ch_[static_cast<std::size_t>(u.outs[0])].count) return false;
        s.all_in = s.all_out = s.emits = true;
        s.busy = u.c_elem;
        return true;
      }
      case UnitKind::Group: {
        if (c.i >= u.outputs) return false;
        if (u.group == 0) {
          s.busy = std::max<i64>(u.c_emit, 1);
          s.all_out = s.emits = true;
          return true;
        }
        s.in[s.nin++] = u.ins[0];
        s.busy = u.c_elem;
        if (c.k == u.group - 1) {
          s.busy += u.c_emit;
          s.all_out = s.emits = true;
        }
        return true;
      }
      case UnitKind::Expand: {
        if (c.i >= ch_[static_cast<std::size_t>(u.ins[0])].count) return false;
        if (c.k == 0) s.in[s.nin++] = u.ins[0];
        if (u.group > 0) {
          s.busy = u.c_elem;
          s.all_out = s.emits = true;
        }
        return true;
      }
      case UnitKind::RepeatRef: {
        if (c.i >= ch_[static_cast<std::size_t>(u.ins[0])].count) return false;
        if (c.k == 0) s.in[s.nin++] = u.ins[0];
        if (u.group > 0) {
          s.in[s.nin++] = u.ins[1];
          s.busy = u.c_elem;
          s.all_out = s.emits = true;
        }
        return true;
      }
      case UnitKind::Partition: {
        i64 positions = static_cast<i64>(u.lane_off.size()) - 1;
        if (c.i >= positions) return false;
        if (c.head) {
          s.in[s.nin++] = u.ins[1];
          s.busy = 1;
          return true;
        }
        i64 n = u.lane_off[static_cast<std::size_t>(c.i) + 1] - u.lane_off[static_cast<std::size_t>(c.i)];
        if (n == 0) {
          s.in[s.nin++] = u.ins[0];  // a dropped element: read, not forwarded
          return true;
        }
        if (c.j == 0) s.in[s.nin++] = u.ins[0];
        s.busy = 1;
        s.out = u.outs[static_cast<std::size_t>(u.lanes[static_cast<std::size_t>(u.lane_off[static_cast<std::size_t>(c.i)] + c.j)])];
        s.emits = true;
        return true;
      }
      case UnitKind::Merge: {
        i64 positions = static_cast<i64>(u.lane_off.size()) - 1;
        if (c.i >= positions) return false;
        if (c.head) {
          s.in[s.nin++] = u.ins.back();
          return true;
        }
        i64 n = u.lane_off[static_cast<std::size_t>(c.i) + 1] - u.lane_off[static_cast<std::size_t>(c.i)];
        if (n == 0) {
          s.busy = std::max<i64>(u.c_emit, 1);  // emits init
          s.all_out = s.emits = true;
          return true;
        }
        s.in[s.nin++] = u.ins[static_cast<std::size_t>(u.lanes[static_cast<std::size_t>(u.lane_off[static_cast<std::size_t>(c.i)] + c.j)])];
        s.busy = u.c_elem;
        if (c.j == n - 1) {
          s.busy += u.c_emit;
          s.all_out = s.emits = true;
        }
        return true;
      }
    }
    return false;
  }

  // Moves the cursor past the step just done.
  void next(int x) {
    const Unit& u = u_[static_cast<std::size_t>(x)];
    Cursor& c = cur_[static_cast<std::size_t>(x)];
    switch (u.kind) {
      case UnitKind::Load:
      case UnitKind::Store:
      case UnitKind::Elementwise: ++c.i; break;
      case UnitKind::Group:
        if (u.group == 0 || ++c.k == u.group) {
          c.k = 0;
          ++c.i;
        }
        break;
      case UnitKind::Expand:
      case UnitKind::RepeatRef:
        if (u.group == 0 || ++c.k == u.group) {
          c.k = 0;
          ++c.i;
        }
        break;
      case UnitKind::Partition:
      case UnitKind::Merge: {
        if (c.head) {
          c.head = false;
        } else {
          i64 n = u.lane_off[static_cast<std::size_t>(c.i) + 1] - u.lane_off[static_cast<std::size_t>(c.i)];
          if (n == 0 || ++c.j == n) {
            c.j = 0;
            ++c.k;
          }
        }
        if (!c.head && c.k >= u.group) {
          c.k = 0;
          c.head = true;
          ++c.i;
        }
        break;
      }
    }
  }

  // Runs unit x as far as it can go without overtaking the next event of another unit.
  void advance(int x) {
    const Unit& u = u_[static_cast<std::size_t>(x)];
    Cursor& c = cur_[static_cast<std::size_t>(x)];
    UnitStats& stat = st_[static_cast<std::size_t>(x)];
    Step s;
    const bool ordered = offchip(x);
    while (!c.done) {
      // An off-chip unit lets the work list settle first: it may still create earlier off-chip requests.
      if (ordered && !work_.empty()) {
        push(x, std::max(c.clock, now_));
        return;
      }
      if (!plan(x, s)) {
        c.done = true;
        return;
      }
      int ins[16];
      int nin = 0;
      if (s.all_in) {
        for (int ch : u.ins) ins[nin++] = ch;  // the builder keeps all_in units at <= 16 inputs
      } else {
        for (int q = 0; q < s.nin; ++q) ins[nin++] = s.in[q];
      }
      i64 t_in = c.clock;
      for (int q = 0; q < nin; ++q) {
        ChanState& cs = cs_[static_cast<std::size_t>(ins[q])];
        if (cs.sent <= cs.recv) {
          cs.cons_waiting = true;
          return;
        }
        t_in = std::max(t_in, stamp(ins[q], cs.recv));
      }
      if (s.request >= 0) {
        // The load's data: request q is issued at cycle q; it must be served before its answer is known.
        if (s.request >= now_) {
          // Served once time passes its issue cycle; answered hbm_latency later at the earliest.
          push(x, s.request + std::max<i64>(1, chip_.hbm_latency));
          return;
        }
        assign_until(now_);
        assigned_until_ = std::max(assigned_until_, now_);
        const Load& l = loads_[static_cast<std::size_t>(load_of_[static_cast<std::size_t>(x)])];
        t_in = std::max(t_in, l.answer[static_cast<std::size_t>(s.request)]);
      }
      int outs[16];
      int nout = 0;
      if (s.emits) {
        if (s.all_out) {
          for (int ch : u.outs) outs[nout++] = ch;
        } else {
          outs[nout++] = s.out;
        }
      }
      i64 credit = 0;
      for (int q = 0; q < nout; ++q) {
        ChanState& cs = cs_[static_cast<std::size_t>(outs[q])];
        i64 cap = cap_[static_cast<std::size_t>(outs[q])];
        if (cs.sent >= cap) {
          if (cs.recv <= cs.sent - cap) {
            cs.prod_waiting = true;
            return;
          }
          credit = std::max(credit, deq(outs[q], cs.sent - cap) + chip_.credit_latency);
        }
      }
      // Keep the global order: an off-chip step that starts after another unit's next event waits its turn.
      if (ordered && t_in > now_ && !heap_.empty() && t_in > heap_.top().first) {
        push(x, t_in);
        return;
      }
      // Commit.
      stat.stall_in += t_in - c.clock;
      record(x, c.clock, t_in, false);
      for (int q = 0; q < nin; ++q) {
        ChanState& cs = cs_[static_cast<std::size_t>(ins[q])];
        deq(ins[q], cs.recv) = t_in;
        ++cs.recv;
        if (cs.prod_waiting) {
          cs.prod_waiting = false;
          int p = ch_[static_cast<std::size_t>(ins[q])].producer;
          wake(p, std::max(cur_[static_cast<std::size_t>(p)].clock, t_in + chip_.credit_latency));
        }
      }
      stat.tokens_in += nin;
      i64 t_done = t_in + s.busy;
      stat.busy += s.busy;
      i64 t_send = std::max(t_done, credit);
      stat.blocked_out += t_send - t_done;
      record(x, t_in, t_done, true);
      record(x, t_done, t_send, false);
      for (int q = 0; q < nout; ++q) {
        ChanState& cs = cs_[static_cast<std::size_t>(outs[q])];
        i64 when = t_send + chip_.send_latency;
        stamp(outs[q], cs.sent) = when;
        ++cs.sent;
        if (cs.cons_waiting) {
          cs.cons_waiting = false;
          int k = ch_[static_cast<std::size_t>(outs[q])].consumer;
          wake(k, std::max(cur_[static_cast<std::size_t>(k)].clock, when));
        }
      }
      stat.tokens_out += nout;
      c.clock = t_send;
      if (u.kind == UnitKind::Store) {
        const Channel& ch = ch_[static_cast<std::size_t>(u.ins[0])];
        c.bytes += ch.elem_bytes;
        bool last = c.i + 1 == ch.count;
        while (c.bytes >= (c.issued + 1) * chip_.hbm_request_bytes || (last && c.bytes > c.issued * chip_.hbm_request_bytes))
          issue_store(x, t_done);
      }
      next(x);
    }
  }

  const std::vector<Unit>& u_;
  const std::vector<Channel>& ch_;
  const ChipProfile& chip_;
  std::vector<Cursor> cur_;
  std::vector<ChanState> cs_;
  std::vector<UnitStats> st_;
  i64 depth_;
  std::vector<i64> base_, stamp_, deq_, cap_;
  std::priority_queue<std::pair<i64, int>, std::vector<std::pair<i64, int>>, std::greater<>> heap_;
  std::vector<int> work_;
  std::vector<char> queued_;
  i64 now_ = 0;
  // Off-chip state.
  std::vector<Load> loads_;
  std::vector<int> load_of_;
  i64 max_requests_ = 0, load_time_ = 0, assigned_until_ = 0;
  std::vector<i64> chan_free_;
  std::uint64_t next_channel_ = 0;
  std::priority_queue<Request, std::vector<Request>, std::greater<>> pending_;
  std::vector<i64> store_done_;
  i64 write_requests_ = 0;
  // Timeline (tl_buckets_ == 0: not recorded).
  int tl_buckets_ = 0;
  i64 tl_width_ = 1;
  std::vector<UnitTimeline> tl_;
};

}  // namespace

TimingResult simulate(const std::vector<Unit>& units, const std::vector<Channel>& channels, const ChipProfile& chip) {
  return Engine(units, channels, chip).run();
}

TimingResult simulate(const std::vector<Unit>& units, const std::vector<Channel>& channels, const ChipProfile& chip,
                      int timeline_buckets) {
  return Engine(units, channels, chip, std::max(timeline_buckets, 0)).run();
}

}  // namespace sf::cost
