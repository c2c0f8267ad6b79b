// The typed event schema (core/learn/events.hpp): every kind a StepForge writes decodes to its own struct and
// encodes back to the same line; a kind from a newer version is kept unchanged; a known kind with a field of
// the wrong type is refused with the field named.
#include <gtest/gtest.h>

#include <variant>

#include "core/learn/events.hpp"

namespace sf::learn {
namespace {

using nlohmann::json;

json envelope(const std::string& type, json fields) {
  fields["v"] = kEventVersion;
  fields["seq"] = 7;
  fields["t"] = 1.5;
  fields["type"] = type;
  return fields;
}

// One line of every kind, with every field the contract (docs/learn.md, docs/agents.md) gives it.
std::vector<json> every_kind() {
  return {
      envelope("episode_started", {{"episode", 3}, {"task", "t"}, {"max_rounds", 4}}),
      envelope("episode_started",
               {{"episode", 0}, {"task", "t"}, {"max_rounds", 1}, {"interactive", true}, {"action", "repair"}}),
      envelope("adoption_record", {{"episode", 3}, {"task", "t"}, {"round", 1}, {"item", "exp-1"}, {"rank", 2},
                                   {"relevance_rank", 5}, {"pool_rank", 1}, {"relevance", 0.25}, {"score", 0.5},
                                   {"utility", 0.125}, {"adopted", true}, {"rationale", "r"}, {"reasked", false},
                                   {"resolved", true}, {"before", "a"}, {"after", "b"}}),
      envelope("episode_finished", {{"episode", 3}, {"task", "t"}, {"score", 0.75}, {"rounds", 2},
                                    {"first_correct_round", -1}, {"solved", false}}),
      envelope("experience_added", {{"episode", 3}, {"item", "exp-2"}, {"rule", "r"}, {"evidence", "e"},
                                    {"pattern", "Map>Accum"}, {"source_task", "t"}, {"tokens", 12},
                                    {"kind", "speedup"}}),
      envelope("credit", {{"episode", 3}, {"item", "exp-1"}, {"adopted", true}, {"credit", 1.0}, {"eta", 0.5},
                          {"utility_before", 0.0}, {"utility_after", 0.5}, {"n_updates", 1}}),
      envelope("access_update",
               {{"episode", 3}, {"item", "exp-1"}, {"used", true}, {"access_before", 0.5}, {"access_after", 0.75}}),
      envelope("consolidation", {{"episode", 3},
                                 {"validated", {{{"item", "a"}, {"value", 0.0}, {"tokens", 0}}}},
                                 {"promoted", {{{"item", "b"}, {"value", 0.25}, {"tokens", 40}}}},
                                 {"demoted", json::array()},
                                 {"abstraction_failed", {"c"}},
                                 {"hot_tokens", 40},
                                 {"budget", 1000}}),
      envelope("consolidation_rollback",
               {{"episode", 3}, {"hot_tokens_before", 80}, {"hot_tokens_after", 10}, {"lost_adopted", {"b"}}}),
      envelope("audit_label", {{"episode", 3}, {"task", "t"}, {"round", 1}, {"item", "exp-1"}, {"label", "full"},
                               {"note", ""}, {"auditor", "ana"}, {"time", "2026-12-02T00:00:00Z"}}),
      envelope("warning",
               {{"kind", "timeout"}, {"task", "t"}, {"iteration", 0}, {"sample_index", 2}, {"message", "m"}}),
      envelope("campaign_paused", {{"kind", "auth"}, {"message", "authentication failed"}}),
      envelope("interactive_round",
               {{"round", 0}, {"task", "t"}, {"action", "propose"}, {"instruction", ""}, {"program", ""},
                {"feedback", ""}, {"proposal", "p"}, {"impl", "i"}, {"pass", true}, {"error", ""},
                {"elapsed_s", 0.5}, {"guardian_action", "none"}, {"guardian_diff", ""}, {"cycles", 100},
                {"speedup", 1.5}}),
      envelope("interactive_decision", {{"round", 0}, {"task", "t"}, {"decision", "accepted"}}),
  };
}

TEST(EventSchema, EveryKindDecodesToItsStructAndEncodesToTheSameLine) {
  for (const json& line : every_kind()) {
    std::string err;
    auto e = event_from_json(line, err);
    ASSERT_TRUE(e) << line.dump() << ": " << err;
    EXPECT_FALSE(std::holds_alternative<UnknownEvent>(e->body)) << line["type"];
    EXPECT_EQ(event_type(e->body), line["type"].get<std::string>());
    EXPECT_EQ(to_json(*e), line) << line["type"];
  }
}

TEST(EventSchema, FieldsReachTheStruct) {
  std::string err;
  auto e = event_from_json(every_kind()[7], err);
  ASSERT_TRUE(e) << err;
  const auto& c = std::get<Consolidation>(e->body);
  ASSERT_EQ(c.promoted.size(), 1u);
  EXPECT_EQ(c.promoted[0].item, "b");
  EXPECT_EQ(c.promoted[0].tokens, 40);
  EXPECT_EQ(c.abstraction_failed, std::vector<std::string>{"c"});
  auto a = event_from_json(every_kind()[2], err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(std::get<AdoptionRecord>(a->body).pool_rank, 1);
  EXPECT_TRUE(std::get<AdoptionRecord>(a->body).adopted);
}

TEST(EventSchema, OlderLinesWithoutOptionalFieldsDecode) {
  // An adoption record from before late reranking (no relevance_rank, pool_rank, resolved) and a credit
  // without n_updates.
  json a = every_kind()[2];
  a.erase("relevance_rank");
  a.erase("pool_rank");
  a.erase("resolved");
  std::string err;
  auto e = event_from_json(a, err);
  ASSERT_TRUE(e) << err;
  EXPECT_TRUE(std::get<AdoptionRecord>(e->body).resolved);
  EXPECT_EQ(std::get<AdoptionRecord>(e->body).relevance_rank, 0);
  json c = every_kind()[5];
  c.erase("n_updates");
  auto ce = event_from_json(c, err);
  ASSERT_TRUE(ce) << err;
  EXPECT_FALSE(std::get<CreditEvent>(ce->body).n_updates);
  EXPECT_EQ(to_json(*ce), c);
}

TEST(EventSchema, AKindFromANewerVersionIsKeptUnchanged) {
  const json line = envelope("future_kind", {{"episode", 1}, {"whatever", {{"nested", true}}}});
  std::string err;
  auto e = event_from_json(line, err);
  ASSERT_TRUE(e) << err;
  ASSERT_TRUE(std::holds_alternative<UnknownEvent>(e->body));
  EXPECT_EQ(event_type(e->body), "future_kind");
  EXPECT_EQ(to_json(*e), line);
}

TEST(EventSchema, AWrongFieldTypeIsRefusedNamingTheField) {
  json c = every_kind()[5];
  c["item"] = 5;
  std::string err;
  EXPECT_FALSE(event_from_json(c, err));
  EXPECT_EQ(err, "malformed credit event: item: expected a string");
  json s = every_kind()[0];
  s.erase("max_rounds");
  EXPECT_FALSE(event_from_json(s, err));
  EXPECT_EQ(err, "malformed episode_started event: max_rounds: missing");
  json k = every_kind()[7];
  k["promoted"] = {{{"value", 1.0}}};
  EXPECT_FALSE(event_from_json(k, err));
  EXPECT_EQ(err, "malformed consolidation event: promoted: item: missing");
}

}  // namespace
}  // namespace sf::learn
