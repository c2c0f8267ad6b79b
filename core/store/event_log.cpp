#include "core/store/event_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>

namespace sf::store {

namespace fs = std::filesystem;

EventLogReader::EventLogReader(fs::path file) : file_(std::move(file)), name_(file_.filename().string()) {}

bool EventLogReader::take(std::string_view line, std::vector<nlohmann::json>& out, std::string& error) {
  const std::string where = name_ + ":" + std::to_string(lineno_) + ": ";
  if (line.size() > kMaxLineBytes) return error = where + "line longer than 64 MiB", false;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded()) return error = where + "not valid JSON (the log is corrupted)", false;
  if (!j.is_object() || !j.contains("v") || !j["v"].is_number_integer() || !j.contains("type") ||
      !j["type"].is_string())
    return error = where + "not an event (an object with \"v\" and \"type\")", false;
  auto v = j["v"].get<std::int64_t>();
  if (v > kFormatVersion)
    return error = where + "written by a newer StepForge (event format v" + std::to_string(v) +
                   "; this build reads up to v" + std::to_string(kFormatVersion) + ")",
           false;
  if (v < 1) return error = where + "invalid event format version " + std::to_string(v), false;
  out.push_back(std::move(j));
  return true;
}

bool EventLogReader::read(std::vector<nlohmann::json>& out, std::string& error, std::uint64_t max_bytes) {
  std::ifstream in;
  std::uint64_t budget = max_bytes;
  constexpr std::size_t kChunk = std::size_t(1) << 20;
  while (true) {
    // Take the complete lines read so far.
    std::size_t head = 0;
    bool ok = true;
    for (std::size_t nl; ok && (nl = buf_.find('\n', head)) != std::string::npos;) {
      const std::string_view line(buf_.data() + head, nl - head);
      head = nl + 1;
      ++lineno_;
      if (skipping_) {
        skipping_ = false;  // the end of an overlong line (already reported)
        continue;
      }
      ok = take(line, out, error);
      if (ok) valid_bytes_ = read_pos_ - (buf_.size() - head);
    }
    buf_.erase(0, head);
    if (!ok) return false;
    if (buf_.size() > kMaxLineBytes) {
      error = name_ + ":" + std::to_string(lineno_ + 1) + ": line longer than 64 MiB";
      buf_.clear();
      skipping_ = true;
      return false;
    }
    if (budget == 0) return true;
    if (!in.is_open()) {
      in.open(file_, std::ios::binary);
      if (!in) return true;  // not there (yet)
      in.seekg(static_cast<std::streamoff>(read_pos_));
    }
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(budget, kChunk));
    const std::size_t old = buf_.size();
    buf_.resize(old + want);
    in.read(buf_.data() + old, static_cast<std::streamsize>(want));
    const auto got = static_cast<std::size_t>(in.gcount());
    buf_.resize(old + got);
    if (got == 0) return true;
    if (skipping_) buf_.erase(0, std::min(buf_.find('\n'), buf_.size()));  // the rest of an overlong line
    read_pos_ += got;
    budget -= got;
  }
}

bool EventLogReader::finish(std::vector<nlohmann::json>& out, std::string& error) {
  if (buf_.empty() || skipping_) return true;
  // The last line has no newline: a crash mid-write. Ignore it when it does not parse.
  nlohmann::json j = nlohmann::json::parse(buf_, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    truncated_tail_ = true;
    return true;
  }
  ++lineno_;
  if (!take(buf_, out, error)) return false;
  valid_bytes_ += buf_.size();
  buf_.clear();
  return true;
}

bool read_event_log(const fs::path& file, LoadedLog& out, std::string& error) {
  out = LoadedLog{};
  std::error_code ec;
  if (!fs::exists(file, ec)) return true;
  auto size = fs::file_size(file, ec);
  if (ec) {
    error = file.filename().string() + ": cannot read: " + ec.message();
    return false;
  }
  if (size > kMaxLogBytes) {
    error = file.filename().string() + ": the log is larger than 4 GiB";
    return false;
  }
  if (!std::ifstream(file, std::ios::binary)) {
    error = file.filename().string() + ": cannot open";
    return false;
  }
  EventLogReader reader(file);
  if (!reader.read(out.events, error) || !reader.finish(out.events, error)) return false;
  out.truncated_tail = reader.truncated_tail();
  out.valid_bytes = reader.valid_bytes();
  return true;
}

std::unique_ptr<EventLog> EventLog::open(const fs::path& file, std::string& error,
                                         std::optional<std::uint64_t> truncate_to) {
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);  // read: the last line's seq
  if (fd < 0) {
    error = "cannot open " + file.string() + ": " + std::strerror(errno);
    return nullptr;
  }
  if (truncate_to && ::ftruncate(fd, static_cast<off_t>(*truncate_to)) != 0) {
    error = "cannot truncate " + file.string() + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<EventLog>(new EventLog(fd));
}

EventLog::~EventLog() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// The "seq" of the last complete line of the first `size` bytes of `fd` (nullopt: no line, or the last line
// is not an object with an integer seq, or it is longer than kMaxLineBytes). Scans backwards chunk by chunk for
// the line's two bounding newlines, then reads that one line.
std::optional<std::int64_t> last_line_seq(int fd, std::uint64_t size) {
  constexpr std::uint64_t kChunk = 1 << 16;
  std::string chunk;
  std::optional<std::uint64_t> end;    // offset of the last newline (a partial line after it is not a line)
  std::optional<std::uint64_t> begin;  // offset of the last line's first byte
  std::uint64_t pos = size;
  while (pos > 0 && !begin) {
    if ((end ? *end : size) - pos > kMaxLineBytes) return std::nullopt;
    const std::uint64_t n = std::min(kChunk, pos);
    chunk.resize(static_cast<std::size_t>(n));
    if (::pread(fd, chunk.data(), chunk.size(), static_cast<off_t>(pos - n)) != static_cast<ssize_t>(n))
      return std::nullopt;
    pos -= n;
    for (std::size_t i = chunk.size(); i-- > 0 && !begin;) {
      if (chunk[i] != '\n') continue;
      if (!end) end = pos + i;
      else begin = pos + i + 1;
    }
  }
  if (!end) return std::nullopt;
  const std::uint64_t first = begin.value_or(0);
  if (*end - first > kMaxLineBytes) return std::nullopt;
  std::string line(static_cast<std::size_t>(*end - first), '\0');
  if (::pread(fd, line.data(), line.size(), static_cast<off_t>(first)) != static_cast<ssize_t>(line.size()))
    return std::nullopt;
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto s = j.find("seq");
  if (s == j.end() || !s->is_number_integer()) return std::nullopt;
  return s->get<std::int64_t>();
}

// flock(2) of a descriptor for the duration of a scope.
struct FlockGuard {
  int fd;
  bool ok;
  explicit FlockGuard(int f) : fd(f) {
    int rc;
    do rc = ::flock(fd, LOCK_EX);
    while (rc != 0 && errno == EINTR);
    ok = rc == 0;
  }
  ~FlockGuard() {
    if (ok) ::flock(fd, LOCK_UN);
  }
};

}  // namespace

bool EventLog::append(const nlohmann::json& event, std::string& error, std::int64_t* seq_used,
                      const PartialTail& partial_tail) {
  std::lock_guard lock(mu_);
  FlockGuard flock(fd_);
  if (!flock.ok) return error = std::string("cannot lock the event log: ") + std::strerror(errno), false;
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return error = std::string("cannot read the event log: ") + std::strerror(errno), false;
  auto size = static_cast<std::uint64_t>(st.st_size);
  if (partial_tail && size > 0) {
    char last = '\n';
    if (::pread(fd_, &last, 1, static_cast<off_t>(size - 1)) != 1)
      return error = std::string("cannot read the event log: ") + std::strerror(errno), false;
    if (last != '\n') {
      auto cut = partial_tail(error);
      if (!cut) return false;
      if (*cut < size && ::ftruncate(fd_, static_cast<off_t>(*cut)) != 0)
        return error = std::string("cannot truncate the event log: ") + std::strerror(errno), false;
      size = std::min(size, *cut);
      scanned_ = false;
    }
  }
  if (!scanned_ || size != end_) {  // first append, or another writer appended since ours
    if (auto s = last_line_seq(fd_, size)) last_seq_ = std::max(last_seq_, *s);
    scanned_ = true;
  }
  const nlohmann::json* out = &event;
  nlohmann::json renumbered;
  std::int64_t seq = -1;
  if (auto s = event.find("seq"); event.is_object() && s != event.end() && s->is_number_integer()) {
    seq = s->get<std::int64_t>();
    if (seq <= last_seq_) {
      seq = last_seq_ + 1;
      renumbered = event;
      renumbered["seq"] = seq;
      out = &renumbered;
    }
  }
  std::string line = out->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    ssize_t w = ::write(fd_, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot append to the event log: ") + std::strerror(errno);
      return false;
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  end_ = size + line.size();
  if (seq >= 0) last_seq_ = seq;
  if (seq_used) *seq_used = seq;
  return true;
}

bool EventLog::sync(std::string& error) {
  std::lock_guard lock(mu_);
  if (::fsync(fd_) != 0) {
    error = std::string("cannot sync the event log: ") + std::strerror(errno);
    return false;
  }
  return true;
}

FileLock::FileLock(const fs::path& file, std::string& error) {
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error = file.filename().string() + ": cannot be opened (" + std::strerror(errno) + ")";
    return;
  }
  int rc;
  do rc = ::flock(fd_, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    error = file.filename().string() + ": cannot be locked (" + std::strerror(errno) + ")";
    ::close(fd_);
    fd_ = -1;
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the lock
}

bool write_file_atomic(const fs::path& file, const std::string& content, std::string& error) {
  fs::path tmp = file;
  tmp += ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot write " + tmp.string() + ": " + std::strerror(errno);
    return false;
  }
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      error = "cannot write " + tmp.string() + ": " + std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  ::fsync(fd);
  ::close(fd);
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) {
    error = "cannot replace " + file.string() + ": " + ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace sf::store
