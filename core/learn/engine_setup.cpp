#include "core/learn/engine_setup.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/agent/prompt_builder.hpp"
#include "core/bench/catalogue.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/preflight.hpp"

namespace sf::learn {

llm::BackendConfig resolved_backend(const CampaignConfig& cfg, const std::filesystem::path& workspace) {
  llm::BackendConfig b = cfg.backend;
  b.in_flight = cfg.in_flight;
  std::filesystem::path dir = b.cache_dir.empty() ? std::filesystem::path("cache") : std::filesystem::path(b.cache_dir);
  if (dir.is_relative()) dir = workspace / dir;
  b.cache_dir = dir.string();
  return b;
}

std::unique_ptr<CampaignSetup> prepare_campaign(const CampaignConfig& cfg, const std::filesystem::path& workspace,
                                                const std::string& resource_dir, std::string& error,
                                                std::unique_ptr<llm::ChatBackend> backend) {
  auto s = std::make_unique<CampaignSetup>();
  Diagnostics diags;
  // A step-v2 campaign draws its tasks from the STeP-25 benchmark and shows the v2 operator card.
  auto cat = cfg.is_v2() ? bench::Catalogue::load_v2(resource_dir, diags) : bench::Catalogue::load(resource_dir, diags);
  auto tasks = resolve_tasks(cfg, cat.tasks(), error);
  if (!tasks) return nullptr;
  for (const auto* t : *tasks) s->deps.tasks.push_back(*t);
  if (cfg.is_v2()) {
    const auto card = std::filesystem::path(resource_dir) / "step2_operator_card.md";
    std::ifstream in(card, std::ios::binary);
    if (!in) {
      error = card.string() + ": cannot read the STeP-25 operator card";
      return nullptr;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    s->deps.manual_text = ss.str();
  } else {
    auto manual = agent::load_manual(resource_dir, cfg.manual, error);
    if (!manual) return nullptr;
    s->deps.manual_text = *manual;
  }
  std::string perr;
  // A prices.json in the workspace (campaign run --prices FILE copies one there) replaces the bundled table.
  const std::filesystem::path own = workspace / "prices.json";
  const bool has_own = std::filesystem::exists(own);
  if (auto p = llm::PriceTable::load(has_own ? own : std::filesystem::path(resource_dir) / "configs" / "prices.json", perr))
    s->prices = std::make_unique<llm::PriceTable>(*p);
  else if (has_own) {
    error = own.string() + ": " + perr;
    return nullptr;
  }
  if (cfg.budget.cost_usd > 0 &&
      (cfg.backend.kind == llm::BackendKind::OpenAi || cfg.backend.kind == llm::BackendKind::Anthropic) &&
      !(s->prices && s->prices->find(cfg.backend.model))) {
    error = "budget.cost_usd is set but model '" + cfg.backend.model +
            "' has no price, so the budget could not be kept: price it in prices.json in the workspace (or pass "
            "--prices FILE to campaign run)";
    return nullptr;
  }
  if (backend) {
    s->backend = std::move(backend);
  } else {
    llm::BackendConfig b = resolved_backend(cfg, workspace);
    if (b.kind == llm::BackendKind::Builtin && !llm::has_builtin_provider(b.builtin_provider)) {
      error = "the builtin backend has no provider '" + b.builtin_provider + "' registered";
      return nullptr;
    }
    auto made = llm::make_backend(b);
    if (!made.backend) {
      error = made.error;
      return nullptr;
    }
    s->backend = std::move(made.backend);
  }
  s->deps.backend = s->backend.get();
  s->deps.prices = s->prices.get();
  return s;
}

std::string preflight_campaign(const CampaignConfig& cfg, const llm::CancelToken& cancel) {
  llm::PreflightResult r = llm::check_endpoint(cfg.backend, cancel, false, 2);
  // Only the endpoint's failures stop a campaign here; an odd answer to the test prompt (empty, refused) does not.
  if (r.ok || !r.failure.infrastructure || cancel.cancelled()) return {};
  return r.failure.message.empty() ? "the endpoint did not answer the test request" : r.failure.message;
}

}  // namespace sf::learn
