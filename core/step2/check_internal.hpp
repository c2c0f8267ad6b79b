// Internal to the step-v2 checker (check.cpp, check_ops.cpp): the per-binding context and the operator rules.
#pragma once

#include <string>
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

// "Stream[Tile[r, c], [..]]", "Buffer[Tile[..], [..]]".
std::string elem_text(const ElemType& e);

}  // namespace sf::step2::detail
