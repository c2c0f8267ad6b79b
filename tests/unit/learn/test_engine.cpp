// End-to-end tests of the campaign engine on a scripted in-process model (a BuiltinBackend provider):
// rope/gptj_interleaved is always solved, rope/neox_halves on even sample indices, bmm/row_wise only with
// demonstrations in the prompt, norm/rmsnorm_streaming never. The expected course of Algorithm 1 is worked
// out by hand in each test.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/bench/catalogue.hpp"
#include "core/learn/engine.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/store/workspace.hpp"
#include "learn_test_util.hpp"
#include "tests/support/files.hpp"

using namespace sf::learn;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTasks = {"rope/gptj_interleaved", "rope/neox_halves", "bmm/row_wise",
                                         "norm/rmsnorm_streaming"};

std::atomic<int> g_calls{0};
std::atomic<int> g_delay_ms{0};

sf::llm::ChatResult fake_model(const sf::llm::ChatRequest& req, const sf::llm::CancelToken&) {
  ++g_calls;
  if (g_delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(g_delay_ms.load()));
  const std::string& user = req.messages.back().content;
  const std::string id = sf::learn::testing::prompt_task_id(user);
  bool demos = user.find("## Demonstrations") != std::string::npos;
  bool ok = id == kTasks[0] || (id == kTasks[1] && req.sample_index % 2 == 0) || (id == kTasks[2] && demos);
  sf::llm::ChatResponse r;
  r.text = ok ? sf::learn::testing::solution_answer(id) : "I cannot solve " + id;
  r.usage.input_tokens = 100;
  r.usage.output_tokens = 50;
  return sf::llm::ChatResult::success(r);
}

CampaignConfig make_config(Mode mode = Mode::Adaptive, Selection sel = Selection::Mixed) {
  CampaignConfig c;
  c.mode = mode;
  c.selection = sel;
  c.n = 4;
  c.tasks = kTasks;
  c.backend.kind = sf::llm::BackendKind::Builtin;
  c.backend.builtin_provider = "fake";
  c.backend.model = "fake";
  c.in_flight = 4;
  return c;
}

using sf::learn::testing::tasks_for;

fs::path fresh_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_engine_test_" + name, false);
}

struct Run {
  RunResult result;
  json report;
  std::vector<Event> events;
  std::int64_t reused = 0;  // verdicts reused instead of verified again
};

struct Collect : EventSink {
  std::vector<Event> events;
  std::function<void(const Event&)> hook;
  void on_event(const Event& e) override {
    events.push_back(e);
    if (hook) hook(e);
  }
};

// Runs (or resumes) a campaign; with a workspace the backend is cached in <ws>/cache.
Run run_campaign(const CampaignConfig& cfg, const fs::path& ws_dir = {}, std::function<void(const Event&)> hook = {},
                 std::unique_ptr<sf::llm::ChatBackend> backend = nullptr) {
  if (!backend) backend = std::make_unique<sf::llm::BuiltinBackend>(fake_model, "fake");
  std::unique_ptr<sf::store::Workspace> ws;
  std::string err;
  if (!ws_dir.empty()) {
    ws = fs::exists(ws_dir / "campaign.json") ? sf::store::Workspace::open(ws_dir, err)
                                               : sf::store::Workspace::create(ws_dir, config_to_json(cfg), err);
    EXPECT_TRUE(ws) << err;
    backend = std::make_unique<sf::llm::CachedBackend>(std::move(backend), ws_dir / "cache");
  }
  EngineDeps deps;
  deps.backend = backend.get();
  deps.manual_text = "STeP manual (test)";
  deps.tasks = tasks_for(cfg);
  Collect sink;
  sink.hook = std::move(hook);
  CampaignEngine engine(cfg, std::move(deps), ws.get(), &sink);
  if (ws) {
    EXPECT_TRUE(engine.load(ws->loaded_events(), err)) << err;
  }
  Run r;
  r.result = engine.run();
  r.report = report_json(engine.state());
  r.events = sink.events;
  r.reused = engine.reused_verdicts();
  return r;
}

json deterministic(json report) {
  report.erase("wall_s");
  for (auto& it : report["iterations"]) it.erase("wall_s");
  return report;
}

std::vector<const IterationStarted*> starts(const std::vector<Event>& evs) {
  std::vector<const IterationStarted*> out;
  for (const auto& e : evs)
    if (auto* s = std::get_if<IterationStarted>(&e.body)) out.push_back(s);
  return out;
}

}  // namespace

TEST(Engine, AdaptiveMixedFollowsAlgorithm1) {
  auto r = run_campaign(make_config());
  ASSERT_EQ(r.result.status, RunStatus::Finished) << r.result.error;
  // it0: gptj c=4, neox c=2 → D = {gptj 4, neox 2}; β(m=3) → [neox], [gptj].
  // it1 (j=0, demos neox): row_wise solved (c=4) → re-stratify [neox], [gptj], [row_wise].
  // it2..it4: rmsnorm never → widen j=0,1,2 → stop "nothing-new".
  EXPECT_EQ(r.result.reason, "nothing-new");
  auto st = starts(r.events);
  ASSERT_EQ(st.size(), 5u);
  EXPECT_TRUE(st[0]->demos.empty());
  EXPECT_EQ(st[0]->temperatures, std::vector<double>{0.5});
  EXPECT_EQ(st[1]->demos, std::vector<std::string>{"rope/neox_halves"});
  EXPECT_EQ(st[1]->tasks, (std::vector<std::string>{"bmm/row_wise", "norm/rmsnorm_streaming"}));
  EXPECT_EQ(st[2]->demos, std::vector<std::string>{"rope/neox_halves"});
  EXPECT_EQ(st[3]->demos, (std::vector<std::string>{"rope/neox_halves", "rope/gptj_interleaved"}));
  EXPECT_EQ(st[4]->demos, (std::vector<std::string>{"rope/neox_halves", "rope/gptj_interleaved", "bmm/row_wise"}));
  EXPECT_EQ(st[4]->tasks, std::vector<std::string>{"norm/rmsnorm_streaming"});

  const json& rep = r.report;
  EXPECT_EQ(rep["tasks_solved"], 3);
  EXPECT_DOUBLE_EQ(rep["pass_at_n"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(rep["pass_at_1"].get<double>(), (4 + 2 + 4 + 0) / 16.0);
  // pass@2 = mean(1, 1 - C(2,2)/C(4,2) = 5/6, 1, 0)
  EXPECT_NEAR(rep["pass_at_k"]["2"].get<double>(), (1 + 5.0 / 6 + 1) / 4, 1e-12);
  ASSERT_EQ(rep["iterations"].size(), 5u);
  EXPECT_EQ(rep["iterations"][4]["iteration"], 4);
  EXPECT_DOUBLE_EQ(rep["iterations"][0]["sampled"]["pass_at_n"].get<double>(), 0.5);
  EXPECT_EQ(rep["iterations"][1]["newly_solved"], 1);
  EXPECT_EQ(rep["tasks"][2]["id"], "bmm/row_wise");
  EXPECT_EQ(rep["tasks"][2]["solved_iteration"], 1);
  EXPECT_EQ(rep["tasks"][2]["successes"], 12);  // 4 per temperature × 3
  EXPECT_EQ(rep["tasks"][1]["c"], 2);
  EXPECT_EQ(rep["by_tag"]["Once-C"]["tasks"], 2);
  // 16 + 24 + 3 × 12 samples, one proposer call each (the rewrite guardian makes no call): 150 tokens each.
  EXPECT_EQ(rep["tokens"]["total"], 76 * 150);
  EXPECT_EQ(rep["usage_by_role"]["proposer"]["calls"], 76);
}

TEST(Engine, SelectionVariantsAndModes) {
  auto hard = run_campaign(make_config(Mode::Adaptive, Selection::HardOnly));
  ASSERT_EQ(hard.result.status, RunStatus::Finished);
  EXPECT_EQ(starts(hard.events).size(), 3u);  // it2 solves nothing and hard-only never widens
  EXPECT_EQ(hard.result.reason, "nothing-new");

  auto single = run_campaign(make_config(Mode::Single));
  ASSERT_EQ(single.result.status, RunStatus::Finished);
  EXPECT_EQ(single.result.reason, "done");
  EXPECT_EQ(starts(single.events).size(), 1u);
  EXPECT_EQ(single.report["tasks_solved"], 2);

  auto cfg = make_config();
  cfg.budget.tokens = 1000;  // one call may take prompt/4 + max_tokens 2048: refused before it is sent
  auto budget = run_campaign(cfg);
  EXPECT_EQ(budget.result.status, RunStatus::Paused);
  EXPECT_EQ(budget.result.reason, "budget");
  EXPECT_NE(budget.result.error.find("raise budget.tokens"), std::string::npos) << budget.result.error;
  EXPECT_EQ(budget.report["tokens"]["total"], 0);
}

// Budgets are hard caps checked before every call: the campaign pauses in the middle of iteration 0 without
// exceeding the budget, logs no verdict for the refused call, and resumes with a raised budget to the report
// of an uninterrupted run, every answer paid once.
TEST(Engine, BudgetPausesMidIterationAndResumesWithARaisedBudget) {
  auto ref_dir = fresh_dir("budget_ref"), dir = fresh_dir("budget");
  auto cfg = make_config(Mode::Single);
  cfg.in_flight = 1;
  cfg.max_tokens = 100;
  g_calls = 0;
  auto ref = run_campaign(cfg, ref_dir);
  const int ref_calls = g_calls;
  ASSERT_EQ(ref.result.status, RunStatus::Finished);
  ASSERT_EQ(ref.report["tokens"]["total"], 16 * 150);

  g_calls = 0;
  auto capped = cfg;
  capped.budget.tokens = 1200;
  auto first = run_campaign(capped, dir);
  ASSERT_EQ(first.result.status, RunStatus::Paused) << first.result.error;
  EXPECT_EQ(first.result.reason, "budget");
  const auto spent = first.report["tokens"]["total"].get<std::int64_t>();
  EXPECT_GT(spent, 0);
  EXPECT_LE(spent, 1200);
  int verdicts = 0, paused = 0;
  for (const auto& e : first.events) {
    if (const auto* v = std::get_if<Verdict>(&e.body)) {
      ++verdicts;
      EXPECT_NE(v->stage, "llm");
    }
    if (std::holds_alternative<CampaignPaused>(e.body)) ++paused;
  }
  EXPECT_GT(verdicts, 0);
  EXPECT_LT(verdicts, 16);
  EXPECT_EQ(paused, 1);

  auto raised = cfg;
  raised.budget.tokens = 100000;
  auto resumed = run_campaign(raised, dir);
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  EXPECT_EQ(g_calls.load(), ref_calls);
  EXPECT_EQ(deterministic(resumed.report), deterministic(ref.report));
  fs::remove_all(ref_dir);
  fs::remove_all(dir);
}

TEST(Engine, SameResultsWhateverTheConcurrency) {
  auto c1 = make_config();
  c1.in_flight = 1;
  c1.verify_threads = 1;
  auto c8 = make_config();
  c8.in_flight = 8;
  c8.verify_threads = 3;
  EXPECT_EQ(deterministic(run_campaign(c1).report), deterministic(run_campaign(c8).report));
}

TEST(Engine, EventsRoundTripThroughJson) {
  auto r = run_campaign(make_config());
  CampaignState st;
  for (const auto& e : r.events) {
    std::string err;
    auto back = event_from_json(to_json(e), err);
    ASSERT_TRUE(back) << err;
    EXPECT_EQ(to_json(*back), to_json(e));
    ASSERT_TRUE(st.apply(*back, err)) << err;
  }
  EXPECT_EQ(deterministic(report_json(st)), deterministic(r.report));
  // Unknown event types are kept generically.
  std::string err;
  auto g = event_from_json({{"v", 1}, {"seq", 3}, {"t", 0}, {"type", "adoption"}, {"item", "m1"}}, err);
  ASSERT_TRUE(g);
  EXPECT_EQ(event_type(g->body), "adoption");
  EXPECT_EQ(to_json(*g)["item"], "m1");
  EXPECT_FALSE(event_from_json({{"v", 1}, {"type", "verdict"}, {"task", 3}}, err));
}

TEST(Engine, CancelThenResumePaysNothingTwiceAndMatches) {
  auto ref_dir = fresh_dir("ref"), dir = fresh_dir("resume");
  g_calls = 0;
  auto ref = run_campaign(make_config(), ref_dir);
  int ref_calls = g_calls;
  ASSERT_EQ(ref.result.status, RunStatus::Finished);

  g_calls = 0;
  std::atomic<int> verdicts{0};
  // Cancel in the middle of iteration 1 (after 16 + 5 verdicts).
  auto first = [&] {
    auto cfg = make_config();
    std::string err;
    auto ws = sf::store::Workspace::create(dir, config_to_json(cfg), err);
    auto backend = std::make_unique<sf::llm::CachedBackend>(std::make_unique<sf::llm::BuiltinBackend>(fake_model, "fake"),
                                                            dir / "cache");
    EngineDeps deps;
    deps.backend = backend.get();
    deps.manual_text = "STeP manual (test)";
    deps.tasks = tasks_for(cfg);
    Collect sink;
    CampaignEngine engine(cfg, std::move(deps), ws.get(), &sink);
    sink.hook = [&](const Event& e) {
      if (std::holds_alternative<Verdict>(e.body) && ++verdicts == 21) engine.cancel();
    };
    return engine.run();
  }();
  EXPECT_EQ(first.status, RunStatus::Cancelled);
  // A crash mid-write leaves a partial line: tolerated.
  std::ofstream(dir / "events.jsonl", std::ios::app) << "{\"v\":1,\"seq\":99,\"type\":\"verd";
  auto resumed = run_campaign(make_config(), dir);
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  EXPECT_EQ(g_calls.load(), ref_calls);  // every answer was paid for exactly once
  EXPECT_EQ(deterministic(resumed.report), deterministic(ref.report));
  fs::remove_all(ref_dir);
  fs::remove_all(dir);
}

TEST(Engine, KilledProcessResumesToTheSameResults) {
  auto ref = run_campaign(make_config());
  auto dir = fresh_dir("kill");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    g_delay_ms = 20;
    auto r = run_campaign(make_config(), dir);
    _exit(r.result.status == RunStatus::Finished ? 0 : 1);
  }
  // Kill -9 as soon as iteration 0's summary is in the log.
  bool seen = false;
  for (int i = 0; i < 3000 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::ifstream in(dir / "events.jsonl");
    std::stringstream ss;
    ss << in.rdbuf();
    seen = ss.str().find("\"iteration_summary\"") != std::string::npos;
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(seen);
  ASSERT_TRUE(WIFSIGNALED(status));
  auto resumed = run_campaign(make_config(), dir);
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  EXPECT_EQ(deterministic(resumed.report), deterministic(ref.report));
  fs::remove_all(dir);
}

TEST(Engine, ReplayFromTheCacheMakesNoCall) {
  auto dir = fresh_dir("record"), dir2 = fresh_dir("replay");
  auto rec = run_campaign(make_config(), dir);
  ASSERT_EQ(rec.result.status, RunStatus::Finished);
  g_calls = 0;
  auto replay = run_campaign(make_config(), {}, {},
                             std::make_unique<sf::llm::ReplayBackend>(dir / "cache", "builtin fake"));
  EXPECT_EQ(g_calls.load(), 0);
  ASSERT_EQ(replay.result.status, RunStatus::Finished) << replay.result.error;
  EXPECT_EQ(deterministic(replay.report), deterministic(rec.report));
  fs::remove_all(dir);
  fs::remove_all(dir2);
}

TEST(Engine, PauseAndResumeAndProgress) {
  auto cfg = make_config(Mode::Single);
  auto backend = std::make_unique<sf::llm::BuiltinBackend>(fake_model, "fake");
  EngineDeps deps;
  deps.backend = backend.get();
  deps.manual_text = "m";
  deps.tasks = tasks_for(cfg);
  CampaignEngine engine(cfg, std::move(deps));
  engine.pause();
  engine.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto p = engine.progress();
  EXPECT_TRUE(p.paused);
  EXPECT_EQ(p.done, 0);
  engine.resume();
  auto r = engine.wait();
  EXPECT_EQ(r.status, RunStatus::Finished);
  p = engine.progress();
  EXPECT_EQ(p.done, 16);
  EXPECT_EQ(p.total, 16);
  EXPECT_FALSE(p.running);
}

// Novelty (issue 19 item 9): within a task a program already verified is not verified again; its verdict is
// reused and the sample still counts. The fake model answers the same text for a task every time.
TEST(Engine, AProgramVerifiedOnceIsNotVerifiedAgain) {
  auto cfg = make_config();
  cfg.in_flight = 3;
  auto r = run_campaign(cfg);
  std::set<std::pair<std::string, std::string>> distinct;
  std::int64_t with_program = 0, samples = 0;
  for (const auto& e : r.events)
    if (auto* v = std::get_if<Verdict>(&e.body)) {
      ++samples;
      if (v->canonical_key.empty()) continue;
      ++with_program;
      distinct.insert(std::make_pair(v->task, v->canonical_key));
    }
  EXPECT_EQ(distinct.size(), 3U);  // one program per task that gets one (norm never does)
  EXPECT_EQ(r.reused, with_program - static_cast<std::int64_t>(distinct.size()));
  std::int64_t counted = 0;
  for (const auto& t : r.report["tasks"]) counted += t.value("samples", 0);
  EXPECT_EQ(counted, samples);  // reused verdicts are samples like the others
  // the same report as with every sample verified one by one (in_flight 1: the cache still applies, the
  // verdicts are the same whatever order the samples verify in)
  cfg.in_flight = 1;
  EXPECT_EQ(deterministic(run_campaign(cfg).report), deterministic(r.report));
}

namespace {

std::atomic<int> g_tried_prompts{0};

// norm/rmsnorm_streaming gets a program of another task (it parses, so it has a canonical key, and fails).
sf::llm::ChatResult wrong_program_model(const sf::llm::ChatRequest& req, const sf::llm::CancelToken& cancel) {
  const std::string& user = req.messages.back().content;
  if (user.find("id: norm/rmsnorm_streaming") != std::string::npos) {
    if (user.find("## Already tried") != std::string::npos &&
        user.find("fn_gptjrope") != std::string::npos)
      ++g_tried_prompts;
    sf::llm::ChatResponse r;
    r.text = sf::learn::testing::solution_answer(kTasks[0]);
    return sf::llm::ChatResult::success(r);
  }
  return fake_model(req, cancel);
}

}  // namespace

// Config novelty: from the next iteration on, the prompt lists the task's distinct failed programs as already
// tried; off, it never does.
TEST(Engine, NoveltyListsFailedProgramsOfEarlierIterations) {
  for (int novelty : {0, 3}) {
    g_tried_prompts = 0;
    auto cfg = make_config();
    cfg.novelty = novelty;
    auto r = run_campaign(cfg, {}, {}, std::make_unique<sf::llm::BuiltinBackend>(wrong_program_model, "fake"));
    ASSERT_EQ(r.result.status, RunStatus::Finished);
    ASSERT_GE(starts(r.events).size(), 2U);
    if (novelty == 0) {
      EXPECT_EQ(g_tried_prompts, 0);
    } else {
      EXPECT_GT(g_tried_prompts, 0);
    }
  }
}
