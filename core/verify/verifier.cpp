#include "core/verify/verifier.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>

#include "core/common/hash.hpp"
#include "core/sim/datagen.hpp"
#include "core/step/printer.hpp"
#include "core/verify/dialect_v2.hpp"

namespace sf::verify {

namespace {

template <class Int>
void append_int(std::string& s, Int v) {
  char num[24];
  s.append(num, std::to_chars(num, num + sizeof num, v).ptr);  // the digits of std::to_string(v)
}

// "M=4;N=6;" (appended to `s`).
void append_binding_key(std::string& s, const step::SizeBinding& b) {
  for (const auto& [k, v] : b) {
    s += k;
    s += '=';
    append_int(s, v);
    s += ';';
  }
}

std::string binding_key(const step::SizeBinding& b) {
  std::string s;
  append_binding_key(s, b);
  return s;
}

// One entry per output field, in reference order: "S0", or "S0.j" for field j of a tuple output.
struct OutputField {
  std::size_t output, field;
  std::string name;
};
// The task part of every cache key: id, the hash of its text without the impl, and its path.
std::string task_key(const step::TaskDoc& task) {
  return task.id + "\n" + std::to_string(std::hash<std::string>{}(task.raw_text_without_impl)) + "\n" + task.path;
}

std::vector<OutputField> output_fields(const step::TaskDoc& task) {
  std::vector<OutputField> out;
  for (std::size_t i = 0; i < task.outputs.size(); ++i) {
    const auto& o = task.outputs[i];
    for (std::size_t j = 0; j < o.dtype.fields.size(); ++j)
      out.push_back({i, j, o.dtype.fields.size() == 1 ? o.name : o.name + "." + std::to_string(j)});
  }
  return out;
}

}  // namespace

std::vector<std::uint64_t> derive_extra_seeds(std::uint64_t campaign_seed, std::string_view task_id,
                                              std::int64_t sample, int k, const std::vector<std::uint64_t>& avoid) {
  std::vector<std::uint64_t> out;
  SplitMix64 rng(mix64(campaign_seed ^ fnv1a64(task_id)) ^ mix64(static_cast<std::uint64_t>(sample)));
  while (static_cast<int>(out.size()) < k) {
    // Seeds below 2^32 print and read back everywhere (JSON numbers, YAML).
    std::uint64_t s = rng.next() >> 32;
    if (std::find(avoid.begin(), avoid.end(), s) == avoid.end() && std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
  }
  return out;
}

std::vector<std::uint64_t> validation_extra_seeds(const step::TaskDoc& task, int n) {
  int k = n - static_cast<int>(task.verify.seeds.size());
  return k > 0 ? derive_extra_seeds(0, task.id, -1, k, task.verify.seeds) : std::vector<std::uint64_t>{};
}

std::shared_ptr<const Verifier::Prepared> Verifier::prepare(const step::TaskDoc& task,
                                                            const step::SizeBinding& sizes,
                                                            std::uint64_t seed, Diagnostics& diags,
                                                            bool cache, sim::Structure structure) {
  return prepare_keyed(task, task_key(task), sizes, seed, diags, cache, structure);
}

std::shared_ptr<const Verifier::Prepared> Verifier::prepare_keyed(const step::TaskDoc& task, const std::string& tkey,
                                                                  const step::SizeBinding& sizes, std::uint64_t seed,
                                                                  Diagnostics& diags, bool cache,
                                                                  sim::Structure structure) {
  std::string key;
  key.reserve(tkey.size() + 64);
  key += tkey;
  key += '\n';
  append_binding_key(key, sizes);
  key += '\n';
  append_int(key, seed);
  if (structure == sim::Structure::Varied) key += "\nvaried";
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
  }
  // The prepared data owns its copy of the task: compiled fns point into it.
  struct Owned : Prepared {
    step::TaskDoc doc;
  };
  auto p = std::make_shared<Owned>();
  p->doc = task;
  p->doc.impl.reset();
  Diagnostics local;
  auto ct = step::compile_task(p->doc, sizes, local);
  if (!ct) {
    diags.insert(diags.end(), local.begin(), local.end());
    return nullptr;
  }
  p->compiled = std::move(*ct);
  auto in = sim::make_input_set(p->doc, sizes, seed, local, structure);
  if (!in) {
    diags.insert(diags.end(), local.begin(), local.end());
    return nullptr;
  }
  p->inputs = std::move(*in);
  auto ref = sim::eval_reference(p->compiled, p->inputs, local);
  if (!ref) {
    diags.insert(diags.end(), local.begin(), local.end());
    return nullptr;
  }
  p->reference = std::move(*ref);
  for (const auto& g : p->reference.fragile) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "a gap of %.3g (below %.3g)", g.gap, 1e-5 * std::max(1.0, g.scale));
    p->task_diags.push_back(make_warning("X-FRAGILE",
                                         "the reference is fragile under seed " + std::to_string(seed) + " and sizes " +
                                             binding_key(sizes) + ": " + g.what + " has " + buf,
                                         g.loc));
  }
  for (std::size_t f = 0; f < p->reference.fields.size(); ++f) {
    for (double v : p->reference.fields[f]) {
      if (std::isnan(v)) {
        diags.push_back(make_error("X-REF-NAN",
                                   "the reference computes NaN for output field " + std::to_string(f) + " under seed " +
                                       std::to_string(seed),
                                   task.reference_line_starts.empty() ? Location{} : task.reference_line_starts[0]));
        return nullptr;
      }
    }
  }
  std::shared_ptr<const Prepared> result = p;
  if (!cache) return result;
  std::lock_guard<std::mutex> lock(mu_);
  cache_.emplace(key, result);
  return result;
}

std::shared_ptr<const CheckResult> Verifier::check(const step::TaskDoc& task, std::string_view impl) {
  std::string key;
  if (opt_.cache_static) {
    key = task_key(task) + "\n" + std::string(impl);
    std::lock_guard<std::mutex> lock(static_mu_);
    auto it = static_cache_.find(key);
    if (it != static_cache_.end()) {
      ++static_hits_;
      return it->second;
    }
  }
  ++static_checks_;
  auto result = std::make_shared<const CheckResult>(check_program(task, impl, {}, opt_.check));
  if (opt_.cache_static) {
    constexpr std::size_t kMaxStaticEntries = 8192;  // bounded: a long campaign starts over rather than grow
    std::lock_guard<std::mutex> lock(static_mu_);
    if (static_cache_.size() >= kMaxStaticEntries) static_cache_.clear();
    static_cache_.emplace(std::move(key), result);
  }
  return result;
}

Report Verifier::verify(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                        const std::vector<std::uint64_t>& extra_seeds, std::shared_ptr<const CheckResult> checked) {
  if (task.is_v2()) return verify_v2(task, impl, line_starts, extra_seeds, checked);
  auto t0 = std::chrono::steady_clock::now();
  Report rep;
  auto finish = [&]() -> Report {
    rep.stage = failing_stage(rep.diags);
    rep.pass = !rep.stage.has_value();
    if (rep.stage) {
      for (const auto& d : rep.diags)
        if (d.is_error() && d.stage() == *rep.stage) {
          rep.code = d.code;
          break;
        }
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(rep);
  };

  if (!checked) {
    if (line_starts.empty()) {
      checked = check(task, impl);
    } else {
      ++static_checks_;
      checked = std::make_shared<const CheckResult>(check_program(task, impl, line_starts, opt_.check));
    }
  }
  const CheckResult& cr = *checked;
  rep.diags = cr.diags;
  if (cr.program) {
    rep.program_length = step::program_length(*cr.program);
    rep.canonical_key = step::canonical_key(*cr.program, &task.sizes);
  }
  if (!cr.ok()) return finish();

  std::vector<step::TaskDoc::BindingRef> bindings{{"sizes", &task.sizes}};
  for (const auto& nb : task.static_binding_refs()) {
    const std::string_view name = nb.name;
    if ((name == "verify.alt_sizes" && opt_.use_alt_sizes) || (name == "verify.general_sizes" && opt_.use_general_sizes))
      bindings.push_back(nb);
  }
  // The fixed seeds (cached), then the caller's fresh ones (not cached).
  std::vector<std::pair<std::uint64_t, bool>> seeds;
  for (auto s : task.verify.seeds) seeds.emplace_back(s, true);
  for (auto s : extra_seeds) seeds.emplace_back(s, false);
  auto fields = output_fields(task);
  // The location of each returned stream, for numeric diagnostics.
  const step::Statement* ret = nullptr;
  for (const auto& s : cr.program->stmts)
    if (s.kind == step::Statement::Kind::Return) ret = &s;

  // A Partition's N and the list lengths that follow it are bound per binding: under another binding the program
  // is typed again with that binding alone (cheap; only programs with a Partition need it).
  bool has_partition = std::any_of(cr.typed->stmts.begin(), cr.typed->stmts.end(),
                                   [](const step::TypedStatement& t) { return t.call.prim == step::Prim::Partition; });
  std::map<std::string, step::TypedProgram> retyped;
  auto typed_for = [&](const step::SizeBinding& sizes) -> const step::TypedProgram& {
    if (!has_partition || sizes == task.sizes) return *cr.typed;
    auto key = binding_key(sizes);
    auto it = retyped.find(key);
    if (it != retyped.end()) return it->second;
    step::TypecheckOptions to;
    to.max_stream_scalars = opt_.check.max_stream_scalars;
    to.max_total_scalars = opt_.check.max_total_scalars;
    to.only_binding = &sizes;
    Diagnostics ignored;  // every binding was checked statically above
    auto t = step::typecheck(*cr.program, task, ignored, to);
    return t ? retyped.emplace(key, std::move(*t)).first->second : *cr.typed;
  };

  const std::string tkey = task_key(task);  // hashes the task text once for every input set
  sim::RunOptions ro;
  ro.time_limit_s = opt_.time_limit_s;
  ro.max_stream_scalars = opt_.check.max_stream_scalars;
  ro.max_total_scalars = opt_.check.max_total_scalars;
  for (const auto& [bname_c, sizes_p] : bindings) {
    const std::string bname = bname_c;
    const step::SizeBinding& sizes = *sizes_p;
    const bool alt = bname != "sizes";
    for (const auto& [seed, cached] : seeds) {
      auto prep = prepare_keyed(task, tkey, sizes, seed, rep.diags, cached,
                          cached ? sim::Structure::Spec : sim::Structure::Varied);
      if (!prep) return finish();
      InputSetReport isr;
      isr.sizes = sizes;
      isr.seed = seed;
      isr.alt = alt;
      isr.binding = bname;
      sim::RunResult rr = sim::run_program(*cr.program, typed_for(sizes), prep->compiled, prep->inputs, ro,
                                           prep->fns.get());
      if (rr.error) {
        Diagnostic d = *rr.error;
        std::string where = " (seed " + std::to_string(seed) + (cached ? "" : ", varied structure") +
                            (alt ? ", " + bname + ")" : ")");
        d.message += where;
        rep.diags.push_back(std::move(d));
        rep.sets.push_back(std::move(isr));
        return finish();
      }
      bool set_ok = true;
      for (std::size_t k = 0; k < fields.size(); ++k) {
        const auto& [oi, fj, fname] = fields[k];
        const auto& decl = task.outputs[oi];
        const sim::StreamValue& out = rr.outputs.at(oi);
        const sim::Field& of = out.fields.at(fj);
        const std::vector<double>& ref = prep->reference.fields.at(k);
        OutputReport orp;
        orp.name = fname;
        if (static_cast<std::size_t>(of.data.size()) != ref.size()) {
          rep.diags.push_back(make_error("V-MISMATCH",
                                         "output " + fname + ": the program produced " + std::to_string(of.data.size()) +
                                             " values but the reference has " + std::to_string(ref.size()),
                                         ret ? ret->loc : Location{}));
          set_ok = false;
          break;
        }
        orp.stats = sim::compare(of.data.data(), ref.data(), static_cast<std::int64_t>(ref.size()), task.verify.atol,
                                 task.verify.rtol);
        if (orp.stats.first_bad >= 0) orp.first_bad_at = sim::format_position(orp.stats.first_bad, out.dims, of.esh);
        rep.max_abs_error = std::max(rep.max_abs_error, orp.stats.max_abs);
        rep.max_rel_error = std::max(rep.max_rel_error, orp.stats.max_rel);
        if (orp.stats.ref_nan) {
          rep.diags.push_back(make_error("X-REF-NAN", "the reference computes NaN for output " + fname,
                                         task.reference_line_starts.empty() ? Location{} : task.reference_line_starts[0]));
          set_ok = false;
        } else if (!orp.stats.ok()) {
          Location loc = ret && oi < ret->returns.size() ? ret->returns[oi].loc : Location{};
          std::string msg = sim::mismatch_message(fname, orp.stats, out.dims, step::dims_str(decl.dims), of.esh,
                                                  task.verify.atol, task.verify.rtol, of.data.data(), ref.data());
          msg = "line " + std::to_string(loc.line) + ": " + msg + " (seed " + std::to_string(seed) +
                (cached ? "" : ", varied structure") +
                (alt ? ", " + bname + " " + binding_key(sizes) + ")" : ")");
          rep.diags.push_back(make_error(std::string(sim::mismatch_code(orp.stats)), msg, loc));
          set_ok = false;
        }
        isr.outputs.push_back(std::move(orp));
      }
      isr.pass = set_ok;
      rep.sets.push_back(std::move(isr));
      if (!set_ok) return finish();
    }
  }
  return finish();
}

std::vector<OutputComparison> compare_outputs(const Report& r) {
  std::vector<OutputComparison> out;
  for (const auto& set : r.sets)
    for (const auto& o : set.outputs) {
      auto it = std::find_if(out.begin(), out.end(), [&](const OutputComparison& c) { return c.name == o.name; });
      if (it == out.end()) {
        out.push_back({o.name});
        it = std::prev(out.end());
      }
      it->values += o.stats.total;
      it->mismatches += o.stats.bad;
      it->max_abs = std::max(it->max_abs, o.stats.max_abs);
      it->max_rel = std::max(it->max_rel, o.stats.max_rel);
      if (it->first_mismatch.empty() && !o.first_bad_at.empty()) {
        it->first_mismatch = o.first_bad_at + " (seed " + std::to_string(set.seed) + ", " + set.binding + ")";
        it->first_mismatch_code = std::string(sim::mismatch_code(o.stats));
      }
    }
  return out;
}

bool validate_task(Verifier& v, const step::TaskDoc& task, Diagnostics& diags) {
  if (task.is_v2()) return v2::validate_task(task, diags);
  bool ok = true;
  for (const auto& [name, sizes] : task.static_bindings()) {
    if (name == "perf_sizes") continue;  // the cost model's binding: never simulated
    for (std::uint64_t seed : task.verify.seeds) {
      auto p = v.prepare(task, sizes, seed, diags);
      if (!p) {
        ok = false;
        continue;
      }
      for (auto d : p->task_diags) {
        d.severity = Severity::Error;
        diags.push_back(std::move(d));
        ok = false;
      }
    }
  }
  return ok;
}

}  // namespace sf::verify
