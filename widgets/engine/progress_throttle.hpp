// At most one progress update per interval (~10/s by default); the last update of a job is always let through.
#pragma once

#include <QElapsedTimer>

namespace sf::widgets {

class ProgressThrottle {
 public:
  explicit ProgressThrottle(qint64 minIntervalMs = 100) : interval_(minIntervalMs) {}
  // True when an update may be sent now (always for the first one and when `final` is set).
  bool admit(bool final = false) {
    if (final || !timer_.isValid() || timer_.elapsed() >= interval_) {
      timer_.start();
      return true;
    }
    return false;
  }

 private:
  qint64 interval_;
  QElapsedTimer timer_;
};

}  // namespace sf::widgets
