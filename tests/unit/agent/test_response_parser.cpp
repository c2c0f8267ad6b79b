// The response parser on a corpus of realistic messy answers (tests/data/responses/, expectations in
// expected.json) plus targeted cases.
#include "core/agent/response_parser.hpp"
#include "tests/support/files.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace sf::agent;

namespace {

const std::string kDir = std::string(SF_TEST_DATA_DIR) + "/responses/";

std::vector<std::string> codes_of(const sf::Diagnostics& ds) {
  std::vector<std::string> c;
  for (const auto& d : ds) c.push_back(d.code);
  std::sort(c.begin(), c.end());
  return c;
}

}  // namespace

TEST(ResponseCorpus, EveryFileParsesAsExpected) {
  auto cases = nlohmann::json::parse(sf::test_support::read_text(kDir + "expected.json"));
  ASSERT_GE(cases.size(), 30u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c["file"].get<std::string>());
    std::string text = sf::test_support::read_text(kDir + c["file"].get<std::string>());
    ASSERT_FALSE(text.empty());
    auto retrieved = c["retrieved"].get<std::vector<std::string>>();
    ParsedResponse r = parse_response(text, retrieved);
    if (c["impl"].is_null()) {
      EXPECT_FALSE(r.impl.has_value());
    } else {
      ASSERT_TRUE(r.impl.has_value());
      EXPECT_EQ(*r.impl, c["impl"].get<std::string>());
      EXPECT_EQ(r.impl_source, c["impl_source"].get<std::string>());
      EXPECT_GT(r.impl_line, 0);
    }
    for (const auto& [id, want] : c["adoption"].items()) {
      auto it = std::find_if(r.adoption.begin(), r.adoption.end(), [&](const AdoptionEntry& e) { return e.id == id; });
      ASSERT_NE(it, r.adoption.end()) << "no entry " << id;
      if (want[0].is_null()) EXPECT_FALSE(it->adopted.has_value()) << id;
      else {
        ASSERT_TRUE(it->adopted.has_value()) << id;
        EXPECT_EQ(*it->adopted, want[0].get<bool>()) << id;
      }
      EXPECT_EQ(it->rationale, want[1].get<std::string>()) << id;
      EXPECT_GT(it->loc.line, 0);
    }
    EXPECT_EQ(r.adoption.size(), c["adoption"].size());
    EXPECT_EQ(r.missing_ids, c["missing"].get<std::vector<std::string>>());
    EXPECT_EQ(r.unknown_ids, c["unknown"].get<std::vector<std::string>>());
    auto want_codes = c["codes"].get<std::vector<std::string>>();
    std::sort(want_codes.begin(), want_codes.end());
    EXPECT_EQ(codes_of(r.diagnostics), want_codes);
    EXPECT_EQ(r.adoption_complete(), c["missing"].empty());
  }
}

TEST(ResponseParser, ImplLineAndLocationsPointIntoTheAnswer) {
  std::string text = "Intro line\n```yaml\nimpl: |\n  E1 = step.Map(fn=f).apply(E0)\n  return E1\nadoption:\n  - id: m1\n"
                     "    adopted: yes\n    rationale: r\n  - id: zz\n    adopted: no\n    rationale: q\n```\n";
  auto r = parse_response(text, {"m1", "m2"});
  ASSERT_TRUE(r.impl);
  EXPECT_EQ(r.impl_line, 4);
  ASSERT_EQ(r.adoption.size(), 2u);
  EXPECT_EQ(r.adoption[0].loc, (sf::Location{7, 3}));
  EXPECT_EQ(r.adoption[1].loc, (sf::Location{10, 3}));
  ASSERT_EQ(r.diagnostics.size(), 2u);
  // sorted by location: the missing m2 is reported at the adoption: key, the unknown zz at its entry
  EXPECT_EQ(r.diagnostics[0].code, "P-ADOPTION-MISSING");
  EXPECT_EQ(r.diagnostics[0].message, "no adoption state for retrieved item m2");
  EXPECT_EQ(r.diagnostics[0].loc, (sf::Location{6, 1}));
  EXPECT_EQ(r.diagnostics[1].code, "P-ADOPTION-UNKNOWN");
  EXPECT_EQ(r.diagnostics[1].message, "the adoption list names zz, which was not retrieved");
  EXPECT_EQ(r.diagnostics[1].loc, (sf::Location{10, 3}));
  EXPECT_EQ(r.adopted("m1"), std::optional<bool>(true));
  EXPECT_EQ(r.adopted("m2"), std::nullopt);
}

TEST(ResponseParser, NoImplIsADiagnosticNotACrash) {
  auto r = parse_response("", {});
  EXPECT_FALSE(r.impl);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "P-NO-IMPL");
  EXPECT_EQ(r.diagnostics[0].message, "the answer contains no impl: block and no STeP program");
}

TEST(ResponseParser, OversizedAnswerIsALimitDiagnostic) {
  ResponseParserLimits lim;
  lim.max_bytes = 100;
  auto r = parse_response(std::string(101, 'x'), {"m1"}, lim);
  EXPECT_FALSE(r.impl);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "L-RESPONSE-SIZE");
  EXPECT_EQ(r.missing_ids, std::vector<std::string>{"m1"});
}

TEST(ResponseParser, HostileInputsTerminate) {
  std::string deep = "impl: |\n  return E0\nadoption: " + std::string(100000, '[') + "\n";
  auto r1 = parse_response(deep, {"m1"});
  EXPECT_TRUE(r1.impl);
  EXPECT_FALSE(r1.adoption_complete());
  std::string many = "impl: |\n  return E0\nadoption:\n";
  for (int i = 0; i < 2000; ++i) many += "  - {id: x" + std::to_string(i) + ", adopted: yes}\n";
  ResponseParserLimits lim;
  auto r2 = parse_response(many, {});
  EXPECT_EQ(r2.adoption.size(), lim.max_entries);
  std::string fences;
  for (int i = 0; i < 5000; ++i) fences += "```\n";
  auto r3 = parse_response(fences, {});
  EXPECT_FALSE(r3.impl);
  auto r4 = parse_response("impl: \"never closed\n" + std::string(10000, 'a'), {});
  ASSERT_TRUE(r4.impl);
}

TEST(ResponseParser, ThinkBlocksAreStrippedAndKeptAsReasoning) {
  // The reasoning mentions an impl of its own; only the answer after </think> counts, at its own line.
  std::string text =
      "<think>\nMaybe:\n```yaml\nimpl: |\n  return E9\n```\nno.\n</think>\n```yaml\nimpl: |\n  E1 = step.Map(fn=f).apply(E0)\n"
      "  return E1\n```\n";
  auto r = parse_response(text, {});
  ASSERT_TRUE(r.impl);
  EXPECT_EQ(*r.impl, "E1 = step.Map(fn=f).apply(E0)\nreturn E1\n");
  EXPECT_EQ(r.impl_line, 11);
  EXPECT_NE(r.reasoning.find("return E9"), std::string::npos) << r.reasoning;
  // Truncated inside the reasoning: nothing to parse.
  auto cut = parse_response("<think>\nlong thoughts\n```yaml\nimpl: |\n  return E0\n", {});
  EXPECT_FALSE(cut.impl);
  EXPECT_NE(cut.reasoning.find("long thoughts"), std::string::npos);
}

TEST(ResponseParser, RulesUsedIsReadLikeTheAdoptionList) {
  // A flow list in the impl's block, next to the adoption list.
  auto flow = parse_response("```yaml\nimpl: |\n  return E0\nadoption:\n  - {id: m1, adopted: yes, rationale: a}\n"
                             "rules_used: [mem-3, \"mem-7\", mem-3]\n```\n",
                             {"m1"});
  EXPECT_TRUE(flow.has_rules_used);
  EXPECT_EQ(flow.rules_used, (std::vector<std::string>{"mem-3", "mem-7"}));  // duplicates dropped
  EXPECT_TRUE(flow.adoption_complete());
  // Block items in their many shapes, a comment and a rationale line under an item.
  auto block = parse_response("```yaml\nimpl: |\n  return E0\nrules_used:\n  - mem-1\n  - [mem-2]\n  - id: mem-3\n"
                              "    why: it fits\n  - {id: mem-4}\n  - mem-5 (the zip rule)\n  - \"mem-6\"\n```\n",
                              {});
  EXPECT_EQ(block.rules_used, (std::vector<std::string>{"mem-1", "mem-2", "mem-3", "mem-4", "mem-5", "mem-6"}));
  // `none`, `[]` and a missing key.
  for (const char* none : {"rules_used: []", "rules_used: none", "rules_used: [ ]"}) {
    auto p = parse_response(std::string("```yaml\nimpl: |\n  return E0\n") + none + "\n```\n", {});
    EXPECT_TRUE(p.has_rules_used) << none;
    EXPECT_TRUE(p.rules_used.empty()) << none;
  }
  auto absent = parse_response("```yaml\nimpl: |\n  return E0\n```\n", {});
  EXPECT_FALSE(absent.has_rules_used);
  // A comma-separated scalar outside the block, and an entry that is no id: a warning, nothing else lost.
  auto loose = parse_response("```yaml\nimpl: |\n  return E0\n```\nrules_used: mem-9, mem-10\n", {});
  EXPECT_EQ(loose.rules_used, (std::vector<std::string>{"mem-9", "mem-10"}));
  auto bad = parse_response("```yaml\nimpl: |\n  return E0\nrules_used: [mem-1, ???]\n```\n", {});
  EXPECT_EQ(bad.rules_used, (std::vector<std::string>{"mem-1"}));
  ASSERT_EQ(codes_of(bad.diagnostics), (std::vector<std::string>{"P-RULES-USED"}));
  EXPECT_EQ(bad.diagnostics[0].severity, sf::Severity::Warning);
  EXPECT_TRUE(bad.impl.has_value());
}

TEST(ResponseParser, RulesUsedIsBounded) {
  std::string list;
  for (int i = 0; i < 400; ++i) list += (i ? ", r" : "r") + std::to_string(i);
  ResponseParserLimits lim;
  lim.max_entries = 16;
  auto p = parse_response("```yaml\nimpl: |\n  return E0\nrules_used: [" + list + "]\n```\n", {}, lim);
  EXPECT_EQ(p.rules_used.size(), 16u);
  EXPECT_EQ(p.rules_used.front(), "r0");
}
