#include "core/step/primitives.hpp"

#include <array>

namespace sf::step {

namespace {

constexpr PrimParam kMapParams[] = {{"fn", "the stateless fn applied to every element"}};
constexpr PrimParam kAccumParams[] = {{"fn", "the stateful fn that folds the elements"},
                                      {"b", "how many innermost dimensions to reduce"}};
constexpr PrimParam kScanParams[] = {{"fn", "the stateful fn that folds the elements"},
                                     {"b", "how many innermost dimensions to scan"}};
constexpr PrimParam kBufferizeParams[] = {{"a", "how many innermost dimensions to pack into a buffer"}};
constexpr PrimParam kPromoteParams[] = {{"b", "where the new size-1 dimension goes"}};
constexpr PrimParam kRepeatParams[] = {
    {"n", "the size of the new innermost dimension: a size symbol or a positive integer"}};
constexpr PrimParam kFlattenParams[] = {{"L", "the consecutive dimensions merged into the one below them"}};
constexpr PrimParam kReshapeParams[] = {{"L", "the dimensions to split"},
                                        {"S", "the size of the new inner dimension"}};
constexpr PrimParam kPartitionParams[] = {
    {"N", "the number of output streams, equal to the selector's lanes"}};
constexpr PrimParam kMergeParams[] = {{"fn", "the stateful fn that combines the selected chunks"}};

using A = PrimArgs;
using O = PrimOuts;

// One entry a primitive: name, qualified name, params, arity (args, outs), chain; doc, call, dims rule.
// clang-format off
constexpr std::array<PrimInfo, 15> kPrimTable = {{
    {Prim::Map, "Map", "step.Map", kMapParams, A::OneOrTuple, O::One, true,
     "apply a stateless fn to every element",
     "step.Map(fn=f).apply(X) / .apply((X1, X2))",
     "s → s; dtype f.output; f stateless, f.input = dtype (auto-zip → tuple)"},
    {Prim::Zip, "Zip", "step.Zip", {}, A::Tuple, O::One, false,
     "pair up streams element by element",
     "step.Zip().apply((X1, X2, …))",
     "equal dims s → s; dtype = flat tuple of fields"},
    {Prim::Accum, "Accum", "step.Accum", kAccumParams, A::One, O::One, true,
     "reduce the b innermost dimensions with a stateful fn",
     "step.Accum(fn=f, b=k).apply(X)",
     "s → s[k:]; 1 ≤ k ≤ r; f stateful; emits final state"},
    {Prim::Scan, "Scan", "step.Scan", kScanParams, A::One, O::One, true,
     "running (prefix) fold over the b innermost dimensions",
     "step.Scan(fn=f, b=k).apply(X)",
     "s → s; 1 ≤ k ≤ r; f stateful; emits running state"},
    {Prim::Bufferize, "Bufferize", "step.Bufferize", kBufferizeParams, A::One, O::One, true,
     "pack the a innermost dimensions into one Buffer element",
     "step.Bufferize(a=k).apply(X)",
     "s → s[k:] of Buffer(T, s[:k]) (existing buffer dims stay inner); 1 ≤ k ≤ r; no tuples"},
    {Prim::Streamify, "Streamify", "step.Streamify", {}, A::One, O::One, true,
     "unpack Buffer elements back into stream dimensions",
     "step.Streamify().apply(X)",
     "s of Buffer(U, β) → β ++ s of U"},
    {Prim::Promote, "Promote", "step.Promote", kPromoteParams, A::One, O::One, true,
     "insert a size-1 dimension",
     "step.Promote(b=k).apply(X)",
     "s → s[:k] ++ [1] ++ s[k:]; 0 ≤ k ≤ r+1"},
    {Prim::Repeat, "Repeat", "step.Repeat", kRepeatParams, A::One, O::One, true,
     "repeat every element n times (new innermost dimension)",
     "step.Repeat(n=v).apply(X)",
     "s → [v] ++ s (new innermost)"},
    {Prim::RepeatRef, "RepeatRef", "step.RepeatRef", {}, A::DataRef, O::One, false,
     "repeat every element as often as a reference stream's innermost dim",
     "step.RepeatRef().apply((X, R))",
     "R dims [v] ++ s (consumed) → [v] ++ s"},
    {Prim::Flatten, "Flatten", "step.Flatten", kFlattenParams, A::One, O::One, true,
     "merge consecutive dimensions into one",
     "step.Flatten(L=[l..h]).apply(X)",
     "dims l−1..h → one product dim; 1 ≤ l ≤ h ≤ r"},
    {Prim::Reshape, "Reshape", "step.Reshape", kReshapeParams, A::One, O::One, true,
     "split a dimension into (inner chunk, outer count)",
     "step.Reshape(L=[j], S=c).apply(X)",
     "s_j → [c, s_j/c]; value of s_j divisible by c"},
    {Prim::Copy, "Copy", "step.Copy", {}, A::One, O::Two, false,
     "duplicate a stream so it can be used twice",
     "A, B = step.Copy().apply(X)",
     "two copies of X"},
    {Prim::Partition, "Partition", "step.Partition", kPartitionParams, A::DataSelector, O::List, false,
     "route chunks of a stream to n outputs by a Multihot selector",
     "Ls = step.Partition(N=E).apply((X, C))",
     "C Multihot(fp32, E) with dims = outer dims s[p:] of X → E streams s[:p] ++ [Ls#e]"},
    {Prim::Merge, "Merge", "step.Merge", kMergeParams, A::ListSelector, O::One, false,
     "gather n streams back in selector order, combining with a stateful fn",
     "step.Merge(fn=f).apply((Ls, C))",
     "list dims common ++ [L#e], C dims q → common ++ q; f stateful"},
    {Prim::Identity, "Identity", "step.Identity", {}, A::One, O::One, false,
     "pass a stream through unchanged",
     "step.Identity().apply(X)",
     "s → s"},
}};
// clang-format on

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kPrimTable.size(); ++i)
    if (kPrimTable[i].prim != static_cast<Prim>(i)) return false;
  for (const PrimInfo& e : kPrimTable) {  // qualified = "step." + name
    if (e.qualified.size() != e.name.size() + 5 || e.qualified.substr(0, 5) != "step." ||
        e.qualified.substr(5) != e.name)
      return false;
  }
  return static_cast<std::size_t>(Prim::Identity) + 1 == kPrimTable.size();
}
static_assert(table_in_enum_order(),
              "kPrimTable: entry i must be Prim i, one entry per Prim, qualified = \"step.\" + name");

constexpr std::array<std::string_view, 7> kParamKeys = {"fn", "a", "b", "n", "L", "S", "N"};

}  // namespace

std::span<const PrimInfo> primitives() { return kPrimTable; }

const PrimInfo& prim_info(Prim p) { return kPrimTable[static_cast<std::size_t>(p)]; }

std::optional<Prim> prim_from_name(std::string_view name) {
  for (const auto& e : kPrimTable)
    if (e.name == name) return e.prim;
  return std::nullopt;
}

std::string_view prim_name(Prim p) { return prim_info(p).name; }

bool is_primitive_name(std::string_view s) { return prim_from_name(s).has_value(); }

std::string primitive_names_text() {
  std::string s;
  for (const PrimInfo& i : primitives()) {
    if (!s.empty()) s += ", ";
    s += i.name;
  }
  return s;
}

bool is_chain_prim(Prim p) { return prim_info(p).chain; }

bool is_comprehension_body(Prim p) {
  const PrimInfo& i = prim_info(p);
  return (i.args == PrimArgs::One || i.args == PrimArgs::OneOrTuple) && i.outs == PrimOuts::One;
}

std::string comprehension_body_names_text() {
  std::string s;
  for (const PrimInfo& i : primitives()) {
    if (!is_comprehension_body(i.prim)) continue;
    if (!s.empty()) s += ", ";
    s += i.name;
  }
  return s;
}

std::span<const std::string_view> param_keys() { return kParamKeys; }

}  // namespace sf::step
