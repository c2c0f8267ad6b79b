#include "core/verify/checker.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/step/affine.hpp"
#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/step/task_compile.hpp"
#include "core/verify/dialect_v2.hpp"

namespace sf::verify {

namespace {

int stage_rank(Stage s) {
  switch (s) {
    case Stage::Io: return 0;
    case Stage::Document: return 1;
    case Stage::Task: return 2;
    case Stage::Parse: return 3;
    case Stage::Name: return 4;
    case Stage::Affine: return 5;
    case Stage::Type: return 6;
    case Stage::Shape: return 7;
    case Stage::Output: return 8;
    case Stage::Limit: return 9;
    case Stage::Runtime: return 10;
    case Stage::Numeric: return 11;
    case Stage::Cost: return 12;
  }
  return 13;
}

}  // namespace

std::optional<Stage> failing_stage(const Diagnostics& diags) {
  std::optional<Stage> best;
  for (const auto& d : diags) {
    if (!d.is_error()) continue;
    Stage s = d.stage();
    if (!best || stage_rank(s) < stage_rank(*best)) best = s;
  }
  return best;
}

int CheckResult::statements() const {
  if (program) return step::program_length(*program);
  return v2 && v2->program ? static_cast<int>(v2->program->stmts.size()) : 0;
}

CheckResult check_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                          const CheckOptions& opt) {
  if (task.is_v2()) return v2::check_program(task, impl, line_starts, opt);
  CheckResult res;
  step::ParseOptions po;
  po.line_starts = line_starts;
  po.max_statements = opt.max_statements;
  po.max_bytes = opt.max_bytes;
  res.program = step::parse_impl(impl, po, res.diags);
  if (!res.program) {
    sort_and_cap(res.diags);
    return res;
  }
  step::TaskNames names = step::task_names(task);
  if (!step::check_names(*res.program, names, res.diags, &task.sizes)) {
    sort_and_cap(res.diags);
    return res;
  }
  Diagnostics affine;
  step::check_affine(*res.program, names, affine, &task.sizes);
  step::TypecheckOptions to;
  to.max_stream_scalars = opt.max_stream_scalars;
  to.max_total_scalars = opt.max_total_scalars;
  step::TypedProgram partial;
  to.partial = &partial;
  auto typed = step::typecheck(*res.program, task, res.diags, to);
  bool affine_ok = !has_errors(affine);
  res.diags.insert(res.diags.end(), affine.begin(), affine.end());
  if (typed && affine_ok) res.typed = std::move(typed);
  else  // up to the first type or affine error
    res.partial = step::types_before_error(typed ? std::move(*typed) : std::move(partial), *res.program, affine);
  sort_and_cap(res.diags);
  return res;
}

CheckResult check_document(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                           const CheckOptions& opt) {
  if (task.is_v2()) return v2::check_document(task, impl, line_starts, opt);
  Diagnostics task_diags;
  std::set<std::tuple<std::string, int, int>> seen;
  for (const auto& [name, sizes] : task.static_bindings()) {
    Diagnostics local;
    step::compile_task(task, sizes, local);
    for (auto& d : local) {
      if (!seen.emplace(d.code, d.loc.line, d.loc.column).second) continue;
      if (name != "sizes") d.message += " (under " + name + ": " + step::binding_text(sizes) + ")";
      task_diags.push_back(std::move(d));
    }
  }
  CheckResult res = check_program(task, impl, line_starts, opt);
  if (has_errors(task_diags) && res.typed) {  // the program typed: its types stay on show
    res.partial = std::move(res.typed);
    res.typed.reset();
  }
  res.diags.insert(res.diags.end(), task_diags.begin(), task_diags.end());
  sort_and_cap(res.diags);
  return res;
}

}  // namespace sf::verify
