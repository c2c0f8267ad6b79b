// Internal to the step-v2 checker (check.cpp, check_ops.cpp): the per-binding context and the operator rules.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/step2/check.hpp"
#include "core/step2/ops.hpp"

namespace sf::step2::detail {

struct Ctx {
  const step::TaskDoc& task;
  const step::SizeBinding& sizes;
  const CheckOptions& opt;
  Diagnostics& diags;
  bool ok = true;

  // A located error; `msg` is prefixed with "line N: " (as v1's messages).
  void err(const char* code, Location loc, const std::string& msg) {
    ok = false;
    diags.push_back(make_error(code, "line " + std::to_string(loc.line) + ": " + msg, loc));
  }
};

// What the operator rule sees of one statement under one binding.
struct StmtIn {
  const Statement* st = nullptr;
  const OpInfo* info = nullptr;
  std::vector<StreamType> ins;              // argument stream types, in order (empty for OffChipLoad)
  std::vector<Location> in_locs;
  std::vector<std::int64_t> tensor_shape;   // OffChipLoad: the tensor read; OffChipStore: the tensor written
};

// Resolves the kwargs and applies the operator's type rule: fills `kw` and the output stream types. Returns
// false (with diagnostics) when the statement does not type.
bool type_statement(Ctx& c, const StmtIn& in, Kwargs& kw, std::vector<StreamType>& outs);

// Binding-independent facts of a statement after the name pass (check.cpp).
struct Resolved {
  const OpInfo* info = nullptr;  // null: an unknown operator
  // For every argument: the defining statement (or -1 for a task tensor of a load or an undefined name).
  std::vector<int> arg_stmt;
};

// One output port of a statement.
struct Port {
  int stmt = -1, port = 0;
  bool operator<(const Port& o) const { return std::pair(stmt, port) < std::pair(o.stmt, o.port); }
};

using TensorShapes = std::map<std::string, std::vector<std::int64_t>>;

// The task tensors under c.sizes (check_types.cpp): Graph::tensors and their shapes by name; false (X-DIM,
// L-ELEMENTS) when one has no shape or is too large. `note` ends every message (the binding, or "").
bool resolve_tensors(Ctx& c, const std::string& note, Graph& g, TensorShapes& tshape);

// Every statement typed under c.sizes in program order (check_types.cpp). A statement whose operator is
// unknown, whose tensor is not the task's or whose argument did not type is skipped without a diagnostic (its
// cause is reported where it is); a failing rule reports through `c`; an element limit stops the pass.
struct Typing {
  std::vector<std::vector<StreamType>> outs;  // per statement, the type of each output port (empty: not typed)
  std::vector<Kwargs> kws;
  std::vector<std::vector<Port>> args;        // per statement, the ports its arguments read
  std::vector<bool> typed;
};
Typing type_statements(Ctx& c, const Program& p, const std::vector<Resolved>& res, const TensorShapes& tshape,
                       const std::string& note);

// "Stream[Tile[r, c], [..]]", "Buffer[Tile[..], [..]]".
std::string elem_text(const ElemType& e);

}  // namespace sf::step2::detail
