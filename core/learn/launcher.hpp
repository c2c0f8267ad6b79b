// The one way a workspace's campaign is launched (the CLI's `campaign run/resume/sweep`, the GUI's
// CampaignWorker): the config read from campaign.json, the setup from the bundled resources (prepare_campaign),
// the engine built on the workspace and loaded with its log, and — when the campaign is not finished — one
// preflight request to the endpoint before the first sample. The callers keep only their presentation.
// The builtin synthesizer provider (core/synth) is registered by the caller: core/learn does not depend on it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/engine_setup.hpp"

namespace sf::store {
class Workspace;
}

namespace sf::learn {

enum class LaunchOutcome {
  Ok,           // the engine is loaded and not started: the caller starts it
  ConfigError,  // campaign.json does not hold a valid config
  SetupError,   // prepare_campaign failed (tasks, manual, prices, backend)
  LogError,     // events.jsonl does not replay onto this config
  Halted,       // the endpoint failed the preflight request: nothing ran; fix it, then resume
};

struct Launch {
  LaunchOutcome outcome = LaunchOutcome::Ok;
  // The cause (config, setup and log errors: the message; halted: the endpoint's cause and the fix).
  std::string error;
  // The file the error is about: <workspace>/campaign.json for a config error, <workspace>/events.jsonl for a
  // log error, empty otherwise.
  std::filesystem::path file;
  CampaignConfig config;  // valid unless ConfigError
  // Set when Ok; the engine's deps point into the setup, and the engine into the workspace and the sink.
  std::unique_ptr<CampaignSetup> setup;
  std::unique_ptr<CampaignEngine> engine;  // declared after setup: destroyed first

  bool ok() const { return outcome == LaunchOutcome::Ok; }
};

// Launches the campaign of the open workspace `ws` (which must outlive the engine); `sink` (optional) receives
// every event of the engine.
Launch launch_campaign(store::Workspace& ws, const std::string& resource_dir, EventSink* sink = nullptr);

}  // namespace sf::learn
