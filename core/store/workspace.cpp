#include "core/store/workspace.hpp"

#include <fstream>
#include <sstream>

namespace sf::store {

namespace fs = std::filesystem;

namespace {
constexpr const char* kFormatName = "stepforge-campaign";
constexpr std::uintmax_t kMaxConfigBytes = 16u << 20;
}  // namespace

std::unique_ptr<Workspace> Workspace::create(const fs::path& dir, const nlohmann::json& config, std::string& error) {
  std::error_code ec;
  if (fs::exists(dir / "campaign.json", ec)) {
    error = dir.string() + " already holds a campaign (use `campaign resume " + dir.string() + "`)";
    return nullptr;
  }
  fs::create_directories(dir / "cache", ec);
  if (ec) {
    error = "cannot create " + (dir / "cache").string() + ": " + ec.message();
    return nullptr;
  }
  nlohmann::json doc = {{"format", kFormatName}, {"version", kFormatVersion}, {"config", config}};
  if (!write_file_atomic(dir / "campaign.json", doc.dump(2) + "\n", error)) return nullptr;
  return load(dir, true, error);
}

std::unique_ptr<Workspace> Workspace::open(const fs::path& dir, std::string& error) { return load(dir, true, error); }

std::unique_ptr<Workspace> Workspace::open_read_only(const fs::path& dir, std::string& error) {
  return load(dir, false, error);
}

bool Workspace::read_config(const fs::path& dir, nlohmann::json& config, std::string& error) {
  fs::path cfile = dir / "campaign.json";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = dir.string() + " is not a campaign workspace (no such folder)";
    return false;
  }
  if (!fs::exists(cfile, ec)) {
    error = dir.string() + " is not a campaign workspace (no campaign.json)";
    return false;
  }
  auto size = fs::file_size(cfile, ec);
  if (ec || size > kMaxConfigBytes) {
    error = cfile.string() + ": unreadable or larger than 16 MiB";
    return false;
  }
  std::ifstream in(cfile, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(ss.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = cfile.string() + ": corrupted (not a JSON object)";
    return false;
  }
  if (!doc.contains("format") || doc["format"] != kFormatName || !doc.contains("version") ||
      !doc["version"].is_number_integer() || !doc.contains("config") || !doc["config"].is_object()) {
    error = cfile.string() + ": not a StepForge campaign file (needs format, version, config)";
    return false;
  }
  auto v = doc["version"].get<std::int64_t>();
  if (v > kFormatVersion) {
    error = cfile.string() + ": written by a newer StepForge (workspace format v" + std::to_string(v) +
            "; this build reads up to v" + std::to_string(kFormatVersion) + ")";
    return false;
  }
  if (v < 1) {
    error = cfile.string() + ": invalid workspace format version " + std::to_string(v);
    return false;
  }
  config = doc["config"];
  return true;
}

std::unique_ptr<Workspace> Workspace::load(const fs::path& dir, bool writable, std::string& error) {
  nlohmann::json config;
  if (!read_config(dir, config, error)) return nullptr;
  std::error_code ec;
  auto ws = std::unique_ptr<Workspace>(new Workspace());
  ws->dir_ = dir;
  ws->config_ = std::move(config);
  ws->blobs_ = std::make_unique<ContentStore>(dir / "blobs");
  if (!read_event_log(dir / "events.jsonl", ws->loaded_, error)) {
    error = (dir / error).string();
    return nullptr;
  }
  if (writable) {
    std::optional<std::uint64_t> cut;
    if (ws->loaded_.truncated_tail) cut = ws->loaded_.valid_bytes;
    ws->log_ = EventLog::open(dir / "events.jsonl", error, cut);
    if (!ws->log_) return nullptr;
    fs::create_directories(dir / "cache", ec);
  }
  return ws;
}

bool Workspace::append(const nlohmann::json& event, std::string& error, std::int64_t* seq_used) {
  if (!log_) {
    error = "the workspace is open read-only";
    return false;
  }
  if (event.value("type", nlohmann::json()) == "llm_call") {
    nlohmann::json stored = event;
    return store_event_prompt(stored, *blobs_, error) && log_->append(stored, error, seq_used);
  }
  return log_->append(event, error, seq_used);
}

bool Workspace::sync(std::string& error) {
  if (!log_) return true;
  return log_->sync(error);
}

bool Workspace::write_memory(const nlohmann::json& memory, std::string& error) {
  return write_file_atomic(dir_ / "memory.json", memory.dump(1) + "\n", error);
}

}  // namespace sf::store
