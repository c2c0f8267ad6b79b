// The affine (single-use) rule, step-dialect §6 and §15.4/§15.6.
#pragma once

#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/ast.hpp"
#include "core/step/dim.hpp"
#include "core/step/names.hpp"

namespace sf::step {

// Reports A-MULTI (at the second use), A-DEAD (at the definition; an unused task input at the return
// statement), A-LIST (at the later conflicting use), A-LOOP, and also the output-stage O-LIST (a returned
// stream list, at the ref) and O-RETURN (no return: at the impl's last line; otherwise at the first statement
// after the first return). Run only on a name-clean program. With `sizes`, stream lists whose length depends
// on a size symbol (Partition N=E) get A-DEAD for elements never used element-wise, too.
void check_affine(const Program& program, const TaskNames& names, Diagnostics& diags,
                  const SizeBinding* sizes = nullptr);

// Use sites per stream value, in program order: every task input (sorted by name; def unknown), every stream
// defined by a statement (def = its target), and every stream-list element used element-wise (name "L[i]",
// def = the list's target). Stream lists themselves are not listed.
struct StreamUses {
  std::string name;
  Location def;
  std::vector<Location> uses;
};
std::vector<StreamUses> stream_uses(const Program& program, const TaskNames& names);

}  // namespace sf::step
