// llm check: test a connection before a campaign spends money on it.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/preflight.hpp"

namespace sf::cli {

namespace {

struct LlmOpts {
  std::string backend = "openai", model, base_url, key_env;
  double timeout_s = 60.0;
  bool no_models = false;
};

int cmd_llm_check(const LlmOpts& o) {
  auto kind = llm::parse_backend_kind(o.backend);
  if (!kind || *kind == llm::BackendKind::Replay) {
    std::cerr << "error: --backend must be openai, anthropic or builtin\n";
    return 2;
  }
  llm::BackendConfig c;
  c.kind = *kind;
  c.base_url = llm::default_base_url(*kind);
  if (!o.base_url.empty()) c.base_url = o.base_url;
  c.model = o.model;
  c.key_env = o.key_env;
  c.timeout_s = o.timeout_s;
  if (c.model.empty() && *kind != llm::BackendKind::Builtin) {
    std::cerr << "error: --model is required for " << o.backend << "\n";
    return 2;
  }
  if (*kind == llm::BackendKind::Builtin) {
    // Nothing to reach: the synthesizer answers proposer prompts (a task) offline.
    std::cout << "endpoint: builtin (the offline synthesizer, no network, no key)\nOK\n";
    return 0;
  }
  llm::CancelToken cancel;
  llm::PreflightResult r = llm::check_endpoint(c, cancel, !o.no_models);  // a check: at most one retry
  if (r.config_error) {
    std::cerr << "error: " << r.failure.message << "\n";
    return 2;
  }
  std::cout << "endpoint: " << llm::backend_kind_name(c.kind) << " at " << c.base_url << "; model: "
            << (c.model.empty() ? "-" : c.model) << "\n";
  if (r.models) {
    std::cout << "models listed by the endpoint (" << r.models->size() << "):";
    for (std::size_t i = 0; i < r.models->size() && i < 50; ++i) std::cout << (i ? ", " : " ") << (*r.models)[i];
    if (r.models->size() > 50) std::cout << ", ...";
    std::cout << "\n";
    if (!c.model.empty() && std::find(r.models->begin(), r.models->end(), c.model) == r.models->end())
      std::cout << "note: the endpoint does not list '" << c.model << "'\n";
  } else if (!o.no_models) {
    std::cout << "models: not listed (" << r.models_note << ")\n";
  }
  if (!r.ok) {
    std::cerr << "error: " << r.failure.message << "\n";
    return 3;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", r.reply_s);
  std::string reply = r.reply;
  for (auto& ch : reply)
    if (ch == '\n' || ch == '\r') ch = ' ';
  std::cout << "reply in " << buf << " s: \"" << reply << "\" (finish: "
            << (r.finish_reason.empty() ? "-" : r.finish_reason) << ")\nOK\n";
  return 0;
}

}  // namespace

void add_llm_commands(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<LlmOpts>();
  auto* llm = app.add_subcommand("llm", "LLM endpoints");
  llm->require_subcommand(1);
  auto* check = llm->add_subcommand(
      "check", "One minimal request and the endpoint's model list (exit 3 with the cause and the fix on failure)");
  check->add_option("--backend", o->backend, "openai, anthropic or builtin")->capture_default_str();
  check->add_option("--model", o->model, "model id");
  check->add_option("--base-url", o->base_url, "endpoint (default: the provider's)");
  check->add_option("--key-env", o->key_env, "name of the environment variable holding the key");
  check->add_option("--timeout", o->timeout_s, "seconds")->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  check->add_flag("--no-models", o->no_models, "do not ask for the model list");
  check->callback([o, &exit_code] { exit_code = guarded([&] { return cmd_llm_check(*o); }); });
}

}  // namespace sf::cli
