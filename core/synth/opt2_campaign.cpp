#include "core/synth/opt2_campaign.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>

#include "core/common/speedup.hpp"
#include "core/step2/check.hpp"
#include "core/step2/prepare.hpp"
#include "core/step2/sim.hpp"
#include "core/step2/perf/task_perf.hpp"

namespace sf::synth::opt2 {

namespace {

std::string limit_word(step2::perf::Limit l) {
  using L = step2::perf::Limit;
  switch (l) {
    case L::PmuRead: return "pmu_read";
    case L::Compute: return "compute";
    case L::WriteBack: return "write_back";
    case L::HbmRequests: return "hbm";
    case L::Waiting: return "waiting";
    case L::None: break;
  }
  return "none";
}

std::string group_of(const std::string& id) { return id.substr(0, id.find('/')); }

std::string sizes_text(const step::TaskDoc& t) {
  std::string s;
  for (const auto& [k, v] : t.sizes) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

// The verification data of a task under a binding (seed verify.seeds[0]), prepared once per process.
std::shared_ptr<const step2::Prepared> prepared(const step::TaskDoc& task, const step::SizeBinding& sizes,
                                                Diagnostics& diags) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const step2::Prepared>> cache;
  std::string key = task.id + "|" + task.path;
  for (const auto& [k, v] : sizes) key += "|" + k + "=" + std::to_string(v);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const std::uint64_t seed = task.verify.seeds.empty() ? 42 : task.verify.seeds.front();
  auto p = step2::prepare(task, sizes, seed, nullptr, diags);
  if (p) {
    std::lock_guard<std::mutex> lock(mu);
    cache[key] = p;
  }
  return p;
}

double median(std::vector<double> v) {
  if (v.empty()) return 1;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Faster: return "correct+faster";
    case Verdict::Slower: return "correct+slower";
    case Verdict::Infeasible: return "infeasible";
    case Verdict::Incorrect: return "incorrect";
  }
  return "?";
}

std::string_view credit_name(Credit c) { return c == Credit::Atu ? "atu" : c == Credit::Uniform ? "uniform" : "off"; }
std::optional<Credit> parse_credit(std::string_view s) {
  if (s == "atu" || s == "sage") return Credit::Atu;
  if (s == "uniform") return Credit::Uniform;
  if (s == "off") return Credit::Off;
  return std::nullopt;
}

Judgement judge(const Opt2Task& t, const std::string& impl, std::int64_t best_cycles, double tolerance) {
  Judgement j;
  auto res = step2::check(t.task, impl);
  if (!res.ok()) {
    j.verdict = Verdict::Incorrect;
    std::string code = res.diags.empty() ? "?" : res.diags.front().code;
    j.detail = "check " + code;
    return j;
  }
  // Timing first (cheap); verification of a feasible program only.
  step2::perf::Options po;
  po.reference_reads = step2::perf::reference_reads(t.task);
  auto rep = step2::perf::evaluate(*res.graph(), t.chip, po);
  j.cycles = rep.cycles;
  j.pct_of_peak = rep.pct_of_peak;
  std::vector<const step2::perf::NodeReport*> nodes;
  for (const auto& n : rep.nodes) nodes.push_back(&n);
  std::stable_sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->busy > b->busy; });
  const auto& g = *res.graph();
  char buf[256];
  std::snprintf(buf, sizeof buf, "cycles %lld, off-chip bytes %lld read + %lld written, %.1f%% of peak\n",
                static_cast<long long>(rep.cycles), static_cast<long long>(rep.offchip_read_bytes),
                static_cast<long long>(rep.offchip_write_bytes), rep.pct_of_peak);
  j.perf_text = buf;
  for (std::size_t i = 0; i < nodes.size() && i < 3; ++i) {
    const auto* n = nodes[i];
    std::string name = n->op;
    if (n->node >= 0 && static_cast<std::size_t>(n->node) < g.nodes.size() && !n->implicit) {
      int line = n->line;
      // The statement's first target names the node for the proposer (line -> target via the program).
      if (res.program && line > 0)
        for (const auto& s : res.program->stmts)
          if (s.line == line && !s.targets.empty()) name = s.targets.front();
    }
    j.busiest.push_back(name);
    if (i == 0) j.bottleneck = limit_word(n->limit);
    std::snprintf(buf, sizeof buf, "  %s (%s, line %d): busy %lld, stall %lld, blocked %lld, limit %s\n", name.c_str(),
                  n->op.c_str(), n->line, static_cast<long long>(n->busy), static_cast<long long>(n->stall_in),
                  static_cast<long long>(n->blocked_out), limit_word(n->limit).c_str());
    j.perf_text += buf;
  }
  for (const auto& v : rep.violations) j.perf_text += "  violation " + v.code + ": " + v.message + "\n";
  if (!rep.feasible) {
    j.verdict = Verdict::Infeasible;
    j.detail = rep.violations.empty() ? "C-?" : rep.violations.front().code;
    return j;
  }
  // Functional verification under every binding.
  for (const auto& bg : res.graphs) {
    Diagnostics d;
    auto prep = prepared(t.task, bg.sizes, d);
    if (!prep) {
      j.verdict = Verdict::Incorrect;
      j.detail = "prepare " + (d.empty() ? std::string("?") : d.front().code);
      return j;
    }
    auto sim = step2::simulate(bg.graph, prep->inputs);
    if (sim.error) {
      j.verdict = Verdict::Incorrect;
      j.detail = "simulate " + sim.error->code;
      return j;
    }
    for (std::size_t o = 0; o < t.task.tensor_outputs.size() && o < prep->reference.size(); ++o) {
      auto it = sim.outputs.find(t.task.tensor_outputs[o].name);
      const auto& ref = prep->reference[o];
      if (it == sim.outputs.end() || it->second.data.size() != ref.size()) {
        j.verdict = Verdict::Incorrect;
        j.detail = "values (output " + t.task.tensor_outputs[o].name + " missing or mis-shaped)";
        return j;
      }
      for (std::size_t i = 0; i < ref.size(); ++i) {
        double a = it->second.data[i], r = ref[i];
        if (!(std::abs(a - r) <= t.task.verify.atol + t.task.verify.rtol * std::abs(r))) {
          j.verdict = Verdict::Incorrect;
          j.detail = "values (" + t.task.tensor_outputs[o].name + " under " + bg.binding + ")";
          return j;
        }
      }
    }
  }
  const double sp = best_cycles > 0 && rep.cycles > 0 ? static_cast<double>(best_cycles) / rep.cycles : 0;
  j.verdict = faster_than(sp, tolerance) ? Verdict::Faster : Verdict::Slower;
  return j;
}

double BankRule::credit(Credit c) const {
  switch (c) {
    case Credit::Atu: return (wins + 1.0) / (wins + losses + 2.0);
    case Credit::Uniform: return (u_wins + 1.0) / (retrieved + 2.0);
    case Credit::Off: return 0.5;
  }
  return 0.5;
}

std::vector<const BankRule*> RuleBank::retrieve(const std::string& bottleneck, const std::string& group, int k,
                                                Credit c) const {
  std::vector<std::pair<double, const BankRule*>> scored;
  for (const auto& r : rules) {
    double rel = (r.bottleneck == bottleneck ? 1.0 : 0.0) + (r.op_pattern == group ? 0.5 : 0.0);
    scored.emplace_back(rel + r.credit(c), &r);
  }
  // Stable: among equal scores the older rule keeps its slot (no recency bonus).
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const BankRule*> out;
  for (std::size_t i = 0; i < scored.size() && static_cast<int>(i) < k; ++i) out.push_back(scored[i].second);
  return out;
}

std::string round_prompt(const Opt2Task& t, const std::string& impl, const Judgement& perf,
                         const std::vector<const BankRule*>& rules, const std::string& card) {
  std::string s = "## Operator card\n\n" + card + "\n## Task\n\n```yaml\n" + t.task.raw_text_without_impl +
                  "```\n\n## Program to improve\n\nThis program is correct. Make it faster.\n\n```yaml\nimpl: |\n";
  std::size_t pos = 0;
  while (pos < impl.size()) {
    std::size_t e = impl.find('\n', pos);
    if (e == std::string::npos) e = impl.size();
    s += "  " + impl.substr(pos, e - pos) + "\n";
    pos = e + 1;
  }
  s += "```\n\n## Performance\n\n" + perf.perf_text + "\n";
  if (!rules.empty()) {
    s += "## Retrieved experiences\n\n";
    for (const auto* r : rules) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", r->best_speedup);
      s += "- [" + r->rule.id + "] " + r->statement + " (move: `" + move_key(r->rule.kind, r->rule.param) +
           "`, measured " + buf + "x)\n";
    }
    s += "\n";
  }
  s += "## Answer format\n\nAnswer the whole program in one ```yaml block (`impl: |`), then one line\n"
       "`adopted: [ids]` naming the experiences you applied ([] when none) and one line `moves: [..]` naming\n"
       "your rewrites as moves (`tile N*2`, `par_dispatch 16`, `write_back_mu 0`, `compute_bw x2`,\n"
       "`drop_const_input NAME`, `reuse_load NAME`, `bufferize_reload RANK`, `parallel_split 2`,\n"
       "`add_tree_split 2`, `merge_elementwise C`; [] when none of them).\n";
  return s;
}

std::string task_group(const std::string& id) { return group_of(id); }
std::string task_sizes(const step::TaskDoc& t) { return sizes_text(t); }

TaskRun start_task(const std::string& id, const std::string& sizes, const Judgement& baseline,
                   const std::string& baseline_impl) {
  TaskRun run;
  run.out.id = id;
  run.out.baseline_cycles = baseline.cycles;
  run.out.best_cycles = baseline.cycles;
  run.out.pct_of_peak = baseline.pct_of_peak;
  run.out.best_impl = baseline_impl;
  run.best = baseline;
  run.group = group_of(id);
  run.sizes = sizes;
  return run;
}

TaskRun start_task(const Opt2Task& t, double tolerance) {
  return start_task(t.task.id, sizes_text(t.task), judge(t, t.baseline_impl, 0, tolerance), t.baseline_impl);
}

std::vector<const BankRule*> retrieve_for(const TaskRun& run, const RuleBank& bank, const Opt2Config& cfg) {
  if (!cfg.memory) return {};
  return bank.retrieve(run.best.bottleneck, run.group, cfg.k, cfg.credit);
}

Judgement judge_answer(const Opt2Task& t, const Proposal& answer, std::int64_t best_cycles, double tolerance) {
  if (answer.ok) return judge(t, answer.impl, best_cycles, tolerance);
  Judgement j;
  j.verdict = Verdict::Incorrect;
  j.detail = "no answer";
  return j;
}

RoundRecord apply_round(TaskRun& run, int round, const std::vector<std::string>& retrieved, const Proposal& p,
                        const Judgement& j, const Opt2Config& cfg, RuleBank& bank) {
  TaskOutcome& out = run.out;
  RoundRecord rec;
  rec.round = round;
  rec.retrieved = retrieved;
  for (const auto& m : p.moves) rec.moves.push_back(m.key);
  rec.adopted = p.adopted;
  rec.verdict = j.verdict;
  rec.detail = j.detail;
  rec.cycles = j.cycles;
  rec.pct_of_peak = j.pct_of_peak;
  const bool won = j.verdict == Verdict::Faster && j.cycles > 0;
  const double step_speedup = won ? static_cast<double>(out.best_cycles) / j.cycles : 0;
  if (cfg.memory && !bank.frozen) {
    for (auto& br : bank.rules) {
      const bool was_retrieved = std::find(rec.retrieved.begin(), rec.retrieved.end(), br.rule.id) != rec.retrieved.end();
      const bool was_adopted = std::find(rec.adopted.begin(), rec.adopted.end(), br.rule.id) != rec.adopted.end();
      if (was_retrieved) {
        ++br.retrieved;
        if (won) ++br.u_wins;
      }
      if (was_adopted) (won ? br.wins : br.losses) += 1;
    }
    if (won) {
      // Distil: one rule per move of the slow->fast pair (a move already in the bank is strengthened).
      for (const auto& m : p.moves) {
        auto it = std::find_if(bank.rules.begin(), bank.rules.end(),
                               [&](const BankRule& b) { return move_key(b.rule.kind, b.rule.param) == m.key; });
        if (it != bank.rules.end()) {
          it->best_speedup = std::max(it->best_speedup, step_speedup);
          continue;
        }
        auto rule = parse_rule_move(m.key, "r" + std::to_string(bank.rules.size() + 1));
        if (!rule) continue;  // a move no optimiser knows (a model's free text) makes no rule
        BankRule br;
        br.rule = *rule;
        br.bottleneck = run.best.bottleneck;
        br.op_pattern = run.group;
        br.sizes = run.sizes;
        br.best_speedup = step_speedup;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f", step_speedup);
        br.statement = "On a " + run.best.bottleneck + "-bound " + run.group + " program (" + br.sizes + "), " +
                       m.what + " paid " + buf + "x";
        bank.rules.push_back(std::move(br));
      }
    }
  }
  if (won) {
    out.best_cycles = j.cycles;
    out.pct_of_peak = j.pct_of_peak;
    out.best_impl = p.impl;
    out.best_round = round;
    for (const auto& m : p.moves) out.winning_moves.push_back(m.key);
    run.best = j;
  }
  out.speedup = out.best_cycles > 0 ? static_cast<double>(out.baseline_cycles) / out.best_cycles : 1;
  out.curve.push_back(out.speedup);
  out.rounds.push_back(rec);
  return rec;
}

void summarize(Opt2Result& res, double tolerance) {
  std::vector<double> sp;
  double logsum = 0, area = 0;
  int n1 = 0, n15 = 0, n2 = 0;
  for (const auto& o : res.tasks) {
    sp.push_back(o.speedup);
    logsum += std::log(o.speedup);
    n1 += faster_than(o.speedup, tolerance, 1.0);
    n15 += faster_than(o.speedup, tolerance, 1.5);
    n2 += faster_than(o.speedup, tolerance, 2.0);
    double a = 0;
    for (double c : o.curve) a += c;
    area += o.curve.empty() ? 1 : a / o.curve.size();
  }
  const double n = res.tasks.empty() ? 1 : static_cast<double>(res.tasks.size());
  res.fast_1 = n1 / n;
  res.fast_1_5 = n15 / n;
  res.fast_2 = n2 / n;
  res.median_speedup = median(sp);
  res.geomean_speedup = res.tasks.empty() ? 1 : std::exp(logsum / n);
  res.auc = area / n;
}

Opt2Result run_campaign(const std::vector<Opt2Task>& tasks, const Opt2Config& cfg, RuleBank& bank) {
  Opt2Result res;
  std::uint64_t proposal_seed = cfg.seed * 1000003ull;
  for (const auto& t : tasks) {
    TaskRun run = start_task(t, cfg.tolerance);
    for (int r = 0; r < cfg.budget; ++r) {
      std::vector<std::string> ids;
      std::vector<Rule> rules;
      for (const auto* g : retrieve_for(run, bank, cfg)) {
        rules.push_back(g->rule);
        ids.push_back(g->rule.id);
      }
      ProposeOptions po;
      po.seed = ++proposal_seed;
      po.perf_text = run.best.perf_text;
      auto p = propose(t.task, run.out.best_impl, run.best.busiest, rules, po);
      apply_round(run, r, ids, p, judge_answer(t, p, run.out.best_cycles, cfg.tolerance), cfg, bank);
    }
    if (cfg.budget == 0) run.out.speedup = 1;
    res.tasks.push_back(std::move(run.out));
  }
  summarize(res, cfg.tolerance);
  return res;
}

}  // namespace sf::synth::opt2
