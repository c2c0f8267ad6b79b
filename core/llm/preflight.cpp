#include "core/llm/preflight.hpp"

#include <algorithm>
#include <chrono>
#include <string_view>

#include "core/llm/backend_factory.hpp"
#include "core/llm/http_chat_backend.hpp"

namespace sf::llm {

namespace {

bool contains_any(std::string text, std::initializer_list<std::string_view> words) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return text.find(w) != std::string::npos; });
}

}  // namespace

FailureDiagnosis diagnose_failure(const BackendConfig& config, const std::string& model, const LlmError& e) {
  FailureDiagnosis d;
  std::string where = backend_kind_name(config.kind) + " at " + config.base_url;
  std::string status = e.http_status ? " (HTTP " + std::to_string(e.http_status) + ")" : "";
  std::string detail = e.message.empty() ? "" : " [" + e.message.substr(0, 300) + "]";
  d.infrastructure = true;
  if (e.kind == "http" && (e.http_status == 401 || e.http_status == 403)) {
    d.message = "authentication failed" + status + " for " + where + ": " +
                (config.key_env.empty() ? "no key is sent; set backend.key_env to the variable that holds the key"
                                        : "check " + config.key_env);
  } else if (e.kind == "http" && e.http_status == 404) {
    d.message = "model or route not found" + status + " for model '" + model + "' at " + config.base_url +
                ": check the model id (`stepforge-cli llm check` lists the endpoint's models) and base_url" + detail;
  } else if (e.kind == "http" && e.http_status == 400) {
    d.message = "the request was rejected" + status + " by " + where + detail +
                ": check the model id and the request shape (backend.token_param, send_temperature, "
                "reasoning_effort, extra_body)";
  } else if (e.kind == "http" && e.http_status == 429 &&
             contains_any(e.message, {"quota", "billing", "spend", "credit", "insufficient"})) {
    d.message = "spend cap or quota reached" + status + " at " + where + detail +
                ": raise the limit with the provider, or resume later";
  } else if (e.kind == "http" && (e.http_status == 429 || e.http_status >= 500)) {
    d.transient = true;
    d.message = "the endpoint kept failing" + status + " after " + std::to_string(e.attempts) + " attempt(s) at " +
                where + detail + ": resume later, or lower in_flight / rpm";
  } else if (e.kind == "timeout") {
    d.transient = true;
    d.message = "no answer within backend.timeout_s = " + std::to_string(static_cast<int>(config.timeout_s)) +
                " s after " + std::to_string(e.attempts) + " attempt(s) from " + where +
                ": raise timeout_s (reasoning models and local servers can be slow) or resume later";
  } else if (e.kind == "network" && contains_any(e.message, {"ssl", "tls", "certificate"})) {
    d.message = "TLS error talking to " + config.base_url + detail +
                ": check the server certificate, or point backend.ca_bundle at your CA bundle";
  } else if (e.kind == "network") {
    d.transient = true;
    d.message = "cannot reach " + config.base_url + detail + ": is the server running and the URL right?";
  } else if (e.kind == "http") {
    d.message = "HTTP error" + status + " from " + where + detail;
  } else if (e.kind == "config" || e.kind == "cache-miss") {
    d.message = e.message;  // a missing key, a replay without the recorded answer
  } else {
    d.infrastructure = false;  // parse, refused, cancelled: about the answer or the caller
    d.message = e.message;
  }
  return d;
}

PreflightResult preflight(const BackendConfig& config, ChatBackend& backend, const CancelToken& cancel,
                          bool list_models) {
  PreflightResult r;
  ChatRequest req;
  req.model = config.model;
  req.messages = {{"user", "Reply with the word ok."}};
  req.temperature = 0.0;
  req.max_tokens = 256;  // reasoning models spend tokens before they answer
  auto t0 = std::chrono::steady_clock::now();
  ChatResult res = backend.chat(req, cancel);
  r.reply_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (res.ok()) {
    r.ok = true;
    r.reply = res.response->text.substr(0, 200);
    r.finish_reason = res.response->finish_reason;
  } else {
    r.failure = diagnose_failure(config, config.model, res.error);
    if (!r.failure.infrastructure) r.ok = res.error.kind == "parse" || res.error.kind == "refused";
  }
  if (auto* http = dynamic_cast<HttpChatBackend*>(&backend); http && list_models) {
    r.models = http->list_models(cancel, r.models_note);
  } else if (list_models) {
    r.models_note = "this backend has no model list";
  }
  return r;
}

PreflightResult check_endpoint(BackendConfig config, const CancelToken& cancel, bool list_models, int max_retries) {
  PreflightResult r;
  if (config.kind == BackendKind::Builtin || config.kind == BackendKind::Replay) {
    r.ok = true;
    r.models_note = config.kind == BackendKind::Builtin ? "the offline synthesizer: no network, no key"
                                                        : "a replay answers from the recorded cache: no network";
    return r;
  }
  config.cache_dir.clear();
  config.max_retries = std::clamp(max_retries, 0, config.max_retries);
  config.backoff_max_s = std::min(config.backoff_max_s, 10.0);
  auto made = make_backend(config);
  if (!made.backend) {
    r.config_error = true;
    r.failure.infrastructure = true;
    r.failure.message = made.error;
    return r;
  }
  return preflight(config, *made.backend, cancel, list_models);
}

}  // namespace sf::llm
