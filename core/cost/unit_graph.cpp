// The cost model's unit graph (docs/cost-model.md): one unit per primitive application with its channels, the
// per-unit timing rules, the routing data of Partition and Merge, and the report of the timed graph.
#include "core/cost/unit_graph.hpp"

#include <algorithm>
#include <functional>

#include "core/cost/engine.hpp"
#include "core/step/primitives.hpp"

namespace sf::cost {

namespace {

using i64 = std::int64_t;
using step::Prim;

i64 ceil_div(i64 a, i64 b) { return b <= 0 ? 0 : (a + b - 1) / b; }

std::string binding_text(const step::SizeBinding& b) {
  std::string s;
  for (const auto& [k, v] : b) {
    if (k.find('#') != std::string::npos) continue;
    s += (s.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  }
  return s;
}

// Every name a statement reads (stream and stream-list names).
std::vector<std::string> reads(const step::Statement& st) {
  std::vector<std::string> out;
  std::function<void(const step::Ref&)> add = [&](const step::Ref& r) {
    if (r.kind == step::Ref::Kind::List) {
      for (const auto& it : r.items) add(it);
    } else {
      out.push_back(r.name);
    }
  };
  switch (st.kind) {
    case step::Statement::Kind::Assign:
      for (const auto& r : st.call.arg.refs) add(r);
      break;
    case step::Statement::Kind::Comprehension:
      if (!st.comp.list_name.empty()) out.push_back(st.comp.list_name);
      for (const auto& n : st.comp.list_literal) out.push_back(n);
      break;
    case step::Statement::Kind::Return:
      for (const auto& r : st.returns) add(r);
      break;
    case step::Statement::Kind::FnList: break;
  }
  return out;
}

// Builds the unit graph of one program under one binding and times it.
class Builder {
 public:
  Builder(const CostModel::Prepared& p, const step::Program& prog, const step::TypedProgram& typed,
          const ChipProfile& chip, Diagnostics& diags, EvalOptions opts = {})
      : p_(p), prog_(prog), typed_(typed), chip_(chip), diags_(diags), b_(p.compiled.sizes), opts_(opts) {}

  std::optional<CostReport> run() {
    if (!routing()) return std::nullopt;
    for (const auto& in : p_.doc->inputs) {
      step::StreamType t{in.dtype, in.dims};
      auto ch = channel(t, 0);
      if (!ch) return std::nullopt;
      Unit u;
      u.kind = UnitKind::Load;
      u.primitive = "Load";
      u.name = in.name;
      u.c_elem = 1;
      u.outs = {*ch};
      if (in.dtype.scalar().is_buffer()) onchip_ += (chip_.fifo_depth + 1) * buffer_bytes(in.dtype);
      add(std::move(u));
      env_[in.name] = {*ch};
    }
    for (std::size_t i = 0; i < prog_.stmts.size(); ++i) {
      if (!statement(prog_.stmts[i], typed_.stmts[i])) return std::nullopt;
    }
    return finish();
  }

 private:
  // --- routing data ----------------------------------------------------------------------------------------
  // Runs the statements the selectors of Partition and Merge depend on, on the perf binding's first seed.
  bool routing() {
    std::map<std::string, std::size_t, std::less<>> def;
    for (std::size_t i = 0; i < prog_.stmts.size(); ++i)
      for (const auto& t : prog_.stmts[i].targets) def[t] = i;
    std::vector<bool> need(prog_.stmts.size(), false);
    std::vector<std::string> todo;
    for (const auto& st : prog_.stmts) {
      if (st.kind != step::Statement::Kind::Assign) continue;
      const auto p = step::prim_from_name(st.call.prim);
      if (p && step::takes_selector(*p) && st.call.arg.refs.size() == 2)
        todo.push_back(st.call.arg.refs[1].name);
    }
    if (todo.empty()) return true;
    while (!todo.empty()) {
      std::string n = std::move(todo.back());
      todo.pop_back();
      auto it = def.find(n);
      if (it == def.end() || need[it->second]) continue;
      need[it->second] = true;
      for (auto& r : reads(prog_.stmts[it->second])) todo.push_back(std::move(r));
    }
    bool any = std::find(need.begin(), need.end(), true) != need.end();
    if (!any) return true;  // every selector is a task input
    sim::RunOptions opt;
    opt.keep_streams = true;
    opt.only_statements = &need;
    sim::RunResult res = sim::run_program(prog_, typed_, p_.compiled, p_.inputs, opt, p_.fns.get());
    if (res.error) {
      diags_.push_back(make_error("C-PERF-SIZES",
                                  "the program fails under perf_sizes (" + binding_text(b_) + "), computing its routing: " +
                                      res.error->code + " " + res.error->message,
                                  res.error->loc));
      return false;
    }
    routed_ = std::move(res.streams);
    return true;
  }

  const sim::StreamValue* selector_value(const step::Ref& r) {
    std::string key = r.kind == step::Ref::Kind::Index ? r.name + "[" + std::to_string(r.index) + "]" : r.name;
    if (auto it = routed_.find(key); it != routed_.end()) return &it->second;
    if (auto it = p_.inputs.inputs.find(key); it != p_.inputs.inputs.end()) return &it->second;
    return nullptr;
  }

  // --- sizes and bytes -------------------------------------------------------------------------------------
  std::optional<std::vector<i64>> dims(const step::StreamType& t, int line) {
    std::vector<i64> v;
    for (const auto& d : t.dims) {
      std::string why;
      auto x = d.eval_nonneg(b_, &why);
      if (!x) {
        fail_sizes(line, "dim " + d.str() + " does not evaluate: " + why);
        return std::nullopt;
      }
      v.push_back(*x);
    }
    return v;
  }

  void fail_sizes(int line, const std::string& what) {
    diags_.push_back(make_error("C-PERF-SIZES",
                                "line " + std::to_string(line) + ": under perf_sizes (" + binding_text(b_) + ") " +
                                    what + "; the program is not general in the sizes",
                                Location{line, 1}));
  }

  i64 field_bytes(const step::ScalarType& f) {
    return step::element_scalars(step::DType::of(f), b_).value_or(0) * 4;
  }
  i64 elem_bytes(const step::DType& t) { return step::element_scalars(t, b_).value_or(0) * 4; }
  i64 buffer_bytes(const step::DType& t) {
    i64 s = 0;
    for (const auto& f : t.fields)
      if (f.is_buffer()) s += field_bytes(f);
    return s;
  }
  // Cycles to read (or write) the Buffer-typed fields of one element through the unit's memory port.
  i64 pmu_cycles(const step::DType& t) {
    i64 s = 0;
    for (const auto& f : t.fields)
      if (f.is_buffer()) s += ceil_div(field_bytes(f), chip_.pmu_bw);
    return s;
  }
  i64 compute_cycles(const step::FnDecl* f) { return ceil_div(fn_flops(f), chip_.compute_bw); }
  i64 fn_flops(const step::FnDecl* f) {
    if (!f) return 0;
    auto it = p_.flops.find(f->func_name);
    return it == p_.flops.end() ? 0 : it->second;
  }

  std::optional<int> channel(const step::StreamType& t, int line) {
    auto d = dims(t, line);
    if (!d) return std::nullopt;
    Channel c;
    c.count = sim::product(*d, 0, d->size());
    c.elem_bytes = elem_bytes(t.dtype);
    chans_.push_back(c);
    chan_dims_.push_back(*d);
    return static_cast<int>(chans_.size()) - 1;
  }

  int add(Unit u, const step::FnDecl* fn = nullptr) {
    int id = static_cast<int>(units_.size());
    unit_fn_.push_back(u.calls_fn ? fn : nullptr);
    for (int c : u.ins) chans_[static_cast<std::size_t>(c)].consumer = id;
    for (int c : u.outs) chans_[static_cast<std::size_t>(c)].producer = id;
    units_.push_back(std::move(u));
    return id;
  }

  // --- statements ------------------------------------------------------------------------------------------
  std::vector<int> resolve(const step::Ref& r) {
    if (r.kind == step::Ref::Kind::Index) return {env_.at(r.name).at(static_cast<std::size_t>(r.index))};
    if (r.kind == step::Ref::Kind::List) {
      std::vector<int> v;
      for (const auto& it : r.items) v.push_back(resolve(it).at(0));
      return v;
    }
    return env_.at(r.name);
  }

  std::string targets(const step::Statement& st) {
    std::string s;
    for (const auto& t : st.targets) s += (s.empty() ? "" : ", ") + t;
    return s;
  }

  bool statement(const step::Statement& st, const step::TypedStatement& ts) {
    int line = st.loc.line;
    switch (st.kind) {
      case step::Statement::Kind::FnList: return true;
      case step::Statement::Kind::Return: {
        for (const auto& r : st.returns) {
          Unit u;
          u.kind = UnitKind::Store;
          u.primitive = "Store";
          u.name = r.name;
          u.line = line;
          u.c_elem = 1;
          u.ins = resolve(r);
          add(std::move(u));
        }
        return true;
      }
      case step::Statement::Kind::Comprehension: {
        std::vector<int> items;
        if (!st.comp.list_literal.empty()) {
          for (const auto& n : st.comp.list_literal) items.push_back(env_.at(n).at(0));
        } else {
          items = env_.at(st.comp.list_name);
        }
        std::vector<int> outs;
        for (std::size_t e = 0; e < items.size(); ++e) {
          const step::FnDecl* fn = ts.fns.empty() ? ts.call.fn : ts.fns[e];
          auto out = channel(ts.outs.at(e), line);
          if (!out) return false;
          Unit u;
          u.line = line;
          u.name = st.targets[0] + "[" + std::to_string(e) + "]";
          if (!unary(ts.call, fn, ts.inputs.at(e), ts.outs.at(e), items[e], *out, u)) return false;
          add(std::move(u), fn);
          outs.push_back(*out);
        }
        env_[st.targets[0]] = outs;
        return true;
      }
      case step::Statement::Kind::Assign: break;
    }
    const auto& rc = ts.call;
    Unit u;
    u.line = line;
    u.name = targets(st);
    u.primitive = std::string(step::prim_name(rc.prim));
    std::vector<int> outs;
    // A list's outputs (Partition's) depend on the routing (partition() makes them).
    if (step::prim_info(rc.prim).outs != step::PrimOuts::List) {
      for (const auto& t : ts.outs) {
        auto c = channel(t, line);
        if (!c) return false;
        outs.push_back(*c);
      }
    }
    const auto& refs = st.call.arg.refs;
    switch (rc.prim) {
      case Prim::Zip:
      case Prim::Map: {
        for (const auto& r : refs) u.ins.push_back(resolve(r).at(0));
        if (u.ins.size() > 16) {
          diags_.push_back(make_error("C-INTERNAL", "line " + std::to_string(line) +
                                                        ": the cost model times at most 16 zipped streams",
                                      st.loc));
          return false;
        }
        u.kind = UnitKind::Elementwise;
        u.outs = outs;
        if (rc.prim == Prim::Map) {
          i64 load = 0;
          for (const auto& t : ts.inputs) load += pmu_cycles(t.dtype);
          const step::DType& out = ts.outs.at(0).dtype;
          u.c_elem = std::max({load, compute_cycles(rc.fn), pmu_cycles(out), i64{1}});
          u.calls_fn = true;
          u.fn_calls = chans_[static_cast<std::size_t>(outs[0])].count;
          if (buffer_bytes(out) > 0) onchip_ += (chip_.fifo_depth + 1) * buffer_bytes(out);
        }
        break;
      }
      case Prim::RepeatRef: {
        u.kind = UnitKind::RepeatRef;
        u.ins = {resolve(refs[0]).at(0), resolve(refs[1]).at(0)};
        u.outs = outs;
        const auto& rd = chan_dims_[static_cast<std::size_t>(u.ins[1])];
        u.group = rd.empty() ? 1 : rd[0];
        u.c_elem = 1;
        break;
      }
      case Prim::Copy: {
        u.kind = UnitKind::Elementwise;
        u.ins = {resolve(refs[0]).at(0)};
        u.outs = outs;
        break;
      }
      case Prim::Partition:
        if (!partition(st, ts, outs, u)) return false;
        break;
      case Prim::Merge:
        if (!merge(st, ts, outs.at(0), u)) return false;
        break;
      default:
        if (!unary(rc, rc.fn, ts.inputs.at(0), ts.outs.at(0), resolve(refs[0]).at(0), outs.at(0), u)) return false;
        break;
    }
    add(std::move(u), rc.fn);
    if (ts.list_result) {
      env_[st.targets[0]] = outs;
    } else {
      for (std::size_t e = 0; e < st.targets.size(); ++e) env_[st.targets[e]] = {outs.at(e)};
    }
    return true;
  }

  // One-input primitives (statements and comprehension bodies).
  bool unary(const step::ResolvedCall& rc, const step::FnDecl* fn, const step::StreamType& in_t,
             const step::StreamType& out_t, int in, int out, Unit& u) {
    u.primitive = std::string(step::prim_name(rc.prim));
    u.ins = {in};
    u.outs = {out};
    const auto& in_dims = chan_dims_[static_cast<std::size_t>(in)];
    i64 in_count = chans_[static_cast<std::size_t>(in)].count;
    i64 out_count = chans_[static_cast<std::size_t>(out)].count;
    i64 out_buf = buffer_bytes(out_t.dtype);
    switch (rc.prim) {
      case Prim::Map:
      case Prim::Scan:  // like Map, plus one state buffer
        u.kind = UnitKind::Elementwise;
        u.c_elem = std::max({pmu_cycles(in_t.dtype), compute_cycles(fn), pmu_cycles(out_t.dtype), i64{1}});
        u.calls_fn = true;
        u.fn_calls = in_count;
        if (out_buf > 0) onchip_ += (chip_.fifo_depth + (rc.prim == Prim::Scan ? 2 : 1)) * out_buf;
        break;
      case Prim::Accum:
        u.kind = UnitKind::Group;
        u.group = sim::product(in_dims, 0, static_cast<std::size_t>(rc.b));
        u.outputs = out_count;
        u.c_elem = std::max({pmu_cycles(in_t.dtype), compute_cycles(fn), i64{1}});
        u.c_emit = pmu_cycles(out_t.dtype);
        u.calls_fn = true;
        u.fn_calls = in_count;
        if (out_buf > 0) onchip_ += (chip_.fifo_depth + 2) * out_buf;
        break;
      case Prim::Bufferize:
        u.kind = UnitKind::Group;
        u.group = sim::product(in_dims, 0, static_cast<std::size_t>(rc.a));
        u.outputs = out_count;
        u.c_elem = std::max(ceil_div(elem_bytes(in_t.dtype), chip_.pmu_bw), i64{1});
        onchip_ += (chip_.fifo_depth + 1) * elem_bytes(out_t.dtype);
        break;
      case Prim::Streamify:
        u.kind = UnitKind::Expand;
        u.group = in_count == 0 ? 0 : out_count / in_count;
        if (in_count == 0) {
          // The buffer's own size (in_count is 0: the unit never runs).
          u.group = 1;
        }
        u.c_elem = std::max(ceil_div(elem_bytes(out_t.dtype), chip_.pmu_bw), i64{1});
        break;
      case Prim::Repeat:
        u.kind = UnitKind::Expand;
        u.group = rc.n.eval(b_).value_or(1);
        u.c_elem = 1;
        break;
      case Prim::Promote:
      case Prim::Flatten:
      case Prim::Reshape:
      case Prim::Identity:
        u.kind = UnitKind::Elementwise;
        break;
      default:
        diags_.push_back(make_error("C-INTERNAL", "primitive " + u.primitive + " cannot be applied to one stream"));
        return false;
    }
    return true;
  }

  // Lanes set at every position of a selector value (one Multihot field).
  bool lanes_of(const sim::StreamValue& sel, std::size_t n, int line, Unit& u) {
    if (sel.fields.size() != 1 || sel.fields[0].esh.empty() ||
        static_cast<std::size_t>(sel.fields[0].esh.back()) != n) {
      fail_sizes(line, "the selector has " +
                           (sel.fields.empty() || sel.fields[0].esh.empty()
                                ? std::string("no")
                                : std::to_string(sel.fields[0].esh.back())) +
                           " lanes but the program routes over " + std::to_string(n));
      return false;
    }
    const auto& d = sel.fields[0].data;
    std::size_t positions = n == 0 ? 0 : d.size() / n;
    u.lane_off.assign(1, 0);
    u.lane_off.reserve(positions + 1);
    for (std::size_t q = 0; q < positions; ++q) {
      for (std::size_t e = 0; e < n; ++e)
        if (d[q * n + e] == 1.0f) u.lanes.push_back(static_cast<int>(e));
      u.lane_off.push_back(static_cast<i64>(u.lanes.size()));
    }
    return true;
  }

  bool partition(const step::Statement& st, const step::TypedStatement& ts, std::vector<int>& outs, Unit& u) {
    int line = st.loc.line;
    const auto& refs = st.call.arg.refs;
    const sim::StreamValue* sel = selector_value(refs[1]);
    if (!sel) {
      diags_.push_back(make_error("C-INTERNAL", "line " + std::to_string(line) + ": no routing data", st.loc));
      return false;
    }
    u.kind = UnitKind::Partition;
    if (!lanes_of(*sel, ts.outs.size(), line, u)) return false;
    // The dynamic dims: how many positions select each lane.
    std::string base = st.targets.empty() ? "L" : st.targets[0];
    std::vector<i64> counts(ts.outs.size(), 0);
    for (int e : u.lanes) ++counts[static_cast<std::size_t>(e)];
    for (std::size_t e = 0; e < counts.size(); ++e) b_[base + "#" + std::to_string(e)] = counts[e];
    for (const auto& t : ts.outs) {
      auto c = channel(t, line);
      if (!c) return false;
      outs.push_back(*c);
    }
    u.ins = {resolve(refs[0]).at(0), resolve(refs[1]).at(0)};
    u.outs = outs;
    const step::StreamType& x = ts.inputs.at(0);
    const step::StreamType& c = ts.inputs.at(1);
    std::size_t p = static_cast<std::size_t>(x.rank() - c.rank());
    u.group = sim::product(chan_dims_[static_cast<std::size_t>(u.ins[0])], 0, p);
    return true;
  }

  bool merge(const step::Statement& st, const step::TypedStatement& ts, int out, Unit& u) {
    int line = st.loc.line;
    const auto& refs = st.call.arg.refs;
    const sim::StreamValue* sel = selector_value(refs[1]);
    if (!sel) {
      diags_.push_back(make_error("C-INTERNAL", "line " + std::to_string(line) + ": no routing data", st.loc));
      return false;
    }
    std::vector<int> lanes = resolve(refs[0]);
    u.kind = UnitKind::Merge;
    if (!lanes_of(*sel, lanes.size(), line, u)) return false;
    u.ins = lanes;
    u.ins.push_back(resolve(refs[1]).at(0));
    u.outs = {out};
    const step::StreamType& lane_t = ts.inputs.at(0);
    const auto& d0 = chan_dims_[static_cast<std::size_t>(lanes.at(0))];
    u.group = d0.empty() ? 1 : sim::product(d0, 0, d0.size() - 1);
    const step::DType& out_t = ts.outs.at(0).dtype;
    u.c_elem = std::max({pmu_cycles(lane_t.dtype), compute_cycles(ts.call.fn), i64{1}});
    u.c_emit = pmu_cycles(out_t);
    u.calls_fn = true;
    u.fn_calls = static_cast<i64>(u.lanes.size()) * u.group;
    i64 ob = buffer_bytes(out_t);
    if (ob > 0) onchip_ += (chip_.fifo_depth + 2) * ob;
    return true;
  }

  // --- totals ----------------------------------------------------------------------------------------------
  std::optional<CostReport> finish() {
    TimingResult t = opts_.timeline_buckets > 0 ? simulate(units_, chans_, chip_, opts_.timeline_buckets)
                                                : simulate(units_, chans_, chip_);
    if (!t.complete) {
      diags_.push_back(make_error("C-INTERNAL", "the timing model did not drain: " + t.problem));
      return std::nullopt;
    }
    CostReport r;
    r.chip = chip_.name;
    r.clock_ghz = chip_.clock_ghz;
    for (const auto& [k, v] : p_.compiled.sizes) r.sizes[k] = v;
    r.seed = p_.inputs.seed;
    r.cycles = t.cycles;
    r.timeline_bucket_cycles = t.bucket_cycles;
    r.offchip_read_bytes = t.read_requests * chip_.hbm_request_bytes;
    r.offchip_write_bytes = t.write_requests * chip_.hbm_request_bytes;
    r.onchip_bytes = onchip_;
    // Channels the program needed deeper than fifo_depth hold their extra tokens on chip.
    for (std::size_t c = 0; c < chans_.size(); ++c) {
      i64 extra = t.depth[c] - chip_.fifo_depth;
      if (extra <= 0) continue;
      r.buffered_bytes += extra * chans_[c].elem_bytes;
      r.deepened_channels += 1;
    }
    r.onchip_bytes += r.buffered_bytes;
    for (std::size_t x = 0; x < units_.size(); ++x) {
      const Unit& u = units_[x];
      if (u.calls_fn) {
        r.allocated_compute += chip_.compute_bw;
        r.flops += u.fn_calls * fn_flops(unit_fn_[x]);
      }
      UnitReport ur;
      ur.line = u.line;
      ur.primitive = u.primitive;
      ur.name = u.name;
      const UnitStats& s = t.units[x];
      ur.busy = s.busy;
      ur.stall_in = s.stall_in;
      ur.blocked_out = s.blocked_out;
      ur.tokens_in = s.tokens_in;
      ur.tokens_out = s.tokens_out;
      if (x < t.timeline.size()) {
        ur.timeline_busy = std::move(t.timeline[x].busy);
        ur.timeline_stalled = std::move(t.timeline[x].stalled);
      }
      r.units.push_back(std::move(ur));
    }
    for (const auto& c : chans_) r.tokens += c.count;
    for (std::size_t x = 0; x < r.units.size(); ++x) {
      if (r.bottleneck < 0) {
        r.bottleneck = static_cast<int>(x);
        continue;
      }
      const UnitReport& a = r.units[x];
      const UnitReport& b = r.units[static_cast<std::size_t>(r.bottleneck)];
      if (a.busy > b.busy || (a.busy == b.busy && a.line < b.line)) r.bottleneck = static_cast<int>(x);
    }
    if (r.cycles > 0 && r.allocated_compute > 0)
      r.utilisation = static_cast<double>(r.flops) / (static_cast<double>(r.cycles) * static_cast<double>(r.allocated_compute));
    i64 traffic = r.offchip_read_bytes + r.offchip_write_bytes;
    if (traffic > 0) r.operational_intensity = static_cast<double>(r.flops) / static_cast<double>(traffic);
    if (r.onchip_bytes > chip_.onchip_capacity)
      r.violations.push_back(make_error(
          "C-ONCHIP", "the program needs " + std::to_string(r.onchip_bytes) + " bytes of on-chip memory but chip '" +
                          chip_.name + "' has " + std::to_string(chip_.onchip_capacity)));
    if (r.allocated_compute > chip_.compute_budget)
      r.violations.push_back(make_error(
          "C-COMPUTE", "the program allocates " + std::to_string(r.allocated_compute) + " FLOPs/cycle in " +
                           std::to_string(r.allocated_compute / chip_.compute_bw) + " compute units but chip '" +
                           chip_.name + "' allows " + std::to_string(chip_.compute_budget)));
    r.feasible = r.violations.empty();
    return r;
  }

  const CostModel::Prepared& p_;
  const step::Program& prog_;
  const step::TypedProgram& typed_;
  const ChipProfile& chip_;
  Diagnostics& diags_;
  step::SizeBinding b_;
  std::map<std::string, sim::StreamValue, std::less<>> routed_;
  std::map<std::string, std::vector<int>, std::less<>> env_;
  std::vector<Unit> units_;
  std::vector<Channel> chans_;
  std::vector<std::vector<i64>> chan_dims_;
  std::vector<const step::FnDecl*> unit_fn_;  // per unit: the fn it calls
  i64 onchip_ = 0;
  EvalOptions opts_;
};

}  // namespace

std::optional<CostReport> time_program(const CostModel::Prepared& p, const step::Program& prog,
                                       const step::TypedProgram& typed, const ChipProfile& chip,
                                       Diagnostics& diags, const EvalOptions& opts) {
  return Builder(p, prog, typed, chip, diags, opts).run();
}

}  // namespace sf::cost
