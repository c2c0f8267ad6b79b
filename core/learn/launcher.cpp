#include "core/learn/launcher.hpp"

#include "core/store/workspace.hpp"

namespace sf::learn {

Launch launch_campaign(store::Workspace& ws, const std::string& resource_dir, EventSink* sink) {
  Launch l;
  std::string err;
  auto fail = [&](LaunchOutcome outcome, std::filesystem::path file) {
    l.outcome = outcome;
    l.error = err;
    l.file = std::move(file);
    l.engine.reset();
    l.setup.reset();
    return std::move(l);
  };
  auto cfg = config_from_json(ws.config(), err);
  if (!cfg) return fail(LaunchOutcome::ConfigError, ws.dir() / "campaign.json");
  l.config = *cfg;
  l.setup = prepare_campaign(l.config, ws.dir(), resource_dir, err);
  if (!l.setup) return fail(LaunchOutcome::SetupError, {});
  l.engine = std::make_unique<CampaignEngine>(l.config, std::move(l.setup->deps), &ws, sink);
  if (!l.engine->load(ws.loaded_events(), err)) return fail(LaunchOutcome::LogError, ws.dir() / "events.jsonl");
  if (!l.engine->state().finished) {
    // One minimal request before the first sample: a wrong key or model id stops here, not as failed samples.
    err = preflight_campaign(l.config);
    if (!err.empty()) return fail(LaunchOutcome::Halted, {});
  }
  return l;
}

}  // namespace sf::learn
