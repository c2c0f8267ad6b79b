// A small campaign workspace written from typed events (the run comparison tests of core and widgets): each
// task has a list of iterations, each a list of samples (pass or fail, the program, the cost model's numbers).
// One proposer call per sample, 100 input + 50 output tokens and $0.01 per sample.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/learn/events.hpp"
#include "core/store/workspace.hpp"

namespace sf::learn::testing {

// A fixture workspace's log: typed events appended in order (seq 0, 1, ... and fixed timestamps).
struct FixtureLog {
  std::unique_ptr<store::Workspace> ws;
  std::int64_t seq = 0;
  void put(EventBody b) {
    Event e;
    e.seq = seq++;
    e.t = 1.0e9 + static_cast<double>(seq);
    e.body = std::move(b);
    std::string err;
    ASSERT_TRUE(ws->append(to_json(e), err)) << err;
  }
};

// Creates the workspace at `dir` with `config` and logs campaign_started: the config and `tasks` (family
// rope, untagged). On failure `log.ws` stays null (and the test has failed).
inline void start_fixture_log(FixtureLog& log, const std::filesystem::path& dir, const nlohmann::json& config,
                              const std::vector<std::string>& tasks) {
  std::string err;
  log.ws = store::Workspace::create(dir, config, err);
  ASSERT_TRUE(log.ws) << err;
  CampaignStarted cs;
  cs.config = config;
  for (const auto& t : tasks) cs.tasks.push_back({t, "rope", "untagged"});
  log.put(cs);
}

struct FixtureSample {
  bool pass = false;
  std::string impl;
  std::optional<std::int64_t> cycles;
  std::optional<double> speedup;
};
// task -> iterations -> samples (at most n per iteration)
using FixtureRun = std::vector<std::pair<std::string, std::vector<std::vector<FixtureSample>>>>;

inline void write_fixture_run(const std::filesystem::path& dir, const std::string& name, int n,
                              const FixtureRun& run) {
  std::vector<std::string> tasks;
  std::size_t iterations = 0;
  for (const auto& [task, its] : run) {
    tasks.push_back(task);
    iterations = std::max(iterations, its.size());
  }
  FixtureLog log;
  ASSERT_NO_FATAL_FAILURE(start_fixture_log(log, dir, {{"name", name}, {"mode", "adaptive"}, {"n", n}}, tasks));
  auto put = [&](EventBody b) { log.put(std::move(b)); };
  std::vector<bool> solved(run.size(), false);
  for (std::size_t it = 0; it < iterations; ++it) {
    IterationStarted is;
    is.iteration = static_cast<int>(it);
    is.temperatures = {0.5};
    is.n = n;
    for (const auto& [task, its] : run)
      if (it < its.size()) is.tasks.push_back(task);
    put(is);
    IterationSummary sum;
    sum.iteration = static_cast<int>(it);
    for (std::size_t t = 0; t < run.size(); ++t) {
      const auto& [task, its] = run[t];
      if (it >= its.size()) continue;
      TaskResult tr;
      tr.task = task;
      for (std::size_t s = 0; s < its[it].size(); ++s) {
        const FixtureSample& fs = its[it][s];
        LlmCall call;
        call.iteration = static_cast<int>(it);
        call.task = task;
        call.sample_index = static_cast<int>(s);
        call.trace = {{"role", "proposer"},
                      {"task_id", task},
                      {"prompt", nlohmann::json::array({{{"role", "user"}, {"content", "write " + task}}})},
                      {"response", "```\n" + fs.impl + "```"},
                      {"impl", fs.impl},
                      {"usage", {{"input_tokens", 100}, {"output_tokens", 50}}},
                      {"cost_usd", 0.01}};
        put(call);
        Verdict v;
        v.iteration = static_cast<int>(it);
        v.task = task;
        v.temperature = 0.5;
        v.sample_index = static_cast<int>(s);
        v.pass = fs.pass;
        if (!fs.pass) {
          v.stage = "verify";
          v.code = "V-MISMATCH";
        }
        v.impl = fs.impl;
        v.cycles = fs.cycles;
        v.speedup = fs.speedup;
        if (fs.cycles) v.feasible = true;
        v.usage = {{"proposer", RoleUsage{100, 50, 1, 0.01}}};
        put(v);
        if (fs.pass) {
          if (tr.c == 0) tr.best_impl = fs.impl;
          ++tr.c;
        }
      }
      tr.c_by_temperature = {tr.c};
      tr.newly_solved = tr.c > 0 && !solved[t];
      if (tr.newly_solved) {
        solved[t] = true;
        ++sum.newly_solved;
      }
      sum.results.push_back(tr);
    }
    sum.metrics = nlohmann::json::object();
    put(sum);
  }
  CampaignFinished fin;
  fin.reason = "done";
  fin.iterations = static_cast<int>(iterations);
  put(fin);
}

// A sage workspace of one finished episode (0, task `task`) of three rounds: round 0 fails with `first`
// (mem-1 and mem-2 retrieved, mem-1 adopted, the verifier's diagnostics), round 1 produces no program, round 2
// passes with `last` (mem-2 adopted). Then episode 1 of the same task starts and stays open.
inline void write_sage_fixture(const std::filesystem::path& dir, const std::string& task, const std::string& first,
                               const std::string& last) {
  FixtureLog log;
  ASSERT_NO_FATAL_FAILURE(start_fixture_log(
      log, dir, {{"name", "sage-fixture"}, {"mode", "sage"}, {"memory", {{"episodes", 2}}}}, {task}));
  auto put = [&](EventBody b) { log.put(std::move(b)); };
  put(EpisodeStarted{0, task, 3, false, ""});
  auto round = [&](int r, bool pass, const std::string& impl, const std::vector<std::pair<std::string, bool>>& items,
                   const std::string& diagnostics) {
    nlohmann::json adoption = nlohmann::json::array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      AdoptionRecord a;
      a.task = task;
      a.round = r;
      a.item = items[i].first;
      a.rank = int(i) + 1;
      a.relevance = a.score = 0.5;
      a.adopted = items[i].second;
      a.rationale = "fixture";
      a.after = impl;
      put(a);
      adoption.push_back({{"id", items[i].first}, {"adopted", items[i].second}});
    }
    put(LlmCall{0, task, 0, r, {{"role", "proposer"}, {"impl", impl}, {"adoption", adoption},
                                {"usage", {{"input_tokens", 10}, {"output_tokens", 5}}}}});
    if (!diagnostics.empty()) put(LlmCall{0, task, 0, r, {{"role", "verifier"}, {"response", diagnostics}}});
    Verdict v;
    v.iteration = 0;
    v.task = task;
    v.sample_index = r;
    v.pass = pass;
    if (!pass) {
      v.stage = impl.empty() ? "llm" : "numeric";
      v.code = impl.empty() ? "no-program" : "V-MISMATCH";
    }
    v.impl = impl;
    if (pass) {
      v.cycles = 500;
      v.speedup = 1.25;
      v.feasible = true;
    }
    put(v);
  };
  round(0, false, first, {{"mem-1", true}, {"mem-2", false}}, "V-MISMATCH 3:10 output S0 differs");
  round(1, false, "", {}, "");
  round(2, true, last, {{"mem-2", true}}, "");
  put(EpisodeFinished{0, task, 1.0, 3, 2, true});
  put(EpisodeStarted{1, task, 3, false, ""});
}

}  // namespace sf::learn::testing
