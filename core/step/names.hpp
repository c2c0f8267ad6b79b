// Name checks (step-dialect §5.3, §15.5): N-RESERVED, N-REDEF, N-UNDEF, N-INDEX.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/common/diagnostic.hpp"
#include "core/step/ast.hpp"
#include "core/step/dim.hpp"

namespace sf::step {

// Names visible to a program (the task's namespace).
struct TaskNames {
  std::set<std::string, std::less<>> inputs, parameters, fns, outputs, sizes;  // sizes: M, N, ... (X_value derived)
  // True for every name of the task namespace, including the size constants X_value.
  bool contains(std::string_view name) const;
  bool is_size_constant(std::string_view name) const;  // X_value for a size symbol X
};

// Checks definitions and uses in program order. Unknown names after `fn=` are not reported here (the type
// checker reports T-FN-UNKNOWN). N-INDEX is reported when a list length is statically known: Partition
// with N=<int> (or N=<size>/<size>_value when `sizes` is given) and comprehensions over such lists.
// Returns false if any N-* error was added.
bool check_names(const Program& program, const TaskNames& names, Diagnostics& diags,
                 const SizeBinding* sizes = nullptr);

// True if the statement's single target is a stream list (Partition with one target, a comprehension).
bool defines_stream_list(const Statement& st);

// Statically known lengths of the program's stream lists (see check_names).
std::map<std::string, std::int64_t, std::less<>> stream_list_lengths(const Program& program,
                                                                     const SizeBinding* sizes);

}  // namespace sf::step
