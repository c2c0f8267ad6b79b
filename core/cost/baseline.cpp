#include "core/cost/baseline.hpp"

#include "core/step/task.hpp"

namespace sf::cost {

std::optional<CostReport> Baselines::report(const step::TaskDoc& task, std::string* why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = cache_.find(task.id); it != cache_.end()) {
      if (why) *why = it->second.why;
      return it->second.report;
    }
  }
  Entry e;
  std::string path = dir_ + "/" + task.id + ".yaml";
  Diagnostics ds;
  step::AnyDoc any = step::load_any_file(path, ds);
  if (!any.solution) {
    e.why = "no reference solution " + path;
  } else if (any.solution->task_id != task.id) {
    e.why = path + " is a solution of task " + any.solution->task_id;
  } else {
    Diagnostics cd;
    e.report = model_.evaluate(task, any.solution->impl, any.solution->impl_line_starts, cd);
    if (!e.report) {
      e.why = "the reference solution " + path + " cannot be evaluated";
      if (!cd.empty()) e.why += ": " + cd.front().code + " " + cd.front().message;
    }
  }
  if (why) *why = e.why;
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = cache_.emplace(task.id, std::move(e));
  return it->second.report;
}

std::optional<std::int64_t> Baselines::cycles(const step::TaskDoc& task, std::string* why) {
  auto r = report(task, why);
  if (!r) return std::nullopt;
  return r->cycles;
}

}  // namespace sf::cost
