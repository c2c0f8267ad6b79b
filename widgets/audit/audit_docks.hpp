// AuditDocks: hosts the adoption audit pane and the memory inspector as docks of the main window ("Adoption
// Audit", "Memory"). They read no file: an opened (followed, continued or started) workspace reaches them as the
// one AuditMemorySnapshot the campaign thread builds from its single read of the log (EngineBridge's
// auditMemorySnapshot signal, connected by MainWindow to applySnapshot), and every campaign event the bridge
// delivers after it (live run, followed log, demo replay: MainWindow connects campaignEvents to applyEvents).
// The docks stay hidden until a workspace or events with sage data arrive.
#pragma once

#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/learn/events.hpp"
#include "widgets/audit/audit_snapshot.hpp"

class QDockWidget;
class QMainWindow;

namespace sf::widgets {

class AuditPane;
class MemoryInspector;

class AuditDocks : public QObject {
  Q_OBJECT
 public:
  explicit AuditDocks(QMainWindow* window);

  AuditPane* auditPane() const { return audit_; }
  MemoryInspector* memoryInspector() const { return memory_; }
  QDockWidget* auditDock() const { return auditDock_; }
  QDockWidget* memoryDock() const { return memoryDock_; }

 public slots:
  // An opened workspace (a new bridge session): both panes show the snapshot, and the session's first
  // `s->events` events, which it folds already, are left out of the event batches that follow. Shows the docks
  // when the workspace has sage data.
  void applySnapshot(const sf::widgets::AuditMemorySnapshotPtr& s);
  // A demo replay of `dir`: both panes are built from the replayed events only (nothing read from the final
  // audit.json / memory.json; a replay session has no snapshot), starting over when the replay does (scrubbed
  // back). During a replay the docks are not popped up by arriving data (the presentation layout stays as it
  // is; View shows them).
  void startReplay(const QString& dir);
  // Events in log order, to both panes (those the last snapshot folds left out); shows the docks when sage data
  // arrives (not in a replay).
  void applyEvents(const std::vector<learn::Event>& events);
  // Envelopes (a hand-written list): decoded once by learn::decode_events (malformed ones left out), then applied.
  void applyEvents(const std::vector<nlohmann::json>& envelopes);

 private:
  QMainWindow* w_;
  AuditPane* audit_;
  MemoryInspector* memory_;
  QDockWidget* auditDock_;
  QDockWidget* memoryDock_;
  bool replaying_ = false;
  qint64 folded_ = 0;  // events of the session still to come that the last snapshot folded (left out)
};

}  // namespace sf::widgets
