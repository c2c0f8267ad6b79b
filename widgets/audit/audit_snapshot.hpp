// AuditMemorySnapshot: what the adoption audit pane and the memory inspector show of a campaign workspace when
// it is opened (issue 14 item 2: the log is decoded once, off the GUI thread). The campaign worker builds it on
// its thread from the events its log reader decoded (the one read of events.jsonl: the same events then feed
// the trace, the curves and the task statuses) and from the files beside the log (audit.json, memory.json and
// the campaign's memory.import), folded by the core projections (learn::AuditView, learn::MemoryView), and
// EngineBridge delivers it once per session, before the session's first event batch. AuditDocks hands it to
// both panes, then gives them only the session's events after the first `events` (which it folds already).
// No pane reads a workspace file to fill itself.
#pragma once

#include <QMetaType>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "core/learn/events.hpp"
#include "core/learn/projections.hpp"
#include "core/memory/memory_store.hpp"
#include "core/store/audit.hpp"

namespace sf::widgets {

struct AuditMemorySnapshot {
  QString dir;              // the workspace
  qint64 events = 0;        // the session's first events it folds (AuditDocks skips them in the event batches)
  qint64 malformed = 0;     // log lines that did not decode (skipped)

  // The audit pane: the records, experiences and label events (AuditView), the labels (audit.json, else the
  // label events) and the speedups of the PASS verdicts.
  QString auditError;       // non-empty: the log or audit.json could not be read; the pane keeps what it showed
  store::AuditWorkspace audit;
  learn::AuditView verdicts;

  // The memory inspector.
  QString memoryError;      // non-empty: memory.json is not a memory file, or the log could not be read
  bool memoryFileExists = false;  // a sage memory.json is there (the docks then show even without rows); a classic
                                  // campaign's experience set (kind "experience-set") does not count
  std::optional<memory::MemoryStore> memory;  // memory.json: items and counts (their code and resident forms)
  std::optional<memory::MemoryStore> initial; // the memory the campaign started from (its memory.import file)
  learn::MemoryView memoryView{std::nullopt}; // the events folded from `initial`
  qint64 lastSeq = -1;                        // the highest seq folded
};
using AuditMemorySnapshotPtr = std::shared_ptr<const AuditMemorySnapshot>;

// Builds the snapshot of `dir` from its decoded events (`malformed`: lines that did not decode) and the files
// beside the log. `logError` non-empty: the log could not be read; both panes then show that error (the
// memory inspector a bad memory.json's first). Reads files: call it on the campaign thread, never the GUI's.
AuditMemorySnapshotPtr buildAuditMemorySnapshot(const QString& dir, const std::vector<learn::Event>& events,
                                                qint64 malformed = 0, const QString& logError = {});

// A memory file's diagnostic as the inspector words it: "MESSAGE [CODE]".
QString memoryDiagnosticText(const Diagnostic& d);

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::AuditMemorySnapshotPtr)
