// Everything a campaign needs besides its config, built from the bundled resources: the tasks (resolved and
// ordered), the manual, the price table and the chat backend (with the response cache in the workspace's
// cache/ unless the config names another folder). Used by launch_campaign (launcher.hpp) and `campaign bench`.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/llm/price_table.hpp"

namespace sf::learn {

struct CampaignSetup {
  std::unique_ptr<llm::ChatBackend> backend;
  std::unique_ptr<llm::PriceTable> prices;
  EngineDeps deps;  // deps.backend / deps.prices point into this object
};

// The backend config with cache_dir resolved: empty → <workspace>/cache, relative → <workspace>/<dir>.
llm::BackendConfig resolved_backend(const CampaignConfig& cfg, const std::filesystem::path& workspace);

// Builds the setup; `backend` (optional) replaces the configured backend (tests). Errors: unknown tasks,
// missing manual, backend config problems (missing key variable, unregistered builtin provider).
std::unique_ptr<CampaignSetup> prepare_campaign(const CampaignConfig& cfg, const std::filesystem::path& workspace,
                                                const std::string& resource_dir, std::string& error,
                                                std::unique_ptr<llm::ChatBackend> backend = nullptr);

// One minimal request to the campaign's endpoint past the response cache (llm::preflight, at most 2 retries):
// "" when it answers or when the backend is no endpoint (builtin, replay), else the cause and the fix.
std::string preflight_campaign(const CampaignConfig& cfg, const llm::CancelToken& cancel = {});

}  // namespace sf::learn
