// Element types (step-dialect §2): fp32, Multihot(fp32, L), Buffer(T, [dims innermost-first]), tuples.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/step/dim.hpp"

namespace sf::step {

// One scalar (non-tuple) element type.
struct ScalarType {
  bool multihot = false;  // element is Multihot(fp32, lanes) (or a buffer of them)
  Dim lanes;              // Multihot lane count
  Dims buffer;            // non-empty => Buffer(elem, buffer), dims innermost-first

  bool is_buffer() const { return !buffer.empty(); }
  // The element tensor shape, outermost-first (§2 esh).
  Dims esh() const;
  // The same type without its buffer (Buffer(T, β) -> T).
  ScalarType unbuffered() const;
  std::string str() const;
  friend bool operator==(const ScalarType&, const ScalarType&) = default;
};

struct DType {
  std::vector<ScalarType> fields;  // 1 field = scalar type; >= 2 = tuple

  static DType fp32() { return DType{{ScalarType{}}}; }
  static DType of(ScalarType s) { return DType{{std::move(s)}}; }
  bool is_tuple() const { return fields.size() > 1; }
  const ScalarType& scalar() const { return fields.front(); }
  std::string str() const;
  friend bool operator==(const DType&, const DType&) = default;
};

// Tuple of the fields of a and b in order (nested tuples are flattened).
DType concat(const DType& a, const DType& b);

// Parses one scalar type string: "fp32", "Multihot(fp32, E)", "Buffer(fp32, [D, N])",
// "Buffer(Multihot(fp32, M), [E])". A tuple string "[fp32, Buffer(fp32, [D])]" is accepted too.
std::optional<DType> parse_dtype(std::string_view text, std::string& error);

}  // namespace sf::step
