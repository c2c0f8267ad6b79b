// The 15 STeP primitives (step-dialect §6) in one table: name, enum value, keyword parameters, arity (the
// shape of the argument and how many streams come out), whether the primitive is a single-input chain step,
// and its one-line doc, call form and dims rule as the editor's call tips and the manual (resources/manual,
// checked against this table by tests/widgets) show them. Every list of primitive names (lexer, task
// documents, type checker, synthesizer, editor highlighting and completion) and every test of a call's
// primitive or its arity reads it from here. Each primitive's result-type rule is in prim_rules.hpp.
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

// What a primitive's .apply(...) takes (step-dialect §6).
enum class PrimArgs : unsigned char {
  One,           // one stream: .apply(X)
  OneOrTuple,    // Map: one stream, or a tuple of streams with equal dims (auto-zip): .apply((X1, X2))
  Tuple,         // Zip: a tuple of at least two streams with equal dims
  DataRef,       // RepeatRef: a tuple (data, ref)
  DataSelector,  // Partition: a tuple (data, selector)
  ListSelector,  // Merge: a tuple (list, selector): a stream list or [A, B, ...]
};

// What a primitive's application produces.
enum class PrimOuts : unsigned char {
  One,   // one stream
  Two,   // Copy: two streams (two targets)
  List,  // Partition: a list of N streams (one target for the list, or N targets)
};

struct PrimInfo {
  Prim prim;
  std::string_view name;               // as written after "step."
  std::string_view qualified;  // "step." + name, a C string (data() is NUL-terminated): message prefixes
  std::span<const PrimParam> params;   // in the canonical order of param_keys()
  PrimArgs args;
  PrimOuts outs;
  // A single-input chain step: one stream in, one stream out (Map may take a tuple). The synthesizer's
  // patterns "A>B>C" and the optimiser's chain moves use only these.
  bool chain;
  std::string_view doc;   // one line: what it does (the manual chapter's title after "Name — ")
  std::string_view call;  // its call form, e.g. "step.Accum(fn=f, b=k).apply(X)" (the cheat sheet's)
  std::string_view rule;  // its dims rule in one line, innermost-first (the cheat sheet's)
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
// "step.Map", ...: a NUL-terminated literal, for messages and the simulator's checks.
inline const char* prim_qualified(Prim p) {
  return prim_info(p).qualified.data();
}
// Arity: the argument is one stream (.apply(X)), not a tuple or a list.
inline bool takes_one_stream(Prim p) {
  return prim_info(p).args == PrimArgs::One;
}
// Arity: the argument is a tuple whose second stream is a Multihot selector (Partition, Merge).
inline bool takes_selector(Prim p) {
  return prim_info(p).args == PrimArgs::DataSelector || prim_info(p).args == PrimArgs::ListSelector;
}
// May be the body of a list comprehension `[step.P(...).apply(x) for x in Ls]`: one stream in (Map: or its
// tuple), one stream out.
bool is_comprehension_body(Prim p);
// The names of the primitives that may be a comprehension's body, in table order, comma-separated.
std::string comprehension_body_names_text();

// Every parameter key of any primitive, once each, in the canonical order fn a b n L S N (printer order).
std::span<const std::string_view> param_keys();

}  // namespace sf::step
