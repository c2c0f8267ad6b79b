#include "core/llm/http_transport.hpp"

#include "core/llm/redact.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <mutex>

namespace sf::llm {

namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  const HttpRequest* req = nullptr;
  const CancelToken* cancel = nullptr;
  HttpResponse* resp = nullptr;
  std::size_t header_bytes = 0;
  bool too_large = false;
  bool aborted = false;  // on_chunk asked to stop
};

// curl_easy_perform, but through a multi handle polled every 20 ms, so a cancel aborts the transfer at once
// (the xferinfo callback alone runs only about once a second while the server is silent).
CURLcode perform_cancellable(CURL* curl, const CancelToken& cancel) {
  CURLM* multi = curl_multi_init();
  if (!multi) return curl_easy_perform(curl);
  curl_multi_add_handle(multi, curl);
  CURLcode rc = CURLE_OK;
  int running = 1;
  while (true) {
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      rc = CURLE_FAILED_INIT;
      break;
    }
    if (running == 0) {
      int queued = 0;
      while (CURLMsg* m = curl_multi_info_read(multi, &queued))
        if (m->msg == CURLMSG_DONE) rc = m->data.result;
      break;
    }
    if (cancel.cancelled()) {
      rc = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    curl_multi_poll(multi, nullptr, 0, 20, nullptr);
  }
  curl_multi_remove_handle(multi, curl);
  curl_multi_cleanup(multi);
  return rc;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t len = size * n;
  if (t->resp->body.size() + len > t->req->max_body_bytes) {
    t->too_large = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  t->resp->body.append(data, len);
  if (t->req->on_chunk && !t->req->on_chunk(std::string_view(data, len))) {
    t->aborted = true;
    return 0;
  }
  return len;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t len = size * n;
  t->header_bytes += len;
  if (t->header_bytes > t->req->max_header_bytes) {
    t->too_large = true;
    return 0;
  }
  std::string line(data, len);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = trim(line.substr(colon + 1));
    if (name == "retry-after") t->resp->retry_after = value;
    else if (name == "retry-after-ms") t->resp->retry_after_ms = value;
    else if (name == "x-ratelimit-reset-requests") t->resp->reset_requests = value;
    else if (name == "x-ratelimit-reset-tokens") t->resp->reset_tokens = value;
  } else if (line.rfind("HTTP/", 0) == 0) {
    // a new response (e.g. after 100 Continue)
    t->resp->retry_after.reset();
    t->resp->retry_after_ms.reset();
    t->resp->reset_requests.reset();
    t->resp->reset_tokens.reset();
  }
  return len;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return t->cancel->cancelled() ? 1 : 0;
}

}  // namespace

HttpResponse http_post(const HttpRequest& req, const CancelToken& cancel) {
  global_init();
  HttpResponse resp;
  if (cancel.cancelled()) {
    resp.outcome = HttpOutcome::Cancelled;
    resp.error = "cancelled";
    return resp;
  }
  CURL* curl = curl_easy_init();
  if (!curl) {
    resp.outcome = HttpOutcome::Network;
    resp.error = "cannot create a libcurl handle";
    return resp;
  }
  Transfer t{&req, &cancel, &resp, 0, false};
  curl_slist* headers = nullptr;
  for (const auto& [k, v] : req.headers) headers = curl_slist_append(headers, (k + ": " + v).c_str());
  headers = curl_slist_append(headers, "Expect:");
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  if (req.method == "GET") {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(std::ceil(req.timeout_s * 1000.0)));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::ceil(std::min(req.timeout_s, 30.0) * 1000.0)));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(req.max_body_bytes));
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  if (!req.ca_bundle.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, req.ca_bundle.c_str());
  if (!req.proxy.empty()) curl_easy_setopt(curl, CURLOPT_PROXY, req.proxy.c_str());

  CURLcode rc = perform_cancellable(curl, cancel);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
  if (rc != CURLE_OK) {
    if (t.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
      resp.outcome = HttpOutcome::TooLarge;
      resp.error = "response larger than " + std::to_string(req.max_body_bytes) + " bytes (or oversized headers)";
    } else if (rc == CURLE_ABORTED_BY_CALLBACK || t.aborted || cancel.cancelled()) {
      resp.outcome = HttpOutcome::Cancelled;
      resp.error = "cancelled";
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
      resp.outcome = HttpOutcome::Timeout;
      resp.error = "no complete answer within " + std::to_string(req.timeout_s) + " s";
    } else {
      resp.outcome = HttpOutcome::Network;
      resp.error = std::string(curl_easy_strerror(rc)) + (errbuf[0] ? std::string(": ") + errbuf : std::string());
    }
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return resp;
}

std::string dump_request(const HttpRequest& req, std::size_t max_body) {
  std::string s = "POST " + req.url + "\n";
  for (const auto& [k, v] : req.headers) s += redact_header_line(k + ": " + v) + "\n";
  s += "\n";
  s += req.body.substr(0, max_body);
  if (req.body.size() > max_body) s += "... (" + std::to_string(req.body.size()) + " bytes)";
  return s;
}

std::optional<double> parse_retry_after(const std::string& value) {
  std::string v = trim(value);
  if (v.empty()) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(v[0]))) {
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end && *end == '\0' && std::isfinite(d) && d >= 0.0) return d;
    return std::nullopt;
  }
  time_t when = curl_getdate(v.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  double delta = std::difftime(when, std::time(nullptr));
  return delta > 0.0 ? delta : 0.0;
}

std::optional<double> parse_reset_duration(const std::string& value) {
  std::string v = trim(value);
  if (v.empty()) return std::nullopt;
  double total = 0.0;
  std::size_t i = 0;
  bool any = false;
  while (i < v.size()) {
    std::size_t j = i;
    while (j < v.size() && (std::isdigit(static_cast<unsigned char>(v[j])) || v[j] == '.')) ++j;
    if (j == i) return std::nullopt;
    char* end = nullptr;
    std::string num = v.substr(i, j - i);
    double x = std::strtod(num.c_str(), &end);
    if (!end || *end != '\0' || !std::isfinite(x)) return std::nullopt;
    double unit;
    if (v.compare(j, 2, "ms") == 0) {
      unit = 1e-3;
      j += 2;
    } else if (j < v.size() && (v[j] == 'h' || v[j] == 'm' || v[j] == 's')) {
      unit = v[j] == 'h' ? 3600.0 : v[j] == 'm' ? 60.0 : 1.0;
      ++j;
    } else {
      return std::nullopt;
    }
    total += x * unit;
    any = true;
    i = j;
  }
  if (!any) return std::nullopt;
  return total;
}

std::optional<double> server_requested_wait(const HttpResponse& resp) {
  if (resp.retry_after_ms) {
    std::string v = trim(*resp.retry_after_ms);
    char* end = nullptr;
    double ms = std::strtod(v.c_str(), &end);
    if (!v.empty() && end && *end == '\0' && std::isfinite(ms) && ms >= 0.0) return ms / 1000.0;
  }
  if (resp.retry_after) {
    if (auto s = parse_retry_after(*resp.retry_after)) return s;
  }
  if (resp.status == 429) {
    std::optional<double> wait;
    for (const auto& h : {resp.reset_requests, resp.reset_tokens}) {
      if (!h) continue;
      if (auto s = parse_reset_duration(*h)) wait = std::max(wait.value_or(0.0), *s);
    }
    return wait;
  }
  return std::nullopt;
}

}  // namespace sf::llm
