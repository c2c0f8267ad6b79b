#include "core/sim/simulator.hpp"

#include <cmath>
#include <string_view>

#include "core/sim/datagen.hpp"
#include "core/sim/kernels.hpp"
#include "core/step/task.hpp"

namespace sf::sim {

namespace {

using step::Prim;

std::optional<Shape> eval_shape(const step::Dims& dims, const step::SizeBinding& b) {
  Shape s;
  for (const auto& d : dims) {
    auto v = d.eval_nonneg(b);
    if (!v) return std::nullopt;
    s.push_back(*v);
  }
  return s;
}

Gen to_gen(step::DataGen g) {
  switch (g) {
    case step::DataGen::Rand: return Gen::Rand;
    case step::DataGen::Randn: return Gen::Randn;
    case step::DataGen::Ones: return Gen::Ones;
    case step::DataGen::Binary: return Gen::Binary;
    case step::DataGen::Multihot: return Gen::Multihot;
  }
  return Gen::Rand;
}

// A task fn as an ElementFn: binds in/state fields and the parameters, checks Multihot outputs.
class FnAdapter final : public ElementFn {
 public:
  FnAdapter(const step::CompiledFn& cf, const step::TaskDoc& task, const InputSet& in) : cf_(cf), ws_(*cf.program) {
    const auto& f = *cf.decl;
    std::size_t nin = f.input.fields.size();
    std::size_t nout = f.output.fields.size();
    // Arguments: in0.., state0.., then every task parameter in declaration order (as compile_task binds them).
    for (std::size_t i = 0; i < nin + (f.stateful() ? nout : 0); ++i) args_.push_back(nullptr);
    for (const auto& p : task.parameters) args_.push_back(in.params.at(p.name).data());
    for (std::size_t j = 0; j < nout; ++j) {
      out_esh_.push_back(cf.out_esh[j]);
      multihot_.push_back(f.output.fields[j].multihot);
    }
    if (f.stateful()) {
      for (double v : *f.init) init_.push_back(static_cast<float>(v));
    }
    batchable_ = cf.program->batchable();
    for (bool m : multihot_) any_multihot_ = any_multihot_ || m;
    infallible_ = batchable_ && !any_multihot_;
    strides_.assign(args_.size(), 0);  // parameters keep stride 0; call_batch sets the in/state strides
  }

  const std::vector<Shape>& out_esh() const override { return out_esh_; }
  const std::vector<float>& init() const override { return init_; }

  bool infallible() const override { return infallible_; }

  Status call_batch(const float* const* in, const std::int64_t* in_strides, std::size_t nin,
                    const float* const* state, const std::int64_t* state_strides, float* const* out,
                    const std::int64_t* out_strides, std::int64_t count) override {
    const auto& f = *cf_.decl;
    // A program that can fail at run time is evaluated call by call so that an R-MULTIHOT of an earlier
    // call still wins over a later call's run-time error.
    if (nin != f.input.fields.size() || f.stateful() != (state != nullptr) || !batchable_)
      return ElementFn::call_batch(in, in_strides, nin, state, state_strides, out, out_strides, count);
    for (std::size_t i = 0; i < nin; ++i) {
      args_[i] = in[i];
      strides_[i] = in_strides[i];
    }
    if (state) {
      for (std::size_t j = 0; j < out_esh_.size(); ++j) {
        args_[nin + j] = state[j];
        strides_[nin + j] = state_strides[j];
      }
    }
    fnlang::EvalReport rep;
    if (!cf_.program->eval_batch<float>(args_.data(), strides_.data(), out, out_strides, count, ws_, &rep)) {
      const Diagnostic& d = *rep.error;
      return make_status(d.code, "fn " + f.func_name + ": " + d.message);
    }
    if (!any_multihot_) return ok_status();
    for (std::int64_t e = 0; e < count; ++e) {
      for (std::size_t j = 0; j < out_esh_.size(); ++j) {
        if (!multihot_[j]) continue;
        if (auto st = check_multihot(out[j] + e * out_strides[j], j); !st.ok()) return st;
      }
    }
    return ok_status();
  }

  Status call(const float* const* in, const float* const* state, float* const* out) override {
    const auto& f = *cf_.decl;
    std::size_t nin = f.input.fields.size();
    for (std::size_t i = 0; i < nin; ++i) args_[i] = in[i];
    if (f.stateful()) {
      for (std::size_t j = 0; j < out_esh_.size(); ++j) args_[nin + j] = state[j];
    }
    fnlang::EvalReport rep;
    if (!cf_.program->eval<float>(args_.data(), out, ws_, &rep)) {
      const Diagnostic& d = *rep.error;
      return make_status(d.code, "fn " + f.func_name + ": " + d.message);
    }
    for (std::size_t j = 0; j < out_esh_.size(); ++j) {
      if (!multihot_[j]) continue;
      if (auto st = check_multihot(out[j], j); !st.ok()) return st;
    }
    return ok_status();
  }

 private:
  Status check_multihot(const float* v, std::size_t j) const {
    const std::int64_t n = shape_size(out_esh_[j]);
    for (std::int64_t e = 0; e < n; ++e) {
      if (v[e] != 0.0f && v[e] != 1.0f) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v[e]));
        return make_status("R-MULTIHOT", "fn " + cf_.decl->func_name + " produced a Multihot value with entry " +
                                             std::string(buf) + " at position " + std::to_string(e) +
                                             " (entries must be exactly 0 or 1)");
      }
    }
    return ok_status();
  }

  const step::CompiledFn& cf_;
  fnlang::Workspace<float> ws_;
  std::vector<const float*> args_;
  std::vector<std::int64_t> strides_;
  std::vector<Shape> out_esh_;
  std::vector<bool> multihot_;
  std::vector<float> init_;
  bool batchable_ = false, infallible_ = false, any_multihot_ = false;
};

// A stream value in the environment: owned, or a read-only view of a task input (inputs are shared by every
// run on a cached input set, so a run reads them in place and copies one only when a kernel consumes it).
struct EnvValue {
  StreamValue own;
  const StreamValue* ref = nullptr;
  const StreamValue& get() const { return ref ? *ref : own; }
  StreamValue release() && { return ref ? *ref : std::move(own); }
};

struct Slot {
  bool is_list = false;
  EnvValue s;
  std::vector<StreamValue> items;
};

// Applies a relabelling kernel that has a copying (const&) and a moving (&&) overload: moves owned values.
template <class K>
Status consume_value(EnvValue&& x, K kernel) {
  return x.ref ? kernel(*x.ref) : kernel(std::move(x.own));
}

class Runner {
 public:
  Runner(const step::Program& prog, const step::TypedProgram& typed, const step::CompiledTask& ct,
         const InputSet& in, const RunOptions& opt, RunResult& res, FnCache* cache)
      : prog_(prog), typed_(typed), ct_(ct), in_(in), opt_(opt), res_(res), cache_(cache) {
    adapters_ = cache_ ? cache_->acquire() : std::make_unique<FnCache::Set>();
    std::size_t names = in.inputs.size();
    for (const auto& st : prog.stmts) names += st.targets.size();
    env_.reserve(names);
    budget_.max_stream_scalars = opt.max_stream_scalars;
    budget_.max_total_scalars = opt.max_total_scalars;
    budget_.deadline = std::chrono::steady_clock::now() +
                       std::chrono::microseconds(static_cast<std::int64_t>(opt.time_limit_s * 1e6));
  }

  ~Runner() {
    if (cache_) cache_->release(std::move(adapters_));
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void run() {
    // Inputs are read in place (see EnvValue); a partial run (only_statements) binds just the inputs it reads.
    if (!opt_.only_statements) {
      for (const auto& [name, v] : in_.inputs) {
        Slot s;
        s.s.ref = &v;
        if (opt_.keep_streams) res_.streams[name] = v;
        bind(name, std::move(s));
      }
    }
    for (std::size_t i = 0; i < prog_.stmts.size(); ++i) {
      if (opt_.only_statements && (i >= opt_.only_statements->size() || !(*opt_.only_statements)[i])) continue;
      const step::Statement& st = prog_.stmts[i];
      const step::TypedStatement& ts = typed_.stmts[i];
      Status s;
      switch (st.kind) {
        case step::Statement::Kind::FnList: continue;
        case step::Statement::Kind::Assign: s = assign(st, ts); break;
        case step::Statement::Kind::Comprehension: s = comprehension(st, ts); break;
        case step::Statement::Kind::Return: s = returns(st); break;
      }
      if (s.ok()) s = budget_.check_time();
      if (!s.ok()) {
        res_.error = make_error(s.code, "line " + std::to_string(st.loc.line) + ": " + s.message, st.loc);
        return;
      }
    }
  }

 private:
  ElementFn& adapter(const step::FnDecl* f) {
    const step::CompiledFn& cf = ct_.fns.at(f->func_name);
    auto& slot = (*adapters_)[&cf];
    if (!slot) slot = make_task_fn(cf, *ct_.doc, in_);
    return *slot;
  }

  // The slot of a defined name; in a partial run a task input is bound on its first use.
  Slot& slot(const std::string& name) {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == name) return it->second;
    Slot s;
    s.s.ref = &in_.inputs.at(name);
    return bind(name, std::move(s));
  }

  // A name defined again shadows its earlier slot (lookups search from the back), as a map would replace it.
  Slot& bind(std::string_view name, Slot&& s) { return env_.emplace_back(name, std::move(s)).second; }

  // Every stream is consumed exactly once (the checker's linearity), so taking moves it out of its slot.
  EnvValue take(const step::Ref& r) {
    Slot& s = slot(r.name);
    if (r.kind == step::Ref::Kind::Index) return EnvValue{std::move(s.items.at(static_cast<std::size_t>(r.index)))};
    return std::move(s.s);
  }

  std::vector<EnvValue> take_list(const step::Ref& r) {
    std::vector<EnvValue> out;
    if (r.kind == step::Ref::Kind::List) {
      for (const auto& it : r.items) out.push_back(take(it));
      return out;
    }
    for (auto& v : slot(r.name).items) out.push_back(EnvValue{std::move(v)});
    return out;
  }

  void define(const std::string& name, StreamValue v) {
    if (opt_.keep_streams) res_.streams[name] = v;
    Slot s;
    s.s.own = std::move(v);
    bind(name, std::move(s));
  }

  // `name` shares a task input (Copy of an input): both copies read it in place.
  void define_view(const std::string& name, const StreamValue* v) {
    if (opt_.keep_streams) res_.streams[name] = *v;
    Slot s;
    s.s.ref = v;
    bind(name, std::move(s));
  }

  void define_list(const std::string& name, std::vector<StreamValue> vs) {
    if (opt_.keep_streams)
      for (std::size_t e = 0; e < vs.size(); ++e) res_.streams[name + "[" + std::to_string(e) + "]"] = vs[e];
    Slot s;
    s.is_list = true;
    s.items = std::move(vs);
    bind(name, std::move(s));
  }

  std::int64_t dim_value(const step::Dim& d) const {
    return d.eval(in_.sizes).value_or(1);  // the checker proved it evaluates
  }

  // One-input primitives shared by statements and comprehension bodies.
  Status unary(const step::ResolvedCall& rc, const step::FnDecl* fn, const step::StreamType& in_type, EnvValue x,
               StreamValue& out) {
    switch (rc.prim) {
      case Prim::Map: return map(x.get(), adapter(fn), budget_, out);
      case Prim::Accum: return accum(x.get(), rc.b, adapter(fn), budget_, out);
      case Prim::Scan: return scan(x.get(), rc.b, adapter(fn), budget_, out);
      case Prim::Bufferize:
        return consume_value(std::move(x),
                             [&](auto&& v) { return bufferize(std::forward<decltype(v)>(v), rc.a, out); });
      case Prim::Streamify: {
        const int q = static_cast<int>(in_type.dtype.scalar().buffer.size());
        return consume_value(std::move(x),
                             [&](auto&& v) { return streamify(std::forward<decltype(v)>(v), q, out); });
      }
      case Prim::Promote:
        return consume_value(std::move(x),
                             [&](auto&& v) { return promote(std::forward<decltype(v)>(v), rc.b, out); });
      case Prim::Repeat: return repeat(x.get(), dim_value(rc.n), budget_, out);
      case Prim::Flatten:
        return consume_value(std::move(x),
                             [&](auto&& v) {
                               return flatten(std::forward<decltype(v)>(v), rc.L.at(0), rc.L.at(1), out);
                             });
      case Prim::Reshape: {
        const std::int64_t c = dim_value(rc.S);
        return consume_value(std::move(x),
                             [&](auto&& v) { return reshape(std::forward<decltype(v)>(v), rc.L, c, out); });
      }
      case Prim::Identity: out = std::move(x).release(); return ok_status();
      default: return make_status("R-INTERNAL", "primitive cannot be applied to one stream");
    }
  }

  Status assign(const step::Statement& st, const step::TypedStatement& ts) {
    const auto& rc = ts.call;
    const auto& refs = st.call.arg.refs;
    switch (rc.prim) {
      case Prim::Zip:
      case Prim::Map: {
        EnvValue x;
        if (st.call.arg.tuple) {
          std::vector<StreamValue> xs;
          for (const auto& r : refs) xs.push_back(take(r).release());
          Status s = zip_move(std::move(xs), x.own);
          if (!s.ok()) return s;
        } else {
          x = take(refs[0]);
        }
        if (rc.prim == Prim::Zip) {
          define(st.targets[0], std::move(x).release());
          return ok_status();
        }
        StreamValue out;
        Status s = map(x.get(), adapter(rc.fn), budget_, out);
        if (s.ok()) define(st.targets[0], std::move(out));
        return s;
      }
      case Prim::RepeatRef: {
        EnvValue x = take(refs[0]);
        EnvValue r = take(refs[1]);
        StreamValue out;
        Status s = repeat(x.get(), r.get().dims.empty() ? 1 : r.get().dims[0], budget_, out);
        if (s.ok()) define(st.targets[0], std::move(out));
        return s;
      }
      case Prim::Copy: {
        EnvValue x = take(refs[0]);
        if (x.ref) {
          define_view(st.targets[0], x.ref);
          define_view(st.targets[1], x.ref);
          return ok_status();
        }
        StreamValue y = x.own;
        define(st.targets[0], std::move(x.own));
        define(st.targets[1], std::move(y));
        return ok_status();
      }
      case Prim::Partition: {
        EnvValue x = take(refs[0]);
        EnvValue sel = take(refs[1]);
        std::vector<StreamValue> outs;
        Status s = partition(x.get(), sel.get(), static_cast<int>(rc.N), budget_, outs);
        if (!s.ok()) return s;
        if (st.targets.size() == 1) {
          define_list(st.targets[0], std::move(outs));
        } else {
          for (std::size_t e = 0; e < st.targets.size(); ++e) define(st.targets[e], std::move(outs[e]));
        }
        return ok_status();
      }
      case Prim::Merge: {
        std::vector<EnvValue> ins = take_list(refs[0]);
        EnvValue sel = take(refs[1]);
        std::vector<const StreamValue*> ptrs;
        for (const auto& v : ins) ptrs.push_back(&v.get());
        StreamValue out;
        std::string ln = refs[0].kind == step::Ref::Kind::Name ? refs[0].name : "the list";
        Status s = merge(ptrs, sel.get(), adapter(rc.fn), ln, budget_, out);
        if (s.ok()) define(st.targets[0], std::move(out));
        return s;
      }
      default: {
        StreamValue out;
        Status s = unary(rc, rc.fn, ts.inputs.at(0), take(refs[0]), out);
        if (s.ok()) define(st.targets[0], std::move(out));
        return s;
      }
    }
  }

  Status comprehension(const step::Statement& st, const step::TypedStatement& ts) {
    const auto& c = st.comp;
    std::vector<EnvValue> items;
    if (!c.list_literal.empty()) {
      for (const auto& n : c.list_literal) items.push_back(std::move(slot(n).s));
    } else {
      for (auto& v : slot(c.list_name).items) items.push_back(EnvValue{std::move(v)});
    }
    std::vector<StreamValue> outs(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const step::FnDecl* fn = ts.fns.empty() ? ts.call.fn : ts.fns[i];
      Status s = unary(ts.call, fn, ts.inputs.at(i), std::move(items[i]), outs[i]);
      if (!s.ok()) return s;
      s = budget_.check_time();
      if (!s.ok()) return s;
    }
    define_list(st.targets[0], std::move(outs));
    return ok_status();
  }

  Status returns(const step::Statement& st) {
    for (const auto& r : st.returns) res_.outputs.push_back(take(r).release());
    return ok_status();
  }

  const step::Program& prog_;
  const step::TypedProgram& typed_;
  const step::CompiledTask& ct_;
  const InputSet& in_;
  const RunOptions& opt_;
  RunResult& res_;
  Budget budget_;
  // The environment in definition order. Names point into the program and the input set (both outlive the
  // run); a program has a few dozen names, and a stream is mostly consumed soon after its definition, so a
  // search from the back beats a map's node per name.
  std::vector<std::pair<std::string_view, Slot>> env_;
  FnCache* cache_;
  std::unique_ptr<FnCache::Set> adapters_;
};

}  // namespace

std::unique_ptr<ElementFn> make_task_fn(const step::CompiledFn& cf, const step::TaskDoc& task, const InputSet& in) {
  return std::make_unique<FnAdapter>(cf, task, in);
}

std::optional<InputSet> make_input_set(const step::TaskDoc& task, const step::SizeBinding& sizes,
                                       std::uint64_t seed, Diagnostics& diags, Structure structure) {
  InputSet set;
  set.sizes = sizes;
  set.seed = seed;
  for (const auto& in : task.inputs) {
    auto dims = eval_shape(in.dims, sizes);
    auto esh = eval_shape(in.dtype.scalar().esh(), sizes);
    if (!dims || !esh) {
      diags.push_back(make_error("X-DIM", "input '" + in.name + "': a dim does not evaluate under the sizes", in.loc));
      return std::nullopt;
    }
    StreamValue v;
    v.dims = *dims;
    Field f;
    f.esh = *esh;
    std::int64_t positions = product(*dims);
    std::int64_t elem = shape_size(*esh);
    std::int64_t count = positions, per = elem;
    if (in.gen == step::DataGen::Multihot) {
      std::int64_t lanes = esh->empty() ? 1 : esh->back();
      count = positions * (elem / std::max<std::int64_t>(lanes, 1));
      per = lanes;
    }
    Status s = generate(to_gen(in.gen), seed, in.name, count, per, in.scale, in.mh_min, in.mh_max, f.data,
                        structure);
    if (!s.ok()) {
      diags.push_back(make_error(s.code, "input '" + in.name + "': " + s.message, in.loc));
      return std::nullopt;
    }
    v.fields.push_back(std::move(f));
    set.inputs[in.name] = std::move(v);
  }
  for (const auto& p : task.parameters) {
    step::Dims rev(p.dims.rbegin(), p.dims.rend());
    auto shape = eval_shape(rev, sizes);
    if (!shape) {
      diags.push_back(make_error("X-DIM", "parameter '" + p.name + "': a dim does not evaluate", p.loc));
      return std::nullopt;
    }
    std::vector<float> data;
    Status s = generate(to_gen(p.gen), seed, p.name, product(*shape), 1, p.scale, 0, 0, data, structure);
    if (!s.ok()) {
      diags.push_back(make_error(s.code, "parameter '" + p.name + "': " + s.message, p.loc));
      return std::nullopt;
    }
    set.params[p.name] = std::move(data);
  }
  return set;
}

std::optional<ReferenceResult> eval_reference(const step::CompiledTask& ct, const InputSet& in, Diagnostics& diags) {
  const auto& task = *ct.doc;
  std::vector<std::vector<double>> args;
  for (const auto& i : task.inputs) {
    const auto& f = in.inputs.at(i.name).fields.at(0).data;
    args.emplace_back(f.begin(), f.end());
  }
  for (const auto& p : task.parameters) {
    const auto& d = in.params.at(p.name);
    args.emplace_back(d.begin(), d.end());
  }
  std::vector<const double*> argp;
  for (const auto& a : args) argp.push_back(a.data());
  ReferenceResult res;
  for (const auto& s : ct.reference->output_shapes()) res.fields.emplace_back(static_cast<std::size_t>(shape_size(s)));
  std::vector<double*> outp;
  for (auto& f : res.fields) outp.push_back(f.data());
  fnlang::Workspace<double> ws(*ct.reference);
  fnlang::EvalReport rep;
  if (!ct.reference->eval<double>(argp.data(), outp.data(), ws, &rep)) {
    if (rep.error) diags.push_back(*rep.error);
    return std::nullopt;
  }
  res.fragile = std::move(rep.fragile);
  return res;
}

RunResult run_program(const step::Program& prog, const step::TypedProgram& typed, const step::CompiledTask& ct,
                      const InputSet& in, const RunOptions& opt) {
  return run_program(prog, typed, ct, in, opt, nullptr);
}

RunResult run_program(const step::Program& prog, const step::TypedProgram& typed, const step::CompiledTask& ct,
                      const InputSet& in, const RunOptions& opt, FnCache* cache) {
  RunResult res;
  Runner(prog, typed, ct, in, opt, res, cache).run();
  return res;
}

std::unique_ptr<FnCache::Set> FnCache::acquire() {
  std::lock_guard<std::mutex> lock(mu_);
  if (free_.empty()) return std::make_unique<Set>();
  auto s = std::move(free_.back());
  free_.pop_back();
  return s;
}

void FnCache::release(std::unique_ptr<Set> set) {
  if (!set) return;
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(std::move(set));
}

}  // namespace sf::sim
