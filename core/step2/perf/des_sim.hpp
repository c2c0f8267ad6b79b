// Internals of the STeP-25 event model (des.hpp): the simulator's state, shared by des.cpp (setup, edges,
// the HBM node, the end of the run) and des_nodes.cpp (the per-operator procedures of §7.2). Not an API.
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "core/step2/perf/des.hpp"

namespace sf::step2::perf::detail {

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return b <= 0 ? a : a / b + (a % b != 0); }

// The level of element i of a dense stream with dims `d` (outermost-first): how many innermost dims are at
// their last index, counted while every inner one is, capped at `cap` (§3's token view).
inline int level_at(const std::vector<std::int64_t>& d, std::int64_t i, int cap) {
  int lev = 0;
  for (std::size_t j = d.size(); j-- > 0 && lev < cap;) {
    std::int64_t n = std::max<std::int64_t>(1, d[j]);
    if (i % n != n - 1) break;
    ++lev;
    i /= n;
  }
  return lev;
}

class Sim {
 public:
  Sim(const Graph& g, const Chip& c, const SimOptions& o) : g_(g), chip_(c), opt_(o) {}

  SimResult run() {
    if (!prepare()) return std::move(res_);
    for (int i = 0; i < n_; ++i) schedule(i, 0);
    while (!heap_.empty()) {
      Ev ev = heap_.top();
      heap_.pop();
      if (ev.id == n_) {
        hbm(ev.t);
        continue;
      }
      if (++res_.events > opt_.max_events) {
        res_.status = SimResult::Status::EventLimit;
        res_.message = "more than " + std::to_string(opt_.max_events) + " discrete events";
        break;
      }
      step(ev.id);
    }
    finish();
    return std::move(res_);
  }

 private:
  struct Tok {
    std::int64_t stamp = 0;
    std::int32_t lev = 0;
    bool mem = false, close = false;
  };
  struct Fifo {
    int prod = -1, cons = -1;
    std::int64_t sends = 0, deqs = 0;
    std::int32_t head = 0, count = 0;
  };
  enum class Wait : std::uint8_t { None, In, Out, Mem, Done };
  struct Rt {
    // static
    Op op = Op::UnaryMap;
    std::vector<int> in, out;
    std::vector<std::int64_t> ld;  // per input: ⌈|tile| / pmu_bw⌉ when from memory
    std::int64_t cmp = 0, st = 0, wbst = 0;
    bool wb = false;
    std::int64_t count = 0;  // load: tiles; repeat: n; streamify: tiles per pass; retile: pieces
    std::int64_t passes = 1;
    std::vector<std::int64_t> dims;  // load: the out stream shape; streamify: the buffer shape
    int rank = 0;
    // dynamic
    std::int64_t now = 0;
    int pc = 0;
    Wait wait = Wait::None;
    int wait_fifo = -1;
    std::int64_t i = 0, j = 0, k = 0, s = 0;
    int cur = 0, lev = 0;
    bool mem = false, flag = false;
  };
  struct Burst {
    std::int64_t s = 0, q = 0, p = 1, nb = 0, next = 0, done = 0;
  };
  struct Ev {
    std::int64_t t;
    int id;
    bool operator>(const Ev& o) const { return t != o.t ? t > o.t : id > o.id; }
  };

  const Graph& g_;
  const Chip& chip_;
  const SimOptions& opt_;
  SimResult res_;
  int n_ = 0;
  std::int64_t depth_ = 1;
  std::vector<Rt> rt_;
  std::vector<Fifo> fifo_;
  std::vector<Tok> tok_;              // fifo f: slots [f·(depth+1), (f+1)·(depth+1))
  std::vector<std::int64_t> credit_;  // fifo f: credit time of dequeue j at f·depth + j mod depth
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> heap_;
  // HBM
  std::vector<Burst> burst_;     // per node (memory operators only)
  std::vector<int> prio_;        // per node: loads in program order, then stores
  std::vector<int> active_;      // memory operators with a burst in flight, by prio_
  std::vector<std::int64_t> chan_;
  std::int64_t off_ = 0;
  std::int64_t hbm_sched_ = -1;  // the time of the HBM's live queue entry, -1 for none
  // Timeline: per row (nodes, then HBM channels), the index in res_.timeline of its last interval, so a row's
  // contiguous intervals of one activity merge whatever other rows recorded in between.
  std::vector<std::size_t> last_iv_;

  bool fail(std::string msg);

  bool prepare();

  Tok& head(int f);
  bool closed(int f) { return head(f).close; }

  // Records [b, e) of `a` on timeline row `row` (a node id, or n_ + channel), within SimOptions::max_intervals.
  void span(int row, Activity a, std::int64_t b, std::int64_t e);

  void schedule(int id, std::int64_t t);

  bool peek(int id, int f);

  bool credit(int id, int f);

  void put(int f, const Tok& t);

  void push(int id, int f, std::int64_t stamp, int lev, bool mem);

  void close_outputs(int id);

  void deq(int id, int f);

  void work(int id, std::int64_t cost);

  void done(int id);

  void begin_burst(int id);

  void hbm(std::int64_t t_pop);

  void step(int id);

  std::int64_t ld_sum(Rt& r);


  void load(int id, Rt& r);

  void store(int id, Rt& r);

  void charge(int id, Rt& r, std::int64_t ld, std::int64_t cmp, std::int64_t st);

  void map(int id, Rt& r);

  void accum(int id, Rt& r);

  void broadcast(int id, Rt& r);

  int relevel_of(int id, Rt& r, int l);

  void relevel(int id, Rt& r);

  void expand(int id, Rt& r);

  void repeat(int id, Rt& r);

  void bufferize(int id, Rt& r);

  void streamify(int id, Rt& r);

  void retile(int id, Rt& r);

  void parallelize(int id, Rt& r);

  void reassemble(int id, Rt& r);

  void finish();
};

}  // namespace sf::step2::perf::detail
