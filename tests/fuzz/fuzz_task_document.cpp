// libFuzzer: task documents, the way `stepforge-cli check` sees them — YAML → loader (task, solution or mutant
// file) → every static check of the whole document (fns and reference under every size binding, then the impl).
// Invariants: no crash, hang or unbounded allocation; a failed load reports an error with a location; every
// diagnostic of the checks has a code; an ok result has a typed program.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/step/task.hpp"
#include "core/verify/checker.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  sf::Diagnostics diags;
  sf::step::AnyDoc any = sf::step::load_any_text(text, "fuzz.yaml", diags);
  const int kinds = (any.task ? 1 : 0) + (any.solution ? 1 : 0) + (any.mutants ? 1 : 0);
  if (kinds > 1) std::abort();
  if (kinds == 0 && !sf::has_errors(diags)) std::abort();  // a rejected document always says why
  if (!any.task) return 0;
  const sf::step::TaskDoc& t = *any.task;
  // Keep the checks bounded: the document limits (1 MiB, 64 levels) bound the text, not the sizes.
  for (const auto& [name, b] : t.static_bindings())
    for (const auto& [k, v] : b)
      if (v > 4096) return 0;
  std::string impl = t.impl.value_or("return E0\n");
  auto r = sf::verify::check_document(t, impl, t.impl_line_starts);
  for (const auto& d : r.diags)
    if (d.code.empty()) std::abort();
  if (r.ok() && (!r.program || sf::has_errors(r.diags))) std::abort();
  return 0;
}
