#include "widgets/perf2/perf2_retimer.hpp"

#include <QMetaObject>

#include <chrono>

namespace sf::widgets::perf2 {

Retimer::Retimer(Timer timer, QObject* parent) : QObject(parent), timer_(std::move(timer)) {
  qRegisterMetaType<sf::widgets::perf2::Outcome>("sf::widgets::perf2::Outcome");
  thread_ = std::thread([this] { run(); });
}

Retimer::~Retimer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    pending_.reset();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

quint64 Retimer::request(const std::string& source) {
  const quint64 seq = ++latest_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::make_pair(seq, source);
  }
  cv_.notify_one();
  return seq;
}

void Retimer::run() {
  for (;;) {
    std::pair<quint64, std::string> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      job = std::move(*pending_);
      pending_.reset();
    }
    const auto t0 = std::chrono::steady_clock::now();
    Outcome out;
    if (timer_) {
      out = timer_(job.second);
    } else {
      out.error = "no timer";
    }
    out.source = job.second;
    out.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const quint64 seq = job.first;
    // Delivered on the GUI thread; dropped there when a newer request exists (and with this object).
    QMetaObject::invokeMethod(
        this,
        [this, seq, o = std::move(out)]() {
          if (seq < latest_) return;
          delivered_ = seq;
          Q_EMIT retimed(seq, o);
        },
        Qt::QueuedConnection);
  }
}

}  // namespace sf::widgets::perf2
