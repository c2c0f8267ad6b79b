// Internal: the stream values of a program and their uses (shared by check_affine, stream_uses and
// insert_copies).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/step/ast.hpp"
#include "core/step/names.hpp"

namespace sf::step::detail {

struct UseRec {
  Location loc;
  int stmt = 0;
};

struct ValueInfo {
  enum class Kind { Input, Stream, List } kind = Kind::Stream;
  std::string name;
  Location def;       // target location (unknown for inputs)
  int def_stmt = -1;  // -1 for inputs
  std::vector<UseRec> uses;                            // Input/Stream: uses; List: uses as a whole
  std::map<std::int64_t, std::vector<UseRec>> elems;   // List: element-wise uses L[i]
};

struct ValueTable {
  std::vector<ValueInfo> values;  // inputs (sorted), then in definition order
  std::vector<std::pair<std::string, Location>> returned_lists;  // O-LIST
};

ValueTable collect_values(const Program& program, const TaskNames& names);

}  // namespace sf::step::detail
