// Helpers shared by the widget tests.
#pragma once

#include <QEvent>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/learn/events.hpp"
#include "widgets/audit/audit_snapshot.hpp"
#include "widgets/main_window.hpp"

namespace sf::widgets::test {

// The demo document (bundled gemm_easy/batched_matvec + a correct impl) with `from` replaced by `to`.
inline QString demoWith(const QString& from = {}, const QString& to = {}) {
  QString t = MainWindow::demoDocument();
  if (!from.isEmpty()) t.replace(from, to);
  return t;
}

// 1-based line of the first line containing `needle`, and 1-based byte column of the n-th occurrence on it.
inline int lineOf(const QString& text, const QString& needle) {
  const QStringList lines = text.split(QLatin1Char('\n'));
  for (int i = 0; i < lines.size(); ++i)
    if (lines[i].contains(needle)) return i + 1;
  return 0;
}

inline int columnOf(const QString& text, int line, const QString& needle, int nth = 1) {
  const QByteArray l = text.split(QLatin1Char('\n')).value(line - 1).toUtf8();
  int from = -1;
  for (int k = 0; k < nth; ++k) from = static_cast<int>(l.indexOf(needle.toUtf8(), from + 1));
  return from + 1;
}

// Counts mouse events anywhere in the application (install on qApp): the keyboard-only tests expect zero.
struct MouseCounter : QObject {
  int count = 0;
  bool eventFilter(QObject*, QEvent* e) override {
    switch (e->type()) {
      case QEvent::MouseButtonPress:
      case QEvent::MouseButtonRelease:
      case QEvent::MouseButtonDblClick:
      case QEvent::MouseMove:
        ++count;
        break;
      default:
        break;
    }
    return false;
  }
};

// The snapshot of workspace `dir` the campaign thread sends when it is opened (its log read and decoded once,
// then buildAuditMemorySnapshot), for tests that fill the audit pane or the memory inspector without a bridge.
inline AuditMemorySnapshotPtr snapshotOf(const QString& dir) {
  std::vector<learn::Event> events;
  std::int64_t malformed = 0;
  std::string err;
  if (!learn::read_events(std::filesystem::path(dir.toStdString()) / "events.jsonl", events, malformed, err))
    return buildAuditMemorySnapshot(dir, {}, 0, QString::fromStdString(err));
  return buildAuditMemorySnapshot(dir, events, malformed);
}

}  // namespace sf::widgets::test
