// The search's candidate space: ops, composites, memory macros, applying one op (search.hpp).
#include "core/synth/search.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include "core/sim/compare.hpp"
#include "core/sim/datagen.hpp"
#include "core/step/copy_insert.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"

namespace sf::synth::detail {

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
  Fnv1a64 h;  // the type's text, then every field's float bytes (no length separators)
  std::string ts = t.dtype.str() + step::dims_str(t.dims);
  h.bytes(reinterpret_cast<const unsigned char*>(ts.data()), ts.size());
  for (const auto& f : v.fields)
    h.bytes(reinterpret_cast<const unsigned char*>(f.data.data()), f.data.size() * sizeof(float));
  return h.value();
}

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
    unary_.push_back({op, weight(2 + (a - 1), Prim::Bufferize, op.key())});
  }
  unary_.push_back({Op{Prim::Streamify, nullptr, 0, {}, {}}, weight(2, Prim::Streamify)});
  for (int b = 0; b <= 3; ++b) {
    Op op{Prim::Promote, nullptr, b, {}, {}};
    unary_.push_back({op, weight(3 + (b > 1 ? 1 : 0), Prim::Promote, op.key())});
  }
  for (const auto& s : syms) unary_.push_back({Op{Prim::Repeat, nullptr, 0, s, {}}, weight(3, Prim::Repeat)});
  for (int lo = 1; lo <= 3; ++lo) {
    for (int hi = lo; hi <= lo + 1 && hi <= 3; ++hi) {
      std::vector<int> L;
      for (int i = lo; i <= hi; ++i) L.push_back(i);
      unary_.push_back({Op{Prim::Flatten, nullptr, 0, {}, L}, weight(3 + (hi - lo), Prim::Flatten)});
    }
  }
  for (int j = 0; j <= 1; ++j) {
    for (std::int64_t c : {2, 4}) {
      unary_.push_back({Op{Prim::Reshape, nullptr, 0, step::Dim::constant(c), {j}}, weight(5, Prim::Reshape)});
    }
  }
  for (const auto& f : task_.fns) {
    bool tuple_in = f.input.is_tuple();
    if (!f.stateful()) {
      Op op{Prim::Map, &f, 0, {}, {}};
      unary_.push_back({op, weight(2, Prim::Map)});
      if (tuple_in) multi_.push_back({op, weight(3, Prim::Map)});
    } else {
      for (int b = 1; b <= 3; ++b) {
        for (Prim p : {Prim::Accum, Prim::Scan}) {
          Op op{p, &f, b, {}, {}};
          std::string pn(step::prim_name(p));
          int base = (p == Prim::Accum ? 3 : 4) + (b - 1);
          unary_.push_back({op, weight(base, p, pn + "(b=" + std::to_string(b) + ")")});
          if (tuple_in) multi_.push_back({op, weight(base + 1, p)});
        }
      }
    }
  }
  build_composites();
  std::size_t nfrag = 0;
  for (const auto& f : g_.fragments) {
    if (++nfrag > kMaxMacros) break;  // the most frequent ones (fragments are sorted)
    int c = std::max(2, static_cast<int>(f.steps.size()) - (f.count > 1 ? 1 : 0));
    macros_.push_back({&f, false, weight(c, std::nullopt)});
    macros_.push_back({&f, true, weight(c, std::nullopt)});
  }
  // The budget is spent in that order: the i-th pattern macro costs i more, so the first one is tried first
  // at every cost level (pattern macros go before the ordinary ops) and from the most levels (the largest
  // share of the evaluations); a low-ranked pattern is reached only when the ones before it did not solve it.
  for (auto& p : patterns) {
    if (p.size() < 2) continue;  // a single primitive is steered by its weight bonus only
    int c = std::max(2, static_cast<int>(p.size()) - 1) + static_cast<int>(pmacros_.size());
    pmacros_.push_back({std::move(p), weight(c, std::nullopt)});
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
          composite_.push_back({op, weight(k == 0 ? 3 : 4, Prim::Merge)});
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


}  // namespace sf::synth::detail
