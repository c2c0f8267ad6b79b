#include "core/common/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <algorithm>

extern char** environ;

namespace sf {

namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

std::optional<std::filesystem::path> find_on_path(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) == 0) return std::filesystem::path(program);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string dir = p.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::filesystem::path cand = std::filesystem::path(dir) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(cand, ec) && ::access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return std::nullopt;
}

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s, std::size_t max_output) {
  ProcessResult r;
  if (argv.empty()) return r.error = "no program", r;
  auto exe = find_on_path(argv[0]);
  if (!exe) return r.error = "'" + argv[0] + "' not found on PATH", r;
  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    close_fd(out_pipe[0]), close_fd(out_pipe[1]);
    return r.error = std::string("pipe: ") + std::strerror(errno), r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, exe->c_str(), &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);
  if (rc != 0) {
    close_fd(out_pipe[0]), close_fd(err_pipe[0]);
    return r.error = exe->string() + ": " + std::strerror(rc), r;
  }
  r.started = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int fds[2] = {out_pipe[0], err_pipe[0]};
  std::string* bufs[2] = {&r.out, &r.err};
  char chunk[8192];
  while (fds[0] >= 0 || fds[1] >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd p[2];
    int n = 0, which[2];
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) p[n] = {fds[i], POLLIN, 0}, which[n++] = i;
    int k = ::poll(p, static_cast<nfds_t>(n), static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (k < 0 && errno != EINTR) break;
    for (int j = 0; j < n && k > 0; ++j) {
      if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fds[which[j]], chunk, sizeof chunk);
      if (got <= 0) {
        close_fd(fds[which[j]]);
        continue;
      }
      std::string& b = *bufs[which[j]];
      if (b.size() < max_output) b.append(chunk, std::min<std::size_t>(static_cast<std::size_t>(got), max_output - b.size()));
    }
  }
  close_fd(fds[0]);
  close_fd(fds[1]);
  int status = 0;
  while (true) {  // the pipes are closed; the child may still run (bounded by the same deadline)
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (w == 0 && !r.timed_out && std::chrono::steady_clock::now() >= deadline) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      continue;
    }
    if (w == 0) ::usleep(r.timed_out ? 1000 : 10000);
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
  return r;
}

}  // namespace sf
