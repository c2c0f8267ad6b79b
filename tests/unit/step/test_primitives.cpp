// The primitive table (core/step/primitives.hpp): complete, consistent, and the one source of the lexer's
// primitive names, the parameter keys and the chain primitives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "core/step/lexer.hpp"
#include "core/step/primitives.hpp"

namespace sf::step {
namespace {

// The primitives of step-dialect §6, in the order every list and message uses.
const std::vector<std::string_view> kDialectPrims = {
    "Map",       "Zip",     "Accum",   "Scan", "Bufferize", "Streamify", "Promote", "Repeat",
    "RepeatRef", "Flatten", "Reshape", "Copy", "Partition", "Merge",     "Identity"};

TEST(Primitives, OneEntryPerEnumValueInEnumOrder) {
  const auto table = primitives();
  ASSERT_EQ(table.size(), kDialectPrims.size());
  std::vector<int> entries(table.size(), 0);
  for (const auto& e : table) {
    const auto i = static_cast<std::size_t>(e.prim);
    ASSERT_LT(i, entries.size());
    ++entries[i];
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i], 1) << "Prim " << i;
    EXPECT_EQ(table[i].prim, static_cast<Prim>(i));
    EXPECT_EQ(&prim_info(static_cast<Prim>(i)), &table[i]);
  }
}

TEST(Primitives, NamesAreTheDialectsAndRoundTrip) {
  const auto table = primitives();
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& e = table[i];
    EXPECT_EQ(e.name, kDialectPrims[i]);
    EXPECT_TRUE(seen.insert(e.name).second) << "duplicate name " << e.name;
    EXPECT_EQ(prim_name(e.prim), e.name);
    ASSERT_EQ(prim_from_name(e.name), e.prim) << e.name;
    EXPECT_TRUE(is_prim(e.name, e.prim));
    for (const auto& other : table) {
      if (other.prim != e.prim) {
        EXPECT_FALSE(is_prim(e.name, other.prim)) << e.name << " " << other.name;
      }
    }
  }
  for (std::string_view n : {"", "map", "MAP", "Maps", "Load", "Store", "step", "zip", "Repeatref", "Identity "})
    EXPECT_FALSE(prim_from_name(n).has_value()) << "'" << n << "'";
}

TEST(Primitives, LexerKeywordsAreTheTablesNames) {
  // Among the table's names, their case and length variants and the other reserved words, the lexer's
  // primitive names are exactly the table's names, and every one is reserved.
  std::set<std::string> words = {"step", "zip", "return", "for", "in", "None", "Load", "Store", "apply"};
  for (const auto& e : primitives()) {
    std::string n(e.name);
    words.insert(n);
    std::string lower = n, upper = n;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    words.insert({lower, upper, n + "s", n.substr(0, n.size() - 1)});
  }
  std::set<std::string_view> lexer_prims, table_names;
  for (const auto& w : words)
    if (is_primitive_name(w)) lexer_prims.insert(w);
  for (const auto& e : primitives()) {
    table_names.insert(e.name);
    EXPECT_TRUE(is_reserved_word(e.name)) << e.name;
  }
  EXPECT_EQ(lexer_prims, table_names);
}

TEST(Primitives, ParametersInCanonicalOrderAndEveryKeyUsed) {
  const auto keys = param_keys();
  EXPECT_EQ(std::vector<std::string_view>(keys.begin(), keys.end()),
            (std::vector<std::string_view>{"fn", "a", "b", "n", "L", "S", "N"}));
  auto rank = [&](std::string_view k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
  std::set<std::string_view> used;
  for (const auto& e : primitives()) {
    for (std::size_t i = 0; i < e.params.size(); ++i) {
      EXPECT_LT(rank(e.params[i].key), static_cast<std::ptrdiff_t>(keys.size()))
          << e.name << " " << e.params[i].key;
      if (i) {
        EXPECT_LT(rank(e.params[i - 1].key), rank(e.params[i].key)) << e.name;
      }
      EXPECT_FALSE(e.params[i].meaning.empty()) << e.name << " " << e.params[i].key;
      used.insert(e.params[i].key);
    }
  }
  EXPECT_EQ(used, std::set<std::string_view>(keys.begin(), keys.end()));
  auto keys_of = [](Prim p) {
    std::vector<std::string_view> ks;
    for (const auto& s : prim_info(p).params) ks.push_back(s.key);
    return ks;
  };
  EXPECT_EQ(keys_of(Prim::Partition), std::vector<std::string_view>{"N"});
  EXPECT_EQ(keys_of(Prim::Reshape), (std::vector<std::string_view>{"L", "S"}));
  EXPECT_EQ(keys_of(Prim::Accum), (std::vector<std::string_view>{"fn", "b"}));
  EXPECT_TRUE(keys_of(Prim::Zip).empty());
}

TEST(Primitives, ChainPrimitives) {
  std::set<Prim> chain;
  for (const auto& e : primitives())
    if (e.chain) chain.insert(e.prim);
  EXPECT_EQ(chain, (std::set<Prim>{Prim::Map, Prim::Accum, Prim::Scan, Prim::Bufferize, Prim::Streamify,
                                   Prim::Promote, Prim::Repeat, Prim::Flatten, Prim::Reshape}));
  for (const auto& e : primitives()) EXPECT_EQ(is_chain_prim(e.prim), e.chain) << e.name;
}

TEST(Primitives, ArityOfEveryPrimitive) {
  // step-dialect §6: what .apply takes and what comes out.
  std::set<Prim> one;
  for (const auto& e : primitives())
    if (takes_one_stream(e.prim)) one.insert(e.prim);
  EXPECT_EQ(one, (std::set<Prim>{Prim::Accum, Prim::Scan, Prim::Bufferize, Prim::Streamify, Prim::Promote,
                                 Prim::Repeat, Prim::Flatten, Prim::Reshape, Prim::Copy, Prim::Identity}));
  EXPECT_EQ(prim_info(Prim::Map).args, PrimArgs::OneOrTuple);
  EXPECT_EQ(prim_info(Prim::Zip).args, PrimArgs::Tuple);
  EXPECT_EQ(prim_info(Prim::RepeatRef).args, PrimArgs::DataRef);
  EXPECT_EQ(prim_info(Prim::Partition).args, PrimArgs::DataSelector);
  EXPECT_EQ(prim_info(Prim::Merge).args, PrimArgs::ListSelector);
  std::set<Prim> selector;
  for (const auto& e : primitives())
    if (takes_selector(e.prim)) selector.insert(e.prim);
  EXPECT_EQ(selector, (std::set<Prim>{Prim::Partition, Prim::Merge}));
  for (const auto& e : primitives()) {
    const PrimOuts want = e.prim == Prim::Copy        ? PrimOuts::Two
                          : e.prim == Prim::Partition ? PrimOuts::List
                                                      : PrimOuts::One;
    EXPECT_EQ(e.outs, want) << e.name;
    // A chain step takes one stream (Map: or a tuple) and makes one.
    if (e.chain) {
      EXPECT_TRUE(e.args == PrimArgs::One || e.args == PrimArgs::OneOrTuple) << e.name;
      EXPECT_EQ(e.outs, PrimOuts::One) << e.name;
    }
  }
}

TEST(Primitives, ComprehensionBodiesAreTheOneInOneOutPrimitives) {
  std::set<Prim> bodies;
  for (const auto& e : primitives())
    if (is_comprehension_body(e.prim)) bodies.insert(e.prim);
  EXPECT_EQ(bodies,
            (std::set<Prim>{Prim::Map, Prim::Accum, Prim::Scan, Prim::Bufferize, Prim::Streamify,
                            Prim::Promote, Prim::Repeat, Prim::Flatten, Prim::Reshape, Prim::Identity}));
  // The T-ARG message's list (spec text).
  EXPECT_EQ(comprehension_body_names_text(),
            "Map, Accum, Scan, Bufferize, Streamify, Promote, Repeat, Flatten, Reshape, Identity");
}

TEST(Primitives, QualifiedNamesDocsAndCallForms) {
  for (const auto& e : primitives()) {
    EXPECT_EQ(std::string(prim_qualified(e.prim)), "step." + std::string(e.name));
    EXPECT_FALSE(e.doc.empty()) << e.name;
    EXPECT_FALSE(e.rule.empty()) << e.name;
    EXPECT_EQ(e.doc.find('\n'), std::string_view::npos) << e.name;  // one line
    EXPECT_EQ(e.rule.find('\n'), std::string_view::npos) << e.name;
    // The call form calls the primitive, with each of its keys.
    EXPECT_NE(e.call.find(std::string(prim_qualified(e.prim)) + "("), std::string_view::npos) << e.name;
    for (const auto& p : e.params)
      EXPECT_NE(e.call.find(std::string(p.key) + "="), std::string_view::npos) << e.name;
  }
}

}  // namespace
}  // namespace sf::step
