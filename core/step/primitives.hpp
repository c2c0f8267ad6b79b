// The 15 STeP primitives (step-dialect §6) in one table: name, enum value, keyword parameters and whether the
// primitive is a single-input chain step. Every list of primitive names (lexer, task documents, type checker,
// synthesizer, editor highlighting and completion) and every test of a call's primitive reads it from here.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sf::step {

enum class Prim {
  Map, Zip, Accum, Scan, Bufferize, Streamify, Promote, Repeat, RepeatRef, Flatten, Reshape, Copy,
  Partition, Merge, Identity
};

// One keyword parameter of a primitive: its key and what it means (the text of T-PARAM-MISSING).
struct PrimParam {
  std::string_view key;
  std::string_view meaning;
};

struct PrimInfo {
  Prim prim;
  std::string_view name;               // as written after "step."
  std::span<const PrimParam> params;   // in the canonical order of param_keys()
  // A single-input chain step: one stream in, one stream out (Map may take a tuple). The synthesizer's
  // patterns "A>B>C" and the optimiser's chain moves use only these.
  bool chain;
};

// Every primitive, in the order of the enum (entry i is Prim i).
std::span<const PrimInfo> primitives();
const PrimInfo& prim_info(Prim p);

std::optional<Prim> prim_from_name(std::string_view name);
std::string_view prim_name(Prim p);
bool is_primitive_name(std::string_view s);
// Every primitive's name in table order, comma-separated ("Map, Zip, ..., Identity"), for messages.
std::string primitive_names_text();
// True when `name` (a call's primitive as written, or a cost unit's) is the primitive p.
inline bool is_prim(std::string_view name, Prim p) { return name == prim_name(p); }
bool is_chain_prim(Prim p);

// Every parameter key of any primitive, once each, in the canonical order fn a b n L S N (printer order).
std::span<const std::string_view> param_keys();

}  // namespace sf::step
