// A log that scales (issue 17 items 7 and 10): an adaptive campaign with the bundled manual logs its prompts as
// parts naming blobs/ (at most 10% of the size with the prompts inline), and a workspace written before the
// content store (every prompt inline, no blobs/, no cache/) still opens, shows its prompts and resumes to the
// report of an uninterrupted run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "core/agent/prompt_builder.hpp"
#include "core/learn/engine.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/store/content_store.hpp"
#include "core/store/workspace.hpp"
#include "learn_test_util.hpp"
#include "tests/support/files.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace content_log_test {

using namespace sf::learn;

// rope/gptj_interleaved always solved, rope/neox_halves on even sample indices, bmm/row_wise with
// demonstrations only: an adaptive run with a stratification and demonstrations in later prompts.
sf::llm::ChatResult scripted_model(const sf::llm::ChatRequest& req, const sf::llm::CancelToken&) {
  const std::string& user = req.messages.back().content;
  const std::string id = sf::learn::testing::prompt_task_id(user);
  const bool demos = user.find("## Demonstrations") != std::string::npos;
  const bool ok = id == sf::learn::testing::kA || (id == sf::learn::testing::kB && req.sample_index % 2 == 0) || (id == "bmm/row_wise" && demos);
  sf::llm::ChatResponse r;
  r.text = ok ? sf::learn::testing::solution_answer(id) : "I cannot solve " + id;
  r.usage.input_tokens = 100;
  r.usage.output_tokens = 50;
  return sf::llm::ChatResult::success(r);
}

CampaignConfig log_config() {
  CampaignConfig c;
  c.mode = Mode::Adaptive;
  c.n = 2;
  c.tasks = {sf::learn::testing::kA, sf::learn::testing::kB, "bmm/row_wise", "norm/rmsnorm_streaming"};
  c.backend.kind = sf::llm::BackendKind::Builtin;
  c.backend.builtin_provider = "scripted";
  c.backend.model = "scripted";
  c.in_flight = 1;  // the same event order in every run, so logs compare line by line
  return c;
}

const std::string& bundled_manual() {
  static const std::string manual = [] {
    std::string err;
    auto m = sf::agent::load_manual(std::string(SF_SOURCE_DIR) + "/resources", sf::agent::ManualMode::Full, err);
    EXPECT_TRUE(m) << err;
    return m.value_or("");
  }();
  return manual;
}

// Runs a new campaign in `dir`, or resumes the one there; the report without wall times.
json run_in(const fs::path& dir) {
  const CampaignConfig cfg = log_config();
  std::string err;
  auto ws = fs::exists(dir / "campaign.json") ? sf::store::Workspace::open(dir, err)
                                              : sf::store::Workspace::create(dir, config_to_json(cfg), err);
  EXPECT_TRUE(ws) << err;
  if (!ws) return {};
  sf::llm::CachedBackend backend(std::make_unique<sf::llm::BuiltinBackend>(scripted_model, "scripted"), dir / "cache");
  EngineDeps deps;
  deps.backend = &backend;
  deps.manual_text = bundled_manual();
  deps.tasks = sf::learn::testing::tasks_for(cfg);
  CampaignEngine engine(cfg, std::move(deps), ws.get(), nullptr);
  EXPECT_TRUE(engine.load(ws->loaded_events(), err)) << err;
  RunResult r = engine.run();
  EXPECT_EQ(r.status, RunStatus::Finished) << r.error;
  json report = report_json(engine.state());
  report.erase("wall_s");
  for (auto& it : report["iterations"]) it.erase("wall_s");
  return report;
}

// The log's events with every prompt inline, as StepForge wrote them before the content store.
std::vector<json> inline_events(const fs::path& dir) {
  std::string err;
  auto ws = sf::store::Workspace::open_read_only(dir, err);
  EXPECT_TRUE(ws) << err;
  std::vector<json> out;
  if (!ws) return out;
  for (json e : ws->loaded_events()) {
    if (e.value("type", "") == "llm_call") {
      auto p = sf::store::load_prompt(e["trace"]["prompt"], ws->blobs(), err);
      EXPECT_TRUE(p) << err;
      if (p) e["trace"]["prompt"] = *p;
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace content_log_test

using namespace content_log_test;

TEST(ContentLog, PromptsAreStoredOnceAndAnOldWorkspaceOpensAndResumes) {
  const fs::path base = sf::test_support::scratch_dir("sf_content_log", false);
  const fs::path now = base / "now", old = base / "old";
  const json report = run_in(now);
  ASSERT_FALSE(report.is_null());

  // Size: the log with prompts as parts against the same events with the prompts inline.
  const std::vector<json> full = inline_events(now);
  std::uintmax_t inline_bytes = 0;
  int calls = 0, iteration1 = -1;
  for (std::size_t i = 0; i < full.size(); ++i) {
    inline_bytes += full[i].dump().size() + 1;
    if (full[i]["type"] == "llm_call" && !full[i]["trace"]["prompt"].empty()) {  // a proposer call
      ++calls;
      EXPECT_GT(full[i]["trace"]["prompt"][0]["content"].get<std::string>().size(), 20000u);
    }
    if (iteration1 < 0 && full[i]["type"] == "verdict" && full[i]["iteration"] == 1) iteration1 = static_cast<int>(i);
  }
  const std::uintmax_t logged = fs::file_size(now / "events.jsonl");
  ASSERT_GT(calls, 10);
  ASSERT_GT(iteration1, 0);
  EXPECT_LE(logged * 10, inline_bytes) << logged << " bytes logged, " << inline_bytes << " with the prompts inline";

  // An old workspace: campaign.json, and the log cut in iteration 1 with every prompt inline; no blobs/, no cache/.
  fs::create_directories(old);
  fs::copy_file(now / "campaign.json", old / "campaign.json");
  {
    std::ofstream out(old / "events.jsonl", std::ios::binary);
    for (int i = 0; i <= iteration1; ++i) out << full[static_cast<std::size_t>(i)].dump() << "\n";
  }
  {
    std::string err;
    auto ws = sf::store::Workspace::open_read_only(old, err);
    ASSERT_TRUE(ws) << err;
    for (const json& e : ws->loaded_events()) {
      if (e["type"] == "llm_call") {
        EXPECT_EQ(sf::store::load_prompt(e["trace"]["prompt"], ws->blobs(), err).value_or(json()), e["trace"]["prompt"]);
      }
    }
  }
  EXPECT_EQ(run_in(old), report);

  // The resumed log: old lines inline, new lines as parts; every prompt reassembles to the uninterrupted run's.
  const std::vector<json> resumed = inline_events(old);
  ASSERT_EQ(resumed.size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (full[i]["type"] != "llm_call") continue;
    EXPECT_EQ(resumed[i]["trace"]["prompt"], full[i]["trace"]["prompt"]) << "event " << i;
  }
  EXPECT_TRUE(fs::exists(old / "blobs"));
  fs::remove_all(base);
}
