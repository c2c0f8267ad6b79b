// Determinism of an offline sage campaign (issue 19 item 1): the builtin synthesizer's only limit is its
// evaluation budget, so the same config and seed give the same event log (ignoring timestamps and
// latencies) at in_flight 1 and 2 and while other threads load the CPU.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "core/learn/engine.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/synth/provider.hpp"
#include "learn_test_util.hpp"

using namespace sf::learn;
using nlohmann::json;

namespace {

struct DeterminismSink : EventSink {
  std::vector<json> events;
  void on_event(const Event& e) override { events.push_back(to_json(e)); }
};

// Drops what depends on the clock: the envelope's time and every latency / wall time.
void det_strip_times(json& j) {
  if (j.is_object()) {
    for (const char* k : {"t", "latency_s", "wall_s", "elapsed_s"}) j.erase(k);
    for (auto& [k, v] : j.items()) det_strip_times(v);
  } else if (j.is_array()) {
    for (auto& v : j) det_strip_times(v);
  }
}

std::vector<json> det_run_campaign(Mode mode, int in_flight, int load_threads) {
  CampaignConfig c;
  c.mode = mode;
  c.n = 2;                  // adaptive: samples per task and temperature
  c.temperatures = {0.7};   // adaptive iterations
  c.tasks = {"rope/gptj_interleaved", "gemm_easy/batched_matvec"};
  c.backend.kind = sf::llm::BackendKind::Builtin;
  c.backend.builtin_provider = "synth";
  c.backend.model = "synth";
  c.temperature0 = 0.5;
  c.seed = 7;
  c.in_flight = in_flight;
  c.memory.episodes = 2;
  c.memory.params.rounds = 2;
  c.memory.params.k_ado = 1;
  c.memory.params.k_op = 1;
  sf::llm::BuiltinBackend backend(sf::synth::synth_chat, "synth");
  EngineDeps deps;
  deps.backend = &backend;
  deps.manual_text = "manual";
  deps.tasks = sf::learn::testing::tasks_for(c);
  DeterminismSink sink;
  std::atomic<bool> stop{false};
  std::vector<std::thread> load;
  for (int i = 0; i < load_threads; ++i)
    load.emplace_back([&] {
      volatile std::uint64_t x = 1;
      while (!stop.load(std::memory_order_relaxed)) x = x * 6364136223846793005ULL + 1;
    });
  CampaignEngine engine(c, std::move(deps), nullptr, &sink);
  RunResult r = engine.run();
  stop = true;
  for (auto& t : load) t.join();
  EXPECT_EQ(r.status, RunStatus::Finished) << r.error;
  for (auto& e : sink.events) {
    det_strip_times(e);
    if (e["type"] == "campaign_started") {  // the config echo names the concurrency itself
      e["config"].erase("in_flight");
      e["config"]["backend"].erase("in_flight");
    }
  }
  return sink.events;
}

void det_expect_same_logs(Mode mode) {
  const auto base = det_run_campaign(mode, 1, 0);
  ASSERT_GT(base.size(), 10u);
  std::size_t verdicts = 0;
  for (const auto& e : base) {
    EXPECT_NE(e["type"], "warning") << e.dump();  // no safety net was hit
    if (e["type"] == "verdict") ++verdicts;
  }
  EXPECT_GE(verdicts, 4u);
  for (auto [in_flight, load] : {std::pair{2, 0}, std::pair{1, 2}}) {
    const auto other = det_run_campaign(mode, in_flight, load);
    ASSERT_EQ(other.size(), base.size()) << "in_flight " << in_flight << ", load " << load;
    for (std::size_t i = 0; i < base.size(); ++i)
      ASSERT_EQ(other[i], base[i]) << "event " << i << ", in_flight " << in_flight << ", load " << load;
  }
}

}  // namespace

TEST(Determinism, SameConfigAndSeedGiveTheSameEventLogAtAnyConcurrencyAndLoad) { det_expect_same_logs(Mode::Sage); }

TEST(Determinism, AdaptiveGivesTheSameEventLogAtAnyConcurrencyAndLoad) { det_expect_same_logs(Mode::Adaptive); }
