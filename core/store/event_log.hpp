// The append-only event log (ARCHITECTURE "Campaign workspace"): one JSON object per line, each line
// written with a single write() (flushed per event), fsync on demand (per iteration). On load a truncated
// last line (no newline and not valid JSON — a crash mid-write) is ignored and reported; any other bad
// line, or a line from a newer format version, is an error with its line number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sf::store {

// Format version of campaign.json and of every event line's envelope ("v").
inline constexpr int kFormatVersion = 1;
// Bounds on hostile files.
inline constexpr std::size_t kMaxLineBytes = 64u << 20;
inline constexpr std::uintmax_t kMaxLogBytes = std::uintmax_t(4) << 30;

struct LoadedLog {
  std::vector<nlohmann::json> events;
  bool truncated_tail = false;   // a partial last line was ignored
  std::uint64_t valid_bytes = 0;  // length of the well-formed prefix (where appending resumes)
};

// Reads a log. Returns false with `error` ("events.jsonl:LINE: ...") for a corrupt line, a line that is
// not an object with an integer "v", or "v" newer than kFormatVersion. A missing file is an empty log.
bool read_event_log(const std::filesystem::path& file, LoadedLog& out, std::string& error);

class EventLog {
 public:
  // Opens (creating) the file for appending; when `truncate_to` is set, cuts the file to that length first
  // (drops a partial last line before new events are appended).
  static std::unique_ptr<EventLog> open(const std::filesystem::path& file, std::string& error,
                                        std::optional<std::uint64_t> truncate_to = std::nullopt);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Writes `event.dump()` + '\n' with one write() call. Thread-safe.
  bool append(const nlohmann::json& event, std::string& error);
  // fsync(2) of the file.
  bool sync(std::string& error);

 private:
  explicit EventLog(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::mutex mu_;
};

// An exclusive flock(2) on `file` (created when missing), held until destruction: serialises the
// read-modify-write of a workspace file (audit.json, a golden set) between processes.
class FileLock {
 public:
  FileLock(const std::filesystem::path& file, std::string& error);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool locked() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Writes `content` to `file` atomically: a temp file in the same folder, fsync, rename.
bool write_file_atomic(const std::filesystem::path& file, const std::string& content, std::string& error);

}  // namespace sf::store
