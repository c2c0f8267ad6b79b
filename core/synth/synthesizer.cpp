#include "core/synth/synthesizer.hpp"

#include <algorithm>

#include "core/step/parser.hpp"
#include "core/synth/search.hpp"

namespace sf::synth {

using detail::kSpreadMinEvaluations;
using detail::Search;

int spread_pool(double temperature) {
  if (!(temperature > 0)) return 1;
  return 1 + static_cast<int>(std::lround(7.0 * std::min(1.0, temperature)));
}

std::int64_t spread_evaluations(double temperature, std::int64_t found_at) {
  if (!(temperature > 0)) return 0;
  const double t = std::min(1.0, temperature);
  return static_cast<std::int64_t>(
      std::llround(t * static_cast<double>(std::max<std::int64_t>(found_at, kSpreadMinEvaluations))));
}

std::string format_response(const std::string& impl, const std::vector<AdoptionRecord>& adoption,
                            const std::vector<std::string>* rules_used) {
  std::string s = "```yaml\nimpl: |\n";
  std::size_t p = 0;
  while (p < impl.size()) {
    std::size_t e = impl.find('\n', p);
    if (e == std::string::npos) e = impl.size();
    s += "  " + impl.substr(p, e - p) + "\n";
    p = e + 1;
  }
  if (!adoption.empty()) {
    s += "adoption:\n";
    for (const auto& a : adoption) {
      s += "  - {id: " + a.id + ", adopted: " + (a.adopted ? "yes" : "no") + ", rationale: \"" + a.rationale +
           "\"}\n";
    }
  }
  if (rules_used) {
    s += "rules_used: [";
    for (std::size_t i = 0; i < rules_used->size(); ++i) s += (i ? ", " : "") + (*rules_used)[i];
    s += "]\n";
  }
  return s + "```\n";
}

Synthesizer::Synthesizer(verify::Verifier& verifier, cost::CostModel* model) : verifier_(verifier) {
  if (model == nullptr) {
    own_model_ = std::make_unique<cost::CostModel>();
    model = own_model_.get();
  }
  model_ = model;
}

SynthResult Synthesizer::run(const step::TaskDoc& task, const Guidance& guidance, const SynthOptions& opt) {
  Search s(verifier_, *model_, task, guidance, opt);
  SynthResult r = s.run();
  r.correct_programs = s.correct_programs();
  // slow->fast rewrite patterns of memory (A>B=>C) and resident rules
  std::vector<RewritePattern> rps;
  for (const auto& m : guidance.memory) {
    if (auto rp = parse_rewrite_pattern(m.pattern)) {
      rp->id = m.id;
      rps.push_back(std::move(*rp));
    }
  }
  auto rule_id = [&](std::size_t i) { return i < guidance.rule_ids.size() ? guidance.rule_ids[i] : std::string(); };
  for (std::size_t i = 0; i < guidance.rule_patterns.size(); ++i) {
    if (auto rp = parse_rewrite_pattern(guidance.rule_patterns[i])) {
      rp->id = rule_id(i);
      rps.push_back(std::move(*rp));
    }
  }
  RewriteOptions ro;
  ro.max_evaluations = opt.rewrite_evaluations;
  PerfKey best;
  if (r.found) {
    best = s.best_key();
    r.origin = "search";
    if (opt.optimise && opt.rewrite_evaluations > 0) {
      auto rw = optimise_program(verifier_, *model_, task, r.impl, rps, ro);
      r.correct_programs += rw.correct;
      if (rw.improved && rw.best.better_than(best)) {
        best = rw.best;
        r.impl = rw.impl;
        r.raw_impl = rw.raw_impl;
        r.origin = "rewrite";
        r.moves = rw.moves;
        r.applied_patterns = rw.applied;
      }
    }
  }
  if (!opt.previous_impl.empty()) {
    // optimisation round: never slower than the previous program (nor wrong)
    auto pr = optimise_program(verifier_, *model_, task, opt.previous_impl, rps, ro);
    r.correct_programs += pr.correct;
    if (!pr.impl.empty() && (!r.found || !best.better_than(pr.best))) {
      best = pr.best;
      r.found = true;
      r.impl = pr.impl;
      r.raw_impl = pr.raw_impl;
      r.origin = pr.improved ? "previous+rewrite" : "previous";
      r.moves = pr.moves;
      r.applied_patterns = pr.applied;
    }
  }
  if (r.found && best.cycles != PerfKey{}.cycles) {
    r.cycles = best.cycles;
    r.feasible = best.feasible;
  }
  std::optional<step::Program> prog;
  if (r.found) {
    Diagnostics ds;
    prog = step::parse_impl(r.impl, {}, ds);
  }
  for (const auto& m : guidance.memory) {
    bool used = (prog && pattern_occurs(*prog, m.pattern)) ||
                std::find(r.applied_patterns.begin(), r.applied_patterns.end(), m.id) != r.applied_patterns.end();
    const bool rewrite = m.pattern.find("=>") != std::string::npos;
    r.adoption.push_back({m.id, used,
                          rewrite ? (used ? "applied the rewrite " + m.pattern
                                          : "the rewrite " + m.pattern + " made nothing faster here")
                          : used ? "the program contains the chain " + m.pattern
                               : "the chain " + m.pattern + " does not occur in the program"});
  }
  // Resident rules used (truthfully, as adoption): the pattern occurs in the program or its rewrite was applied.
  bool rules_have_ids = false;
  for (std::size_t i = 0; i < guidance.rule_patterns.size(); ++i) {
    const std::string id = rule_id(i);
    if (id.empty()) continue;
    rules_have_ids = true;
    const std::string& pat = guidance.rule_patterns[i];
    bool used = (prog && pattern_occurs(*prog, pat)) ||
                std::find(r.applied_patterns.begin(), r.applied_patterns.end(), id) != r.applied_patterns.end();
    if (used && std::find(r.rules_used.begin(), r.rules_used.end(), id) == r.rules_used.end())
      r.rules_used.push_back(id);
  }
  r.response = format_response(r.raw_impl.empty() ? r.impl : r.raw_impl, r.adoption,
                               rules_have_ids ? &r.rules_used : nullptr);
  return r;
}

}  // namespace sf::synth
