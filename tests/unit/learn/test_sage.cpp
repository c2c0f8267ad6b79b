// Mode sage of the campaign engine (algorithms §4, issue 7) on a scripted in-process model: hand-computed ATU
// episodes through the engine path, the adoption protocol (missing id -> exactly one re-ask -> `unresolved`),
// the event contract's order and fields (docs/learn.md "Sage events"), results logged before the memory is
// updated, resident rules carrying their pattern, and resume equality after an interruption in the middle of
// an episode and in the middle of a memory phase.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>

#include "core/bench/catalogue.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/projections.hpp"
#include "core/learn/verdict_words.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/memory/memory_store.hpp"
#include "core/store/workspace.hpp"
#include "learn_test_util.hpp"
#include "tests/support/files.hpp"

using namespace sf::learn;
using sf::learn::testing::kA;
using sf::learn::testing::kB;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {


struct Req {
  std::string task;
  int round = 0;
  bool reask = false;
};
// What the scripted proposer answers: a passing program or none, and adoption lines (YAML list entries).
struct Answer {
  bool pass = false;
  std::vector<std::string> adoption;  // e.g. "{id: m-a, adopted: yes, rationale: \"used it\"}"
  int http_error = 0;                 // the call fails with this HTTP status instead (an endpoint failure)
  bool cut = false;                   // finish_reason "length": the answer was cut at max_tokens
  std::string rules_used;             // a `rules_used:` line's value in the block ("" = no line)
};
std::function<Answer(const Req&)> g_script;
std::vector<std::string> g_prompts;  // every proposer user message, in order
std::mutex g_prompts_mu;

sf::llm::ChatResult scripted(const sf::llm::ChatRequest& req, const sf::llm::CancelToken&) {
  sf::llm::ChatResponse r;
  const std::string& sys = req.messages.front().content;
  if (sys.starts_with("You are the distiller")) {
    r.text = "```yaml\nexperiences: []\n```\n";
    return sf::llm::ChatResult::success(r);
  }
  if (sys.starts_with("You are the abstractor")) {
    r.text = "```yaml\nrule: \"abstracted\"\n```\n";
    return sf::llm::ChatResult::success(r);
  }
  const std::string& user = req.messages[1].content;
  Req q;
  q.task = sf::learn::testing::prompt_task_id(user);
  q.round = req.sample_index;
  q.reask = req.messages.size() > 2;
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.push_back(user);
  }
  Answer a = g_script(q);
  if (a.http_error) return sf::llm::ChatResult::failure("http", "Incorrect API key provided", a.http_error, 1);
  if (a.cut) r.finish_reason = "length";
  std::string body = a.pass ? sf::learn::testing::solution_text(q.task) : "";
  r.text = "```yaml\n" + body;
  if (!a.adoption.empty()) {
    r.text += "adoption:\n";
    for (const auto& l : a.adoption) r.text += "  - " + l + "\n";
  }
  if (!a.rules_used.empty()) r.text += "rules_used: " + a.rules_used + "\n";
  r.text += "```\n";
  if (!a.pass && a.adoption.empty()) r.text = "no idea";
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 5;
  return sf::llm::ChatResult::success(r);
}

std::string yes(const std::string& id) {
  return "{id: " + id + ", adopted: yes, rationale: \"used " + id + "\"}";
}
std::string no(const std::string& id) {
  return "{id: " + id + ", adopted: no, rationale: \"not needed\"}";
}

// Two cold items about rotary embeddings (both retrieved for the rope tasks) and one hot rule with a pattern.
fs::path memory_file() {
  fs::path p = fs::temp_directory_path() / ("sf_sage_test_memory_" + std::to_string(::getpid()) + ".json");
  json j = {{"format", "stepforge-memory"},
            {"version", 1},
            {"items",
             {{{"id", "m-a"}, {"rule", "rotary position embedding: rotate pairs of the token vector"}},
              {{"id", "m-b"}, {"rule", "rotary embedding: sin and cos of the position per token"}},
              {{"id", "m-h"},
               {"rule", "zip the streams first"},
               {"state", "hot"},
               {"utility", 0.5},
               {"access", 0.5},
               {"resident_rule", "Zip before Map"},
               {"pattern", "Zip>Map"}}}}};
  std::ofstream(p) << j.dump();
  return p;
}

CampaignConfig sage_config(std::vector<std::string> tasks = {kA, kB}) {
  CampaignConfig c;
  c.mode = Mode::Sage;
  c.tasks = std::move(tasks);
  c.backend.kind = sf::llm::BackendKind::Builtin;
  c.backend.builtin_provider = "sage-script";
  c.backend.model = "script";
  c.memory.params.rounds = 3;
  c.memory.import = memory_file().string();
  return c;
}

using sf::learn::testing::tasks_for;

struct SageCollect : EventSink {
  std::vector<json> events;
  void on_event(const Event& e) override { events.push_back(to_json(e)); }
};

struct SageRun {
  RunResult result;
  json report;
  std::string csv;
  std::vector<json> events;
};

SageRun run_sage(const CampaignConfig& cfg, const fs::path& ws_dir = {}) {
  sf::llm::BuiltinBackend backend(scripted, "sage-script");
  std::unique_ptr<sf::store::Workspace> ws;
  std::string err;
  if (!ws_dir.empty()) {
    ws = fs::exists(ws_dir / "campaign.json")
             ? sf::store::Workspace::open(ws_dir, err)
             : sf::store::Workspace::create(ws_dir, config_to_json(cfg), err);
    EXPECT_TRUE(ws) << err;
  }
  EngineDeps deps;
  deps.backend = &backend;
  deps.manual_text = "manual";
  deps.tasks = tasks_for(cfg);
  SageCollect sink;
  CampaignEngine engine(cfg, std::move(deps), ws.get(), &sink);
  if (ws) {
    EXPECT_TRUE(engine.load(ws->loaded_events(), err)) << err;
  }
  SageRun r;
  r.result = engine.run();
  r.report = report_json(engine.state());
  r.csv = report_csv(engine.state());
  r.events = sink.events;
  return r;
}

std::vector<json> of_type(const std::vector<json>& evs, const std::string& type) {
  std::vector<json> out;
  for (const auto& e : evs)
    if (e["type"] == type) out.push_back(e);
  return out;
}

// The event of `type` for (episode, item).
json ev_of(const std::vector<json>& evs, const std::string& type, int episode, const std::string& item,
           int round = -1) {
  for (const auto& e : evs)
    if (e["type"] == type && e["episode"] == episode && e["item"] == item &&
        (round < 0 || e["round"] == round))
      return e;
  ADD_FAILURE() << "no " << type << " for episode " << episode << " item " << item;
  return json::object({{"credit", 0.0}, {"utility_after", 0.0}, {"eta", 0.0}});
}

// Episode 0 (task A): round 0 fails adopting m-a (not m-b), round 1 passes adopting nothing.
// Episode 1 (task B): round 0 passes adopting m-a, m-b and the hot rule m-h.
Answer two_episode_script(const Req& q) {
  if (q.task == kA && q.round == 0) return {false, {yes("m-a"), no("m-b")}};
  if (q.task == kA) return {true, {no("m-a"), no("m-b")}};
  return {true, {yes("m-a"), yes("m-b"), yes("m-h")}};
}

fs::path fresh(const std::string& name) {
  return sf::test_support::scratch_dir("sf_sage_test_" + name, false);
}

}  // namespace

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

// Interrupted runs: the log is cut (a) in the middle of episode 1's rounds and (b) in the middle of episode
// 1's memory phase, with memory.json as it was after episode 0 (from a campaign over task A alone), plus an
// audit label the GUI appended. Resuming gives the same report and memory as the uninterrupted run; in case
// (b) the log is exactly the uninterrupted one (the memory phase is redone and only its missing events are
// logged).
TEST(Sage, ResumeAfterAnInterruptionGivesTheSameResult) {
  g_script = two_episode_script;
  fs::path full = fresh("full");
  SageRun f = run_sage(sage_config(), full);
  ASSERT_EQ(f.result.status, RunStatus::Finished);
  fs::path first = fresh("first");
  run_sage(sage_config({kA}), first);
  auto strip = [](json e) {
    e.erase("seq");
    e.erase("t");
    if (e.contains("trace")) e["trace"].erase("latency_s");
    return e;
  };
  for (const char* cut_after : {"verdict", "credit"}) {
    std::vector<json> prefix;
    int ep1 = -1;
    for (std::size_t i = 0; i < f.events.size(); ++i) {
      prefix.push_back(f.events[i]);
      if (f.events[i]["type"] == "episode_started" && f.events[i]["episode"] == 1) ep1 = static_cast<int>(i);
      if (ep1 >= 0 && f.events[i]["type"] == cut_after) break;
    }
    fs::path ws = fresh(std::string("cut_") + cut_after);
    fs::create_directories(ws);
    fs::copy_file(full / "campaign.json", ws / "campaign.json");
    fs::copy_file(first / "memory.json", ws / "memory.json");
    {
      std::ofstream o(ws / "events.jsonl");
      for (const auto& e : prefix) o << e.dump() << "\n";
      o << json{{"v", 1},          {"seq", prefix.size()}, {"t", 0.0},       {"type", "audit_label"},
                {"episode", 0},    {"task", kA},           {"round", 0},     {"item", "m-a"},
                {"label", "full"}, {"note", ""},           {"auditor", "x"}, {"time", "2026-01-01T00:00:00Z"}}
               .dump()
        << "\n";
    }
    SageRun r = run_sage(sage_config(), ws);
    ASSERT_EQ(r.result.status, RunStatus::Finished) << cut_after << ": " << r.result.error;
    json a = f.report, b = r.report;
    a.erase("wall_s");
    b.erase("wall_s");
    EXPECT_EQ(a, b) << cut_after;
    std::ifstream m1(full / "memory.json"), m2(ws / "memory.json");
    EXPECT_EQ(json::parse(m1), json::parse(m2)) << cut_after;
    if (std::string(cut_after) == "credit") {
      std::vector<json> all = prefix;
      for (const auto& e : r.events) all.push_back(e);
      ASSERT_EQ(all.size(), f.events.size());
      for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(strip(all[i]), strip(f.events[i])) << i;
    }
  }
}

TEST(Sage, ConfigRoundTripAndOverrides) {
  json j = config_to_json(sage_config());
  std::string err;
  ASSERT_TRUE(apply_override(j, "memory.credit=uniform", err)) << err;
  ASSERT_TRUE(apply_override(j, "memory.ranking=relevance", err)) << err;
  ASSERT_TRUE(apply_override(j, "memory.ugc=random", err)) << err;
  ASSERT_TRUE(apply_override(j, "memory.enabled=false", err)) << err;
  ASSERT_TRUE(apply_override(j, "order=hard-only", err)) << err;
  auto c = config_from_json(j, err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->mode, Mode::Sage);
  EXPECT_EQ(c->memory.params.credit, sf::memory::CreditMode::Uniform);
  EXPECT_EQ(c->memory.params.ranking, sf::memory::RankingMode::Relevance);
  EXPECT_EQ(c->memory.params.ugc, sf::memory::UgcMode::Random);
  EXPECT_FALSE(c->memory.enabled);
  EXPECT_EQ(c->order, TaskOrder::HardOnly);
  EXPECT_EQ(config_to_json(*c), j);
  j["memory"]["rounds"] = 0;
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("rounds"), std::string::npos) << err;
  j["memory"]["rounds"] = 3;
  j["memory"]["colour"] = "red";
  EXPECT_FALSE(config_from_json(j, err));
  EXPECT_NE(err.find("colour"), std::string::npos) << err;
}

TEST(Sage, HardOnlyKeepsTheReuseTasks) {
  CampaignConfig c = sage_config({});
  c.tasks.clear();
  c.order = TaskOrder::HardOnly;
  auto ts = tasks_for(c);
  ASSERT_FALSE(ts.empty());
  for (const auto& t : ts) EXPECT_EQ(difficulty_tag(t).rfind("Reuse-", 0), 0u) << t.id;
  c.tasks = {kA};  // a Once task only
  sf::Diagnostics d;
  auto cat = sf::bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  std::string err;
  EXPECT_FALSE(resolve_tasks(c, cat.tasks(), err));
  EXPECT_NE(err.find("hard-only"), std::string::npos);
}

// Cancel in the middle of episode 1, then resume in the same workspace: the interrupted episode is restarted
// and the result equals an uninterrupted run; pause holds the engine between rounds.
TEST(Sage, CancelThenResumeGivesTheSameResult) {
  g_script = two_episode_script;
  SageRun full = run_sage(sage_config());
  fs::path ws_dir = fresh("cancel");
  CampaignConfig cfg = sage_config();
  {
    sf::llm::BuiltinBackend backend(scripted, "sage-script");
    std::string err;
    auto ws = sf::store::Workspace::create(ws_dir, config_to_json(cfg), err);
    ASSERT_TRUE(ws) << err;
    EngineDeps deps;
    deps.backend = &backend;
    deps.manual_text = "manual";
    deps.tasks = tasks_for(cfg);
    struct CancelSink : EventSink {
      CampaignEngine* engine = nullptr;
      void on_event(const Event& e) override {
        if (const auto* s = std::get_if<EpisodeStarted>(&e.body); s && s->episode == 1) {
          engine->pause();
          EXPECT_TRUE(engine->progress().paused);
          engine->cancel();
        }
      }
    } sink;
    CampaignEngine engine(cfg, std::move(deps), ws.get(), &sink);
    sink.engine = &engine;
    RunResult r = engine.run();
    EXPECT_EQ(r.status, RunStatus::Cancelled);
    EXPECT_EQ(engine.state().sage.finished_episodes(), 1);
  }
  SageRun resumed = run_sage(cfg, ws_dir);
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  json a = full.report, b = resumed.report;
  a.erase("wall_s");
  b.erase("wall_s");
  EXPECT_EQ(a, b);
}

// An endpoint failure in the middle of episode 1 (HTTP 401 on its first call) is no sample: the campaign
// pauses with the cause and the fix, logs nothing of episode 1 but its start, and a resume after the fix
// ends with the report of an uninterrupted run.
TEST(Sage, AnEndpointFailurePausesAndResumeGivesTheSameResult) {
  g_script = two_episode_script;
  SageRun full = run_sage(sage_config());
  ASSERT_EQ(full.result.status, RunStatus::Finished) << full.result.error;
  fs::path ws_dir = fresh("endpoint");
  CampaignConfig cfg = sage_config();
  cfg.backend.key_env = "SF_SAGE_TEST_KEY";
  g_script = [](const Req& q) {
    if (q.task == kB) return Answer{false, {}, 401};
    return two_episode_script(q);
  };
  SageRun first = run_sage(cfg, ws_dir);
  ASSERT_EQ(first.result.status, RunStatus::Paused) << first.result.error;
  EXPECT_EQ(first.result.reason, "infrastructure");
  EXPECT_NE(first.result.error.find("authentication failed (HTTP 401)"), std::string::npos) << first.result.error;
  EXPECT_NE(first.result.error.find("check SF_SAGE_TEST_KEY"), std::string::npos) << first.result.error;
  for (const auto& v : of_type(first.events, "verdict")) EXPECT_EQ(v["task"], kA);  // none for the failed call
  EXPECT_EQ(of_type(first.events, "campaign_paused").size(), 1u);
  EXPECT_EQ(of_type(first.events, "episode_finished").size(), 1u);

  g_script = two_episode_script;
  SageRun resumed = run_sage(cfg, ws_dir);
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  json a = full.report, b = resumed.report;
  a.erase("wall_s");
  b.erase("wall_s");
  EXPECT_EQ(a, b);
  fs::remove_all(ws_dir);
}

// An answer cut at max_tokens is a `truncated` verdict (never verified, no adoption re-ask) and the next
// round's feedback says where it was cut.
TEST(Sage, ATruncatedAnswerIsAVerdictAndTheNextRoundIsToldWhy) {
  g_script = [](const Req& q) {
    if (q.round == 0) return Answer{true, {}, 0, true};  // a whole program, but cut: not verified
    return Answer{true, {no("m-a"), no("m-b")}};
  };
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  SageRun r = run_sage(sage_config({kA}));
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  auto verdicts = of_type(r.events, "verdict");
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0]["stage"], "truncated");
  EXPECT_EQ(verdicts[0]["code"], "truncated");
  EXPECT_FALSE(verdicts[0]["pass"].get<bool>());
  EXPECT_TRUE(verdicts[1]["pass"].get<bool>());
  std::lock_guard lock(g_prompts_mu);
  ASSERT_EQ(g_prompts.size(), 2u);  // no re-ask for the cut answer
  EXPECT_NE(g_prompts[1].find("cut at the token limit"), std::string::npos);
}

// Objective performance (docs/learn.md "Cost"): after the first correct program the episode continues to T
// rounds from the best program so far, with its cost feedback; every round is logged; the terminal score is
// 0.5 + 0.5 min(1, log2(1 + speedup)) of the fastest feasible program (the reference itself: speedup 1 -> 1).
TEST(Sage, PerformanceObjectiveRunsOptimisationRoundsFromTheBestProgram) {
  g_script = [](const Req&) { return Answer{true, {}}; };
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  CampaignConfig c = sage_config({kA});
  c.memory.enabled = false;
  c.memory.import.clear();
  c.memory.params.rounds = 3;
  c.objective = Objective::Performance;
  SageRun r = run_sage(c);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  auto verdicts = of_type(r.events, "verdict");
  ASSERT_EQ(verdicts.size(), 3u);
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    EXPECT_EQ(verdicts[i]["sample_index"], static_cast<int>(i));
    EXPECT_TRUE(verdicts[i]["pass"].get<bool>());
    EXPECT_TRUE(verdicts[i]["feasible"].get<bool>());
    EXPECT_GT(verdicts[i]["cycles"].get<std::int64_t>(), 0);
    EXPECT_DOUBLE_EQ(verdicts[i]["speedup"].get<double>(), 1.0);
  }
  auto fin = of_type(r.events, "episode_finished");
  ASSERT_EQ(fin.size(), 1u);
  EXPECT_EQ(fin[0]["rounds"], 3);
  EXPECT_EQ(fin[0]["first_correct_round"], 0);
  EXPECT_DOUBLE_EQ(fin[0]["score"].get<double>(), 0.5 + 0.5 * std::min(1.0, std::log2(1.0 + 1.0)));
  std::lock_guard lock(g_prompts_mu);
  ASSERT_EQ(g_prompts.size(), 3u);
  const std::string cyc = std::to_string(verdicts[0]["cycles"].get<std::int64_t>());
  // Every round shows the baseline; rounds 1 and 2 ask to speed up the correct program with its feedback.
  for (const auto& p : g_prompts) EXPECT_NE(p.find("The reference solution takes " + cyc + " cycles"), std::string::npos);
  EXPECT_EQ(g_prompts[0].find("Your previous program is correct"), std::string::npos);
  for (int i = 1; i < 3; ++i) {
    EXPECT_NE(g_prompts[i].find("Your previous program is correct"), std::string::npos) << g_prompts[i];
    EXPECT_NE(g_prompts[i].find("Performance:"), std::string::npos);
    EXPECT_NE(g_prompts[i].find("step.Zip()"), std::string::npos);  // the previous (correct) program
  }
  // The report: the fastest program of the task and the campaign's speed metrics.
  const json& f = r.report["tasks"][0]["fastest"];
  EXPECT_EQ(f["cycles"], verdicts[0]["cycles"]);
  EXPECT_DOUBLE_EQ(f["speedup"].get<double>(), 1.0);
  EXPECT_FALSE(f["suspicious"].get<bool>());
  EXPECT_DOUBLE_EQ(r.report["fast_1"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(r.report["median_speedup"].get<double>(), 1.0);
}

TEST(Sage, CorrectnessObjectiveStopsAtTheFirstCorrectProgramWithoutBaseline) {
  g_script = [](const Req&) { return Answer{true, {}}; };
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  CampaignConfig c = sage_config({kA});
  c.memory.enabled = false;
  c.memory.import.clear();
  SageRun r = run_sage(c);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  auto verdicts = of_type(r.events, "verdict");
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_TRUE(verdicts[0].contains("cycles"));  // measured all the same
  EXPECT_DOUBLE_EQ(of_type(r.events, "episode_finished")[0]["score"].get<double>(), 1.0);
  std::lock_guard lock(g_prompts_mu);
  ASSERT_EQ(g_prompts.size(), 1u);
  EXPECT_EQ(g_prompts[0].find("The reference solution takes"), std::string::npos);
}

// The projections (issue 21): the memory view folded over every event of a run equals the memory the engine
// wrote (same rules: the store's own state changes); folded over the first events only, it is the memory at
// that point; the audit view holds the records logged so far.
TEST(SageProjections, MemoryAndAuditViewsFollowTheEventsPrefixByPrefix) {
  g_script = two_episode_script;
  const fs::path dir = fresh("projections");
  CampaignConfig cfg = sage_config();
  cfg.memory.params.budget = 6;  // room for one resident rule: consolidation promotes and demotes
  SageRun r = run_sage(cfg, dir);
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  auto initial = sf::memory::load_memory_file(cfg.memory.import, cfg.memory.params);
  ASSERT_TRUE(initial.ok());
  auto final_mem = sf::memory::load_memory_file((dir / "memory.json").string(), cfg.memory.params);
  ASSERT_TRUE(final_mem.ok());
  auto typed = [](const json& j) {
    std::string err;
    auto e = event_from_json(j, err);
    EXPECT_TRUE(e) << err;
    return *e;
  };
  MemoryView mem(*initial.value);
  AuditView audit;
  std::size_t end_of_episode0 = 0;
  for (std::size_t i = 0; i < r.events.size(); ++i) {
    mem.apply(typed(r.events[i]));
    audit.apply(typed(r.events[i]));
    if (r.events[i]["type"] == "episode_started" && r.events[i]["episode"] == 1) {
      end_of_episode0 = i;
      // Episode 0 and its memory phase only: m-a credited 0.8 (adopted by A), m-b -0.2, one episode counted.
      const auto* a = mem.store().find("m-a");
      ASSERT_NE(a, nullptr);
      EXPECT_DOUBLE_EQ(a->utility, 0.8);
      EXPECT_EQ(a->adoption_count, 1);
      EXPECT_EQ(a->adopting_tasks, std::set<std::string>{kA});
      EXPECT_DOUBLE_EQ(mem.store().find("m-b")->utility, -0.2);
      EXPECT_NEAR(mem.store().find("m-h")->access, 0.45, 1e-12);
      EXPECT_EQ(mem.store().episodes(), initial.value->episodes() + 1);
      EXPECT_EQ(mem.trajectories().at("m-a").size(), 1u);
      EXPECT_EQ(audit.log().records.size(), 4u);  // rounds 0 and 1 of episode 0, two items each
    }
  }
  ASSERT_GT(end_of_episode0, 0u);
  EXPECT_EQ(audit.log().records.size(), of_type(r.events, "adoption_record").size());
  EXPECT_EQ(mem.consolidations(), static_cast<int>(of_type(r.events, "consolidation").size()));
  // Every event: the same memory as memory.json (what events carry).
  ASSERT_EQ(mem.store().items().size(), final_mem.value->items().size());
  EXPECT_EQ(mem.store().episodes(), final_mem.value->episodes());
  for (const auto& want : final_mem.value->items()) {
    SCOPED_TRACE(want.id);
    const auto* got = mem.store().find(want.id);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->state, want.state);
    EXPECT_DOUBLE_EQ(got->utility, want.utility);
    EXPECT_EQ(got->n_updates, want.n_updates);
    EXPECT_EQ(got->retrieval_count, want.retrieval_count);
    EXPECT_EQ(got->adoption_count, want.adoption_count);
    EXPECT_EQ(got->adopting_tasks, want.adopting_tasks);
    EXPECT_EQ(got->eligible_episodes, want.eligible_episodes);
    EXPECT_DOUBLE_EQ(got->access, want.access);
    if (want.state == sf::memory::ItemState::Hot) {
      EXPECT_EQ(got->resident_tokens, want.resident_tokens);
    }
  }
  fs::remove_all(dir);
}

TEST(StoryView, IterationStartsDemonstrationStepsAndTheFirstSolvedTask) {
  std::vector<Event> evs;
  auto push = [&](EventBody b) {
    Event e;
    e.seq = static_cast<std::int64_t>(evs.size());
    e.body = std::move(b);
    evs.push_back(std::move(e));
  };
  push(CampaignStarted{json{{"mode", "adaptive"}}, {}});
  push(IterationStarted{0, 0, 0, {}, {0.5}, {"a", "b"}, 1});
  IterationSummary s0;
  s0.iteration = 0;
  TaskResult r;
  r.task = "b";
  r.newly_solved = true;
  s0.results = {TaskResult{}, r};
  push(s0);
  push(IterationStarted{1, 1, 3, {"b"}, {0.5}, {"a"}, 1});
  push(IterationStarted{2, 1, 3, {"b"}, {0.5}, {"a"}, 1});  // the same step: no new moment
  push(IterationStarted{3, 2, 3, {"b", "c"}, {0.5}, {"a"}, 1});
  StoryView story;
  for (const auto& e : evs) story.apply(e);
  EXPECT_EQ(story.position(), evs.size());
  EXPECT_EQ(story.episode_starts(), (std::vector<std::size_t>{1, 3, 4, 5}));
  ASSERT_EQ(story.moments().size(), 3u);
  EXPECT_EQ(story.moments()[0].kind, Moment::Kind::FirstSolved);
  EXPECT_EQ(story.moments()[0].position, 3u);
  EXPECT_NE(story.moments()[0].caption.find("b (iteration 0)"), std::string::npos);
  EXPECT_EQ(story.moments()[1].kind, Moment::Kind::DemonstrationStep);
  EXPECT_EQ(story.moments()[1].x, 1);
  EXPECT_EQ(story.moments()[2].kind, Moment::Kind::DemonstrationStep);
  EXPECT_EQ(story.moments()[2].position, 6u);
}

TEST(StoryView, ANewBestSpeedupIsOneFasterThanTheBaselineAndEveryEarlierProgram) {
  StoryView story;
  std::int64_t seq = 0;
  auto verdict = [&](const char* task, bool pass, double speedup) {
    Verdict v;
    v.task = task;
    v.pass = pass;
    v.speedup = speedup;
    Event e;
    e.seq = seq++;
    e.body = v;
    story.apply(e);
  };
  verdict("a", true, 1.0);   // as fast as the baseline: nothing to tell
  verdict("b", false, 3.0);  // a failing program's speedup does not count
  verdict("a", true, 1.5);
  verdict("b", true, 1.2);   // slower than the best so far
  verdict("b", true, 2.25);
  ASSERT_EQ(story.moments().size(), 2u);
  EXPECT_EQ(story.moments()[0].kind, Moment::Kind::BestSpeedup);
  EXPECT_EQ(story.moments()[0].position, 3u);
  EXPECT_NE(story.moments()[0].caption.find("1.50× on a"), std::string::npos);
  EXPECT_EQ(story.moments()[1].position, 5u);
  EXPECT_NE(story.moments()[1].caption.find("2.25× on b"), std::string::npos);
}

TEST(VerdictWords, ShortWordsForPeople) {
  EXPECT_EQ(verdict_word(true, "", ""), "pass");
  EXPECT_EQ(verdict_word(false, "search", "no-program"), "no program");
  EXPECT_EQ(verdict_word(false, "parse", "P-NO-IMPL"), "no impl");
  EXPECT_EQ(verdict_word(false, "parse", "P-EMPTY-IMPL"), "no impl");
  EXPECT_EQ(verdict_word(false, "parse", "P-SYNTAX"), "syntax error");  // the STeP program's parse stage
  EXPECT_EQ(verdict_word(false, "llm", "timeout"), "LLM error");
  EXPECT_EQ(verdict_word(false, "numeric", "V-MISMATCH"), "wrong output");
  EXPECT_EQ(verdict_word(false, "cost", "C-SRAM"), "infeasible");
  EXPECT_EQ(verdict_word(false, "somewhere", "X"), "fail");
}
