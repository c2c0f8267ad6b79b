#include "widgets/perf2/perf2_types.hpp"

#include <QCoreApplication>

#include "core/inspect/perf2_explain.hpp"

namespace sf::widgets::perf2 {

using step2::perf::Activity;
using step2::perf::Limit;

QString groupNum(std::int64_t v) { return QString::fromStdString(inspect::perf2::group_digits(v)); }

// Colour-blind-safe (Okabe-Ito) hues, one per limit.
QColor limitColor(Limit l) {
  switch (l) {
    case Limit::PmuRead: return QColor(0x56, 0xb4, 0xe9);      // sky blue
    case Limit::Compute: return QColor(0xd5, 0x5e, 0x00);      // vermillion
    case Limit::WriteBack: return QColor(0xcc, 0x79, 0xa7);    // purple
    case Limit::HbmRequests: return QColor(0x00, 0x72, 0xb2);  // blue
    case Limit::Waiting: return QColor(0xe6, 0x9f, 0x00);      // orange
    case Limit::None: return QColor(0x99, 0x99, 0x99);
  }
  return QColor(0x99, 0x99, 0x99);
}

QString limitLabel(Limit l) { return QCoreApplication::translate("perf2", inspect::perf2::limit_name(l)); }

QColor activityColor(Activity a) {
  switch (a) {
    case Activity::Busy: return QColor(0x00, 0x9e, 0x73);        // green
    case Activity::StallIn: return QColor(0xe6, 0x9f, 0x00);     // orange
    case Activity::BlockedOut: return QColor(0xd5, 0x5e, 0x00);  // vermillion
  }
  return Qt::gray;
}

QString activityLabel(Activity a) {
  switch (a) {
    case Activity::Busy: return QCoreApplication::translate("perf2", "busy");
    case Activity::StallIn: return QCoreApplication::translate("perf2", "stalled on input");
    case Activity::BlockedOut: return QCoreApplication::translate("perf2", "blocked on output");
  }
  return {};
}

}  // namespace sf::widgets::perf2
