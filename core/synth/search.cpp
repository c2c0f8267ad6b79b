// The search's main loop and finishing: matching outputs, emitting programs, the temperature spread (search.hpp).
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


}  // namespace sf::synth::detail
