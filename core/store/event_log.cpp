#include "core/store/event_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace sf::store {

namespace fs = std::filesystem;

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
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = file.filename().string() + ": cannot open";
    return false;
  }
  std::string name = file.filename().string();
  std::string line;
  std::uint64_t offset = 0;
  int lineno = 0;
  while (true) {
    line.clear();
    bool newline = false;
    char ch;
    while (in.get(ch)) {
      if (ch == '\n') {
        newline = true;
        break;
      }
      if (line.size() >= kMaxLineBytes) {
        error = name + ":" + std::to_string(lineno + 1) + ": line longer than 64 MiB";
        return false;
      }
      line.push_back(ch);
    }
    if (!newline && line.empty()) break;  // end of file
    ++lineno;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!newline) {
      // The last line has no newline: a crash mid-write. Ignore it when it does not parse.
      if (j.is_discarded() || !j.is_object()) {
        out.truncated_tail = true;
        break;
      }
    }
    if (j.is_discarded()) {
      error = name + ":" + std::to_string(lineno) + ": not valid JSON (the log is corrupted)";
      return false;
    }
    if (!j.is_object() || !j.contains("v") || !j["v"].is_number_integer() || !j.contains("type") ||
        !j["type"].is_string()) {
      error = name + ":" + std::to_string(lineno) + ": not an event (an object with \"v\" and \"type\")";
      return false;
    }
    auto v = j["v"].get<std::int64_t>();
    if (v > kFormatVersion) {
      error = name + ":" + std::to_string(lineno) + ": written by a newer StepForge (event format v" +
              std::to_string(v) + "; this build reads up to v" + std::to_string(kFormatVersion) + ")";
      return false;
    }
    if (v < 1) {
      error = name + ":" + std::to_string(lineno) + ": invalid event format version " + std::to_string(v);
      return false;
    }
    out.events.push_back(std::move(j));
    offset += line.size() + (newline ? 1 : 0);
    out.valid_bytes = offset;
    if (!newline) break;
  }
  return true;
}

std::unique_ptr<EventLog> EventLog::open(const fs::path& file, std::string& error,
                                         std::optional<std::uint64_t> truncate_to) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
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

bool EventLog::append(const nlohmann::json& event, std::string& error) {
  std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(mu_);
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
