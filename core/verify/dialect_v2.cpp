#include "core/verify/dialect_v2.hpp"

#include <chrono>
#include <set>
#include <tuple>

#include "core/common/sha256.hpp"
#include "core/fnlang/fnlang.hpp"
#include "core/sim/compare.hpp"
#include "core/step2/ops.hpp"
#include "core/step2/prepare.hpp"
#include "core/step2/sim.hpp"
#include "core/verify/verifier.hpp"

namespace sf::verify {

namespace {

step2::CheckOptions v2_options(const CheckOptions& opt) {
  step2::CheckOptions o;
  o.max_statements = opt.max_statements;
  o.max_bytes = opt.max_bytes;
  return o;
}

// The canonical key of a v2 program: its statements without comments and blanks.
std::string v2_key(std::string_view impl) {
  std::string s;
  bool comment = false;
  for (char c : impl) {
    if (c == '#') comment = true;
    if (c == '\n') comment = false, s += ';';
    if (!comment && c != ' ' && c != '\t' && c != '\r' && c != '\n') s += c;
  }
  return sha256_hex(s);
}

// The input sets of one binding: the task's scales, then each verify.input_sets entry.
std::vector<std::pair<std::string, const step2::ScaleOverrides*>> input_sets(const step::TaskDoc& task) {
  std::vector<std::pair<std::string, const step2::ScaleOverrides*>> out{{"", nullptr}};
  for (std::size_t i = 0; i < task.verify.input_sets.size(); ++i)
    out.emplace_back("input_sets[" + std::to_string(i) + "]", &task.verify.input_sets[i]);
  return out;
}

std::string set_key(const step::TaskDoc& task, const step::SizeBinding& sizes, std::uint64_t seed, const std::string& set) {
  return task.id + "\n" + std::to_string(std::hash<std::string>{}(task.raw_text_without_impl)) + "\n" + task.path +
         "\n" + step::binding_text(sizes) + "\n" + std::to_string(seed) + "\n" + set;
}

}  // namespace

namespace v2 {

CheckResult check_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                          const CheckOptions& opt) {
  CheckResult res;
  auto r = std::make_shared<step2::CheckResult>(step2::check(task, impl, line_starts, v2_options(opt)));
  res.diags = r->diags;
  res.v2 = std::move(r);
  return res;
}

CheckResult check_document(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                           const CheckOptions& opt) {
  CheckResult res = v2::check_program(task, impl, line_starts, opt);
  std::set<std::tuple<std::string, int, int>> seen;
  bool task_ok = true;
  for (const auto& [name, sizes] : step2::bindings_of(task)) {
    fnlang::CompileOptions ropt;
    ropt.fn_name = "reference";
    ropt.mode = fnlang::Mode::Reference;
    ropt.line_starts = task.reference_line_starts;
    ropt.sizes = std::map<std::string, std::int64_t>(sizes.begin(), sizes.end());
    Diagnostics local;
    bool shapes = true;
    for (const auto* list : {&task.tensor_inputs, &task.tensor_outputs})
      for (const auto& t : *list) {
        std::string why;
        auto s = step2::tensor_shape(t, sizes, why);
        if (!s) {
          local.push_back(make_error("X-DIM", why, t.loc));
          shapes = false;
          continue;
        }
        if (list == &task.tensor_inputs) ropt.args.push_back({t.name, *s});
        else ropt.expected_outputs.push_back(*s);
      }
    if (shapes) fnlang::compile(task.reference, ropt, local);
    for (auto& d : local) {
      if (!seen.emplace(d.code, d.loc.line, d.loc.column).second) continue;
      if (name != "sizes") d.message += " (under " + name + ": " + step::binding_text(sizes) + ")";
      task_ok &= !d.is_error();
      res.diags.push_back(std::move(d));
    }
  }
  if (!task_ok) res.v2.reset();
  sort_and_cap(res.diags);
  return res;
}

bool validate_task(const step::TaskDoc& task, Diagnostics& diags) {
  bool ok = true;
  for (const auto& [name, sizes] : step2::bindings_of(task))
    for (std::uint64_t seed : task.verify.seeds)
      for (const auto& [set, scales] : input_sets(task)) {
        auto p = step2::prepare(task, sizes, seed, scales, diags);
        if (!p) {
          ok = false;
          continue;
        }
        for (auto d : p->warnings) {
          d.severity = Severity::Error;
          diags.push_back(std::move(d));
          ok = false;
        }
      }
  return ok;
}

int run(const ProgramFile& pf, const RunRequest& req, std::string& out, Diagnostics& diags) {
  const step::TaskDoc& task = pf.task;
  auto cr = step2::check(task, pf.impl, pf.impl_line_starts);
  diags.insert(diags.end(), cr.diags.begin(), cr.diags.end());
  if (!cr.ok()) return 1;
  if (req.alt && cr.graphs.size() < 2) {
    diags.push_back(make_error("D-VALUE", "the task declares no alternative sizes (verify.alt_sizes)"));
    return 2;
  }
  const step2::BoundGraph& bg = cr.graphs[req.alt ? 1 : 0];
  const std::uint64_t seed = req.seed_set ? req.seed : task.verify.seeds.front();
  auto prep = step2::prepare(task, bg.sizes, seed, nullptr, diags);
  if (!prep) return 1;
  step2::SimOptions so;
  so.keep_streams = !req.show.empty();
  auto t0 = std::chrono::steady_clock::now();
  auto sr = step2::simulate(bg.graph, prep->inputs, so);
  double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  out += "task " + task.id + ", seed " + std::to_string(seed) + ", sizes";
  for (const auto& [k, v] : bg.sizes) out += " " + k + "=" + std::to_string(v);
  out += ", " + std::to_string(static_cast<long long>(us)) + " us\n";
  if (sr.error) {
    diags.push_back(*sr.error);
    return 1;
  }
  bool ok = true;
  for (std::size_t k = 0; k < task.tensor_outputs.size(); ++k) {
    const auto& name = task.tensor_outputs[k].name;
    const auto& y = sr.outputs.at(name);
    const auto& ref = prep->reference[k];
    auto st = sim::compare(y.data.data(), ref.data(), static_cast<std::int64_t>(ref.size()), task.verify.atol,
                           task.verify.rtol);
    std::vector<std::int64_t> flat{static_cast<std::int64_t>(ref.size())};
    out += "output " + name + ": shape " + step2::shape_text(y.shape) + ", " + std::to_string(y.data.size()) +
           " values (flattened); ";
    if (st.ok()) {
      out += sim::pass_message(name, st, flat, {}, task.verify.atol, task.verify.rtol) + "\n";
    } else {
      ok = false;
      out += sim::mismatch_message(name, st, flat, "[flattened]", {}, task.verify.atol, task.verify.rtol,
                                   y.data.data(), ref.data()) + "\n";
    }
  }
  if (!req.show.empty()) {
    const auto& g = bg.graph;
    int found = -1;
    std::string names;
    for (std::size_t i = 0; i < g.streams.size(); ++i) {
      if (g.streams[i].name.empty()) continue;
      names += " " + g.streams[i].name;
      if (g.streams[i].name == req.show) found = static_cast<int>(i);
    }
    if (found < 0) {
      diags.push_back(make_error("D-VALUE", "no stream named '" + req.show + "' (streams:" + names + ")"));
      return 2;
    }
    const auto& s = g.streams[static_cast<std::size_t>(found)];
    out += "stream " + req.show + ": " + step2::type_text(s.type) + "\n  " +
           step2::token_view(sr.streams[static_cast<std::size_t>(found)], req.max_tokens) + "\n";
  }
  return ok ? 0 : 1;
}

std::string graph(const ProgramFile& pf, bool dot, Diagnostics& diags) {
  auto cr = step2::check(pf.task, pf.impl, pf.impl_line_starts);
  diags.insert(diags.end(), cr.diags.begin(), cr.diags.end());
  if (!cr.ok()) return "";
  const step2::Graph& g = *cr.graph();
  auto label = [&](const step2::Node& n) {
    std::string l = std::string(step2::op_name(n.op));
    if (n.kw.fn != step2::Fn::None) l += " " + std::string(step2::fn_name(n.kw.fn));
    if (n.implicit) l += " (implicit, n=" + std::to_string(n.kw.n) + ")";
    return l;
  };
  std::string s;
  if (dot) {
    s += "digraph \"" + pf.task.id + "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    for (const auto& t : g.tensors)
      s += "  \"" + t.name + "\" [shape=cylinder, label=\"" + t.name + " " + step2::shape_text(t.shape) + "\"];\n";
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const auto& n = g.nodes[i];
      s += "  n" + std::to_string(i) + " [label=\"" + (n.target.empty() ? "" : n.target + " = ") + label(n) +
           "\\nline " + std::to_string(n.loc.line) + "\"" + (n.implicit ? ", style=dashed" : "") + "];\n";
      if (n.op == step2::Op::OffChipLoad) s += "  \"" + n.tensor + "\" -> n" + std::to_string(i) + ";\n";
      if (n.op == step2::Op::OffChipStore) s += "  n" + std::to_string(i) + " -> \"" + n.tensor + "\";\n";
    }
    for (const auto& st : g.streams)
      s += "  n" + std::to_string(st.producer) + " -> n" + std::to_string(st.consumer) + " [label=\"" +
           step2::type_text(st.type) + "\"];\n";
    return s + "}\n";
  }
  s += "graph of " + pf.task.id + " (step-v2, sizes " + step::binding_text(cr.graphs[0].sizes) + "): " +
       std::to_string(g.nodes.size()) + " nodes, " + std::to_string(g.streams.size()) + " streams, " +
       std::to_string(g.compute_nodes()) + " compute nodes\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    s += "n" + std::to_string(i) + "  line " + std::to_string(n.loc.line) + "  " + label(n);
    if (!n.target.empty()) s += "  -> " + n.target;
    if (!n.tensor.empty()) s += (n.op == step2::Op::OffChipLoad ? "  reads " : "  writes ") + n.tensor;
    s += "\n";
    for (int in : n.inputs) {
      const auto& st = g.streams[static_cast<std::size_t>(in)];
      s += "    in  s" + std::to_string(in) + " " + step2::type_text(st.type) + " from n" + std::to_string(st.producer) + "\n";
    }
  }
  return s;
}

}  // namespace v2

Report Verifier::verify_v2(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                           const std::vector<std::uint64_t>& extra_seeds, std::shared_ptr<const CheckResult> checked) {
  auto t0 = std::chrono::steady_clock::now();
  Report rep;
  auto finish = [&]() -> Report {
    sort_and_cap(rep.diags);
    rep.stage = failing_stage(rep.diags);
    rep.pass = !rep.stage.has_value();
    if (rep.stage)
      for (const auto& d : rep.diags)
        if (d.is_error() && d.stage() == *rep.stage) {
          rep.code = d.code;
          break;
        }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(rep);
  };
  if (!checked || !checked->v2) {
    ++static_checks_;
    checked = std::make_shared<const CheckResult>(v2::check_program(task, impl, line_starts, opt_.check));
  }
  const step2::CheckResult& cr = *checked->v2;
  rep.diags = cr.diags;
  rep.program_length = checked->statements();
  if (cr.program) rep.canonical_key = v2_key(impl);
  if (!cr.ok()) return finish();
  for (const auto& bg : cr.graphs) {
    const bool alt = bg.binding != "sizes";
    if (alt && !opt_.use_alt_sizes) continue;
    // The task's seeds (cached), then the caller's fresh ones (campaigns' verify.extra_seeds; not cached).
    std::vector<std::pair<std::uint64_t, bool>> seeds;
    for (auto s : task.verify.seeds) seeds.emplace_back(s, true);
    for (auto s : extra_seeds) seeds.emplace_back(s, false);
    for (const auto& [seed, cached] : seeds)
      for (const auto& [set, scales] : input_sets(task)) {
        const std::string key = set_key(task, bg.sizes, seed, set);
        std::shared_ptr<const step2::Prepared> prep;
        {
          std::lock_guard<std::mutex> lock(mu_);
          auto it = cache_v2_.find(key);
          if (it != cache_v2_.end()) prep = it->second;
        }
        if (!prep) {
          prep = step2::prepare(task, bg.sizes, seed, scales, rep.diags);
          if (!prep) return finish();
          if (cached) {
            std::lock_guard<std::mutex> lock(mu_);
            cache_v2_.emplace(key, prep);
          }
        }
        rep.diags.insert(rep.diags.end(), prep->warnings.begin(), prep->warnings.end());
        const std::string where = " (seed " + std::to_string(seed) + (set.empty() ? "" : ", " + set) +
                                  (alt ? ", " + bg.binding + " " + step::binding_text(bg.sizes) : "") + ")";
        InputSetReport isr;
        isr.sizes = bg.sizes;
        isr.seed = seed;
        isr.alt = alt;
        isr.binding = bg.binding;
        auto sr = step2::simulate(bg.graph, prep->inputs);
        if (sr.error) {
          Diagnostic d = *sr.error;
          d.message += where;
          rep.diags.push_back(std::move(d));
          rep.sets.push_back(std::move(isr));
          return finish();
        }
        bool ok = true;
        for (std::size_t k = 0; k < task.tensor_outputs.size(); ++k) {
          const auto& name = task.tensor_outputs[k].name;
          const auto& y = sr.outputs.at(name);
          const auto& ref = prep->reference[k];
          OutputReport o;
          o.name = name;
          o.stats = sim::compare(y.data.data(), ref.data(), static_cast<std::int64_t>(ref.size()), task.verify.atol,
                                 task.verify.rtol);
          std::vector<std::int64_t> flat{static_cast<std::int64_t>(ref.size())};
          if (o.stats.first_bad >= 0) o.first_bad_at = sim::format_position(o.stats.first_bad, flat, {});
          rep.max_abs_error = std::max(rep.max_abs_error, o.stats.max_abs);
          rep.max_rel_error = std::max(rep.max_rel_error, o.stats.max_rel);
          if (!o.stats.ok()) {
            Location loc;
            for (const auto& n : bg.graph.nodes)
              if (n.op == step2::Op::OffChipStore && n.tensor == name) loc = n.loc;
            rep.diags.push_back(make_error(std::string(sim::mismatch_code(o.stats)),
                                           "line " + std::to_string(loc.line) + ": " +
                                               sim::mismatch_message(name, o.stats, flat, "[flattened]", {},
                                                                     task.verify.atol, task.verify.rtol, y.data.data(),
                                                                     ref.data()) +
                                               where,
                                           loc));
            ok = false;
          }
          isr.outputs.push_back(std::move(o));
        }
        isr.pass = ok;
        rep.sets.push_back(std::move(isr));
        if (!ok) return finish();
      }
  }
  return finish();
}

}  // namespace sf::verify
