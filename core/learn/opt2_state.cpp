#include "core/learn/opt2_state.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "core/learn/engine_state.hpp"

namespace sf::learn {

using nlohmann::json;
namespace o2 = synth::opt2;

namespace {

o2::Verdict verdict_of(const std::string& name) {
  for (o2::Verdict v : {o2::Verdict::Faster, o2::Verdict::Slower, o2::Verdict::Infeasible, o2::Verdict::Incorrect})
    if (o2::verdict_name(v) == name) return v;
  return o2::Verdict::Incorrect;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 1.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

o2::Opt2Config opt2_config(const CampaignConfig& c) {
  o2::Opt2Config o;
  o.budget = c.memory.params.rounds;
  o.seed = c.seed;
  o.memory = c.memory.enabled;
  o.credit = c.memory.params.credit == memory::CreditMode::Uniform ? o2::Credit::Uniform : o2::Credit::Atu;
  o.k = c.memory.params.k;
  o.tolerance = c.fast_tolerance;
  return o;
}

o2::Judgement judgement_from(const Opt2Judgement& e) {
  o2::Judgement j;
  j.verdict = verdict_of(e.verdict);
  j.detail = e.detail;
  j.cycles = e.cycles;
  j.pct_of_peak = e.pct_of_peak;
  j.bottleneck = e.bottleneck;
  j.busiest = e.busiest;
  j.perf_text = e.perf_text;
  return j;
}

Opt2Judgement judgement_event(const o2::Judgement& j) {
  return {std::string(o2::verdict_name(j.verdict)), j.detail, j.cycles, j.pct_of_peak, j.bottleneck, j.busiest,
          j.perf_text};
}

o2::Proposal proposal_from(const Opt2Round& e) {
  o2::Proposal p;
  p.ok = !e.impl.empty();
  p.impl = e.impl;
  p.adopted = e.adopted;
  for (const auto& m : e.moves) p.moves.push_back({m.key, m.what, m.rule});
  return p;
}

bool Opt2State::configure(const json& config, std::string& error) {
  auto c = config_from_json(config, error);
  if (!c) return false;
  cfg = opt2_config(*c);
  return true;
}

o2::TaskRun* Opt2State::run_of(const std::string& task) {
  for (auto& r : runs)
    if (r.out.id == task) return &r;
  return nullptr;
}

const o2::TaskRun* Opt2State::run_of(const std::string& task) const {
  return const_cast<Opt2State*>(this)->run_of(task);
}

bool Opt2State::apply(const EventBody& body, std::string& error) {
  if (const auto* b = std::get_if<Opt2Bank>(&body)) {
    if (bank_set) return error = "opt2_bank appears twice", false;
    auto bank_read = o2::bank_from_json(b->bank, error);
    if (!bank_read) return error = "opt2_bank: " + error, false;
    bank = std::move(*bank_read);
    bank.frozen = b->frozen;
    bank_source = b->source;
    bank_set = true;
    return true;
  }
  if (const auto* t = std::get_if<Opt2TaskStarted>(&body)) {
    if (run_of(t->task)) return error = "opt2_task " + t->task + " appears twice", false;
    runs.push_back(o2::start_task(t->task, t->sizes, judgement_from(t->baseline), ""));
    return true;
  }
  if (const auto* r = std::get_if<Opt2Round>(&body)) {
    o2::TaskRun* run = run_of(r->task);
    if (!run) return error = "opt2_round of task " + r->task + " before its opt2_task", false;
    if (r->round != static_cast<int>(run->out.rounds.size()))
      return error = "opt2_round " + std::to_string(r->round) + " of " + r->task + " out of order", false;
    const o2::Proposal p = proposal_from(*r);
    // Applied to copies first: an event that contradicts the fold leaves the state unchanged.
    o2::TaskRun next = *run;
    o2::RuleBank next_bank = bank;
    o2::apply_round(next, r->round, r->retrieved, p, judgement_from(r->judgement), cfg, next_bank);
    if (next.out.best_cycles != r->best_cycles)
      return error = "opt2_round " + std::to_string(r->round) + " of " + r->task + ": the logged best (" +
                     std::to_string(r->best_cycles) + " cycles) is not the replayed one (" +
                     std::to_string(next.out.best_cycles) + ")",
             false;
    *run = std::move(next);
    bank = std::move(next_bank);
    return true;
  }
  return true;
}

json opt2_report_json(const CampaignState& s) {
  const Opt2State& st = s.opt2;
  const double tol = fast_tolerance_of(s.config);
  json r;
  r["name"] = s.config.value("name", "");
  r["mode"] = s.config.value("mode", "");
  r["dialect"] = "step-v2";
  r["model"] = s.config.contains("backend") ? s.config["backend"].value("model", "") : "";
  r["proposals"] = st.cfg.budget;
  o2::Opt2Result res;
  json tasks = json::array();
  int faster = 0;
  for (const auto& ti : s.tasks) {
    const o2::TaskRun* run = st.run_of(ti.id);
    o2::TaskOutcome o;
    o.id = ti.id;
    if (run) o = run->out;
    if (!run || o.curve.empty()) o.speedup = 1.0;
    res.tasks.push_back(o);
    if (!run) continue;
    std::map<std::string, int> verdicts;
    for (const auto& rr : o.rounds) ++verdicts[std::string(o2::verdict_name(rr.verdict))];
    const bool won = o.best_round >= 0;
    faster += won;
    tasks.push_back({{"id", o.id},
                     {"group", ti.group},
                     {"sizes", run->sizes},
                     {"baseline_cycles", o.baseline_cycles},
                     {"best_cycles", o.best_cycles},
                     {"speedup", o.speedup},
                     {"pct_of_peak", o.pct_of_peak},
                     {"best_round", won ? json(o.best_round) : json(nullptr)},
                     {"rounds", o.rounds.size()},
                     {"verdicts", verdicts},
                     {"winning_moves", o.winning_moves},
                     {"curve", o.curve},
                     {"best_impl", o.best_impl}});
  }
  o2::summarize(res, tol);
  r["tasks"] = tasks;
  r["tasks_total"] = s.tasks.size();
  r["tasks_solved"] = faster;  // tasks with a correct+faster program
  r["fast_1"] = res.fast_1;
  r["fast_1_5"] = res.fast_1_5;
  r["fast_2"] = res.fast_2;
  r["median_speedup"] = res.median_speedup;
  r["geomean_speedup"] = res.geomean_speedup;
  r["auc"] = res.auc;
  r["fast_tolerance"] = tol;
  json curve = json::array();  // per proposal: the tasks' best speedups so far (a task past its end keeps its last)
  const int width = st.cfg.budget;
  for (int p = 0; p < width; ++p) {
    std::vector<double> v;
    double logsum = 0;
    for (const auto& o : res.tasks) {
      const double x = o.curve.empty() ? 1.0 : o.curve[std::min<std::size_t>(p, o.curve.size() - 1)];
      v.push_back(x);
      logsum += std::log(x);
    }
    if (v.empty()) break;
    curve.push_back({{"proposal", p + 1},
                     {"median_speedup", median_of(v)},
                     {"geomean_speedup", std::exp(logsum / static_cast<double>(v.size()))}});
  }
  r["curve"] = curve;
  r["memory"] = {{"enabled", st.cfg.memory},
                 {"credit", o2::credit_name(st.cfg.credit)},
                 {"k", st.cfg.k},
                 {"frozen", st.bank.frozen},
                 {"source", st.bank_source},
                 {"rules", st.bank.rules.size()},
                 {"bank", o2::bank_to_json(st.bank)["rules"]}};
  r["tokens"] = {{"total", s.total_tokens()}};
  r["cost_usd"] = s.total_cost();
  r["usage_by_role"] = usage_to_json(s.usage);
  r["finished"] = s.finished ? json(s.finished->reason) : json(nullptr);
  r["wall_s"] = s.wall_s;
  return r;
}

std::string opt2_report_csv(const CampaignState& s) {
  std::ostringstream o;
  o << "task,round,verdict,detail,cycles,best_cycles,best_speedup\n";
  for (const auto& run : s.opt2.runs)
    for (std::size_t i = 0; i < run.out.rounds.size(); ++i) {
      const auto& rr = run.out.rounds[i];
      std::string detail = rr.detail;
      std::replace(detail.begin(), detail.end(), ',', ';');
      o << run.out.id << ',' << rr.round << ',' << o2::verdict_name(rr.verdict) << ',' << detail << ',' << rr.cycles
        << ',' << (i < run.out.curve.size() ? static_cast<std::int64_t>(std::llround(
                                                  static_cast<double>(run.out.baseline_cycles) / run.out.curve[i]))
                                            : 0)
        << ',' << (i < run.out.curve.size() ? run.out.curve[i] : 1.0) << '\n';
    }
  return o.str();
}

}  // namespace sf::learn
