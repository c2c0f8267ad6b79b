// Mode sage of the campaign engine (algorithms §4, issue 7) on a scripted in-process model: hand-computed ATU
// episodes through the engine path, the adoption protocol (missing id -> exactly one re-ask -> `unresolved`),
// the event contract's order and fields (docs/learn.md "Sage events"), results logged before the memory is
// updated, resident rules carrying their pattern, full context, the consolidation guard and memory off.
// Resume, cancel, endpoint failures, the objectives and the projections are in test_sage_campaign.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <mutex>

#include "core/learn/projections.hpp"
#include "core/memory/memory_store.hpp"
#include "tests/unit/learn/sage_test_util.hpp"

using namespace sf::learn;
using namespace sf::learn::sage_test;
using nlohmann::json;
namespace fs = std::filesystem;

TEST(Sage, AtuCreditsOfHandComputedEpisodesThroughTheEngine) {
  g_script = two_episode_script;
  SageRun r = run_sage(sage_config());
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  const auto& ev = r.events;
  ASSERT_EQ(of_type(ev, "credit").size(), 4u);
  // Episode 0: A = {m-a}, s = 1: m-a gets (1 - 0.2) / 1 = 0.8, m-b gets -δ = -0.2; n_U = 1, η = 1.
  json a0 = ev_of(ev, "credit", 0, "m-a"), b0 = ev_of(ev, "credit", 0, "m-b");
  EXPECT_DOUBLE_EQ(a0["credit"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(a0["utility_after"].get<double>(), 0.8);
  EXPECT_EQ(a0["adopted"], true);
  EXPECT_DOUBLE_EQ(b0["credit"].get<double>(), -0.2);
  EXPECT_DOUBLE_EQ(b0["utility_after"].get<double>(), -0.2);
  EXPECT_EQ(b0["adopted"], false);
  // Episode 1: A = {m-a, m-b}, they share 0.8: 0.4 each; η = 1/2.
  json a1 = ev_of(ev, "credit", 1, "m-a"), b1 = ev_of(ev, "credit", 1, "m-b");
  EXPECT_DOUBLE_EQ(a1["credit"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(a1["eta"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(a1["utility_after"].get<double>(), 0.6);  // 0.8 + 0.5 (0.4 - 0.8)
  EXPECT_DOUBLE_EQ(b1["utility_after"].get<double>(), 0.1);  // -0.2 + 0.5 (0.4 + 0.2)
  EXPECT_EQ(b1["n_updates"], 2);
  // The hot rule: unused in episode 0 (a = 0.9 * 0.5), used in episode 1 (0.9 * 0.45 + 0.1).
  auto acc = of_type(r.events, "access_update");
  ASSERT_EQ(acc.size(), 2u);
  EXPECT_EQ(acc[0]["used"], false);
  EXPECT_DOUBLE_EQ(acc[0]["access_after"].get<double>(), 0.45);
  EXPECT_EQ(acc[1]["used"], true);
  EXPECT_NEAR(acc[1]["access_after"].get<double>(), 0.505, 1e-12);
  // Metrics: both tasks solved; rounds to first correct (2 + 1) / 2.
  EXPECT_DOUBLE_EQ(r.report["er"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r.report["rounds_to_first_correct"].get<double>(), 1.5);
  ASSERT_EQ(r.report["utility_trajectories"]["m-a"].size(), 2u);
  EXPECT_EQ(r.report["utility_trajectories"]["m-a"][0][0], 0);
  EXPECT_DOUBLE_EQ(r.report["utility_trajectories"]["m-a"][0][1].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(r.report["utility_trajectories"]["m-a"][1][1].get<double>(), 0.6);
  // The last two columns: the episode's fastest correct feasible program (the scripted programs time the same
  // as the reference solutions: speedup 1).
  EXPECT_EQ(r.csv, "episode,task,rounds,first_correct_round,solved,score,best_cycles,best_speedup\n0," + kA +
                       ",2,1,1,1,16435,1\n1," + kB + ",1,0,1,1,16435,1\n");
}

TEST(Sage, ResidentRulesListedInRulesUsedCountAsUsedForTheirAccess) {
  // Episode 0: the hot rule m-h is only listed in rules_used (with an id that is not resident, ignored);
  // episode 1: the answer has no rules_used list and does not adopt m-h.
  g_script = [](const Req& q) {
    Answer a{true, {no("m-a"), no("m-b")}};
    if (q.task == kA) a.rules_used = "[m-h, m-zz]";
    return a;
  };
  g_prompts.clear();
  SageRun r = run_sage(sage_config());
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  ASSERT_FALSE(g_prompts.empty());
  EXPECT_NE(g_prompts[0].find("add a `rules_used:` list"), std::string::npos);  // the prompt asks for it
  auto acc = of_type(r.events, "access_update");
  ASSERT_EQ(acc.size(), 2u);
  EXPECT_EQ(acc[0]["item"], "m-h");
  EXPECT_EQ(acc[0]["used"], true);  // 0.9 * 0.5 + 0.1
  EXPECT_NEAR(acc[0]["access_after"].get<double>(), 0.55, 1e-12);
  EXPECT_EQ(acc[1]["used"], false);  // decayed: 0.9 * 0.55
  EXPECT_NEAR(acc[1]["access_after"].get<double>(), 0.495, 1e-12);
  // The proposer's call event records the list as answered.
  bool recorded = false;
  for (const auto& c : of_type(r.events, "llm_call"))
    if (c["trace"].value("role", "") == "proposer" && c["trace"].contains("rules_used")) {
      EXPECT_EQ(c["trace"]["rules_used"], json::array({"m-h", "m-zz"}));
      recorded = true;
    }
  EXPECT_TRUE(recorded);
}

TEST(Sage, UniformCreditGivesEveryRetrievedItemSMinusBeta) {
  g_script = two_episode_script;
  CampaignConfig c = sage_config({kA});
  c.memory.params.credit = sf::memory::CreditMode::Uniform;
  SageRun r = run_sage(c);
  ASSERT_EQ(of_type(r.events, "credit").size(), 2u);
  EXPECT_DOUBLE_EQ(ev_of(r.events, "credit", 0, "m-a")["credit"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(ev_of(r.events, "credit", 0, "m-b")["credit"].get<double>(), 0.8);  // never adopted
}

TEST(Sage, EventsFollowTheContractAndResultsPrecedeMemoryUpdates) {
  g_script = two_episode_script;
  SageRun r = run_sage(sage_config({kA}));
  std::vector<std::string> types;
  for (const auto& e : r.events) types.push_back(e["type"]);
  // Round 0: proposer + verifier calls (no impl: no guardian/verifier), 2 adoption records, verdict; round 1
  // the same with a program; then the result, then the memory phase.
  std::vector<std::string> expect = {
      "campaign_started", "episode_started", "llm_call",         "adoption_record",  "adoption_record",
      "verdict",          "llm_call",        "llm_call",         "llm_call",         "adoption_record",
      "adoption_record",  "verdict",         "episode_finished", "credit",           "credit",
      "access_update",    "llm_call",        "consolidation",    "campaign_finished"};
  EXPECT_EQ(types, expect);
  const json& st = r.events[1];
  EXPECT_EQ(st["episode"], 0);
  EXPECT_EQ(st["task"], kA);
  EXPECT_EQ(st["max_rounds"], 3);
  json ra = ev_of(r.events, "adoption_record", 0, "m-a", 0);
  EXPECT_EQ(ra["task"], kA);
  EXPECT_EQ(ra["adopted"], true);
  EXPECT_EQ(ra["rationale"], "used m-a");
  EXPECT_EQ(ra["reasked"], false);
  EXPECT_EQ(ra["before"], "");
  EXPECT_EQ(ra["after"], "");
  for (const char* k : {"rank", "relevance_rank", "pool_rank", "relevance", "score", "utility"})
    EXPECT_TRUE(ra[k].is_number()) << k;
  json rb = ev_of(r.events, "adoption_record", 0, "m-b", 0);
  EXPECT_EQ(ra["rank"].get<int>() + rb["rank"].get<int>(), 3);  // ranks 1 and 2
  json r1 = ev_of(r.events, "adoption_record", 0, "m-a", 1);
  EXPECT_EQ(r1["adopted"], false);
  EXPECT_NE(r1["after"].get<std::string>().find("return"), std::string::npos);  // the round-1 program
  auto fin = of_type(r.events, "episode_finished")[0];
  EXPECT_EQ(fin["score"], 1.0);
  EXPECT_EQ(fin["rounds"], 2);
  EXPECT_EQ(fin["first_correct_round"], 1);
  EXPECT_EQ(fin["solved"], true);
  auto v = of_type(r.events, "verdict");
  EXPECT_EQ(v[1]["iteration"], 0);     // episode
  EXPECT_EQ(v[1]["sample_index"], 1);  // round
  EXPECT_EQ(v[1]["pass"], true);
  auto cons = of_type(r.events, "consolidation")[0];
  for (const char* k : {"validated", "promoted", "demoted", "abstraction_failed"})
    EXPECT_TRUE(cons[k].is_array());
  EXPECT_EQ(cons["budget"], 10000);
  // The round-1 prompt carried the round-0 diagnostics; the resident rule carried its pattern.
  auto calls = of_type(r.events, "llm_call");
  std::string p1 = calls[1]["trace"]["prompt"][1]["content"];
  EXPECT_NE(p1.find("## Previous attempt"), std::string::npos);
  EXPECT_NE(p1.find("P-NO-IMPL"), std::string::npos);
  EXPECT_NE(p1.find("- [m-h] Zip before Map\n  pattern: Zip>Map"), std::string::npos) << p1;
}

TEST(Sage, AMissingIdIsReaskedOnceThenUnresolved) {
  int reasks = 0;
  g_script = [&](const Req& q) -> Answer {
    if (q.reask) ++reasks;
    if (q.round == 0 && !q.reask) return {true, {yes("m-a")}};  // m-b missing: re-ask
    if (q.round == 0) return {true, {}};                        // the re-ask still leaves m-b open
    return {true, {no("m-a"), no("m-b")}};
  };
  SageRun r = run_sage(sage_config({kA}));
  EXPECT_EQ(reasks, 1);
  ASSERT_EQ(of_type(r.events, "adoption_record").size(), 2u);
  json ra = ev_of(r.events, "adoption_record", 0, "m-a", 0),
       rb = ev_of(r.events, "adoption_record", 0, "m-b", 0);
  EXPECT_EQ(ra["adopted"], true);
  EXPECT_EQ(ra["reasked"], false);
  EXPECT_EQ(rb["adopted"], false);
  EXPECT_EQ(rb["rationale"], "unresolved");
  EXPECT_EQ(rb["reasked"], true);
  EXPECT_EQ(rb["resolved"], false);
  EXPECT_EQ(ra["resolved"], true);
  // Both proposer calls are logged before the records; the re-ask carries the first answer and names m-b.
  auto calls = of_type(r.events, "llm_call");
  ASSERT_GE(calls.size(), 2u);
  ASSERT_EQ(calls[1]["trace"]["prompt"].size(), 4u);
  EXPECT_EQ(calls[1]["trace"]["prompt"][2]["role"], "assistant");
  EXPECT_NE(calls[1]["trace"]["prompt"][3]["content"].get<std::string>().find("m-b"), std::string::npos);
  // ATU: m-a adopted: 0.8; m-b stayed unresolved: no credit either way.
  EXPECT_DOUBLE_EQ(ev_of(r.events, "credit", 0, "m-a")["credit"].get<double>(), 0.8);
  EXPECT_EQ(of_type(r.events, "credit").size(), 1u);
}

TEST(Sage, AnUnresolvedAdoptionStateGetsNoCredit) {
  g_script = [](const Req& q) -> Answer {
    if (!q.reask) return {true, {yes("m-a")}};  // m-b missing
    return {true, {}};                          // and still missing after the re-ask; the round passes
  };
  SageRun r = run_sage(sage_config({kA}));
  EXPECT_EQ(ev_of(r.events, "adoption_record", 0, "m-b", 0)["resolved"], false);
  auto credits = of_type(r.events, "credit");
  ASSERT_EQ(credits.size(), 1u);  // m-b: neither -δ nor a share
  EXPECT_EQ(credits[0]["item"], "m-a");
  EXPECT_DOUBLE_EQ(credits[0]["credit"].get<double>(), 0.8);
}

TEST(Sage, FullContextShowsEveryItemNewestFirstWithoutRetrievalOrConsolidation) {
  g_script = two_episode_script;
  CampaignConfig c = sage_config({kA});
  c.memory.mode = MemoryMode::FullContext;
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  SageRun r = run_sage(c);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  // Every item (the hot one too), newest first: m-h, m-b, m-a; no relevance pool.
  json h = ev_of(r.events, "adoption_record", 0, "m-h", 0), b = ev_of(r.events, "adoption_record", 0, "m-b", 0),
       a = ev_of(r.events, "adoption_record", 0, "m-a", 0);
  EXPECT_EQ(h["rank"], 1);
  EXPECT_EQ(b["rank"], 2);
  EXPECT_EQ(a["rank"], 3);
  EXPECT_EQ(a["pool_rank"], 0);
  ASSERT_FALSE(g_prompts.empty());
  EXPECT_EQ(g_prompts[0].find("## Resident rules"), std::string::npos) << g_prompts[0];
  EXPECT_NE(g_prompts[0].find("- id: m-h"), std::string::npos);
  EXPECT_TRUE(of_type(r.events, "consolidation").empty());
  EXPECT_FALSE(of_type(r.events, "credit").empty());
  std::string err;
  json j = config_to_json(sage_config());
  EXPECT_EQ(j["memory"]["mode"], "retrieval");
  ASSERT_TRUE(apply_override(j, "memory.mode=full-context", err)) << err;
  auto back = config_from_json(j, err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->memory.mode, MemoryMode::FullContext);
  EXPECT_EQ(config_to_json(*back)["memory"]["mode"], "full-context");
  ASSERT_TRUE(apply_override(j, "memory.mode=everything", err));
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("memory.mode"), std::string::npos) << err;
}

// The consolidation guard with an abstractor that collapses rules (the scripted one answers the one-word rule
// "abstracted", 3 tokens): m-c is validated and abstracted to 3 tokens with a high value per token, so under a
// budget of 61 it pushes out the 60-token hot rule m-h1 that the proposer just adopted — the resident context
// would shrink from 60 to 3 tokens. The engine keeps the previous resident set and logs the rollback.
TEST(Sage, TheConsolidationGuardRollsBackAStepThatDropsAdoptedRules) {
  fs::path p = fs::temp_directory_path() / ("sf_sage_guard_memory_" + std::to_string(::getpid()) + ".json");
  json j = {{"format", "stepforge-memory"},
            {"version", 1},
            {"items",
             {{{"id", "m-c"},
               {"rule", "rotary position embedding: rotate pairs of the token vector"},
               {"utility", 0.8},
               {"n_updates", 1},
               {"retrieval_count", 1},
               {"adoption_count", 1},
               {"adopting_tasks", {"other"}},
               {"eligible_episodes", 1}},
              {{"id", "m-h1"},
               {"rule", "a long resident rule"},
               {"state", "hot"},
               {"utility", 0.1},
               {"access", 0.5},
               {"resident_rule", std::string(240, 'r')}}}}};
  std::ofstream(p) << j.dump();
  g_script = [](const Req&) -> Answer { return {true, {yes("m-c"), yes("m-h1")}}; };
  CampaignConfig c = sage_config();
  c.memory.import = p.string();
  c.memory.params.budget = 61;
  c.memory.params.k_ado = 1;
  c.memory.params.k_op = 1;
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  SageRun r = run_sage(c);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  auto rb = of_type(r.events, "consolidation_rollback");
  ASSERT_GE(rb.size(), 1u);
  EXPECT_EQ(rb[0]["episode"], 0);
  EXPECT_EQ(rb[0]["hot_tokens_before"], 60);
  EXPECT_EQ(rb[0]["hot_tokens_after"], 3);
  EXPECT_EQ(rb[0]["lost_adopted"], json({"m-h1"}));
  EXPECT_EQ(r.report["memory"]["consolidation_rollbacks"], rb.size());
  // Episode 1 still sees the rule (it would be gone without the guard).
  ASSERT_EQ(g_prompts.size(), 2u);
  EXPECT_NE(g_prompts[1].find("- [m-h1]"), std::string::npos);
  // The memory projection (GUI memory inspector, replays) undoes the step too: right after the rollback event
  // m-h1 is resident again and m-c is not.
  auto initial = sf::memory::load_memory_file(p.string(), c.memory.params);
  ASSERT_TRUE(initial.ok());
  MemoryView view(*initial.value);
  for (const auto& e : r.events) {
    std::string err;
    auto ev = event_from_json(e, err);
    ASSERT_TRUE(ev) << err;
    view.apply(*ev);
    if (e["type"] == "consolidation_rollback") break;
  }
  ASSERT_EQ(view.rollbacks().size(), 1u);
  EXPECT_EQ(view.rollbacks()[0].lost_adopted, std::vector<std::string>{"m-h1"});
  EXPECT_EQ(view.rollbacks()[0].hot_tokens_before, 60);
  ASSERT_NE(view.store().find("m-h1"), nullptr);
  EXPECT_EQ(view.store().find("m-h1")->state, sf::memory::ItemState::Hot);
  ASSERT_NE(view.store().find("m-c"), nullptr);
  EXPECT_NE(view.store().find("m-c")->state, sf::memory::ItemState::Hot);
  fs::remove(p);
}

TEST(Sage, TheReaskAnswerResolvesTheMissingId) {
  g_script = [](const Req& q) -> Answer {
    if (!q.reask) return {true, {yes("m-a")}};
    return {true, {yes("m-a"), yes("m-b")}};
  };
  SageRun r = run_sage(sage_config({kA}));
  json rb = ev_of(r.events, "adoption_record", 0, "m-b", 0);
  EXPECT_EQ(rb["adopted"], true);
  EXPECT_EQ(rb["reasked"], true);
  EXPECT_EQ(rb["rationale"], "used m-b");
}

TEST(Sage, MemoryOffRetrievesNothingAndUpdatesNothing) {
  g_script = two_episode_script;
  CampaignConfig c = sage_config();
  c.memory.enabled = false;
  SageRun r = run_sage(c);
  EXPECT_TRUE(of_type(r.events, "adoption_record").empty());
  EXPECT_TRUE(of_type(r.events, "credit").empty());
  EXPECT_TRUE(of_type(r.events, "consolidation").empty());
  EXPECT_EQ(of_type(r.events, "episode_finished").size(), 2u);
}
