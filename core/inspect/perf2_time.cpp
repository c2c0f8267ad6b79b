#include "core/inspect/perf2_time.hpp"

#include "core/step2/check.hpp"
#include "core/step2/perf/perf.hpp"

namespace sf::inspect::perf2 {

Timed time_program(const step::TaskDoc& task, std::string_view impl, const step2::perf::Chip& chip,
                   const TimeOptions& opt) {
  Timed t;
  const auto cr = step2::check(task, impl);
  const step2::Graph* g = cr.graph();
  if (!cr.ok() || !g) {
    for (const auto& d : cr.diags) {
      if (!d.is_error()) continue;
      t.error = d.code + " " + d.message;
      t.error_line = d.loc.line;
      break;
    }
    if (t.error.empty()) t.error = "the program does not check";
    return t;
  }
  step2::perf::Options o;
  o.sim.timeline = opt.timeline;
  o.sim.max_intervals = opt.max_intervals;
  if (opt.baseline_cycles > 0) o.baseline_cycles = opt.baseline_cycles;
  t.graph = *g;
  t.report = step2::perf::evaluate(t.graph, chip, o);
  t.ok = true;
  return t;
}

std::optional<std::string> baseline_impl(const step::TaskDoc& task, const std::string& resource_dir) {
  if (task.baseline.empty() || task.baseline.find("..") != std::string::npos || task.id.empty()) return std::nullopt;
  const auto slash = task.id.find('/');
  const std::string group = slash == std::string::npos ? std::string() : task.id.substr(0, slash);
  const std::string path = resource_dir + "/solutions_v2/" + (group.empty() ? "" : group + "/") + task.baseline;
  Diagnostics d;
  auto any = step::load_any_file(path, d);
  if (!any.solution) return std::nullopt;
  return any.solution->impl;
}

std::map<std::string, std::int64_t> size_values(const step::TaskDoc& task) {
  return {task.sizes.begin(), task.sizes.end()};
}

}  // namespace sf::inspect::perf2
