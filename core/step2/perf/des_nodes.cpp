// The per-operator procedures of the STeP-25 event model (§7.2 of the design; docs/cost-model.md). Each node is a
// protothread: `pc` is the line it resumes at, every blocking point (peek on an empty edge, a send without
// credit, a burst of HBM requests in flight) saves it and returns; the event that unblocks the node puts it
// back in the queue.
#include "core/step2/perf/bytes.hpp"
#include "core/step2/perf/des_sim.hpp"

namespace sf::step2::perf::detail {

// Resume points: SF_AWAIT(cond) returns from the node's step when cond is false and re-tests it on resume.
#define SF_PT_BEGIN(r) switch ((r).pc) { case 0:
#define SF_PT_END(r) default: break; }
#define SF_SUSPEND(r) \
  (r).pc = __LINE__;   \
  return;              \
  case __LINE__:
#define SF_AWAIT(r, cond) \
  (r).pc = __LINE__;      \
  [[fallthrough]];        \
  case __LINE__:          \
    if (!(cond)) return

// ---- node procedures (§7.2) ----
void Sim::step(int id) {
  Rt& r = rt_[static_cast<std::size_t>(id)];
  switch (r.op) {
    case Op::OffChipLoad: return load(id, r);
    case Op::OffChipStore: return store(id, r);
    case Op::UnaryMap:
    case Op::BinaryMap: return map(id, r);
    case Op::BinaryMapAccum:
    case Op::Accum: return accum(id, r);
    case Op::Broadcast: return broadcast(id, r);
    case Op::Reshape:
    case Op::Flatten:
    case Op::Promote: return relevel(id, r);
    case Op::ExpandRef: return expand(id, r);
    case Op::RepeatStatic: return repeat(id, r);
    case Op::Bufferize: return bufferize(id, r);
    case Op::Streamify: return streamify(id, r);
    case Op::RetileStreamify: return retile(id, r);
    case Op::Parallelize: return parallelize(id, r);
    case Op::StaticReassemble: return reassemble(id, r);
  }
}

std::int64_t Sim::ld_sum(Rt& r) {
  std::int64_t s = 0;
  for (std::size_t k = 0; k < r.in.size(); ++k)
    if (head(r.in[k]).mem) s += r.ld[k];
  return s;
}

  // Peeks every input (the clock moves to the latest close marker), closes the outputs, finishes.
#define SF_FINISH(id, r)                                          \
  for ((r).k = 0; (r).k < static_cast<std::int64_t>((r).in.size()); ++(r).k) { \
    SF_AWAIT(r, peek(id, (r).in[static_cast<std::size_t>((r).k)]));           \
  }                                                               \
  done(id);                                                       \
  return

void Sim::load(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (r.i = 0; r.i < r.count; ++r.i) {
    r.s = r.now;
    begin_burst(id);
    SF_SUSPEND(r);
    res_.nodes[static_cast<std::size_t>(id)].busy += r.now - r.s;
    span(id, Activity::Busy, r.s, r.now);
    SF_AWAIT(r, credit(id, r.out[0]));
    push(id, r.out[0], r.now + 1, level_at(r.dims, r.i, r.rank), true);
  }
  done(id);
  return;
  SF_PT_END(r);
}

void Sim::store(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.s = r.now;
    begin_burst(id);
    SF_SUSPEND(r);
    res_.nodes[static_cast<std::size_t>(id)].busy += r.now - r.s;
    span(id, Activity::Busy, r.s, r.now);
    deq(id, r.in[0]);
  }
  done(id);
  return;
  SF_PT_END(r);
}

void Sim::charge(int id, Rt& r, std::int64_t ld, std::int64_t cmp, std::int64_t st) {
  SimNode& s = res_.nodes[static_cast<std::size_t>(id)];
  s.ld += ld;
  s.cmp += cmp;
  s.st += st;
  work(id, std::max({ld, cmp, st}));
  (void)r;
}

// UnaryMap / BinaryMap: peek; now += max(Σld, cmp, st); send; dequeue.
void Sim::map(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    for (r.k = 0; r.k < static_cast<std::int64_t>(r.in.size()); ++r.k) {
      SF_AWAIT(r, peek(id, r.in[static_cast<std::size_t>(r.k)]));
    }
    if (closed(r.in[0]) || closed(r.in.back())) break;
    charge(id, r, ld_sum(r), r.cmp, r.st);
    SF_AWAIT(r, credit(id, r.out[0]));
    push(id, r.out[0], r.now + 1, head(r.in[0]).lev, r.wb);
    for (int f : r.in) deq(id, f);
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// BinaryMapAccum / Accum: not closing: now += max(Σld, cmp), dequeue; closing (lev ≥ rank):
// now += max(Σld, cmp, wb·⌈|acc|/pmu_bw⌉), dequeue, then send acc with lev − rank.
void Sim::accum(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    for (r.k = 0; r.k < static_cast<std::int64_t>(r.in.size()); ++r.k) {
      SF_AWAIT(r, peek(id, r.in[static_cast<std::size_t>(r.k)]));
    }
    if (closed(r.in[0]) || closed(r.in.back())) break;
    r.lev = head(r.in[0]).lev;
    r.flag = r.lev >= r.rank;
    charge(id, r, ld_sum(r), r.cmp, r.flag ? r.wbst : 0);
    for (int f : r.in) deq(id, f);
    if (r.flag) {
      SF_AWAIT(r, credit(id, r.out[0]));
      push(id, r.out[0], r.now + 1, r.lev - r.rank, r.wb);
    }
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// Broadcast: dequeue x; wait for a free slot on every output; send to all with stamp now (+1).
void Sim::broadcast(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    deq(id, r.in[0]);
    for (r.k = 0; r.k < static_cast<std::int64_t>(r.out.size()); ++r.k) {
      SF_AWAIT(r, credit(id, r.out[static_cast<std::size_t>(r.k)]));
    }
    for (int f : r.out) push(id, f, r.now, r.lev, r.mem);
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

int Sim::relevel_of(int id, Rt& r, int l) {
  const Node& nd = g_.nodes[static_cast<std::size_t>(id)];
  switch (r.op) {
    case Op::Promote:
      return nd.kw.rank == 0 || l >= nd.kw.rank ? l + 1 : l;
    case Op::Flatten:
      if (l <= nd.kw.min) return l;
      if (l <= nd.kw.max) return nd.kw.min;
      return l - (nd.kw.max - nd.kw.min);
    case Op::Reshape: {
      const std::int64_t c = std::max<std::int64_t>(1, nd.kw.chunk);
      if (nd.kw.rank == 0 || l >= nd.kw.rank) {
        if (++r.j == c) {
          r.j = 0;
          return l + 1;
        }
      }
      return l;
    }
    default:
      return l;
  }
}

// Reshape, Flatten, Promote: dequeue; send (0 cycles).
void Sim::relevel(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = relevel_of(id, r, head(r.in[0]).lev);
    r.mem = head(r.in[0]).mem;
    deq(id, r.in[0]);
    SF_AWAIT(r, credit(id, r.out[0]));
    push(id, r.out[0], r.now + 1, r.lev, r.mem);
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// ExpandRef (x, ref): x is held while ref elements pass with x's tile; a ref element with l ≥ e moves on.
void Sim::expand(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.mem = head(r.in[0]).mem;
    for (;;) {
      SF_AWAIT(r, peek(id, r.in[1]));
      r.flag = closed(r.in[1]);
      if (r.flag) break;
      r.lev = head(r.in[1]).lev;
      deq(id, r.in[1]);
      SF_AWAIT(r, credit(id, r.out[0]));
      push(id, r.out[0], r.now + 1, r.lev, r.mem);
      if (r.lev >= r.rank) {
        deq(id, r.in[0]);
        break;
      }
    }
    if (r.flag) break;
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// RepeatStatic: dequeue x at t; copies at t, t+1, …; the last gets l + 1.
void Sim::repeat(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    deq(id, r.in[0]);
    for (r.i = 0; r.i < r.count; ++r.i) {
      if (r.i > 0) work(id, 1);
      SF_AWAIT(r, credit(id, r.out[0]));
      push(id, r.out[0], r.now + 1, r.i + 1 < r.count ? 0 : r.lev + 1, r.mem);
    }
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// Bufferize: 1 cycle per consumed tile; the buffer is sent after its closing tile with l − b.
void Sim::bufferize(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    work(id, 1);
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    deq(id, r.in[0]);
    if (r.lev >= r.rank) {
      SF_AWAIT(r, credit(id, r.out[0]));
      push(id, r.out[0], r.now + 1, r.lev - r.rank, r.mem);
    }
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// Streamify: per emitted tile send (stamp now+1), now += 1; the buffer is dequeued at the end.
void Sim::streamify(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    for (r.i = 0; r.i < r.passes; ++r.i) {
      for (r.j = 0; r.j < r.count; ++r.j) {
        SF_AWAIT(r, credit(id, r.out[0]));
        {
          int lv = level_at(r.dims, r.j, r.rank);
          if (r.j + 1 == r.count)
            lv = !r.flag ? r.rank + r.lev : (r.i + 1 < r.passes ? r.rank : r.rank + 1 + r.lev);
          push(id, r.out[0], r.now + 1, lv, r.mem);
        }
        work(id, 1);
      }
    }
    deq(id, r.in[0]);
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// RetileStreamify: one piece per row (column), 1 cycle each; the last piece carries the level.
void Sim::retile(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    for (r.i = 0; r.i < r.count; ++r.i) {
      SF_AWAIT(r, credit(id, r.out[0]));
      push(id, r.out[0], r.now + 1, r.i + 1 == r.count ? r.lev : 0, r.mem);
      work(id, 1);
    }
    deq(id, r.in[0]);
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// Parallelize: top-level chunks round-robin; 0 cycles; the stamp of output i is now + switch[i].
void Sim::parallelize(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[0]));
    if (closed(r.in[0])) break;
    r.lev = head(r.in[0]).lev;
    r.mem = head(r.in[0]).mem;
    deq(id, r.in[0]);
    SF_AWAIT(r, credit(id, r.out[static_cast<std::size_t>(r.cur)]));
    push(id, r.out[static_cast<std::size_t>(r.cur)], r.now + r.ld[r.in.size() + static_cast<std::size_t>(r.cur)],
         r.lev, r.mem);
    if (r.lev >= r.rank) r.cur = (r.cur + 1) % static_cast<int>(r.out.size());
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

// StaticReassemble: chunk k from input k mod n; 0 cycles.
void Sim::reassemble(int id, Rt& r) {
  SF_PT_BEGIN(r);
  for (;;) {
    SF_AWAIT(r, peek(id, r.in[static_cast<std::size_t>(r.cur)]));
    if (closed(r.in[static_cast<std::size_t>(r.cur)])) break;
    r.lev = head(r.in[static_cast<std::size_t>(r.cur)]).lev;
    r.mem = head(r.in[static_cast<std::size_t>(r.cur)]).mem;
    deq(id, r.in[static_cast<std::size_t>(r.cur)]);
    SF_AWAIT(r, credit(id, r.out[0]));
    push(id, r.out[0], r.now + 1, r.lev, r.mem);
    if (r.lev >= r.rank) r.cur = (r.cur + 1) % static_cast<int>(r.in.size());
  }
  SF_FINISH(id, r);
  SF_PT_END(r);
}

#undef SF_FINISH
#undef SF_AWAIT
#undef SF_SUSPEND
#undef SF_PT_END
#undef SF_PT_BEGIN

}  // namespace sf::step2::perf::detail
