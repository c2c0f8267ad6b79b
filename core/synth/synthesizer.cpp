#include "core/synth/synthesizer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <unordered_set>

#include "core/sim/compare.hpp"
#include "core/sim/datagen.hpp"
#include "core/step/copy_insert.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/synth/op.hpp"

namespace sf::synth {

using step::Prim;
using step::StreamType;
using Clock = std::chrono::steady_clock;

namespace {

struct Node {
  Op op;                  // prim Identity + empty args: a task input
  std::string input;      // task input name
  std::vector<int> args;  // node ids
  StreamType type;
  sim::StreamValue value;
  int cost = 0, depth = 0;
  std::uint64_t mask = 0;  // task inputs used
};

constexpr std::size_t kMaxMacros = 16;
// Temperature spread: cost levels per unit of temperature in the pick's weights (an op costs 2-5 levels,
// so at temperature 1 a program one statement longer is about e^-1 as likely as the cheapest one).
constexpr double kSpreadCostScale = 3.0;
constexpr std::int64_t kSpreadMinEvaluations = 4000;
constexpr double kDefaultWallLimitS = 60.0;  // safety net when there is no CPU limit

struct WeightedOp {
  Op op;
  int cost = 1;
};

struct Macro {
  const Fragment* frag = nullptr;
  bool relative = false;
  int cost = 1;
};

// A memory pattern (retrieved experience or resident rule) as a macro: the chain of primitives with every
// parameter taken from the search's own candidate sets (the unary ops of that primitive).
struct PatternMacro {
  std::vector<Prim> prims;
  int cost = 1;
};

// CPU time of the calling thread: the per-sample limit does not shrink when other processes share the cores.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The sizes candidates are evaluated under: about half of each size above 4 (parity kept, values kept
// distinct), so that a candidate costs a fraction of the main sizes' work. Matches are confirmed by the
// verifier under the task's own sizes.
step::SizeBinding search_sizes(const step::SizeBinding& sizes) {
  step::SizeBinding out;
  std::set<std::int64_t> taken;
  for (const auto& [name, v] : sizes) {
    if (v <= 4) taken.insert(v);
  }
  for (const auto& [name, v] : sizes) {
    std::int64_t w = v;
    if (v > 4) {
      w = std::max<std::int64_t>(3, (v + 1) / 2);
      if ((w % 2) != (v % 2)) ++w;
      while (taken.contains(w) && w + 2 < v) w += 2;
    }
    taken.insert(w);
    out[name] = w;
  }
  return out;
}

std::uint64_t hash_value(const StreamType& t, const sim::StreamValue& v) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  auto mix = [&h](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ULL;
  };
  std::string ts = t.dtype.str() + step::dims_str(t.dims);
  mix(ts.data(), ts.size());
  for (const auto& f : v.fields) mix(f.data.data(), f.data.size() * sizeof(float));
  return h;
}

class Search {
 public:
  Search(verify::Verifier& ver, cost::CostModel& model, const step::TaskDoc& task, const Guidance& g,
         const SynthOptions& opt)
      : ver_(ver),
        model_(model),
        task_(task),
        g_(g),
        opt_(opt),
        rng_(opt.seed * 0x9E3779B97F4A7C15ULL + 1),
        spread_(!opt.optimise && opt.temperature > 0),
        avoid_(opt.avoid_keys.begin(), opt.avoid_keys.end()) {}
  PerfKey best_key() const { return best_key_; }
  int correct_programs() const { return correct_; }

  SynthResult run();

 private:
  int weight(int base, const std::string& prim, const std::string& param_key = "") {
    double w = base;
    if (g_.statements > 0) {
      auto it = g_.prim_counts.find(prim);
      double share = it == g_.prim_counts.end() ? 0.0 : double(it->second) / g_.statements;
      w -= std::round(3.0 * share);
      if (!param_key.empty()) {
        auto pit = g_.param_counts.find(param_key);
        if (pit != g_.param_counts.end() && it != g_.prim_counts.end() && 2 * pit->second >= it->second)
          w -= 1;
      }
    }
    if (!prim.empty() && pattern_prims_.contains(prim)) w -= 1;  // memory patterns steer toward their prims
    if (opt_.temperature > 0) {
      double u = std::uniform_real_distribution<double>(1e-12, 1.0)(rng_);
      w += opt_.temperature * -std::log(-std::log(u));  // Gumbel(0, 1) noise
    }
    return std::max(1, static_cast<int>(std::lround(w)));
  }
  void build_ops();
  bool budget_left() {
    if (timed_out_ || stats_.candidates >= opt_.max_evaluations) return false;
    if (result_.found) {  // optimising or spreading: only evaluation counts (and the wall safety net) end it now
      if (spread_) {
        if (static_cast<int>(spread_found_.size()) >= spread_pool(opt_.temperature) ||
            stats_.candidates >= found_at_ + spread_evaluations(opt_.temperature, found_at_))
          return false;
      } else if (!opt_.optimise) {
        return false;
      } else if (opt_.optimise_evaluations >= 0 && stats_.candidates >= found_at_ + opt_.optimise_evaluations) {
        return false;
      }
    }
    if ((stats_.candidates & 15) == 0) {
      if (Clock::now() >= deadline_) {
        timed_out_ = wall_timed_out_ = true;  // the safety net: reported, never a silent difference
      } else if (!result_.found && opt_.time_limit_s > 0 && thread_cpu_seconds() >= cpu_deadline_) {
        timed_out_ = true;
      }
    }
    return !timed_out_;
  }
  bool wall_timed_out() const { return wall_timed_out_; }
  // Stop at the first correct program (neither optimising nor spreading).
  bool stop_at_first() const { return !opt_.optimise && !spread_; }
  // Temperature spread: the pick among the correct programs collected (deterministic for the seed).
  void pick_spread();
  // Types, evaluates and keeps one application; returns the node id or -1. hidden: not added to the pool.
  int try_apply(const Op& op, const std::vector<int>& args, int cost, bool hidden = false);
  void check_outputs(int id);
  // Goal-directed completion: the one- and two-step chains (Streamify, Map of a stateless fn, and both
  // orders) from a new value whose typed result is exactly an output's type are evaluated at no cost.
  void finish_toward_outputs(int id);
  bool is_output_type(const StreamType& t) const;
  // Shape plausibility (a search heuristic): no size symbol twice among a value's dims and buffer dims
  // (unless an input or output has that), and at most one dim more than the largest input or output.
  bool plausible(const StreamType& t) const;
  static int total_dims(const StreamType& t, bool& dup);
  int max_dims_ = 0;
  bool allow_dups_ = false;
  bool finishing_ = false;
  bool try_finish();
  std::string emit(const std::vector<int>& outs);  // with Copies; the Copy-free text goes to last_raw_
  std::string last_raw_;
  void apply_macro(const Macro& m, int v, int cost);
  void apply_pattern(const PatternMacro& m, int v, int cost);
  std::vector<PatternMacro> pmacros_;
  std::set<std::string> pattern_prims_;

  verify::Verifier& ver_;
  cost::CostModel& model_;
  PerfKey best_key_;
  std::int64_t found_at_ = 0;
  int correct_ = 0;
  std::size_t match_cap_ = 4;
  const step::TaskDoc& task_;
  const Guidance& g_;
  SynthOptions opt_;
  std::mt19937_64 rng_;
  std::shared_ptr<const verify::Verifier::Prepared> prep_;
  std::map<std::string, std::unique_ptr<sim::ElementFn>> fns_;
  std::vector<Node> nodes_;
  std::vector<std::vector<int>> by_cost_;
  std::unordered_set<std::uint64_t> seen_;
  std::vector<WeightedOp> unary_, multi_, composite_;
  void build_composites();
  // Calls f(args) for every list of kept nodes (at most max_parts) whose fields concatenate to `want`
  // from field `pos` on and whose costs sum to `cost`.
  void field_combos(const std::vector<step::ScalarType>& want, std::size_t pos, int cost, int max_parts,
                    std::vector<int>& cur, const std::function<void(const std::vector<int>&)>& f);
  void enumerate_composites(int c);
  std::vector<Macro> macros_;
  std::vector<std::vector<int>> matches_;  // per output
  std::set<std::string> tried_;
  std::uint64_t all_inputs_ = 0;
  std::int64_t pool_scalars_ = 0;
  sim::Budget budget_;
  Clock::time_point deadline_;  // wall-clock safety cap (10 x the limit + 1 s)
  double cpu_deadline_ = 0;     // thread CPU seconds: the per-sample limit
  bool timed_out_ = false;
  bool wall_timed_out_ = false;
  SynthStats stats_;
  SynthResult result_;
  struct SpreadFound {
    std::string impl, raw;
    int cost = 0;  // the summed cost levels of the output values (the enumeration's own score)
  };
  const bool spread_;
  std::vector<SpreadFound> spread_found_;
  std::set<std::string> avoid_;
  bool avoided(const std::string& impl);
};

void Search::build_ops() {
  std::vector<std::vector<Prim>> patterns;
  auto add_pattern = [&](const std::string& text) {
    auto p = parse_pattern(text);
    if (!p || std::find(patterns.begin(), patterns.end(), *p) != patterns.end()) return;
    patterns.push_back(*p);
    for (Prim q : *p) pattern_prims_.insert(std::string(step::prim_name(q)));
  };
  // The order the proposer was given: resident rules first, then the retrieved experiences by rank.
  for (const auto& r : g_.rule_patterns) add_pattern(r);
  for (const auto& m : g_.memory) add_pattern(m.pattern);
  std::vector<step::Dim> syms;
  for (const auto& [name, v] : task_.sizes) syms.push_back(step::Dim::symbol(name));
  for (int a = 1; a <= 3; ++a) {
    Op op{Prim::Bufferize, nullptr, a, {}, {}};
    unary_.push_back({op, weight(2 + (a - 1), "Bufferize", op.key())});
  }
  unary_.push_back({Op{Prim::Streamify, nullptr, 0, {}, {}}, weight(2, "Streamify")});
  for (int b = 0; b <= 3; ++b) {
    Op op{Prim::Promote, nullptr, b, {}, {}};
    unary_.push_back({op, weight(3 + (b > 1 ? 1 : 0), "Promote", op.key())});
  }
  for (const auto& s : syms) unary_.push_back({Op{Prim::Repeat, nullptr, 0, s, {}}, weight(3, "Repeat")});
  for (int lo = 1; lo <= 3; ++lo) {
    for (int hi = lo; hi <= lo + 1 && hi <= 3; ++hi) {
      std::vector<int> L;
      for (int i = lo; i <= hi; ++i) L.push_back(i);
      unary_.push_back({Op{Prim::Flatten, nullptr, 0, {}, L}, weight(3 + (hi - lo), "Flatten")});
    }
  }
  for (int j = 0; j <= 1; ++j) {
    for (std::int64_t c : {2, 4}) {
      unary_.push_back({Op{Prim::Reshape, nullptr, 0, step::Dim::constant(c), {j}}, weight(5, "Reshape")});
    }
  }
  for (const auto& f : task_.fns) {
    bool tuple_in = f.input.is_tuple();
    if (!f.stateful()) {
      Op op{Prim::Map, &f, 0, {}, {}};
      unary_.push_back({op, weight(2, "Map")});
      if (tuple_in) multi_.push_back({op, weight(3, "Map")});
    } else {
      for (int b = 1; b <= 3; ++b) {
        for (Prim p : {Prim::Accum, Prim::Scan}) {
          Op op{p, &f, b, {}, {}};
          std::string pn(step::prim_name(p));
          int base = (p == Prim::Accum ? 3 : 4) + (b - 1);
          unary_.push_back({op, weight(base, pn, pn + "(b=" + std::to_string(b) + ")")});
          if (tuple_in) multi_.push_back({op, weight(base + 1, pn)});
        }
      }
    }
  }
  build_composites();
  std::size_t nfrag = 0;
  for (const auto& f : g_.fragments) {
    if (++nfrag > kMaxMacros) break;  // the most frequent ones (fragments are sorted)
    int c = std::max(2, static_cast<int>(f.steps.size()) - (f.count > 1 ? 1 : 0));
    macros_.push_back({&f, false, weight(c, "")});
    macros_.push_back({&f, true, weight(c, "")});
  }
  // The budget is spent in that order: the i-th pattern macro costs i more, so the first one is tried first
  // at every cost level (pattern macros go before the ordinary ops) and from the most levels (the largest
  // share of the evaluations); a low-ranked pattern is reached only when the ones before it did not solve it.
  for (auto& p : patterns) {
    if (p.size() < 2) continue;  // a single primitive is steered by its weight bonus only
    int c = std::max(2, static_cast<int>(p.size()) - 1) + static_cast<int>(pmacros_.size());
    pmacros_.push_back({std::move(p), weight(c, "")});
  }
}

void Search::build_composites() {
  // lane counts of the Multihot values the task can have (inputs and fn outputs)
  std::set<std::int64_t> lanes;
  auto note = [&](const step::DType& t) {
    for (const auto& f : t.fields) {
      if (!f.multihot) continue;
      if (auto v = f.lanes.eval(task_.sizes)) lanes.insert(*v);
    }
  };
  for (const auto& in : task_.inputs) note(in.dtype);
  for (const auto& f : task_.fns) note(f.output);
  if (lanes.empty()) return;
  // stateless fns grouped by signature; a group of >= 2 is an expert family
  std::vector<std::vector<const step::FnDecl*>> groups;
  for (const auto& f : task_.fns) {
    if (f.stateful()) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g[0]->input == f.input && g[0]->output == f.output; });
    if (it == groups.end()) {
      groups.push_back({&f});
    } else {
      it->push_back(&f);
    }
  }
  for (const auto& g : groups) {
    if (g.size() < 2 || g.size() > 5) continue;
    for (std::int64_t n : lanes) {
      if (n < 2 || n > static_cast<std::int64_t>(g.size())) continue;
      // ordered selections of n distinct experts, in declaration order first
      std::vector<std::vector<const step::FnDecl*>> lists;
      std::vector<const step::FnDecl*> cur;
      std::vector<bool> used(g.size(), false);
      std::function<void()> pick = [&] {
        if (static_cast<std::int64_t>(cur.size()) == n) {
          lists.push_back(cur);
          return;
        }
        for (std::size_t i = 0; i < g.size(); ++i) {
          if (used[i]) continue;
          used[i] = true;
          cur.push_back(g[i]);
          pick();
          cur.pop_back();
          used[i] = false;
        }
      };
      pick();
      for (const auto& merge : task_.fns) {
        if (!merge.stateful() || !(merge.input == g[0]->output)) continue;
        for (std::size_t k = 0; k < lists.size(); ++k) {
          Op op{Prim::Merge, &merge, 0, {}, {}};
          op.experts = lists[k];
          // the declaration order is the most natural expert list; other orders cost one more
          composite_.push_back({op, weight(k == 0 ? 3 : 4, "Merge")});
        }
      }
    }
  }
}

void Search::field_combos(const std::vector<step::ScalarType>& want, std::size_t pos, int cost, int max_parts,
                          std::vector<int>& cur, const std::function<void(const std::vector<int>&)>& f) {
  if (pos == want.size()) {
    if (cost == 0) f(cur);
    return;
  }
  if (max_parts == 0 || cost < 1) return;
  for (int c1 = 1; c1 <= cost && budget_left(); ++c1) {
    for (int a : by_cost_[static_cast<std::size_t>(c1)]) {
      const auto& fa = nodes_[static_cast<std::size_t>(a)].type.dtype.fields;
      if (pos + fa.size() > want.size() ||
          !std::equal(fa.begin(), fa.end(), want.begin() + static_cast<std::ptrdiff_t>(pos)))
        continue;
      cur.push_back(a);
      field_combos(want, pos + fa.size(), cost - c1, max_parts - 1, cur, f);
      cur.pop_back();
      if (!budget_left()) return;
    }
  }
}

void Search::enumerate_composites(int c) {
  for (const auto& w : composite_) {
    int rest = c - w.cost;
    const auto& want = w.op.experts[0]->input.fields;
    for (int cs = 1; cs < rest && budget_left(); ++cs) {
      for (int sel : by_cost_[static_cast<std::size_t>(cs)]) {
        const auto& st = nodes_[static_cast<std::size_t>(sel)].type.dtype;
        if (st.is_tuple() || !st.scalar().multihot || st.scalar().is_buffer()) continue;
        std::vector<int> cur;
        field_combos(want, 0, rest - cs, 2, cur, [&](const std::vector<int>& data) {
          std::vector<int> args = data;
          args.push_back(sel);
          try_apply(w.op, args, c);
        });
        if (!budget_left()) return;
      }
    }
  }
}

int Search::try_apply(const Op& op, const std::vector<int>& args, int cost, bool hidden) {
  std::vector<const StreamType*> ts;
  for (int a : args) ts.push_back(&nodes_[static_cast<std::size_t>(a)].type);
  auto t = apply_type(op, ts);
  if (!t) {
    ++stats_.type_rejected;
    return -1;
  }
  if (!plausible(*t)) {
    ++stats_.type_rejected;
    return -1;
  }
  // bound the size before evaluating
  std::int64_t pos = 1;
  for (const auto& d : t->dims) {
    auto v = d.eval(prep_->inputs.sizes);
    if (!v) return -1;
    pos = sim::sat_mul(pos, *v);
  }
  auto es = step::element_scalars(t->dtype, prep_->inputs.sizes);
  if (!es || sim::sat_mul(pos, *es) > opt_.max_value_scalars) return -1;
  if (!budget_left()) return -1;
  ++stats_.candidates;
  std::vector<const sim::StreamValue*> vs;
  for (int a : args) vs.push_back(&nodes_[static_cast<std::size_t>(a)].value);
  sim::ElementFn* fn = op.fn ? fns_.at(op.fn->func_name).get() : nullptr;
  std::vector<sim::ElementFn*> efs;
  for (const auto* e : op.experts) efs.push_back(fns_.at(e->func_name).get());
  budget_.used_total = 0;
  auto val = apply_value(op, vs, *t, prep_->inputs.sizes, fn, budget_, efs);
  if (!val) return -1;
  std::uint64_t h = hash_value(*t, *val);
  bool alternative = false;  // optimising: another program for a value of an output's type
  if (!hidden) {
    if (!seen_.insert(h).second) {
      ++stats_.pruned;
      if (stop_at_first() || !is_output_type(*t)) return -1;
      alternative = true;
      hidden = true;
    }
    if (pool_scalars_ + val->scalars() > opt_.max_pool_scalars) return -1;
  }
  pool_scalars_ += val->scalars();
  Node n;
  n.op = op;
  n.args = args;
  n.type = std::move(*t);
  n.value = std::move(*val);
  n.cost = cost;
  for (int a : args) {
    n.depth = std::max(n.depth, nodes_[static_cast<std::size_t>(a)].depth + 1);
    n.mask |= nodes_[static_cast<std::size_t>(a)].mask;
  }
  stats_.depth = std::max(stats_.depth, n.depth);
  nodes_.push_back(std::move(n));
  int id = static_cast<int>(nodes_.size()) - 1;
  if (alternative) {
    check_outputs(id);
    return -1;
  }
  if (!hidden) {
    by_cost_[static_cast<std::size_t>(cost)].push_back(id);
    check_outputs(id);
    if (!finishing_) finish_toward_outputs(id);
  }
  return id;
}

int Search::total_dims(const StreamType& t, bool& dup) {
  // per field: the stream dims and that field's buffer dims (two Buffer fields over the same D are fine)
  auto check = [&](const step::Dims& buffer) {
    std::vector<std::string> seen;
    auto add = [&](const step::Dim& d) {
      if (!d.is_symbol()) return;
      std::string k = d.str();
      if (std::find(seen.begin(), seen.end(), k) != seen.end()) dup = true;
      seen.push_back(k);
    };
    for (const auto& d : t.dims) add(d);
    for (const auto& d : buffer) add(d);
  };
  int n = static_cast<int>(t.dims.size());
  if (t.dtype.fields.empty()) check({});
  for (const auto& f : t.dtype.fields) {
    check(f.buffer);
    n = std::max(n, static_cast<int>(t.dims.size() + f.buffer.size()));
  }
  return n;
}

bool Search::plausible(const StreamType& t) const {
  bool dup = false;
  int n = total_dims(t, dup);
  return n <= max_dims_ + 1 && (!dup || allow_dups_);
}

bool Search::is_output_type(const StreamType& t) const {
  for (const auto& o : task_.outputs) {
    if (t.dtype == o.dtype && t.dims == o.dims) return true;
  }
  return false;
}

void Search::finish_toward_outputs(int id) {
  finishing_ = true;
  std::vector<Op> steps{Op{Prim::Streamify, nullptr, 0, {}, {}}};
  for (const auto& f : task_.fns) {
    if (!f.stateful()) steps.push_back(Op{Prim::Map, &f, 0, {}, {}});
  }
  const int cost = nodes_[static_cast<std::size_t>(id)].cost;
  for (const auto& s1 : steps) {
    auto t1 = apply_type(s1, {&nodes_[static_cast<std::size_t>(id)].type});
    if (!t1) continue;
    if (is_output_type(*t1)) {
      int f1 = try_apply(s1, {id}, cost, true);
      if (f1 >= 0) check_outputs(f1);
      continue;
    }
    int f1 = -2;  // evaluated once, when a second step reaches an output type
    for (const auto& s2 : steps) {
      if (s1.prim == Prim::Streamify && s2.prim == Prim::Streamify) continue;
      auto t2 = apply_type(s2, {&*t1});
      if (!t2 || !is_output_type(*t2)) continue;
      if (f1 == -2) f1 = try_apply(s1, {id}, cost, true);
      if (f1 < 0) break;
      int f2 = try_apply(s2, {f1}, cost, true);
      if (f2 >= 0) check_outputs(f2);
    }
  }
  finishing_ = false;
}

void Search::check_outputs(int id) {
  const Node& n = nodes_[static_cast<std::size_t>(id)];
  std::size_t field = 0;
  for (std::size_t o = 0; o < task_.outputs.size(); ++o) {
    const auto& out = task_.outputs[o];
    std::size_t nf = out.dtype.fields.size();
    if (n.type.dtype == out.dtype && n.type.dims == out.dims && matches_[o].size() < match_cap_) {
      bool ok = true;
      for (std::size_t f = 0; f < nf && ok; ++f) {
        const auto& ref = prep_->reference.fields[field + f];
        const auto& got = n.value.fields[f].data;
        if (got.size() != ref.size()) {
          ok = false;
          break;
        }
        auto st = sim::compare(got.data(), ref.data(), static_cast<std::int64_t>(ref.size()),
                               task_.verify.atol, task_.verify.rtol);
        ok = st.ok();
      }
      if (ok) matches_[o].push_back(id);
    }
    field += nf;
  }
}

std::string Search::emit(const std::vector<int>& outs) {
  std::map<int, std::string> names;
  std::string text;
  int counter = 0;
  auto tn = step::task_names(task_);
  auto fresh = [&] {
    std::string s;
    do {
      s.assign(1, 't');
      s.append(std::to_string(++counter));
    } while (tn.contains(s));
    return s;
  };
  std::function<std::string(int)> go = [&](int id) -> std::string {
    auto it = names.find(id);
    if (it != names.end()) return it->second;
    const Node& n = nodes_[static_cast<std::size_t>(id)];
    if (n.args.empty()) return names[id] = n.input;
    std::vector<std::string> an;
    for (int a : n.args) an.push_back(go(a));
    std::string arg;
    if (n.op.prim == Prim::Merge) {  // composite: fn list, Partition, comprehension, Merge
      std::string sel = an.back();
      an.pop_back();
      std::string data = an[0];
      if (an.size() > 1) {
        data = fresh();
        text += data + " = step.Zip().apply((" + an[0];
        for (std::size_t i = 1; i < an.size(); ++i) text += ", " + an[i];
        text += "))\n";
      }
      std::string fl = fresh(), tp = fresh(), tm = fresh(), name = fresh();
      std::string ef = "ef", es = "es";
      while (tn.contains(ef) || tn.contains(es)) ef += "_", es += "_";
      text += fl + " = [";
      for (std::size_t i = 0; i < n.op.experts.size(); ++i)
        text += (i ? ", " : "") + n.op.experts[i]->func_name;
      text += "]\n";
      const auto& lanes = nodes_[static_cast<std::size_t>(n.args.back())].type.dtype.scalar().lanes;
      text += tp + " = step.Partition(N=" + lanes.str() + ").apply((" + data + ", " + sel + "))\n";
      text += tm + " = [step.Map(fn=" + ef + ").apply(" + es + ") for " + ef + ", " + es + " in zip(" + fl +
              ", " + tp + ")]\n";
      text += name + " = step.Merge(fn=" + n.op.fn->func_name + ").apply((" + tm + ", " + sel + "))\n";
      return names[id] = name;
    }
    if (an.size() == 1) {
      arg = an[0];
    } else {
      std::string tup = "(";
      for (std::size_t i = 0; i < an.size(); ++i) tup += (i ? ", " : "") + an[i];
      tup += ")";
      if (n.op.prim == Prim::Map) {
        arg = tup;
      } else {
        arg = fresh();
        text += arg + " = step.Zip().apply(" + tup + ")\n";
      }
    }
    std::string name = fresh();
    text += name + " = step." + n.op.key() + ".apply(" + arg + ")\n";
    return names[id] = name;
  };
  std::string ret = "return ";
  for (std::size_t i = 0; i < outs.size(); ++i) ret += (i ? ", " : "") + go(outs[i]);
  text += ret + "\n";
  Diagnostics ds;
  auto prog = step::parse_impl(text, {}, ds);
  if (!prog) return {};
  last_raw_ = step::print_program(*prog);
  return step::print_program(step::insert_copies(*prog, tn));
}

bool Search::try_finish() {
  if (spread_ && static_cast<int>(spread_found_.size()) >= spread_pool(opt_.temperature)) return true;
  for (const auto& m : matches_) {
    if (m.empty()) return false;
  }
  // every combination of the (at most 4) matches per output
  std::vector<std::size_t> idx(matches_.size(), 0);
  for (;;) {
    std::vector<int> outs;
    std::uint64_t mask = 0;
    for (std::size_t o = 0; o < matches_.size(); ++o) {
      outs.push_back(matches_[o][idx[o]]);
      mask |= nodes_[static_cast<std::size_t>(outs.back())].mask;
    }
    if (mask == all_inputs_) {
      std::string impl = emit(outs);
      if (!impl.empty() && tried_.insert(impl).second && !avoided(impl)) {
        ++stats_.verified;
        auto rep = ver_.verify(task_, impl);
        if (rep.pass && spread_) {
          // temperature spread: collect, the pick comes at the end (pick_spread)
          ++correct_;
          int cost = 0;
          for (int id : outs) cost += nodes_[static_cast<std::size_t>(id)].cost;
          if (!result_.found) {
            found_at_ = stats_.candidates;
            result_.found = true;
            result_.impl = impl;
            result_.raw_impl = last_raw_;
          }
          spread_found_.push_back({impl, last_raw_, cost});
          if (static_cast<int>(spread_found_.size()) >= spread_pool(opt_.temperature)) return true;
        } else if (rep.pass) {
          ++correct_;
          // ranked by the cost model: the fastest feasible correct program wins (ties: the first found)
          auto key = program_perf(model_, task_, impl).value_or(PerfKey{});
          if (!result_.found || key.better_than(best_key_)) {
            if (!result_.found) found_at_ = stats_.candidates;
            result_.found = true;
            result_.impl = impl;
            result_.raw_impl = last_raw_;
            best_key_ = key;
          }
          if (!opt_.optimise) return true;
        }
      }
    }
    std::size_t o = 0;
    while (o < idx.size() && ++idx[o] == matches_[o].size()) idx[o++] = 0;
    if (o == idx.size()) return result_.found;
  }
}

std::string synth_program_key(const std::string& impl, const step::SizeBinding& sizes) {
  Diagnostics ds;
  auto prog = step::parse_impl(impl, {}, ds);
  return prog ? step::canonical_key(*prog, &sizes) : std::string();
}

bool Search::avoided(const std::string& impl) {
  if (avoid_.empty() || !avoid_.contains(synth_program_key(impl, task_.sizes))) return false;
  ++result_.avoided;
  return true;
}

void Search::pick_spread() {
  // distinct canonical programs only (two texts of one program would double its chance)
  std::vector<const SpreadFound*> cands;
  std::set<std::string> keys;
  for (const auto& f : spread_found_)
    if (keys.insert(synth_program_key(f.impl, task_.sizes)).second) cands.push_back(&f);
  result_.spread_candidates = static_cast<int>(cands.size());
  if (cands.size() < 2) return;
  int lowest = cands.front()->cost;
  for (const auto* c : cands) lowest = std::min(lowest, c->cost);
  std::vector<double> w;
  double total = 0;
  for (const auto* c : cands) {
    w.push_back(std::exp(-static_cast<double>(c->cost - lowest) / (kSpreadCostScale * opt_.temperature)));
    total += w.back();
  }
  // its own stream of the sample's seed (the weight noise draws from rng_), so the pick is a pure function
  // of (seed, temperature, the candidates in the order found)
  double u = sim::Rng(opt_.seed, "synth-spread").u53() * total;
  std::size_t pick = cands.size() - 1;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    if (u < w[i]) {
      pick = i;
      break;
    }
    u -= w[i];
  }
  result_.impl = cands[pick]->impl;
  result_.raw_impl = cands[pick]->raw;
}

void Search::apply_macro(const Macro& m, int v, int cost) {
  // depth-first over the holes (fn, Repeat size) of the fragment's steps
  std::vector<step::Dim> syms;
  for (const auto& [name, val] : task_.sizes) syms.push_back(step::Dim::symbol(name));
  std::function<void(std::size_t, int)> go = [&](std::size_t i, int cur) {
    if (!budget_left()) return;
    const FragStep& fs = m.frag->steps[i];
    bool last = i + 1 == m.frag->steps.size();
    int r = nodes_[static_cast<std::size_t>(cur)].type.rank();
    std::vector<Op> ops;
    Op base{fs.prim, nullptr, m.relative ? fs.k_rel + r : fs.k, fs.S, {}};
    if (fs.prim == Prim::Flatten || fs.prim == Prim::Reshape) {
      int lo = m.relative ? fs.lo_rel + r : fs.lo;
      for (int x = lo; x <= lo + (fs.hi - fs.lo); ++x) base.L.push_back(x);
    }
    if (fs.prim == Prim::Repeat) {
      for (const auto& s : syms) {
        Op o = base;
        o.n = s;
        ops.push_back(o);
      }
    } else if (fs.prim == Prim::Map || fs.prim == Prim::Accum || fs.prim == Prim::Scan) {
      for (const auto& f : task_.fns) {
        Op o = base;
        o.fn = &f;
        ops.push_back(o);
      }
    } else {
      ops.push_back(base);
    }
    for (const auto& o : ops) {
      int id = try_apply(o, {cur}, cost, !last);
      if (id >= 0 && !last) go(i + 1, id);
    }
  };
  go(0, v);
}

void Search::apply_pattern(const PatternMacro& m, int v, int cost) {
  std::function<void(std::size_t, int)> go = [&](std::size_t i, int cur) {
    const bool last = i + 1 == m.prims.size();
    for (const auto& w : unary_) {
      if (!budget_left()) return;
      if (w.op.prim != m.prims[i]) continue;
      int id = try_apply(w.op, {cur}, cost, !last);
      if (id >= 0 && !last) go(i + 1, id);
    }
  };
  go(0, v);
}

SynthResult Search::run() {
  auto t0 = Clock::now();
  const double cpu0 = thread_cpu_seconds();
  cpu_deadline_ = cpu0 + opt_.time_limit_s;
  const double wall = opt_.wall_limit_s >= 0   ? opt_.wall_limit_s
                     : opt_.time_limit_s > 0 ? 10.0 * opt_.time_limit_s + 1.0
                                             : kDefaultWallLimitS;
  deadline_ = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wall));
  budget_.deadline = deadline_;
  budget_.max_stream_scalars = opt_.max_value_scalars;
  Diagnostics ds;
  const auto& seeds = task_.verify.seeds;
  const std::uint64_t seed0 = seeds.empty() ? 42 : seeds.front();
  prep_ = ver_.prepare(task_, search_sizes(task_.sizes), seed0, ds);
  if (!prep_) {  // the reference does not accept the smaller sizes: search on the task's own
    ds.clear();
    prep_ = ver_.prepare(task_, task_.sizes, seed0, ds);
  }
  auto finish = [&] {
    pick_spread();
    result_.timed_out = wall_timed_out_;
    stats_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    stats_.cpu_seconds = thread_cpu_seconds() - cpu0;
    result_.stats = stats_;
    return result_;
  };
  if (!prep_ || task_.inputs.size() > 63) return finish();
  for (const auto& [name, cf] : prep_->compiled.fns) fns_[name] = sim::make_task_fn(cf, task_, prep_->inputs);
  for (const auto& in : task_.inputs)
    max_dims_ = std::max(max_dims_, total_dims({in.dtype, in.dims}, allow_dups_));
  for (const auto& o : task_.outputs)
    max_dims_ = std::max(max_dims_, total_dims({o.dtype, o.dims}, allow_dups_));
  build_ops();
  if (!stop_at_first()) match_cap_ = task_.outputs.size() == 1 ? 16 : 6;
  by_cost_.assign(static_cast<std::size_t>(opt_.max_cost) + 1, {});
  matches_.assign(task_.outputs.size(), {});
  for (std::size_t i = 0; i < task_.inputs.size(); ++i) {
    const auto& in = task_.inputs[i];
    Node n;
    n.input = in.name;
    n.type = StreamType{in.dtype, in.dims};
    n.value = prep_->inputs.inputs.at(in.name);
    n.cost = 1;
    n.mask = std::uint64_t{1} << i;
    all_inputs_ |= n.mask;
    seen_.insert(hash_value(n.type, n.value));
    nodes_.push_back(std::move(n));
    by_cost_[1].push_back(static_cast<int>(nodes_.size()) - 1);
    check_outputs(static_cast<int>(nodes_.size()) - 1);
  }
  if (try_finish() && stop_at_first()) return finish();
  for (int c = 2; c <= opt_.max_cost && budget_left(); ++c) {
    stats_.cost = c;
    std::size_t kept = nodes_.size();
    for (const auto& m : pmacros_) {  // memory first, in the order given (see build_ops)
      if (m.cost >= c) continue;
      const auto& bucket = by_cost_[static_cast<std::size_t>(c - m.cost)];
      for (std::size_t i = 0; i < bucket.size() && budget_left(); ++i) apply_pattern(m, bucket[i], c);
    }
    for (const auto& w : unary_) {
      if (w.cost >= c) continue;
      const auto& bucket = by_cost_[static_cast<std::size_t>(c - w.cost)];
      for (std::size_t i = 0; i < bucket.size() && budget_left(); ++i) try_apply(w.op, {bucket[i]}, c);
    }
    for (const auto& m : macros_) {
      if (m.cost >= c) continue;
      const auto& bucket = by_cost_[static_cast<std::size_t>(c - m.cost)];
      for (std::size_t i = 0; i < bucket.size() && budget_left(); ++i) apply_macro(m, bucket[i], c);
    }
    for (const auto& w : multi_) {
      const auto& fields = w.op.fn->input.fields;
      int rest = c - w.cost;
      for (int c1 = 1; c1 < rest && budget_left(); ++c1) {
        for (int c2 = 1; c1 + c2 <= rest; ++c2) {
          int c3 = rest - c1 - c2;
          for (int a : by_cost_[static_cast<std::size_t>(c1)]) {
            // by value: try_apply grows nodes_, so references into it do not survive the inner loop
            const std::size_t na = nodes_[static_cast<std::size_t>(a)].type.dtype.fields.size();
            {
              const auto& fa = nodes_[static_cast<std::size_t>(a)].type.dtype.fields;
              if (na >= fields.size() || !std::equal(fa.begin(), fa.end(), fields.begin())) continue;
            }
            for (int b : by_cost_[static_cast<std::size_t>(c2)]) {
              if (!budget_left()) break;
              const auto& fb = nodes_[static_cast<std::size_t>(b)].type.dtype.fields;
              std::size_t used = na + fb.size();
              if (used > fields.size() ||
                  !std::equal(fb.begin(), fb.end(), fields.begin() + static_cast<std::ptrdiff_t>(na)))
                continue;
              if (used == fields.size()) {
                if (c3 == 0) try_apply(w.op, {a, b}, c);
                continue;
              }
              if (c3 < 1) continue;
              for (int d : by_cost_[static_cast<std::size_t>(c3)]) {
                if (!budget_left()) break;
                const auto& fd = nodes_[static_cast<std::size_t>(d)].type.dtype.fields;
                if (used + fd.size() == fields.size() &&
                    std::equal(fd.begin(), fd.end(), fields.begin() + used)) {
                  try_apply(w.op, {a, b, d}, c);
                }
              }
            }
          }
        }
      }
    }
    enumerate_composites(c);
    if (nodes_.size() > kept && try_finish() && stop_at_first()) return finish();
  }
  try_finish();
  return finish();
}

}  // namespace

int spread_pool(double temperature) {
  if (!(temperature > 0)) return 1;
  return 1 + static_cast<int>(std::lround(7.0 * std::min(1.0, temperature)));
}

std::int64_t spread_evaluations(double temperature, std::int64_t found_at) {
  if (!(temperature > 0)) return 0;
  const double t = std::min(1.0, temperature);
  return static_cast<std::int64_t>(
      std::llround(t * static_cast<double>(std::max<std::int64_t>(found_at, kSpreadMinEvaluations))));
}

std::string format_response(const std::string& impl, const std::vector<AdoptionRecord>& adoption,
                            const std::vector<std::string>* rules_used) {
  std::string s = "```yaml\nimpl: |\n";
  std::size_t p = 0;
  while (p < impl.size()) {
    std::size_t e = impl.find('\n', p);
    if (e == std::string::npos) e = impl.size();
    s += "  " + impl.substr(p, e - p) + "\n";
    p = e + 1;
  }
  if (!adoption.empty()) {
    s += "adoption:\n";
    for (const auto& a : adoption) {
      s += "  - {id: " + a.id + ", adopted: " + (a.adopted ? "yes" : "no") + ", rationale: \"" + a.rationale +
           "\"}\n";
    }
  }
  if (rules_used) {
    s += "rules_used: [";
    for (std::size_t i = 0; i < rules_used->size(); ++i) s += (i ? ", " : "") + (*rules_used)[i];
    s += "]\n";
  }
  return s + "```\n";
}

Synthesizer::Synthesizer(verify::Verifier& verifier, cost::CostModel* model) : verifier_(verifier) {
  if (model == nullptr) {
    own_model_ = std::make_unique<cost::CostModel>();
    model = own_model_.get();
  }
  model_ = model;
}

SynthResult Synthesizer::run(const step::TaskDoc& task, const Guidance& guidance, const SynthOptions& opt) {
  Search s(verifier_, *model_, task, guidance, opt);
  SynthResult r = s.run();
  r.correct_programs = s.correct_programs();
  // slow->fast rewrite patterns of memory (A>B=>C) and resident rules
  std::vector<RewritePattern> rps;
  for (const auto& m : guidance.memory) {
    if (auto rp = parse_rewrite_pattern(m.pattern)) {
      rp->id = m.id;
      rps.push_back(std::move(*rp));
    }
  }
  auto rule_id = [&](std::size_t i) { return i < guidance.rule_ids.size() ? guidance.rule_ids[i] : std::string(); };
  for (std::size_t i = 0; i < guidance.rule_patterns.size(); ++i) {
    if (auto rp = parse_rewrite_pattern(guidance.rule_patterns[i])) {
      rp->id = rule_id(i);
      rps.push_back(std::move(*rp));
    }
  }
  RewriteOptions ro;
  ro.max_evaluations = opt.rewrite_evaluations;
  PerfKey best;
  if (r.found) {
    best = s.best_key();
    r.origin = "search";
    if (opt.optimise && opt.rewrite_evaluations > 0) {
      auto rw = optimise_program(verifier_, *model_, task, r.impl, rps, ro);
      r.correct_programs += rw.correct;
      if (rw.improved && rw.best.better_than(best)) {
        best = rw.best;
        r.impl = rw.impl;
        r.raw_impl = rw.raw_impl;
        r.origin = "rewrite";
        r.moves = rw.moves;
        r.applied_patterns = rw.applied;
      }
    }
  }
  if (!opt.previous_impl.empty()) {
    // optimisation round: never slower than the previous program (nor wrong)
    auto pr = optimise_program(verifier_, *model_, task, opt.previous_impl, rps, ro);
    r.correct_programs += pr.correct;
    if (!pr.impl.empty() && (!r.found || !best.better_than(pr.best))) {
      best = pr.best;
      r.found = true;
      r.impl = pr.impl;
      r.raw_impl = pr.raw_impl;
      r.origin = pr.improved ? "previous+rewrite" : "previous";
      r.moves = pr.moves;
      r.applied_patterns = pr.applied;
    }
  }
  if (r.found && best.cycles != PerfKey{}.cycles) {
    r.cycles = best.cycles;
    r.feasible = best.feasible;
  }
  std::optional<step::Program> prog;
  if (r.found) {
    Diagnostics ds;
    prog = step::parse_impl(r.impl, {}, ds);
  }
  for (const auto& m : guidance.memory) {
    bool used = (prog && pattern_occurs(*prog, m.pattern)) ||
                std::find(r.applied_patterns.begin(), r.applied_patterns.end(), m.id) != r.applied_patterns.end();
    const bool rewrite = m.pattern.find("=>") != std::string::npos;
    r.adoption.push_back({m.id, used,
                          rewrite ? (used ? "applied the rewrite " + m.pattern
                                          : "the rewrite " + m.pattern + " made nothing faster here")
                          : used ? "the program contains the chain " + m.pattern
                               : "the chain " + m.pattern + " does not occur in the program"});
  }
  // Resident rules used (truthfully, as adoption): the pattern occurs in the program or its rewrite was applied.
  bool rules_have_ids = false;
  for (std::size_t i = 0; i < guidance.rule_patterns.size(); ++i) {
    const std::string id = rule_id(i);
    if (id.empty()) continue;
    rules_have_ids = true;
    const std::string& pat = guidance.rule_patterns[i];
    bool used = (prog && pattern_occurs(*prog, pat)) ||
                std::find(r.applied_patterns.begin(), r.applied_patterns.end(), id) != r.applied_patterns.end();
    if (used && std::find(r.rules_used.begin(), r.rules_used.end(), id) == r.rules_used.end())
      r.rules_used.push_back(id);
  }
  r.response = format_response(r.raw_impl.empty() ? r.impl : r.raw_impl, r.adoption,
                               rules_have_ids ? &r.rules_used : nullptr);
  return r;
}

}  // namespace sf::synth
