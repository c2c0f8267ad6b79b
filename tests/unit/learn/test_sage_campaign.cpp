// Mode sage of the campaign engine on the scripted model of sage_test_util.hpp, the campaign around the
// episodes: resume equality after an interruption in the middle of an episode and in the middle of a memory
// phase, config round trip, cancel and endpoint failures (pause, then resume), truncated answers, the
// performance and correctness objectives, and the projections (memory, audit and story views) of the events.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <mutex>

#include "core/bench/catalogue.hpp"
#include "core/learn/projections.hpp"
#include "core/learn/verdict_words.hpp"
#include "core/memory/memory_store.hpp"
#include "tests/unit/learn/sage_test_util.hpp"

using namespace sf::learn;
using namespace sf::learn::sage_test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A run's report without its wall-clock time: what two runs of the same campaign must agree on.
json timeless_report(const SageRun& r) {
  json j = r.report;
  j.erase("wall_s");
  return j;
}

}  // namespace

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
    EXPECT_EQ(timeless_report(f), timeless_report(r)) << cut_after;
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
  EXPECT_EQ(timeless_report(full), timeless_report(resumed));
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
  EXPECT_EQ(timeless_report(full), timeless_report(resumed));
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

namespace {

// Task A with the memory off; from now on every answer is the reference solution (no adoption lines) and
// g_prompts starts empty.
CampaignConfig reference_answers_config() {
  g_script = [](const Req&) { return Answer{true, {}}; };
  {
    std::lock_guard lock(g_prompts_mu);
    g_prompts.clear();
  }
  CampaignConfig c = sage_config({kA});
  c.memory.enabled = false;
  c.memory.import.clear();
  return c;
}

}  // namespace

// Objective performance (docs/learn.md "Cost"): after the first correct program the episode continues to T
// rounds from the best program so far, with its cost feedback; every round is logged; the terminal score is
// 0.5 + 0.5 min(1, log2(1 + speedup)) of the fastest feasible program (the reference itself: speedup 1 -> 1).
TEST(Sage, PerformanceObjectiveRunsOptimisationRoundsFromTheBestProgram) {
  CampaignConfig c = reference_answers_config();
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
  CampaignConfig c = reference_answers_config();
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

TEST(StoryView, ANewBestSpeedupBeatsTheBaselineAndEveryEarlierProgramByTheTieTolerance) {
  StoryView story;
  std::int64_t seq = 0;
  auto apply = [&](EventBody b) {
    Event e;
    e.seq = seq++;
    e.body = std::move(b);
    story.apply(e);
  };
  auto verdict = [&](const char* task, bool pass, double speedup) {
    Verdict v;
    v.task = task;
    v.pass = pass;
    v.speedup = speedup;
    apply(v);
  };
  apply(CampaignStarted{json{{"mode", "adaptive"}}, {}});  // the default tolerance: 1%
  apply(IterationStarted{0, 0, 0, {}, {0.5}, {"a", "b"}, 1});
  verdict("a", true, 1.0);    // as fast as the baseline: nothing to tell
  verdict("a", true, 1.009);  // a one-cycle win is a tie, not a speedup
  verdict("b", false, 3.0);   // a failing program's speedup does not count
  verdict("a", true, 1.5);    // the best so far, but the story has not solved or learned anything yet
  IterationSummary s0;
  s0.iteration = 0;
  TaskResult r;
  r.task = "a";
  r.newly_solved = true;
  s0.results = {r};
  apply(s0);
  ASSERT_EQ(story.moments().size(), 1u);
  EXPECT_EQ(story.moments()[0].kind, Moment::Kind::FirstSolved);
  apply(IterationStarted{1, 1, 3, {"a"}, {0.5}, {"b"}, 1});  // learning: the waiting speedup follows it
  ASSERT_EQ(story.moments().size(), 3u);
  EXPECT_EQ(story.moments()[1].kind, Moment::Kind::DemonstrationStep);
  EXPECT_EQ(story.moments()[2].kind, Moment::Kind::BestSpeedup);
  EXPECT_EQ(story.moments()[2].position, 8u);  // told with the demonstration step (the 8th event)
  EXPECT_EQ(story.moments()[2].x, 0);
  EXPECT_NE(story.moments()[2].caption.find("1.50× on a (iteration 0)"), std::string::npos);
  verdict("b", true, 1.2);     // slower than the best so far
  verdict("b", true, 1.51);    // within 1% of the best: a tie with it
  verdict("b", true, 2.25);
  ASSERT_EQ(story.moments().size(), 4u);
  EXPECT_EQ(story.moments()[3].position, 11u);
  EXPECT_NE(story.moments()[3].caption.find("2.25× on b (iteration 1)"), std::string::npos);

  // With `fast_tolerance` 0 any win counts; a speedup still waiting when the campaign finishes is told then.
  StoryView exact;
  seq = 0;
  auto apply_exact = [&](EventBody b) {
    Event e;
    e.seq = seq++;
    e.body = std::move(b);
    exact.apply(e);
  };
  apply_exact(CampaignStarted{json{{"mode", "agent"}, {"fast_tolerance", 0.0}}, {}});
  Verdict v;
  v.task = "a";
  v.pass = true;
  v.speedup = 1.001;
  apply_exact(v);
  apply_exact(s0);
  EXPECT_EQ(exact.moments().size(), 1u);  // solved, but nothing learned: the speedup waits
  apply_exact(CampaignFinished{"done", 1, 1, 1});
  ASSERT_EQ(exact.moments().size(), 2u);
  EXPECT_EQ(exact.moments()[1].kind, Moment::Kind::BestSpeedup);
  EXPECT_NE(exact.moments()[1].caption.find("1.00× on a"), std::string::npos);
}

TEST(StoryView, MemoryCaptionsNameTheTasksNotTheExperienceIds) {
  StoryView story;
  std::int64_t seq = 0;
  auto apply = [&](EventBody b) {
    Event e;
    e.seq = seq++;
    e.body = std::move(b);
    story.apply(e);
  };
  apply(CampaignStarted{json{{"mode", "sage"}}, {}});
  ExperienceAdded x;
  x.episode = 0;
  x.item = "exp-3fa9c1e2b0";
  x.source_task = "rope/gptj_interleaved";
  apply(x);
  AdoptionRecord a;
  a.episode = 1;
  a.task = "bmm/inner_product";
  a.item = x.item;
  a.adopted = true;
  apply(a);
  Consolidation co;
  co.episode = 1;
  co.promoted = {ItemChange{x.item, 0.5, 10}, ItemChange{"exp-imported", 0.4, 10}};
  apply(co);
  ASSERT_EQ(story.moments().size(), 2u);
  for (const auto& m : story.moments()) EXPECT_EQ(m.caption.find("exp-"), std::string::npos) << m.caption;
  EXPECT_EQ(story.moments()[0].caption, "A rule learned on rope/gptj_interleaved helped on bmm/inner_product (episode 1)");
  EXPECT_EQ(story.moments()[1].caption,
            "Promoted to resident memory: 2 rules learned on rope/gptj_interleaved and an imported one (episode 1)");
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
