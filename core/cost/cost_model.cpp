#include "core/cost/cost_model.hpp"
#include "core/common/speedup.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/cost/unit_graph.hpp"
#include "core/verify/checker.hpp"

namespace sf::cost {

namespace {

std::string fmt_double(double v, int prec) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

}  // namespace

CostModel::CostModel(ChipProfile chip) : chip_(std::move(chip)) {}

std::shared_ptr<const CostModel::Prepared> CostModel::prepare(const step::TaskDoc& task, Diagnostics& diags) {
  std::string key = task.id + '\x1f' + task.path + '\x1f' +
                    std::to_string(std::hash<std::string>{}(task.raw_text_without_impl));
  for (auto s : task.verify.seeds) key += '\x1f' + std::to_string(s);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  }
  auto p = std::make_shared<Prepared>();
  p->doc = std::make_shared<step::TaskDoc>(task);
  step::SizeBinding sizes = p->doc->perf_binding();
  Diagnostics ds;
  auto ct = step::compile_task(*p->doc, sizes, ds);
  if (!ct) {
    for (auto& d : ds) {
      d.message = "under perf_sizes: " + d.message;
      diags.push_back(std::move(d));
    }
    return nullptr;
  }
  p->compiled = std::move(*ct);
  std::uint64_t seed = task.verify.seeds.empty() ? 42 : task.verify.seeds.front();
  auto in = sim::make_input_set(*p->doc, sizes, seed, ds);
  if (!in) {
    for (auto& d : ds) diags.push_back(std::move(d));
    return nullptr;
  }
  p->inputs = std::move(*in);
  for (const auto& [name, cf] : p->compiled.fns) p->flops[name] = cf.program ? cf.program->flops() : 0;
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = cache_.emplace(key, std::move(p));
  return it->second;
}

std::optional<CostReport> CostModel::evaluate(const step::TaskDoc& task, const step::Program& prog,
                                              const step::TypedProgram& typed, Diagnostics& diags) {
  auto p = prepare(task, diags);
  if (!p) return std::nullopt;
  return time_program(*p, prog, typed, chip_, diags, {});
}

std::optional<CostReport> CostModel::evaluate(const step::TaskDoc& task, const step::Program& prog,
                                              const step::TypedProgram& typed, Diagnostics& diags,
                                              const EvalOptions& opts) {
  auto p = prepare(task, diags);
  if (!p) return std::nullopt;
  return time_program(*p, prog, typed, chip_, diags, opts);
}

std::optional<CostReport> CostModel::evaluate(const step::TaskDoc& task, std::string_view impl,
                                              const std::vector<Location>& line_starts, Diagnostics& diags) {
  verify::CheckResult cr = verify::check_program(task, impl, line_starts);
  if (!cr.ok()) {
    for (auto& d : cr.diags)
      if (d.is_error()) diags.push_back(std::move(d));
    return std::nullopt;
  }
  return evaluate(task, *cr.program, *cr.typed, diags);
}

std::optional<double> speedup(const CostReport& candidate, std::optional<std::int64_t> baseline_cycles) {
  if (!candidate.feasible || !baseline_cycles || candidate.cycles <= 0) return std::nullopt;
  return static_cast<double>(*baseline_cycles) / static_cast<double>(candidate.cycles);
}

std::string feedback_text(const CostReport& r, std::optional<std::int64_t> baseline_cycles) {
  std::string s = "Performance (cost model, chip " + r.chip + "): " + std::to_string(r.cycles) + " cycles";
  if (auto sp = speedup(r, baseline_cycles))
    s += ", speedup " + fmt_double(*sp, 2) + "x over the reference solution (" + std::to_string(*baseline_cycles) +
         " cycles)";
  s += "; on-chip memory " + std::to_string(r.onchip_bytes) + " bytes.";
  for (const auto& v : r.violations) s += " Not feasible: " + v.code + " " + v.message + ".";
  std::vector<std::size_t> order(r.units.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (r.units[a].busy != r.units[b].busy) return r.units[a].busy > r.units[b].busy;
    return r.units[a].line < r.units[b].line;
  });
  s += " Busiest units:";
  for (std::size_t i = 0; i < order.size() && i < 3; ++i) {
    const UnitReport& u = r.units[order[i]];
    s += std::string(i ? ";" : "") + " " + (u.line ? "line " + std::to_string(u.line) + " " : "") + u.primitive +
         (u.name.empty() ? "" : " (" + u.name + ")") + ": busy " + std::to_string(u.busy) + ", waiting for input " +
         std::to_string(u.stall_in) + ", blocked on output " + std::to_string(u.blocked_out);
  }
  s += ".";
  return s;
}

std::string format_report(const CostReport& r, std::optional<std::int64_t> baseline_cycles) {
  std::string s;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%5s  %-10s %-14s %10s %10s %10s %9s %9s\n", "line", "primitive", "stream", "busy",
                "stall_in", "blocked", "tok_in", "tok_out");
  s += buf;
  for (std::size_t i = 0; i < r.units.size(); ++i) {
    const UnitReport& u = r.units[i];
    std::string name = u.name.size() > 14 ? u.name.substr(0, 13) + "~" : u.name;
    std::snprintf(buf, sizeof buf, "%5s  %-10s %-14s %10lld %10lld %10lld %9lld %9lld%s\n",
                  u.line ? std::to_string(u.line).c_str() : "-", u.primitive.c_str(), name.c_str(),
                  static_cast<long long>(u.busy), static_cast<long long>(u.stall_in),
                  static_cast<long long>(u.blocked_out), static_cast<long long>(u.tokens_in),
                  static_cast<long long>(u.tokens_out), static_cast<int>(i) == r.bottleneck ? "  <- bottleneck" : "");
    s += buf;
  }
  s += "cycles: " + std::to_string(r.cycles) + " (" + fmt_double(r.micros(), 3) + " us at " +
       fmt_double(r.clock_ghz, 2) + " GHz, chip " + r.chip + ")\n";
  if (baseline_cycles) {
    s += "baseline: " + std::to_string(*baseline_cycles) + " cycles";
    if (auto sp = speedup(r, baseline_cycles)) s += ", speedup " + fmt_double(*sp, 3) + "x" + speedup_mark(*sp);
    s += "\n";
  }
  s += "off-chip: " + std::to_string(r.offchip_read_bytes) + " B read, " + std::to_string(r.offchip_write_bytes) +
       " B written; on-chip: " + std::to_string(r.onchip_bytes) + " B";
  if (r.deepened_channels > 0)
    s += " (of which " + std::to_string(r.buffered_bytes) + " B in " + std::to_string(r.deepened_channels) +
         " channel(s) deepened beyond fifo_depth to avoid a deadlock)";
  s += "\n";
  s += "compute: " + std::to_string(r.flops) + " FLOPs on " + std::to_string(r.allocated_compute) +
       " FLOPs/cycle allocated, utilisation " + fmt_double(r.utilisation * 100.0, 2) + "%, operational intensity " +
       fmt_double(r.operational_intensity, 3) + " FLOP/B\n";
  s += "tokens: " + std::to_string(r.tokens) + "; feasible: " + (r.feasible ? "yes" : "no");
  for (const auto& v : r.violations) s += "\n  " + v.code + ": " + v.message;
  s += "\n";
  return s;
}

}  // namespace sf::cost