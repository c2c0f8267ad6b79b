// Value snapshots exchanged between the GUI and the engine thread (EngineBridge). Every snapshot is an
// immutable value: the GUI may keep it, copy it and read it from any thread. Heavy core results are shared
// through std::shared_ptr<const ...> so copying a snapshot stays cheap.
#pragma once

#include <memory>
#include <optional>

#include "core/common/diagnostic.hpp"
#include "core/cost/cost_model.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/verifier.hpp"
#include "core/inspect/checked_program.hpp"
#include "core/inspect/dataflow_graph.hpp"
#include "core/inspect/stream_data.hpp"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace sf::widgets {

enum class JobKind { Check = 0, Simulate = 1, Verify = 2, Rewrite = 3 };
inline constexpr int kJobKinds = 4;
QString jobKindName(JobKind k);

enum class RewriteKind { Format, InsertCopies };

// One diagnostic as shown in the issues pane (file-relative 1-based line:column; 0 = unknown).
struct IssueRow {
  Severity severity = Severity::Error;
  QString code;
  QString message;
  int line = 0;
  int column = 0;
};
QVector<IssueRow> toIssueRows(const Diagnostics& ds);

struct CheckSnapshot {
  quint64 seq = 0;
  quint64 revision = 0;        // the editor revision the request was made for
  bool documentLoaded = false; // the document parsed and names a known task
  bool ok = false;             // every static check passed
  QString taskId;
  QVector<IssueRow> issues;
  std::vector<inspect::StreamAnnotation> streams;  // the type of every stream the program defines
  QStringList inputs, parameters, outputs, fns, sizes, programStreams;  // names for completion and highlighting
  std::shared_ptr<const inspect::CheckedProgram> program;                // null when the document did not load
  std::shared_ptr<const inspect::DataflowGraph> graph;                   // set when the impl parsed
};

struct SimulateSnapshot {
  quint64 seq = 0;
  bool ok = false;
  QString taskId;
  QString binding;  // "M=5, N=7"
  quint64 seed = 0;
  double seconds = 0;
  QVector<IssueRow> issues;
  std::shared_ptr<const inspect::CheckedProgram> program;
  std::shared_ptr<const sim::RunResult> run;  // keep_streams: every named stream
  std::shared_ptr<const verify::Verifier::Prepared> prepared;  // inputs and reference of the input set
  std::shared_ptr<const inspect::InspectorSnapshot> inspector;          // for the stream inspector (built by the engine)
};

struct TaskEntry;  // task_browser_model.hpp
// The bundled tasks, for the task browser.
struct TaskListSnapshot {
  std::shared_ptr<const std::vector<TaskEntry>> tasks;
  QVector<IssueRow> issues;  // tasks that failed to load
};

struct VerifySetRow {
  QString binding;
  quint64 seed = 0;
  bool alt = false;
  bool pass = false;
  double maxAbsError = 0;
  // Set on the one row a verification that stopped before any input set ran shows: the failing stage and code.
  QString failedStage, failedCode;
};

// The cost model's report for a verified program (docs/cost-model.md), computed by the Verify job after a
// PASS under the chip profile the request named. No report (ok false) when the program did not verify or the
// model could not time it: `why` and `issues` say why.
struct PerfSnapshot {
  bool ok = false;
  QString taskId;
  QString chip;  // profile name or path as requested
  QString why;   // one line, when !ok
  QVector<IssueRow> issues;
  std::shared_ptr<const cost::CostReport> report;
  std::optional<qint64> baselineCycles;
  std::optional<double> speedup;  // baseline / cycles; none when infeasible or no baseline
  QString baselineWhy;            // why there is no baseline
};

struct VerifySnapshot {
  quint64 seq = 0;
  bool pass = false;
  QString taskId;
  QString stage;  // failing stage name ("" on pass)
  QString code;   // first error code ("" on pass)
  QVector<IssueRow> issues;
  QVector<VerifySetRow> sets;
  double maxAbsError = 0, maxRelError = 0, seconds = 0;
  int programLength = 0;
  QString canonicalKey;
  std::shared_ptr<const PerfSnapshot> perf;  // always set by the worker (ok only after a PASS)
};

struct RewriteSnapshot {
  quint64 seq = 0;
  quint64 revision = 0;
  RewriteKind kind = RewriteKind::Format;
  bool ok = false;
  QString text;  // the whole rewritten document (ok only)
  QVector<IssueRow> issues;
};

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::JobKind)
Q_DECLARE_METATYPE(sf::widgets::RewriteKind)
Q_DECLARE_METATYPE(sf::widgets::CheckSnapshot)
Q_DECLARE_METATYPE(sf::widgets::SimulateSnapshot)
Q_DECLARE_METATYPE(sf::widgets::VerifySnapshot)
Q_DECLARE_METATYPE(sf::widgets::RewriteSnapshot)
Q_DECLARE_METATYPE(sf::widgets::TaskListSnapshot)
