// AuditDocks: hosts the adoption audit pane and the memory inspector as docks of the main window ("Adoption
// Audit", "Memory"), loads them when a campaign workspace is opened and feeds them every campaign event the
// EngineBridge delivers (live run, followed log, demo replay: MainWindow connects its campaignEvents signal
// to applyEvents). The docks stay hidden until a workspace or events with sage data arrive.
#pragma once

#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/learn/events.hpp"

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
  void openWorkspace(const QString& dir);
  // A demo replay of `dir`: both panes are built from the replayed events only (nothing read from the final
  // audit.json / memory.json), starting over when the replay does (scrubbed back). During a replay the docks
  // are not popped up by arriving data (the presentation layout stays as it is; View shows them), and
  // openWorkspace(dir) of the replayed workspace leaves them alone.
  void startReplay(const QString& dir);
  // Events in log order, to both panes; shows the docks when sage data arrives (not in a replay).
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
  QString replayDir_;
};

}  // namespace sf::widgets
