#include "core/verify/program_file.hpp"

#include "core/bench/catalogue.hpp"

namespace sf::verify {

namespace {

std::optional<ProgramFile> program_of(step::AnyDoc any, const std::string& path, const bench::Catalogue* catalogue,
                                      Diagnostics& diags) {
  ProgramFile pf;
  pf.path = path;
  if (any.task) {
    if (!any.task->impl) {
      diags.push_back(make_error("D-NO-IMPL",
                                 "this task document has no `impl:` block, so there is no program to check "
                                 "(add `impl: |` followed by the program)",
                                 Location{1, 1}));
      return std::nullopt;
    }
    pf.impl = *any.task->impl;
    pf.impl_line_starts = any.task->impl_line_starts;
    pf.task = std::move(*any.task);
    return pf;
  }
  if (any.solution) {
    const step::TaskDoc* t = catalogue ? catalogue->find(any.solution->task_id) : nullptr;
    if (!t) {
      diags.push_back(make_error("D-TASK-UNKNOWN",
                                 "task '" + any.solution->task_id + "' is not in the benchmark catalogue" +
                                     (catalogue ? "" : " (no catalogue loaded)"),
                                 any.solution->loc));
      return std::nullopt;
    }
    pf.task = *t;
    pf.impl = any.solution->impl;
    pf.impl_line_starts = any.solution->impl_line_starts;
    return pf;
  }
  if (any.mutants) {
    diags.push_back(make_error("D-NOT-PROGRAM",
                               "this is a mutant list; check it with `stepforge-cli tasks validate`", Location{1, 1}));
  }
  return std::nullopt;
}

}  // namespace

std::optional<ProgramFile> load_program_file(const std::string& path, const bench::Catalogue* catalogue,
                                             Diagnostics& diags) {
  return program_of(step::load_any_file(path, diags), path, catalogue, diags);
}

std::optional<ProgramFile> load_program_text(std::string_view text, const std::string& path,
                                             const bench::Catalogue* catalogue, Diagnostics& diags) {
  return program_of(step::load_any_text(text, path, diags), path, catalogue, diags);
}

}  // namespace sf::verify
