// The sage tests' scripted model and campaign set-up (test_sage.cpp, test_sage_campaign.cpp): a proposer that
// answers per (task, round) from `g_script`, the memory file the campaigns import, and a run through the
// engine that collects the events, the report and the CSV.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/learn/engine.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/store/workspace.hpp"
#include "tests/support/files.hpp"
#include "tests/unit/learn/learn_test_util.hpp"

namespace sf::learn::sage_test {

using nlohmann::json;
using testing::kA;
using testing::kB;



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
inline std::function<Answer(const Req&)> g_script;
inline std::vector<std::string> g_prompts;  // every proposer user message, in order
inline std::mutex g_prompts_mu;

inline sf::llm::ChatResult scripted(const sf::llm::ChatRequest& req, const sf::llm::CancelToken&) {
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
  q.task = testing::prompt_task_id(user);
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

inline std::string yes(const std::string& id) {
  return "{id: " + id + ", adopted: yes, rationale: \"used " + id + "\"}";
}
inline std::string no(const std::string& id) {
  return "{id: " + id + ", adopted: no, rationale: \"not needed\"}";
}

// Two cold items about rotary embeddings (both retrieved for the rope tasks) and one hot rule with a pattern.
inline std::filesystem::path memory_file() {
  std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("sf_sage_test_memory_" + std::to_string(::getpid()) + ".json");
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

inline CampaignConfig sage_config(std::vector<std::string> tasks = {kA, kB}) {
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

inline SageRun run_sage(const CampaignConfig& cfg, const std::filesystem::path& ws_dir = {}) {
  sf::llm::BuiltinBackend backend(scripted, "sage-script");
  std::unique_ptr<sf::store::Workspace> ws;
  std::string err;
  if (!ws_dir.empty()) {
    ws = std::filesystem::exists(ws_dir / "campaign.json")
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

inline std::vector<json> of_type(const std::vector<json>& evs, const std::string& type) {
  std::vector<json> out;
  for (const auto& e : evs)
    if (e["type"] == type) out.push_back(e);
  return out;
}

// The event of `type` for (episode, item).
inline json ev_of(const std::vector<json>& evs, const std::string& type, int episode, const std::string& item,
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
inline Answer two_episode_script(const Req& q) {
  if (q.task == kA && q.round == 0) return {false, {yes("m-a"), no("m-b")}};
  if (q.task == kA) return {true, {no("m-a"), no("m-b")}};
  return {true, {yes("m-a"), yes("m-b"), yes("m-h")}};
}

inline std::filesystem::path fresh(const std::string& name) {
  return sf::test_support::scratch_dir("sf_sage_test_" + name, false);
}

}  // namespace sf::learn::sage_test
