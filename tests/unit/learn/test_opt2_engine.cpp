// STeP-25 optimisation campaigns in the campaign engine (dialect step-v2, core/learn/engine_opt2.cpp): one
// campaign of 2 small v2 tasks x 4 proposals through the builtin backend (verdicts, a failed round never
// replaces the best, the report's keys), a resume from a cut log that ends where the uncut run ends, rounds
// recorded from an OpenAI-compatible endpoint and replayed from the cache dir (BackendKind::Replay) with the same
// events, and the round's pieces: the moves read back from the builtin optimiser's answers, the bank's JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/bench/catalogue.hpp"
#include "core/learn/engine_state.hpp"
#include "core/learn/launcher.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/opt2_campaign.hpp"
#include "core/synth/provider.hpp"
#include "tests/support/files.hpp"
#include "tests/support/opt2_config.hpp"
#include "tests/support/loopback_server.hpp"

namespace opt2_engine_test {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace sf::learn;
namespace o2 = sf::synth::opt2;

CampaignConfig v2_config() {
  CampaignConfig c = sf::test_support::opt2_config("opt2-test", {"gemm/small", "norm/rmsnorm"}, 4);
  c.memory.params.k = 3;
  return c;
}

struct CampaignRun {
  RunResult result;
  CampaignState state;
  std::vector<json> events;  // as logged, without the wall-clock field "t"
};

std::vector<json> logged(const fs::path& dir) {
  std::vector<json> out;
  std::ifstream in(dir / "events.jsonl");
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    j.erase("t");
    // A call's latency and whether the cache answered it are the only things a replay may change.
    if (j.value("type", "") == "llm_call") {
      j["trace"].erase("latency_s");
      j["trace"].erase("from_cache");
    }
    out.push_back(j);
  }
  return out;
}

// Runs (or resumes) the campaign of the workspace at `dir` (created from `cfg` when it has no campaign.json).
CampaignRun run_in(const fs::path& dir, const CampaignConfig& cfg) {
  sf::synth::register_builtin_provider();
  std::string err;
  auto ws = fs::exists(dir / "campaign.json") ? sf::store::Workspace::open(dir, err)
                                               : sf::store::Workspace::create(dir, config_to_json(cfg), err);
  EXPECT_TRUE(ws) << err;
  CampaignRun r;
  if (!ws) return r;
  Launch l = launch_campaign(*ws, sf::bench::resource_dir());
  EXPECT_TRUE(l.ok()) << l.error;
  if (!l.ok()) return r;
  r.result = l.engine->run();
  r.state = l.engine->state();
  r.events = logged(dir);
  return r;
}

TEST(Opt2Engine, TwoTasksFourProposalsThroughTheBuiltinBackend) {
  const fs::path dir = sf::test_support::scratch_dir("sf_opt2_engine", false);
  auto run = run_in(dir, v2_config());
  ASSERT_EQ(run.result.status, RunStatus::Finished) << run.result.error;
  const auto& st = run.state;
  ASSERT_TRUE(st.is_opt2());
  ASSERT_EQ(st.opt2.runs.size(), 2u);
  int calls = 0, rounds = 0;
  for (const auto& e : run.events) {
    calls += e["type"] == "llm_call";
    rounds += e["type"] == "opt2_round";
  }
  EXPECT_EQ(rounds, 8);
  EXPECT_EQ(calls, 8);  // every round went through the chat backend
  bool any_won = false, any_failed = false;
  for (const auto& t : st.opt2.runs) {
    ASSERT_EQ(t.out.rounds.size(), 4u) << t.out.id;
    std::int64_t best = t.out.baseline_cycles;
    for (std::size_t i = 0; i < t.out.rounds.size(); ++i) {
      const auto& rr = t.out.rounds[i];
      const double sp = t.out.curve[i];
      const std::int64_t now = std::llround(static_cast<double>(t.out.baseline_cycles) / sp);
      if (rr.verdict == o2::Verdict::Faster) {
        EXPECT_LT(rr.cycles, best) << t.out.id << " round " << i;
        EXPECT_EQ(now, rr.cycles);
        best = rr.cycles;
        any_won = true;
      } else {
        EXPECT_EQ(now, best) << t.out.id << " round " << i << ": a " << o2::verdict_name(rr.verdict)
                             << " round replaced the best";
        if (rr.verdict == o2::Verdict::Incorrect || rr.verdict == o2::Verdict::Infeasible) {
          any_failed = true;
          EXPECT_FALSE(rr.detail.empty());
        }
      }
    }
    EXPECT_EQ(t.out.best_cycles, best);
  }
  // Which rounds win depends on the optimiser's moves (the endpoint test below wins deterministically); every
  // round was judged and folded.
  (void)any_won;
  (void)any_failed;
  EXPECT_TRUE(fs::exists(dir / "opt2_bank.json"));

  const json r = report_json(st);
  for (const char* k : {"fast_1", "fast_1_5", "fast_2", "median_speedup", "geomean_speedup", "auc", "curve"})
    EXPECT_TRUE(r.contains(k)) << k;
  ASSERT_EQ(r["tasks"].size(), 2u);
  for (const auto& t : r["tasks"])
    for (const char* k : {"id", "baseline_cycles", "best_cycles", "speedup", "pct_of_peak", "best_round"})
      EXPECT_TRUE(t.contains(k)) << k;
  EXPECT_EQ(r["tasks"][0]["id"], "gemm/small");
  for (std::size_t i = 0; i < 2; ++i) {
    const json& t = r["tasks"][i];
    const auto& out = st.opt2.runs[i].out;
    EXPECT_EQ(t["baseline_cycles"], out.baseline_cycles);
    EXPECT_EQ(t["best_cycles"], out.best_cycles);
    EXPECT_DOUBLE_EQ(t["speedup"].get<double>(), static_cast<double>(out.baseline_cycles) / out.best_cycles);
    EXPECT_EQ(t["best_round"].is_null(), out.best_round < 0);
  }
  const double f1 = (r["tasks"][0]["speedup"].get<double>() >= 1.01) + (r["tasks"][1]["speedup"].get<double>() >= 1.01);
  EXPECT_DOUBLE_EQ(r["fast_1"].get<double>(), f1 / 2);
  EXPECT_EQ(r["curve"].size(), 4u);
  EXPECT_EQ(r["finished"], "done");
  fs::remove_all(dir);
}

TEST(Opt2Engine, ACutLogResumesToTheSameEvents) {
  const fs::path ref_dir = sf::test_support::scratch_dir("sf_opt2_ref", false);
  auto ref = run_in(ref_dir, v2_config());
  ASSERT_EQ(ref.result.status, RunStatus::Finished) << ref.result.error;

  // Resume: the log cut after the 3rd round of the first task (a crash), then the same campaign continued.
  const fs::path cut_dir = sf::test_support::scratch_dir("sf_opt2_cut", true);
  fs::copy_file(ref_dir / "campaign.json", cut_dir / "campaign.json");
  {
    std::ifstream in(ref_dir / "events.jsonl");
    std::ofstream out(cut_dir / "events.jsonl");
    int rounds = 0;
    for (std::string line; std::getline(in, line) && rounds < 3;) {
      out << line << "\n";
      rounds += line.find("\"type\":\"opt2_round\"") != std::string::npos;
    }
  }
  auto resumed = run_in(cut_dir, v2_config());
  ASSERT_EQ(resumed.result.status, RunStatus::Finished) << resumed.result.error;
  EXPECT_EQ(resumed.events, ref.events);

  for (const auto& d : {ref_dir, cut_dir}) fs::remove_all(d);
}

TEST(Opt2Engine, ARoundRecordedFromAnEndpointReplaysFromItsCacheDirWithTheSameEvents) {
  // Record: an OpenAI-compatible endpoint (loopback) answers every round with the known faster gemm/small program.
  const std::string res = sf::bench::resource_dir();
  std::string known = sf::test_support::read_text(res + "/solutions_v2/gemm/small.known_opt_1.yaml");
  known = known.substr(known.find("impl: |"));
  CampaignConfig c = v2_config();
  c.tasks = {"gemm/small"};
  c.memory.params.rounds = 2;
  c.backend.kind = sf::llm::BackendKind::OpenAi;
  c.backend.model = "test-model";
  c.backend.max_retries = 0;
  c.backend.backoff_base_s = 0;
  c.backend.timeout_s = 10;
  const fs::path rec_dir = sf::test_support::scratch_dir("sf_opt2_rec", false);
  CampaignRun rec;
  {
    sf::llm::testing::LoopbackServer server;
    server.answer_text = "- tile N*2 on every load over N\n\n```yaml\n" + known + "```\nadopted: []\nmoves: [tile N*2]\n";
    c.backend.base_url = server.base_url();
    rec = run_in(rec_dir, c);
  }
  ASSERT_EQ(rec.result.status, RunStatus::Finished) << rec.result.error;
  const auto& runs = rec.state.opt2.runs;
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].out.rounds.size(), 2u);
  EXPECT_EQ(runs[0].out.rounds[0].verdict, o2::Verdict::Faster) << runs[0].out.rounds[0].detail;
  EXPECT_EQ(runs[0].out.rounds[1].verdict, o2::Verdict::Slower);  // the same program again: no faster
  EXPECT_EQ(runs[0].out.rounds[0].moves, std::vector<std::string>{"tile N*2"});
  EXPECT_EQ(runs[0].out.best_round, 0);

  // Replay: backend kind replay with the recording's cache dir; the endpoint is gone.
  CampaignConfig rc = c;
  rc.backend.kind = sf::llm::BackendKind::Replay;
  rc.backend.replay_kind = sf::llm::BackendKind::OpenAi;
  rc.backend.cache_dir = (rec_dir / "cache").string();
  const fs::path replay_dir = sf::test_support::scratch_dir("sf_opt2_replay", false);
  auto replay = run_in(replay_dir, rc);
  ASSERT_EQ(replay.result.status, RunStatus::Finished) << replay.result.error;
  ASSERT_EQ(replay.events.size(), rec.events.size());
  for (std::size_t i = 1; i < rec.events.size(); ++i)  // 0: campaign_started, whose config names the backend
    EXPECT_EQ(replay.events[i], rec.events[i]) << "event " << i;
  EXPECT_EQ(report_json(replay.state)["tasks"], report_json(rec.state)["tasks"]);

  // A replay without the recording pauses at the first round (a cache miss is the endpoint's failure, never a
  // verdict on the answer): no round is logged.
  rc.backend.cache_dir = (replay_dir / "nothing").string();
  const fs::path empty_dir = sf::test_support::scratch_dir("sf_opt2_replay_empty", false);
  auto none = run_in(empty_dir, rc);
  EXPECT_EQ(none.result.status, RunStatus::Paused) << none.result.error;
  EXPECT_NE(none.result.error.find("replay"), std::string::npos) << none.result.error;
  for (const auto& t : none.state.opt2.runs) EXPECT_TRUE(t.out.rounds.empty());
  for (const auto& d : {rec_dir, replay_dir, empty_dir}) fs::remove_all(d);
}

TEST(Opt2Engine, ALogWhoseBestDisagreesWithTheReplayedFoldIsRejected) {
  CampaignState st;
  std::string err;
  Event e;
  e.body = CampaignStarted{config_to_json(v2_config()), {{"gemm/small", "gemm", "untagged"}}};
  ASSERT_TRUE(st.apply(e, err)) << err;
  e.seq = 1;
  e.body = Opt2Bank{"empty", false, o2::bank_to_json({})};
  ASSERT_TRUE(st.apply(e, err)) << err;
  e.seq = 2;
  Opt2TaskStarted ts{"gemm/small", "M=256", {"correct+slower", "", 1000, 10.0, "compute", {"c"}, "cycles 1000\n"}};
  e.body = ts;
  ASSERT_TRUE(st.apply(e, err)) << err;
  Opt2Round r;
  r.task = "gemm/small";
  r.round = 0;
  r.judgement = {"correct+slower", "", 1200, 9.0, "compute", {"c"}, ""};
  r.impl = "x";
  r.best_cycles = 900;  // a slower round cannot have made the task faster
  e.seq = 3;
  e.body = r;
  EXPECT_FALSE(st.apply(e, err));
  EXPECT_NE(err.find("replayed"), std::string::npos) << err;
  r.best_cycles = 1000;
  r.round = 1;  // out of order
  e.body = r;
  EXPECT_FALSE(st.apply(e, err));
}

TEST(Opt2Engine, TheBuiltinAnswersMovesReadBackIntoTheirKeys) {
  // Every move the fallible optimiser makes on two tasks over many seeds: its answer line gives back its key.
  const std::string res = sf::bench::resource_dir();
  int checked = 0;
  for (const std::string id : {"gemm/small", "norm/rmsnorm", "ffn/swiglu", "mlp/small"}) {
    sf::Diagnostics d;
    auto t = sf::step::load_task_file(res + "/benchmark_v2/" + id + ".yaml", d);
    ASSERT_TRUE(t) << id;
    auto doc = sf::step::load_any_file(sf::step2::perf::baseline_path(*t, res), d);
    ASSERT_TRUE(doc.solution) << id;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      o2::ProposeOptions po;
      po.seed = seed;
      auto p = o2::propose(*t, doc.solution->impl, {}, {}, po);
      if (!p.ok) continue;
      std::string answer;
      for (const auto& m : p.moves) answer += "- " + m.what + "\n";
      answer += "\n```yaml\nimpl: |\n  x\n```\n";
      auto moves = o2::answer_moves(answer);
      ASSERT_EQ(moves.size(), p.moves.size()) << answer;
      for (std::size_t i = 0; i < moves.size(); ++i, ++checked) EXPECT_EQ(moves[i].key, p.moves[i].key) << p.moves[i].what;
    }
  }
  EXPECT_GT(checked, 100);
  // An explicit `moves:` line wins; unknown moves are skipped.
  auto m = o2::answer_moves("- tile N*2 on x\n```yaml\nimpl: |\n  x\n```\nmoves: [par_dispatch 16, `tile K/2`, fly away]\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].key, "par_dispatch 16");
  EXPECT_EQ(m[1].key, "tile K/2");
}

TEST(Opt2Engine, TheBankRoundTripsAndRejectsMalformedRules) {
  o2::RuleBank b;
  o2::BankRule r;
  r.rule = *o2::parse_rule_move("tile N*2", "r1");
  r.statement = "On a compute-bound gemm program, tile N*2 paid 1.50x";
  r.bottleneck = "compute";
  r.op_pattern = "gemm";
  r.sizes = "M=256";
  r.best_speedup = 1.5;
  r.wins = 2;
  r.losses = 1;
  r.retrieved = 4;
  r.u_wins = 3;
  b.rules.push_back(r);
  std::string err;
  auto back = o2::bank_from_json(o2::bank_to_json(b), err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(o2::bank_to_json(*back), o2::bank_to_json(b));
  json bad = o2::bank_to_json(b);
  bad["rules"][0]["move"] = "teleport 3";
  EXPECT_FALSE(o2::bank_from_json(bad, err));
  EXPECT_NE(err.find("rules[0].move"), std::string::npos) << err;
  bad = o2::bank_to_json(b);
  bad["rules"][0]["wins"] = "many";
  EXPECT_FALSE(o2::bank_from_json(bad, err));
  EXPECT_FALSE(o2::bank_from_json(json::array(), err));
}

TEST(Opt2Engine, ConfigKeys) {
  std::string err;
  json j = config_to_json(v2_config());
  EXPECT_EQ(j["dialect"], "step-v2");
  auto c = config_from_json(j, err);
  ASSERT_TRUE(c) << err;
  EXPECT_TRUE(c->is_v2());
  EXPECT_FALSE(config_to_json(CampaignConfig{}).contains("dialect"));  // v1 echoes unchanged
  json no_k = j;
  no_k["memory"].erase("k");
  EXPECT_EQ(config_from_json(no_k, err)->memory.params.k, 3);  // 3 slots by default
  json wrong = j;
  wrong["mode"] = "adaptive";
  EXPECT_FALSE(config_from_json(wrong, err));
  EXPECT_NE(err.find("dialect"), std::string::npos) << err;
  wrong = j;
  wrong["memory"]["transfer_from"] = "third";
  EXPECT_FALSE(config_from_json(wrong, err));
  wrong = j;
  wrong["sweep"] = {{"variants", {{{"name", "a/b"}}}}};
  EXPECT_FALSE(config_from_json(wrong, err));
  json plan = j;
  plan["sweep"] = {{"seeds", "1-2"}, {"variants", {{{"name", "random"}, {"set", {"memory.enabled=false"}}}}}};
  ASSERT_TRUE(config_from_json(plan, err)) << err;
  EXPECT_EQ(config_to_json(*config_from_json(plan, err))["sweep"], plan["sweep"]);
}

}  // namespace opt2_engine_test
