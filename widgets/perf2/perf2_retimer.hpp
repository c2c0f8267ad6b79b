// Re-times STeP-25 source texts on a background thread (issue 33 item 5): the newest request supersedes
// older ones (a pending text is replaced; a result for an older request than the newest is never delivered),
// so dragging a slider never queues work and never blocks the GUI thread.
#pragma once

#include <QObject>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "widgets/perf2/perf2_types.hpp"

namespace sf::widgets::perf2 {

class Retimer : public QObject {
  Q_OBJECT
 public:
  explicit Retimer(Timer timer, QObject* parent = nullptr);
  ~Retimer() override;

  // Queues `source` for timing and returns its request number (increasing).
  quint64 request(const std::string& source);
  quint64 latestRequest() const { return latest_; }
  bool busy() const { return delivered_ < latest_; }
  // Times on the calling thread (for the first, synchronous timing of a baseline and for tests).
  Outcome timeNow(const std::string& source) const { return timer_(source); }

 Q_SIGNALS:
  // The timing of request `seq` (only the newest request's result is delivered).
  void retimed(quint64 seq, const sf::widgets::perf2::Outcome& outcome);

 private:
  void run();

  Timer timer_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<std::pair<quint64, std::string>> pending_;
  bool stop_ = false;
  quint64 latest_ = 0;     // GUI thread only
  quint64 delivered_ = 0;  // GUI thread only
};

}  // namespace sf::widgets::perf2
