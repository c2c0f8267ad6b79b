// The type checker (step-dialect §7, §8): infers the dtype and dims of every stream, checks every
// primitive's parameters and arguments, the outputs, and the static size limits (§15.2).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/ast.hpp"
#include "core/step/dim.hpp"
#include "core/step/dtype.hpp"
#include "core/step/primitives.hpp"

namespace sf::step {

struct TaskDoc;
struct FnDecl;

struct StreamType {
  DType dtype;
  Dims dims;  // innermost-first
  int rank() const { return static_cast<int>(dims.size()) - 1; }
  friend bool operator==(const StreamType&, const StreamType&) = default;
};

// "`X` (dtype T, dims s, rank r)"
std::string describe(std::string_view name, const StreamType& t);

// The resolved parameters of one primitive application.
struct ResolvedCall {
  Prim prim = Prim::Identity;
  const FnDecl* fn = nullptr;  // Map/Accum/Scan/Merge (in a comprehension: see fns)
  int a = 0, b = 0;            // Bufferize a; Accum/Scan/Promote b
  Dim n;                       // Repeat n
  std::vector<int> L;          // Flatten (lo..hi) / Reshape (sorted)
  Dim S;                       // Reshape S
  std::int64_t N = 0;          // Partition N (the bound integer)
};

struct TypedStatement {
  const Statement* stmt = nullptr;
  ResolvedCall call;                       // Assign; for Comprehension: the body (fn set per item in `fns`)
  std::vector<const FnDecl*> fns;          // Comprehension: fn per list item (empty when no fn variable)
  std::vector<StreamType> outs;            // one per target stream; for list results, one per list item
  bool list_result = false;                // Partition with one target, Comprehension
  std::vector<StreamType> inputs;          // argument streams in order (tuple members, list items, selector)
};

struct TypedProgram {
  std::vector<TypedStatement> stmts;       // parallel to Program::stmts (FnList/Return included, mostly empty)
  std::vector<StreamType> returns;         // types of the returned streams
};

struct TypecheckOptions {
  std::int64_t max_stream_scalars = 4'000'000;
  std::int64_t max_total_scalars = 64'000'000;
  bool check_limits = true;                // §15.2: element counts under every binding
  // Null: every static binding of the task (TaskDoc::static_bindings), the typed program being the one of
  // `sizes`. Set: this binding alone (the verifier's runs under another binding: Partition N and list lengths
  // follow the binding).
  const SizeBinding* only_binding = nullptr;
  // With every binding: a program without Partition/Merge is first typed under all bindings in one pass, and only
  // an error sends it through one run per binding. Same diagnostics and typed program either way
  // (tests/perf/test_typecheck_equivalence.cpp); false forces the per-binding runs.
  bool one_pass = true;
  // Set: when typing fails, receives the program typed under `sizes` up to the first error: the statements
  // before the first one an error is located in keep their outs, the others (and `returns`) are empty. The
  // editor keeps showing those types while a later line is wrong. Untouched when typing succeeds.
  TypedProgram* partial = nullptr;
};

// How many leading statements come before the first statement an error of `diags` is located in, given each
// statement's first line in order (errors before the first statement, or without a line, are not in one; no
// such error: all of them). The v1 and v2 checkers keep the types of these statements.
std::size_t statements_before_error(const std::vector<int>& first_lines, const Diagnostics& diags);
// `tp` (typed from `prog`) with the statements from the first one an error of `diags` is located in stripped of
// their types, and no returns.
TypedProgram types_before_error(TypedProgram tp, const Program& prog, const Diagnostics& diags);

// Types every statement of a name-clean program under every size binding (§15.11). Appends T-*, O-*, W-*, L-ELEMENTS diagnostics; returns the
// typed program when no error was added by this call.
std::optional<TypedProgram> typecheck(const Program& prog, const TaskDoc& task, Diagnostics& diags,
                                      const TypecheckOptions& opt = {});

// Element scalars of one position (sum over fields of the product of esh), under a binding; nullopt if a dim
// does not evaluate.
std::optional<std::int64_t> element_scalars(const DType& t, const SizeBinding& b);

}  // namespace sf::step
