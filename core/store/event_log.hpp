// The append-only event log (ARCHITECTURE "Campaign workspace"): one JSON object per line, each line
// written with a single write() (flushed per event), fsync on demand (per iteration). On load a truncated
// last line (no newline and not valid JSON — a crash mid-write) is ignored and reported; any other bad
// line, or a line from a newer format version, is an error with its line number.
#pragma once

#include <cstdint>
#include <limits>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
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

// Reads a log from its start, as it grows (following a campaign another process runs) or to its end (opening,
// replaying): each read() returns the events of the lines completed since the previous one, every line parsed
// once and checked as read_event_log checks it. A line still being written (no newline yet) waits for a later
// read(); finish() takes it when no one writes any more (a partial write that does not parse is then
// ignored and reported by truncated_tail()).
class EventLogReader {
 public:
  explicit EventLogReader(std::filesystem::path file);
  // Appends the events of the newly completed lines to `out`, reading at most `max_bytes` of the file. A
  // missing file has no lines yet. False with `error` ("events.jsonl:LINE: ...") at a bad line (not JSON, not an
  // event, a newer format version, longer than kMaxLineBytes): the lines before it are in `out`, and the next
  // read() goes on after it.
  bool read(std::vector<nlohmann::json>& out, std::string& error,
            std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max());
  // The end of a log: its unterminated last line, when it is an event (else a partial write: truncated_tail).
  bool finish(std::vector<nlohmann::json>& out, std::string& error);
  std::uint64_t valid_bytes() const { return valid_bytes_; }  // end of the last line taken
  bool truncated_tail() const { return truncated_tail_; }

 private:
  bool take(std::string_view line, std::vector<nlohmann::json>& out, std::string& error);

  std::filesystem::path file_;
  std::string name_;            // the file name errors start with
  std::string buf_;             // bytes read and not taken yet: the start of an unfinished line
  std::uint64_t read_pos_ = 0;  // file offset of the end of buf_
  std::uint64_t valid_bytes_ = 0;
  std::int64_t lineno_ = 0;     // lines passed
  bool skipping_ = false;       // inside a line longer than kMaxLineBytes (reported, skipped to its newline)
  bool truncated_tail_ = false;
};

// Reads a whole log (EventLogReader to the end). Returns false with `error` ("events.jsonl:LINE: ...") for a corrupt line, a line that is
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

  // Writes `event.dump()` + '\n' with one write() call. Thread-safe, and safe against other processes
  // appending to the same file: every append holds an exclusive flock(2) on the log file, under which the
  // `seq` is numbered. An event whose integer "seq" is not above the last line's (another writer, e.g. an
  // audit label, appended meanwhile) is written with the last line's seq + 1, so the numbers of a file stay
  // strictly increasing whoever writes it. `seq_used` (optional) receives the seq written (-1: the event has
  // no integer "seq"). `partial_tail` (optional) is asked, under the lock, what to do with a file that does
  // not end with a newline: the length to cut it to, or nullopt for an error (it sets `error`).
  using PartialTail = std::function<std::optional<std::uint64_t>(std::string& error)>;
  bool append(const nlohmann::json& event, std::string& error, std::int64_t* seq_used = nullptr,
              const PartialTail& partial_tail = {});
  // fsync(2) of the file.
  bool sync(std::string& error);

 private:
  explicit EventLog(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::mutex mu_;
  std::uint64_t end_ = 0;           // the file's size after this log's last append (or scan of its tail)
  bool scanned_ = false;            // last_seq_ was read from the file at least once
  std::int64_t last_seq_ = -1;      // the seq of the file's last line (-1: none)
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
