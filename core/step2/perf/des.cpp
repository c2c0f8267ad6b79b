// The STeP-25 discrete-event model: setup, the stream edges (peek, credits, send, dequeue, close), the HBM node
// and its channels, the end of the run. The node procedures are in des_nodes.cpp.
#include "core/step2/perf/des.hpp"

#include "core/step2/perf/bytes.hpp"
#include "core/step2/perf/des_sim.hpp"

namespace sf::step2::perf {

namespace detail {

bool Sim::fail(std::string msg) {
  res_.status = SimResult::Status::Invalid;
  res_.message = std::move(msg);
  return false;
}

bool Sim::prepare() {
  n_ = static_cast<int>(g_.nodes.size());
  depth_ = std::max<std::int64_t>(1, chip_.fifo_depth);
  res_.nodes.resize(static_cast<std::size_t>(n_));
  rt_.resize(static_cast<std::size_t>(n_));
  burst_.resize(static_cast<std::size_t>(n_));
  prio_.assign(static_cast<std::size_t>(n_), 0);
  chan_.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, chip_.hbm_channels)), 0);
  res_.channels = static_cast<int>(chan_.size());
  if (opt_.timeline) {
    last_iv_.assign(static_cast<std::size_t>(n_) + chan_.size(), SIZE_MAX);
    res_.timeline.reserve(std::min<std::size_t>(opt_.max_intervals, 65536));  // no copies while recording
  }
  const auto ns = g_.streams.size();
  fifo_.resize(ns);
  tok_.resize(ns * static_cast<std::size_t>(depth_ + 1));
  credit_.resize(ns * static_cast<std::size_t>(depth_));
  for (std::size_t s = 0; s < ns; ++s) {
    fifo_[s].prod = g_.streams[s].producer;
    fifo_[s].cons = g_.streams[s].consumer;
    if (fifo_[s].prod < 0 || fifo_[s].prod >= n_ || fifo_[s].cons < 0 || fifo_[s].cons >= n_)
      return fail("stream " + std::to_string(s) + " has no producer or no consumer");
  }
  const std::int64_t pmu = std::max<std::int64_t>(1, chip_.pmu_bw);
  constexpr std::int64_t kMaxCost = std::int64_t{1} << 36;  // per call; keeps every clock far below 2^62
  int next_prio = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n_; ++i)
      if (g_.nodes[static_cast<std::size_t>(i)].op == (pass == 0 ? Op::OffChipLoad : Op::OffChipStore))
        prio_[static_cast<std::size_t>(i)] = next_prio++;
  for (int i = 0; i < n_; ++i) {
    const Node& nd = g_.nodes[static_cast<std::size_t>(i)];
    Rt& r = rt_[static_cast<std::size_t>(i)];
    r.op = nd.op;
    r.in = nd.inputs;
    r.out = nd.outputs;
    for (int s : r.in)
      if (s < 0 || static_cast<std::size_t>(s) >= ns || fifo_[static_cast<std::size_t>(s)].cons != i)
        return fail("node " + std::to_string(i) + " reads a stream it is not the consumer of");
    for (int s : r.out)
      if (s < 0 || static_cast<std::size_t>(s) >= ns || fifo_[static_cast<std::size_t>(s)].prod != i)
        return fail("node " + std::to_string(i) + " writes a stream it is not the producer of");
    const StreamType* in0 = r.in.empty() ? nullptr : &g_.streams[static_cast<std::size_t>(r.in[0])].type;
    const StreamType* out0 = r.out.empty() ? nullptr : &g_.streams[static_cast<std::size_t>(r.out[0])].type;
    for (int s : r.in) r.ld.push_back(ceil_div(elem_bytes(g_.streams[static_cast<std::size_t>(s)].type.elem), pmu));
    r.wb = nd.kw.write_back_mu != 0;
    r.rank = nd.kw.rank;
    std::size_t want_in = 1, want_out = 1;
    switch (nd.op) {
      case Op::OffChipLoad:
        want_in = 0;
        if (!out0) break;
        r.dims = out0->shape;
        r.rank = out0->rank();
        r.count = stream_elements(*out0);
        burst_[static_cast<std::size_t>(i)].q = requests_per_tile(out0->elem.tile, chip_.hbm_request_bytes);
        burst_[static_cast<std::size_t>(i)].p = std::max(1, nd.kw.par_dispatch);
        break;
      case Op::OffChipStore:
        want_out = 0;
        if (!in0) break;
        burst_[static_cast<std::size_t>(i)].q = requests_per_tile(in0->elem.tile, chip_.hbm_request_bytes);
        burst_[static_cast<std::size_t>(i)].p = std::max(1, nd.kw.par_dispatch);
        break;
      case Op::UnaryMap:
      case Op::BinaryMap:
      case Op::BinaryMapAccum:
      case Op::Accum: {
        want_in = (nd.op == Op::BinaryMap || nd.op == Op::BinaryMapAccum) ? 2 : 1;
        r.cmp = ceil_div(flops_per_call(g_, nd), std::max<std::int64_t>(1, nd.kw.compute_bw));
        std::int64_t ob = out0 ? ceil_div(elem_bytes(out0->elem), pmu) : 0;
        r.st = (nd.op == Op::UnaryMap || nd.op == Op::BinaryMap) && r.wb ? ob : 0;
        r.wbst = r.wb ? ob : 0;
        if (r.rank < 1 && (nd.op == Op::BinaryMapAccum || nd.op == Op::Accum)) r.rank = 1;
        break;
      }
      case Op::Broadcast:
        want_out = nd.outputs.size();
        if (want_out < 1) return fail("a Broadcast without outputs");
        break;
      case Op::RepeatStatic:
        r.count = std::max(1, nd.kw.n);
        break;
      case Op::Streamify:
        if (!in0 || !in0->elem.is_buffer) return fail("Streamify of a stream that is not of Buffers");
        r.dims = in0->elem.buffer_shape;
        r.rank = static_cast<int>(r.dims.size());
        r.count = 1;
        for (auto d : r.dims) r.count = mul_sat(r.count, d);
        r.passes = nd.kw.repeat.empty() ? 1 : std::max<std::int64_t>(1, nd.kw.repeat.front());
        r.flag = !nd.kw.repeat.empty();
        break;
      case Op::RetileStreamify:
        if (in0) r.count = std::max<std::int64_t>(1, nd.kw.split_row ? in0->elem.tile.rows : in0->elem.tile.cols);
        break;
      case Op::ExpandRef:
        want_in = 2;
        r.rank = std::max(1, nd.kw.rank);
        break;
      case Op::Parallelize:
        want_out = nd.outputs.size();
        if (want_out < 1) return fail("a Parallelize without outputs");
        if (in0) r.rank = in0->rank();
        for (std::size_t k = 0; k < want_out; ++k)
          r.ld.push_back(nd.kw.switch_cycles.empty()
                             ? 1
                             : std::max<std::int64_t>(0, nd.kw.switch_cycles[std::min(k, nd.kw.switch_cycles.size() - 1)]));
        break;
      case Op::StaticReassemble:
        want_in = nd.inputs.size();
        if (want_in < 1) return fail("a StaticReassemble without inputs");
        if (in0) r.rank = nd.kw.rank > 0 ? nd.kw.rank : in0->rank();
        break;
      default:
        break;
    }
    if (r.in.size() != want_in || r.out.size() != want_out)
      return fail(std::string(op_name(nd.op)) + " node " + std::to_string(i) + " has " +
                  std::to_string(r.in.size()) + " inputs and " + std::to_string(r.out.size()) + " outputs");
    if (r.cmp > kMaxCost || r.st > kMaxCost || r.count > kMaxCost || r.passes > kMaxCost)
      return fail("a per-token cost beyond 2^36 cycles");
    for (auto x : r.ld)
      if (x > kMaxCost) return fail("a per-token cost beyond 2^36 cycles");
  }
  return true;
}

// ---- edges ----
Sim::Tok& Sim::head(int f) {
  const auto& q = fifo_[static_cast<std::size_t>(f)];
  return tok_[static_cast<std::size_t>(f) * static_cast<std::size_t>(depth_ + 1) + static_cast<std::size_t>(q.head)];
}

void Sim::span(int row, Activity a, std::int64_t b, std::int64_t e) {
  if (!opt_.timeline || e <= b || res_.timeline_truncated) return;
  const auto r = static_cast<std::size_t>(row);
  if (r < last_iv_.size() && last_iv_[r] < res_.timeline.size()) {
    Interval& last = res_.timeline[last_iv_[r]];
    if (last.what == a && last.end == b) {
      last.end = e;
      return;
    }
  }
  if (res_.timeline.size() >= opt_.max_intervals) {
    res_.timeline_truncated = true;
    return;
  }
  if (r < last_iv_.size()) last_iv_[r] = res_.timeline.size();
  res_.timeline.push_back({row, a, b, e});
}

void Sim::schedule(int id, std::int64_t t) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  r.wait = Wait::None;
  heap_.push({std::max(r.now, t), id});
}

// peek: blocks until the head exists, then advances the clock to its stamp.
bool Sim::peek(int id, int f) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  if (fifo_[static_cast<std::size_t>(f)].count == 0) {
    r.wait = Wait::In;
    r.wait_fifo = f;
    return false;
  }
  std::int64_t st = head(f).stamp;
  if (st > r.now) {
    res_.nodes[static_cast<std::size_t>(id)].stall_in += st - r.now;
    span(id, Activity::StallIn, r.now, st);
    r.now = st;
  }
  return true;
}

// A free slot for the next send: the k-th send (k ≥ depth) waits for the credit of dequeue k − depth.
bool Sim::credit(int id, int f) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  Fifo& q = fifo_[static_cast<std::size_t>(f)];
  if (q.sends < depth_) return true;
  std::int64_t need = q.sends - depth_;
  if (q.deqs <= need) {
    r.wait = Wait::Out;
    r.wait_fifo = f;
    return false;
  }
  std::int64_t c = credit_[static_cast<std::size_t>(f) * static_cast<std::size_t>(depth_) +
                           static_cast<std::size_t>(need % depth_)];
  if (c > r.now) {
    res_.nodes[static_cast<std::size_t>(id)].blocked_out += c - r.now;
    span(id, Activity::BlockedOut, r.now, c);
    r.now = c;
  }
  return true;
}

void Sim::put(int f, const Tok& t) {
  Fifo& q = fifo_[static_cast<std::size_t>(f)];
  auto slot = static_cast<std::size_t>((q.head + q.count) % (depth_ + 1));
  tok_[static_cast<std::size_t>(f) * static_cast<std::size_t>(depth_ + 1) + slot] = t;
  ++q.count;
  Rt& c = rt_[static_cast<std::size_t>(q.cons)];
  if (c.wait == Wait::In && c.wait_fifo == f) schedule(q.cons, t.stamp);
}

// send after credit(): stamp = max(stamp, now + 1).
void Sim::push(int id, int f, std::int64_t stamp, int lev, bool mem) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  ++fifo_[static_cast<std::size_t>(f)].sends;
  ++res_.nodes[static_cast<std::size_t>(id)].tokens_out;
  put(f, {std::max(stamp, r.now + 1), lev, mem, false});
}

void Sim::close_outputs(int id) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  for (int f : r.out) put(f, {r.now + 1, 0, false, true});
}

void Sim::deq(int id, int f) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  Fifo& q = fifo_[static_cast<std::size_t>(f)];
  q.head = static_cast<std::int32_t>((q.head + 1) % (depth_ + 1));
  --q.count;
  credit_[static_cast<std::size_t>(f) * static_cast<std::size_t>(depth_) + static_cast<std::size_t>(q.deqs % depth_)] =
      r.now + 1;
  ++q.deqs;
  ++res_.nodes[static_cast<std::size_t>(id)].tokens_in;
  Rt& p = rt_[static_cast<std::size_t>(q.prod)];
  if (p.wait == Wait::Out && p.wait_fifo == f) schedule(q.prod, r.now + 1);
}

void Sim::work(int id, std::int64_t cost) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  res_.nodes[static_cast<std::size_t>(id)].busy += cost;
  span(id, Activity::Busy, r.now, r.now + cost);
  r.now += cost;
}

void Sim::done(int id) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  close_outputs(id);
  r.wait = Wait::Done;
  SimNode& s = res_.nodes[static_cast<std::size_t>(id)];
  s.finished = true;
  s.clock = r.now;
}

// ---- HBM ----
void Sim::begin_burst(int id) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  Burst& b = burst_[static_cast<std::size_t>(id)];
  b.s = r.now;
  b.nb = ceil_div(b.q, b.p);
  b.next = 0;
  b.done = r.now;
  SimNode& sn = res_.nodes[static_cast<std::size_t>(id)];
  if (sn.first_issue < 0) sn.first_issue = r.now + 1;
  sn.requests += b.q;
  res_.requests += b.q;
  r.wait = Wait::Mem;
  if (b.nb == 0) {
    schedule(id, r.now);
    return;
  }
  auto pos = std::find_if(active_.begin(), active_.end(), [&](int o) {
    return prio_[static_cast<std::size_t>(o)] > prio_[static_cast<std::size_t>(id)];
  });
  active_.insert(pos, id);
  if (hbm_sched_ < 0 || hbm_sched_ > b.s + 1) {
    hbm_sched_ = b.s + 1;
    heap_.push({hbm_sched_, n_});
  }
}

// Runs the HBM node's cycles while no other context can still make a bundle visible at them.
void Sim::hbm(std::int64_t t_pop) {
  if (t_pop != hbm_sched_) return;  // a superseded queue entry
  hbm_sched_ = -1;
  const std::int64_t C = static_cast<std::int64_t>(chan_.size());
  const std::int64_t lat = chip_.hbm_startup + chip_.hbm_latency, iv = chip_.hbm_interval;
  while (!active_.empty()) {
    std::int64_t due = INT64_MAX;
    for (int o : active_) {
      const Burst& b = burst_[static_cast<std::size_t>(o)];
      due = std::min(due, b.s + 1 + b.next);
    }
    if (!heap_.empty() && due > heap_.top().t) {
      hbm_sched_ = due;
      heap_.push({due, n_});
      return;
    }
    ++res_.events;
    const std::int64_t t = due, arrive = t + 1;
    std::int64_t k = 0, km = 0;  // request index within the cycle, and k mod C
    bool finished_any = false;
    for (int o : active_) {
      Burst& b = burst_[static_cast<std::size_t>(o)];
      if (b.s + 1 + b.next != t) continue;
      std::int64_t size = std::min(b.p, b.q - b.next * b.p);
      for (std::int64_t x = 0; x < size; ++x) {
        off_ += km;  // off ← (off + k) mod C
        if (off_ >= C) off_ -= C;
        std::int64_t& ch = chan_[static_cast<std::size_t>(off_)];
        std::int64_t st = std::max(ch, arrive);
        ch = st + iv;
        span(n_ + static_cast<int>(off_), Activity::Busy, st, ch);  // the channel takes this request
        b.done = std::max(b.done, st + lat + 1);  // routed at st + lat, seen by the operator one cycle later
        ++k;
        if (++km == C) km = 0;
      }
      if (++b.next == b.nb) {
        finished_any = true;
        SimNode& sn = res_.nodes[static_cast<std::size_t>(o)];
        sn.last_response = std::max(sn.last_response, b.done);
        Rt& r = rt_[static_cast<std::size_t>(o)];
        r.now = std::max(r.now, b.done);
        schedule(o, b.done);
      }
    }
    off_ = (off_ + k % C) % C;
    if (finished_any)
      active_.erase(std::remove_if(active_.begin(), active_.end(),
                                   [&](int o) {
                                     const Burst& b = burst_[static_cast<std::size_t>(o)];
                                     return b.next == b.nb;
                                   }),
                    active_.end());
  }
}

void Sim::finish() {
  std::int64_t last = 0, hbm_end = 0;
  for (int i = 0; i < n_; ++i) {
    SimNode& s = res_.nodes[static_cast<std::size_t>(i)];
    const Rt& r = rt_[static_cast<std::size_t>(i)];
    s.clock = r.now;
    last = std::max(last, r.now);
    if (!s.finished) res_.stuck.push_back(i);
    if (is_memory(r.op)) hbm_end = std::max(hbm_end, r.now);
  }
  // The HBM node stops in the cycle the last memory operator ends and closes every channel (stamp + 1).
  res_.hbm_clock = hbm_end;
  last = std::max(last, hbm_end + 1);
  for (auto c : chan_) last = std::max(last, c);
  res_.last_clock = last;
  res_.cycles = last + chip_.tail;
  if (res_.status == SimResult::Status::Ok && !res_.stuck.empty()) {
    res_.status = SimResult::Status::Deadlock;
    std::string names;
    for (std::size_t k = 0; k < res_.stuck.size() && k < 8; ++k)
      names += std::string(k ? ", " : "") + op_name(g_.nodes[static_cast<std::size_t>(res_.stuck[k])].op) + " #" +
               std::to_string(res_.stuck[k]);
    res_.message = std::to_string(res_.stuck.size()) + " node(s) never finish (" + names +
                   "): every FIFO holds only fifo_depth elements, and a fan-out whose branches are consumed at "
                   "different rates waits forever";
  }
}

}  // namespace detail

SimResult simulate(const Graph& g, const Chip& chip, const SimOptions& opt) { return detail::Sim(g, chip, opt).run(); }

}  // namespace sf::step2::perf
