#include "widgets/perf2/perf2_engine.hpp"

#include "core/inspect/perf2_time.hpp"
#include "core/verify/verifier.hpp"

namespace sf::widgets::perf2 {

Timer engineTimer(std::shared_ptr<const step::TaskDoc> task, const step2::perf::Chip& chip,
                  std::int64_t baselineCycles) {
  return [task = std::move(task), chip, baselineCycles](const std::string& source) {
    Outcome o;
    o.source = source;
    if (!task) {
      o.error = "no task";
      return o;
    }
    inspect::perf2::TimeOptions opt;
    opt.baseline_cycles = baselineCycles;
    auto t = inspect::perf2::time_program(*task, source, chip, opt);
    o.ok = t.ok;
    o.error = std::move(t.error);
    o.error_line = t.error_line;
    o.graph = std::move(t.graph);
    o.report = std::move(t.report);
    return o;
  };
}

Timer engineVerifier(std::function<std::shared_ptr<const step::TaskDoc>()> task) {
  auto verifier = std::make_shared<verify::Verifier>();
  return [task = std::move(task), verifier](const std::string& source) {
    Outcome o;
    o.source = source;
    const auto t = task ? task() : nullptr;
    if (!t) {
      o.error = "no task";
      return o;
    }
    const verify::Report r = verifier->verify(*t, source);
    o.ok = r.pass;
    o.error = r.pass ? std::string() : (r.code.empty() ? std::string("failed") : r.code);
    return o;
  };
}

Roofs roofsOf(const step2::perf::Chip& chip) {
  Roofs r;
  r.compute_flop_per_cycle = static_cast<double>(chip.compute_budget);
  r.hbm_bytes_per_cycle = chip.peak_bytes_per_cycle();
  return r;
}

}  // namespace sf::widgets::perf2
