// A campaign workspace (ARCHITECTURE "Campaign workspace"): a folder with campaign.json (the full config,
// format version), events.jsonl (append-only log), memory.json (snapshot, atomic), cache/ (LLM responses) and
// blobs/ (the content store: prompt parts stored once, core/store/content_store.hpp).
// Opening a workspace written by a newer or corrupted version gives a clear error, never a crash.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/content_store.hpp"
#include "core/store/event_log.hpp"

namespace sf::store {

class Workspace {
 public:
  // Creates `dir` (and cache/) and writes campaign.json = {"format": "stepforge-campaign", "version": 1,
  // "config": config}. Fails when dir already holds a campaign.json.
  static std::unique_ptr<Workspace> create(const std::filesystem::path& dir, const nlohmann::json& config,
                                           std::string& error);
  // Opens an existing workspace: reads campaign.json (checked), loads the event log (a truncated last line is
  // dropped from the file before anything is appended) and opens the log for appending.
  static std::unique_ptr<Workspace> open(const std::filesystem::path& dir, std::string& error);
  // Reads a workspace without opening the log for writing (reports).
  static std::unique_ptr<Workspace> open_read_only(const std::filesystem::path& dir, std::string& error);

  // Reads and checks campaign.json alone (no log): its "config". False with `error` as open() words it.
  static bool read_config(const std::filesystem::path& dir, nlohmann::json& config, std::string& error);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path cache_dir() const { return dir_ / "cache"; }
  const nlohmann::json& config() const { return config_; }
  // The events read when the workspace was opened (empty for a new workspace).
  const std::vector<nlohmann::json>& loaded_events() const { return loaded_.events; }
  bool had_truncated_tail() const { return loaded_.truncated_tail; }
  // blobs/: the prompt parts the log's llm_call events name (load_prompt reassembles them).
  const ContentStore& blobs() const { return *blobs_; }

  // Appends one event line; an llm_call's inline prompt is stored as parts first (store_event_prompt).
  // `seq_used`: the seq written, which is above every seq already in the file (EventLog::append: another
  // process, e.g. an audit label, may have appended since).
  bool append(const nlohmann::json& event, std::string& error, std::int64_t* seq_used = nullptr);
  bool sync(std::string& error);
  bool write_memory(const nlohmann::json& memory, std::string& error);  // memory.json, atomically

 private:
  static std::unique_ptr<Workspace> load(const std::filesystem::path& dir, bool writable, std::string& error);
  std::filesystem::path dir_;
  nlohmann::json config_;
  LoadedLog loaded_;
  std::unique_ptr<EventLog> log_;
  std::unique_ptr<ContentStore> blobs_;
};

}  // namespace sf::store
