#include "core/llm/response_cache.hpp"

#include "core/common/sha256.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace sf::llm {

namespace {
constexpr std::uintmax_t kMaxCacheFileBytes = 64u << 20;
}

nlohmann::json request_key_json(const ChatRequest& r, const std::string& backend_identity) {
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : r.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  return nlohmann::json{{"backend", backend_identity},
                        {"model", r.model},
                        {"messages", std::move(msgs)},
                        {"temperature", r.temperature},
                        {"seed", r.seed ? nlohmann::json(*r.seed) : nlohmann::json(nullptr)},
                        {"sample_index", r.sample_index},
                        {"max_tokens", r.max_tokens},
                        {"stop", r.stop}};
}

std::string request_key(const ChatRequest& r, const std::string& backend_identity) {
  return sha256_hex(request_key_json(r, backend_identity).dump());
}

nlohmann::json response_to_json(const ChatResponse& r) {
  return nlohmann::json{{"text", r.text},
                        {"finish_reason", r.finish_reason},
                        {"latency_s", r.latency_s},
                        {"usage",
                         {{"input_tokens", r.usage.input_tokens},
                          {"output_tokens", r.usage.output_tokens},
                          {"cached_input_tokens", r.usage.cached_input_tokens},
                          {"cache_write_input_tokens", r.usage.cache_write_input_tokens}}}};
}

std::optional<ChatResponse> response_from_json(const nlohmann::json& j) {
  try {
    ChatResponse r;
    r.text = j.at("text").get<std::string>();
    r.finish_reason = j.value("finish_reason", std::string());
    r.latency_s = j.value("latency_s", 0.0);
    const auto& u = j.at("usage");
    r.usage.input_tokens = u.value("input_tokens", std::int64_t{0});
    r.usage.output_tokens = u.value("output_tokens", std::int64_t{0});
    r.usage.cached_input_tokens = u.value("cached_input_tokens", std::int64_t{0});
    r.usage.cache_write_input_tokens = u.value("cache_write_input_tokens", std::int64_t{0});
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

ResponseCache::ResponseCache(std::filesystem::path dir) : dir_(std::move(dir)), blobs_(dir_ / "blobs") {}

std::filesystem::path ResponseCache::path_for(const std::string& key) const { return dir_ / (key + ".json"); }

std::optional<ChatResponse> ResponseCache::lookup(const std::string& key, std::string* problem) const {
  std::error_code ec;
  auto p = path_for(key);
  auto size = std::filesystem::file_size(p, ec);
  if (ec) return std::nullopt;
  auto fail = [&](const std::string& why) -> std::optional<ChatResponse> {
    if (problem) *problem = "cache entry " + p.filename().string() + ": " + why;
    return std::nullopt;
  };
  if (size > kMaxCacheFileBytes) return fail("file too large");
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("response")) return fail("malformed JSON");
  if (j.value("key", std::string()) != key) return fail("key mismatch");
  auto r = response_from_json(j["response"]);
  if (!r) return fail("malformed response");
  r->from_cache = true;
  r->attempts = 0;
  return r;
}

bool ResponseCache::store(const std::string& key, const nlohmann::json& request_json, const ChatResponse& response,
                          std::string* error) {
  nlohmann::json request = request_json;
  if (auto m = request.find("messages"); m != request.end()) {
    std::string why;
    auto parts = store::store_prompt(*m, blobs_, why);
    if (!parts) {
      if (error) *error = "cannot store the request in " + dir_.string() + ": " + why;
      return false;
    }
    *m = std::move(*parts);
  }
  nlohmann::json doc{{"version", 1}, {"key", key}, {"request", request}, {"response", response_to_json(response)}};
  std::string text = doc.dump(2) + "\n";
  std::filesystem::path tmp;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tmp = dir_ / ("." + key + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(++counter_));
  }
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      if (error) *error = "cannot write cache file in " + dir_.string();
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, path_for(key), ec);
  if (ec) {
    if (error) *error = "cannot rename cache file: " + ec.message();
    std::filesystem::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace sf::llm
