#include "core/step2/perf/perf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/step2/perf/bytes.hpp"

namespace sf::step2::perf {

namespace {

std::string num(std::int64_t x) {
  std::string s = std::to_string(x), out;
  int k = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (k && k % 3 == 0 && *it != '-') out.push_back(',');
    out.push_back(*it);
    ++k;
  }
  return {out.rbegin(), out.rend()};
}

Limit limit_of(const Node& n, const SimNode& s) {
  if (is_memory(n.op)) return s.busy > s.stall_in + s.blocked_out ? Limit::HbmRequests : Limit::Waiting;
  if (!is_compute(n.op)) return s.busy > 0 && s.busy >= s.stall_in + s.blocked_out ? Limit::Compute : Limit::None;
  if (s.busy < s.stall_in + s.blocked_out) return Limit::Waiting;
  if (s.ld >= s.cmp && s.ld >= s.st) return Limit::PmuRead;
  if (s.cmp >= s.st) return Limit::Compute;
  return Limit::WriteBack;
}

}  // namespace

Report evaluate(const Graph& g, const Chip& chip, const Options& opt) {
  Report r;
  r.chip = chip.name;
  Bytes b = count_bytes(g, chip.hbm_request_bytes);
  r.offchip_read_bytes = b.offchip_read;
  r.offchip_write_bytes = b.offchip_write;
  r.onchip_bytes = b.onchip;
  r.flops = b.flops;
  r.hbm_requests = b.hbm_requests;
  for (const auto& n : g.nodes)
    if (is_compute(n.op)) {
      ++r.compute_nodes;
      r.compute_bw_total = add_sat(r.compute_bw_total, std::max<std::int64_t>(0, n.kw.compute_bw));
    }

  // Feasibility (§9): the program is correct but cannot run on this chip as written.
  if (r.compute_bw_total > chip.compute_budget)
    r.violations.push_back({"C-COMPUTE", "compute bandwidth budget exceeded: the compute nodes allocate Σ compute_bw = " +
                                             num(r.compute_bw_total) + " FLOP/cycle, the budget of " + chip.name +
                                             " is " + num(chip.compute_budget)});
  if (r.onchip_bytes > chip.onchip_capacity)
    r.violations.push_back({"C-ONCHIP", "on-chip memory exceeded: the program needs " + num(r.onchip_bytes) +
                                            " bytes, " + chip.name + " has " + num(chip.onchip_capacity)});
  if (chip.max_compute_nodes > 0 && r.compute_nodes > chip.max_compute_nodes)
    r.violations.push_back({"C-UNITS", std::to_string(r.compute_nodes) + " compute nodes, " + chip.name +
                                           " allows at most " + std::to_string(chip.max_compute_nodes)});

  SimResult sim;
  bool limit = false;
  if (b.hbm_requests > kMaxRequests) {
    r.violations.push_back({"C-PERF-LIMIT", "the program makes " + num(b.hbm_requests) +
                                                " HBM requests; the cost model simulates at most " + num(kMaxRequests)});
    limit = true;
  } else if (b.tokens > kMaxEvents) {
    r.violations.push_back({"C-PERF-LIMIT", "the program's streams carry " + num(b.tokens) +
                                                " elements; the cost model simulates at most " + num(kMaxEvents) +
                                                " events"});
    limit = true;
  }
  if (!limit) {
    SimOptions so = opt.sim;
    so.max_events = std::min(so.max_events, kMaxEvents);
    sim = simulate(g, chip, so);
    r.events = sim.events;
    r.cycles = sim.cycles;
    r.timeline = std::move(sim.timeline);
    r.timeline_truncated = sim.timeline_truncated;
    r.timeline_channels = so.timeline ? sim.channels : 0;
    switch (sim.status) {
      case SimResult::Status::Ok:
        break;
      case SimResult::Status::EventLimit:
        r.violations.push_back({"C-PERF-LIMIT", "the event model stopped after " + num(sim.events) +
                                                    " discrete events (at most " + num(so.max_events) + ")"});
        limit = true;
        break;
      case SimResult::Status::Deadlock:
        r.violations.push_back({"C-DEADLOCK", sim.message});
        break;
      case SimResult::Status::Invalid:
        r.violations.push_back({"C-PERF-LIMIT", "the cost model cannot time this graph: " + sim.message});
        limit = true;
        break;
    }
  }
  r.simulated = !limit;
  r.feasible = r.violations.empty();

  // Per-node rows.
  r.nodes.resize(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    NodeReport& nr = r.nodes[i];
    nr.node = static_cast<int>(i);
    nr.line = n.loc.line;
    nr.op = op_name(n.op);
    nr.implicit = n.implicit;
    nr.offchip_bytes = b.nodes[i].offchip_read + b.nodes[i].offchip_write;
    nr.onchip_bytes = b.nodes[i].onchip;
    nr.compute_bw = is_compute(n.op) ? n.kw.compute_bw : 0;
    nr.flops = b.nodes[i].flops;
    if (i < sim.nodes.size()) {
      const SimNode& s = sim.nodes[i];
      nr.busy = s.busy;
      nr.stall_in = s.stall_in;
      nr.blocked_out = s.blocked_out;
      nr.tokens_in = s.tokens_in;
      nr.tokens_out = s.tokens_out;
      nr.first_issue = s.first_issue;
      nr.last_response = s.last_response;
      nr.requests = s.requests;
      nr.limit = limit_of(n, s);
    }
  }

  // Peak (§10): max(FLOPs / compute_budget, min off-chip bytes / peak bytes per cycle), rounded up.
  for (const auto& t : g.tensors) {
    bool counted = t.is_output;
    if (!t.is_output)
      counted = !opt.reference_reads ||
                std::find(opt.reference_reads->begin(), opt.reference_reads->end(), t.name) != opt.reference_reads->end();
    if (!counted) continue;
    std::int64_t e = 4;
    for (auto d : t.shape) e = mul_sat(e, d);
    r.min_offchip_bytes = add_sat(r.min_offchip_bytes, e);
  }
  double peak = std::max(static_cast<double>(r.flops) / static_cast<double>(std::max<std::int64_t>(1, chip.compute_budget)),
                         static_cast<double>(r.min_offchip_bytes) / chip.peak_bytes_per_cycle());
  r.peak_cycles = static_cast<std::int64_t>(std::ceil(peak - 1e-9));
  if (r.simulated && r.cycles > 0) r.pct_of_peak = 100.0 * static_cast<double>(r.peak_cycles) / static_cast<double>(r.cycles);

  if (opt.baseline_cycles) {
    r.baseline_cycles = *opt.baseline_cycles;
    if (r.feasible && r.simulated && r.cycles > 0)
      r.speedup = static_cast<double>(*opt.baseline_cycles) / static_cast<double>(r.cycles);
  }
  r.suspicious = r.compute_nodes > kSuspiciousComputeNodes || r.pct_of_peak > 100.0 || r.speedup > 10.0;
  return r;
}

std::string format_report(const Report& r) {
  std::string s;
  char buf[256];
  std::snprintf(buf, sizeof buf, "chip %s: %s cycles%s\n", r.chip.c_str(), r.simulated ? num(r.cycles).c_str() : "?",
                r.simulated ? "" : " (not simulated)");
  s += buf;
  s += "off-chip read " + num(r.offchip_read_bytes) + " B, write " + num(r.offchip_write_bytes) + " B; on-chip " +
       num(r.onchip_bytes) + " B; " + num(r.flops) + " FLOPs; " + num(r.hbm_requests) + " HBM requests\n";
  std::snprintf(buf, sizeof buf, "peak %s cycles (%.1f %% of peak); %d compute node(s), Σ compute_bw %s\n",
                num(r.peak_cycles).c_str(), r.pct_of_peak, r.compute_nodes, num(r.compute_bw_total).c_str());
  s += buf;
  if (r.baseline_cycles >= 0) {
    if (r.speedup > 0)
      std::snprintf(buf, sizeof buf, "baseline %s cycles: speedup %.3fx\n", num(r.baseline_cycles).c_str(), r.speedup);
    else
      std::snprintf(buf, sizeof buf, "baseline %s cycles: no speedup (not feasible)\n", num(r.baseline_cycles).c_str());
    s += buf;
  }
  s += r.feasible ? "feasible\n" : "NOT feasible:\n";
  for (const auto& v : r.violations) s += "  " + v.code + ": " + v.message + "\n";
  if (r.suspicious) s += "suspicious: check the program (more than 16 compute nodes, above 100 % of peak or above 10x)\n";
  std::snprintf(buf, sizeof buf, "%5s %-17s %10s %10s %11s %8s %8s %12s\n", "line", "node", "busy", "stall_in",
                "blocked_out", "tok_in", "tok_out", "offchip_B");
  s += buf;
  for (const auto& n : r.nodes) {
    std::string op = n.op + (n.implicit ? "*" : "");
    std::snprintf(buf, sizeof buf, "%5d %-17s %10lld %10lld %11lld %8lld %8lld %12lld\n", n.line, op.c_str(),
                  static_cast<long long>(n.busy), static_cast<long long>(n.stall_in),
                  static_cast<long long>(n.blocked_out), static_cast<long long>(n.tokens_in),
                  static_cast<long long>(n.tokens_out), static_cast<long long>(n.offchip_bytes));
    s += buf;
  }
  return s;
}

}  // namespace sf::step2::perf
