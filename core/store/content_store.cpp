#include "core/store/content_store.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "core/common/sha256.hpp"
#include "core/store/event_log.hpp"

namespace sf::store {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Where a content is cut: before every line that starts with "## " or "### " (never at 0).
std::vector<std::string_view> prompt_pieces(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t nl = s.find('\n'); nl != std::string_view::npos; nl = s.find('\n', nl + 1)) {
    std::string_view rest = s.substr(nl + 1);
    if (rest.substr(0, 3) == "## " || rest.substr(0, 4) == "### ") {
      out.push_back(s.substr(start, nl + 1 - start));
      start = nl + 1;
    }
  }
  if (start < s.size()) out.push_back(s.substr(start));
  return out;
}

std::string message_label(std::size_t i) { return "prompt message " + std::to_string(i + 1) + ": "; }

}  // namespace

bool is_content_hash(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

ContentStore::ContentStore(fs::path dir) : dir_(std::move(dir)) {}

std::string ContentStore::put(std::string_view content, std::string& error) {
  std::string hash = sha256_hex(content);
  std::lock_guard lock(mu_);  // also serialises write_file_atomic's per-process temp name
  if (present_.count(hash)) return hash;
  const fs::path file = dir_ / hash;
  std::error_code ec;
  auto size = fs::file_size(file, ec);
  if (ec || size != content.size()) {
    fs::create_directories(dir_, ec);
    if (ec) {
      error = "cannot create " + dir_.string() + ": " + ec.message();
      return {};
    }
    if (!write_file_atomic(file, std::string(content), error)) return {};
  }
  present_.insert(hash);
  return hash;
}

std::optional<std::string> ContentStore::get(std::string_view hash, std::string& error) const {
  if (!is_content_hash(hash)) {
    error = "a prompt part names no content hash (\"" + std::string(hash.substr(0, 80)) + "\")";
    return std::nullopt;
  }
  const fs::path file = dir_ / std::string(hash);
  std::error_code ec;
  auto size = fs::file_size(file, ec);
  if (ec) {
    error = file.string() + ": missing (a stored prompt part of this workspace: " + ec.message() + ")";
    return std::nullopt;
  }
  if (size > kMaxBlobBytes) {
    error = file.string() + ": larger than " + std::to_string(kMaxBlobBytes >> 20) + " MiB";
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  std::string content;
  if (in) content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    error = file.string() + ": cannot be read";
    return std::nullopt;
  }
  if (content.size() != size || sha256_hex(content) != hash) {
    error = file.string() + ": damaged (its content does not have the hash it is named by)";
    return std::nullopt;
  }
  return content;
}

std::optional<json> store_prompt(const json& messages, ContentStore& store, std::string& error) {
  if (!messages.is_array()) {
    error = "a prompt must be a list of messages";
    return std::nullopt;
  }
  json out = json::array();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const json& m = messages[i];
    if (!m.is_object() || !m.contains("content") || !m["content"].is_string()) {
      error = message_label(i) + "expected {role, content}";
      return std::nullopt;
    }
    const std::string& content = m["content"].get_ref<const std::string&>();
    json parts = json::array();
    std::string text;  // inline pieces not yet written
    const bool whole = m.value("role", json()) == "system";  // the static prefix: one piece
    for (std::string_view piece : whole ? std::vector<std::string_view>{content} : prompt_pieces(content)) {
      if (piece.size() < kMinBlobChars) {
        text += piece;
        continue;
      }
      if (!text.empty()) parts.push_back({{"text", std::move(text)}});
      text.clear();
      std::string hash = store.put(piece, error);
      if (hash.empty()) return std::nullopt;
      parts.push_back({{"blob", std::move(hash)}});
    }
    if (!text.empty()) parts.push_back({{"text", std::move(text)}});
    json msg = m;
    msg.erase("content");
    msg["parts"] = std::move(parts);
    out.push_back(std::move(msg));
  }
  return out;
}

std::optional<json> load_prompt(const json& messages, const ContentStore& store, std::string& error) {
  if (!messages.is_array()) {
    error = "a prompt must be a list of messages";
    return std::nullopt;
  }
  if (messages.size() > kMaxPromptMessages) {
    error = "a prompt of more than " + std::to_string(kMaxPromptMessages) + " messages";
    return std::nullopt;
  }
  std::size_t total = 0;
  auto add = [&](std::string& into, const std::string& s, std::size_t i) {
    total += s.size();
    if (total > kMaxPromptChars) {
      error = message_label(i) + "the prompt exceeds " + std::to_string(kMaxPromptChars >> 20) + " MiB";
      return false;
    }
    into += s;
    return true;
  };
  std::map<std::string, std::string> read;  // each blob is read once per prompt
  json out = json::array();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const json& m = messages[i];
    if (!m.is_object()) {
      error = message_label(i) + "not an object";
      return std::nullopt;
    }
    std::string role = m.contains("role") && m["role"].is_string() ? m["role"].get<std::string>() : std::string();
    std::string content;
    if (auto c = m.find("content"); c != m.end() && c->is_string()) {
      if (!add(content, c->get_ref<const std::string&>(), i)) return std::nullopt;
    } else if (auto p = m.find("parts"); p != m.end() && p->is_array()) {
      if (p->size() > kMaxPromptParts) {
        error = message_label(i) + "more than " + std::to_string(kMaxPromptParts) + " parts";
        return std::nullopt;
      }
      for (const json& part : *p) {
        if (part.is_object() && part.contains("text") && part["text"].is_string()) {
          if (!add(content, part["text"].get_ref<const std::string&>(), i)) return std::nullopt;
        } else if (part.is_object() && part.contains("blob") && part["blob"].is_string()) {
          const std::string& hash = part["blob"].get_ref<const std::string&>();
          auto known = read.find(hash);
          if (known == read.end()) {
            auto blob = store.get(hash, error);
            if (!blob) {
              error = message_label(i) + error;
              return std::nullopt;
            }
            known = read.emplace(hash, std::move(*blob)).first;
          }
          if (!add(content, known->second, i)) return std::nullopt;
        } else {
          error = message_label(i) + "a part must be {text} or {blob}";
          return std::nullopt;
        }
      }
    } else {
      error = message_label(i) + "has neither content nor parts";
      return std::nullopt;
    }
    out.push_back({{"role", std::move(role)}, {"content", std::move(content)}});
  }
  return out;
}

bool store_event_prompt(json& event, ContentStore& store, std::string& error) {
  if (!event.is_object() || event.value("type", json()) != "llm_call") return true;
  auto tr = event.find("trace");
  if (tr == event.end() || !tr->is_object()) return true;
  auto p = tr->find("prompt");
  if (p == tr->end() || !p->is_array() || p->empty()) return true;
  for (const json& m : *p)
    if (!m.is_object() || !m.contains("content")) return true;  // already parts (or not a prompt we know)
  auto parts = store_prompt(*p, store, error);
  if (!parts) return false;
  *p = std::move(*parts);
  return true;
}

}  // namespace sf::store
