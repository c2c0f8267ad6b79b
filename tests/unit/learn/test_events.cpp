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

TEST(EventSchema, AdaptiveKindsNeedTheirSampleAndTakeTheRestAsDefaults) {
  // A hand-written verdict: the sample only, a speedup and cycles of the wrong type (read as absent).
  std::string err;
  auto v = event_from_json({{"type", "verdict"}, {"iteration", 2}, {"task", "a/x"}, {"temperature_index", 0},
                            {"sample_index", 3}, {"pass", true}, {"cycles", "many"}, {"speedup", nullptr}},
                           err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(v->v, kEventVersion);
  const auto& vd = std::get<Verdict>(v->body);
  EXPECT_EQ(vd.sample_index, 3);
  EXPECT_TRUE(vd.pass);
  EXPECT_TRUE(vd.stage.empty());
  EXPECT_FALSE(vd.cycles);
  EXPECT_FALSE(vd.speedup);
  // Without its sample, or with a field of the wrong type, a line is refused naming the field.
  EXPECT_FALSE(event_from_json(envelope("verdict", {{"iteration", 2}, {"task", "a/x"}, {"temperature_index", 0}}), err));
  EXPECT_EQ(err, "malformed verdict event: sample_index: missing");
  EXPECT_FALSE(event_from_json(envelope("llm_call", {{"iteration", "zero"}, {"task", "a/x"}}), err));
  EXPECT_EQ(err, "malformed llm_call event: iteration: expected an integer");
  EXPECT_FALSE(event_from_json(envelope("campaign_finished", {{"reason", 7}}), err));
  EXPECT_EQ(err, "malformed campaign_finished event: reason: expected a string");
  auto f = event_from_json(envelope("campaign_finished", {{"reason", "all-solved"}}), err);
  ASSERT_TRUE(f) << err;
  EXPECT_EQ(std::get<CampaignFinished>(f->body).reason, "all-solved");
  EXPECT_EQ(std::get<CampaignFinished>(f->body).iterations, 0);
}

TEST(EventSchema, TheTraceAndMetricsViewsReadTheirFigures) {
  LlmCall c;
  c.trace = {{"role", "proposer"}, {"usage", {{"input_tokens", 10}, {"output_tokens", 5}}}, {"latency_s", 0.5},
             {"cost_usd", nullptr}, {"from_cache", true}, {"impl", nullptr}, {"rules_used", {"r1", 3, "r2"}},
             {"error", {{"kind", "timeout"}, {"message", "slow"}}},
             {"diagnostics", {{{"code", "T-1"}, {"message", "m"}, {"line", 2}, {"column", 4}}}}};
  std::string err;
  auto v = call_view(c.trace, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(v->role, "proposer");
  EXPECT_EQ(v->input_tokens + v->output_tokens, 15);
  EXPECT_EQ(v->cost_usd, 0.0);
  EXPECT_TRUE(v->from_cache);
  EXPECT_TRUE(v->impl.empty());
  EXPECT_EQ(v->rules_used, (std::vector<std::string>{"r1", "r2"}));
  EXPECT_EQ(v->error_kind, "timeout");
  ASSERT_EQ(v->diagnostics.size(), 1u);
  EXPECT_EQ(v->diagnostics[0].column, 4);
  c.trace["latency_s"] = "slow";
  EXPECT_FALSE(call_view(c.trace, err));
  EXPECT_EQ(err, "malformed llm_call trace: latency_s: expected a number");

  IterationSummary s;
  s.metrics = {{"tokens", {{"total", 100}}},
               {"cost_usd", 0.25},
               {"iteration", {{"fast_1", 0.5}, {"median_speedup", 1.5}}},
               {"cumulative",
                {{"pass_at_1", 0.75}, {"pass_at_n", 1.0}, {"solved", 3}, {"tasks", 4}, {"median_speedup", nullptr},
                 {"by_tag", {{"Once-C", {{"pass_at_1", 0.5}, {"pass_at_n", 1.0}}}}}}}};
  auto m = summary_figures(s, err);
  ASSERT_TRUE(m) << err;
  EXPECT_EQ(m->tokens, 100);
  EXPECT_EQ(m->pass_at_1, 0.75);
  EXPECT_EQ(m->solved, 3);
  ASSERT_EQ(m->by_tag.size(), 1u);
  EXPECT_EQ(m->by_tag[0].second.second, 1.0);
  EXPECT_EQ(m->fast_1, 0.5);             // not cumulative in this summary: the iteration's own
  EXPECT_FALSE(m->median_speedup);       // cumulative but null: none
  EXPECT_FALSE(m->fast_1_5);
}

}  // namespace
}  // namespace sf::learn
