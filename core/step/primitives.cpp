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

constexpr std::array<PrimInfo, 15> kPrimTable = {{
    {Prim::Map, "Map", kMapParams, true},
    {Prim::Zip, "Zip", {}, false},
    {Prim::Accum, "Accum", kAccumParams, true},
    {Prim::Scan, "Scan", kScanParams, true},
    {Prim::Bufferize, "Bufferize", kBufferizeParams, true},
    {Prim::Streamify, "Streamify", {}, true},
    {Prim::Promote, "Promote", kPromoteParams, true},
    {Prim::Repeat, "Repeat", kRepeatParams, true},
    {Prim::RepeatRef, "RepeatRef", {}, false},
    {Prim::Flatten, "Flatten", kFlattenParams, true},
    {Prim::Reshape, "Reshape", kReshapeParams, true},
    {Prim::Copy, "Copy", {}, false},
    {Prim::Partition, "Partition", kPartitionParams, false},
    {Prim::Merge, "Merge", kMergeParams, false},
    {Prim::Identity, "Identity", {}, false},
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kPrimTable.size(); ++i)
    if (kPrimTable[i].prim != static_cast<Prim>(i)) return false;
  return static_cast<std::size_t>(Prim::Identity) + 1 == kPrimTable.size();
}
static_assert(table_in_enum_order(), "kPrimTable: entry i must be Prim i, one entry per Prim");

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

std::span<const std::string_view> param_keys() { return kParamKeys; }

}  // namespace sf::step
