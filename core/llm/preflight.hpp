// Before a campaign spends money: one minimal request to the endpoint, and, when a call fails for a reason
// that is not the model's answer (a wrong key, a retired model id, a spend cap, a server that is not there),
// one clear message that names the cause and the fix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/llm/backend_config.hpp"
#include "core/llm/chat_backend.hpp"

namespace sf::llm {

struct FailureDiagnosis {
  // True when the failure is the endpoint's, not the model's answer: authentication (401/403), model or route
  // not found (404), a rejected request (400), a quota or spend cap (429 naming it), retries exhausted
  // (429, 5xx, timeouts, network), connection refused, TLS errors. Such a call is never a sample.
  bool infrastructure = false;
  // An infrastructure failure that may pass by itself (retries exhausted on 429 / 5xx, a timeout, a network
  // error other than TLS): a campaign pauses only after backend.max_consecutive_failures of them in a row.
  // Every other infrastructure failure (401/403, 404, 400, a spend cap, TLS, a config error) pauses it at once.
  bool transient = false;
  std::string message;  // "authentication failed (HTTP 401) for openai at https://…: check OPENAI_API_KEY"
};

FailureDiagnosis diagnose_failure(const BackendConfig& config, const std::string& model, const LlmError& error);

struct PreflightResult {
  bool ok = false;
  double reply_s = 0.0;           // wall time of the minimal request
  std::string reply;              // the model's reply (first 200 characters)
  std::string finish_reason;
  std::optional<std::vector<std::string>> models;  // what GET .../models lists (nullopt: not available)
  std::string models_note;        // why the list is not available
  FailureDiagnosis failure;       // when !ok
  bool config_error = false;      // check_endpoint: no backend could be made from the config (failure says why)
};

// One minimal chat request ("Reply with the word ok.", temperature 0) through `backend`, and the endpoint's
// model list when `backend` is an HTTP backend and `list_models` is set.
PreflightResult preflight(const BackendConfig& config, ChatBackend& backend, const CancelToken& cancel,
                          bool list_models = true);

// The check `stepforge-cli llm check`, the GUI's Test connection and a campaign's preflight make: a backend
// for `config` past its response cache (a cached answer proves nothing about the endpoint today), with at most
// `max_retries` retries and backoff at most 10 s, then preflight(). The builtin and replay kinds reach no
// endpoint: ok, with a note in models_note. A config no backend can be made from (a key variable that is not
// set, a pasted key) fails with config_error and the reason.
PreflightResult check_endpoint(BackendConfig config, const CancelToken& cancel, bool list_models = true,
                               int max_retries = 1);

}  // namespace sf::llm
