// Value snapshots of a campaign, as the GUI sees it (issue 8 items 5-8, issue 9 items 3-4). They are built by
// CampaignFeed from events (live, followed, opened or replayed: the same code path) on the campaign thread and
// delivered through EngineBridge; every snapshot is an immutable value.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/speedup.hpp"
#include "core/learn/events.hpp"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace sf::learn {
struct RunRecord;
}

namespace sf::store {
class ContentStore;
}

namespace sf::widgets {

// A batch of typed events in log order, shared read-only: decoded once where they were read (the engine's sink
// hands them over typed; a followed, opened or replayed events.jsonl is decoded by the campaign thread).
using EventBatch = std::shared_ptr<const std::vector<learn::Event>>;

// The texts behind one trace row (shown in the detail view); shared, never copied.
struct TraceDetail {
  // The call's prompt messages as logged: [{role, content}] or, from a workspace's events.jsonl, parts naming
  // blobs of `blobs` (the workspace's content store). tracePromptText (campaign_feed.hpp) reassembles it when
  // the row is shown, so an opened log does not hold every full prompt in memory.
  nlohmann::json prompt;
  std::shared_ptr<const store::ContentStore> blobs;
  QString response;
  QString impl;         // the parsed (or rewritten) program
  QString guardianDiff; // the guardian's line diff
  QString diagnostics;  // one per line: "CODE line:col message"
  QString reasoning;    // reasoning the provider returned apart from the answer, and <think> blocks ("" none)
  QString finishReason; // "stop", "length" (cut at max_tokens), ... ("" unknown)
  QStringList rulesUsed;  // the resident rules the answer listed in rules_used: (empty: none or no list)
};

// One agent call (an llm_call event) with the verdict of its sample once known.
struct TraceRow {
  qint64 seq = 0;       // event sequence number
  QString role, task;
  int iteration = 0;    // Algorithm 1 iteration, or the sage episode
  int temperatureIndex = 0;
  int sample = 0;       // sample index, or the sage round
  QString verdict;      // "" (pending), "pass", or "fail: STAGE CODE"
  QString verdictWord;  // the verdict in a word or two (learn::verdict_word: "pass", "no program", …)
  qint64 cycles = -1;   // the PASS verdict's cost-model cycles (-1: none, e.g. an older log)
  double speedup = -1;  // the PASS verdict's speedup over the baseline (-1: none)
  qint64 tokens = 0;    // input + output tokens of this call
  double latency = 0;   // seconds
  double cost = 0;
  bool fromCache = false;
  QString error;        // the LLM error kind ("" none)
  std::shared_ptr<const TraceDetail> detail;
};

// The verdict of a row appended earlier (a verdict follows the calls of its sample).
struct TraceVerdictUpdate {
  int row = 0;
  QString verdict;
  qint64 cycles = -1;
  double speedup = -1;
  QString verdictWord;
};

// One point of a learning curve: after an iteration (adaptive/single/agent) or an episode (sage).
struct CurvePoint {
  int x = 0;               // iteration or episode
  qint64 tokens = 0;       // cumulative tokens at that point
  double cost = 0;         // cumulative cost (USD)
  double pass1 = 0;        // cumulative pass@1 (sage: ER = solved episodes / episodes)
  double passN = 0;        // cumulative pass@n (sage: fraction of tasks solved so far)
  int solved = 0, tasks = 0;
  std::map<std::string, std::pair<double, double>> byTag;  // tag -> (pass@1, pass@n)
  // The performance metrics (docs/cost-model.md §6) when the summary has them (absent in older logs).
  std::optional<double> fast1, fast15, medianSpeedup;
  // A STeP-25 optimisation campaign's point (learn::CurveFigures::opt2): x = proposals so far, Fast_2, the
  // geometric-mean speedup and the rounds so far per verdict.
  std::optional<double> fast2, geomeanSpeedup;
  std::map<std::string, int> verdicts;
  bool operator==(const CurvePoint&) const = default;
};

struct TaskStatusRow {
  QString task;
  bool solved = false;
  qint64 samples = 0, successes = 0;
  std::optional<double> bestSpeedup;  // the best speedup of a PASS verdict of the task (absent in older logs)
  double rate() const { return samples > 0 ? double(successes) / double(samples) : 0.0; }
  bool operator==(const TaskStatusRow&) const = default;
};

// Halted: the engine paused the campaign by itself (an endpoint failure or a budget; the message says why and
// what to fix); Resume continues the workspace in a new run.
enum class CampaignRunState { Idle, Running, Paused, Following, Replaying, Finished, Cancelled, Failed, Halted };
QString campaignRunStateName(CampaignRunState s);

// What one batch of events changed, plus the running totals (so a receiver needs no other state).
struct CampaignUpdate {
  quint64 session = 0;     // the bridge session (a newer open/start/replay supersedes older sessions)
  QString dir;             // the workspace
  QString name, mode;      // config name and mode
  QString model;           // config backend.model ("" when none)
  bool sage = false;       // the curves are per episode (ER / solved)
  bool opt2 = false;       // a STeP-25 optimisation campaign: the curves are per proposal (speedups, Fast_p)
  bool reset = false;      // the first update of a session: receivers clear their models
  QVector<TraceRow> traceRows;                 // new rows, in log order
  QVector<TraceVerdictUpdate> verdictUpdates;  // verdicts for rows of earlier updates
  QVector<CurvePoint> newPoints;               // new curve points, in order
  QVector<TaskStatusRow> taskStatus;           // every task seen so far (replaces the previous list)
  qint64 events = 0;       // events consumed so far
  qint64 tokens = 0;       // cumulative
  double cost = 0;
  int iteration = -1;      // current iteration / episode
  qint64 done = 0, total = 0;  // samples of the current iteration (total 0 = unknown)
  double etaSeconds = -1;  // of the current iteration; -1 unknown
  int solved = 0, taskCount = 0;
  bool finished = false;
  QString finishReason;
  double fastTolerance = kDefaultFastTolerance;  // the campaign's tie tolerance (config `fast_tolerance`)
};

// A whole campaign folded (for run comparison and overlays).
struct CampaignSummary {
  QString dir, name, mode;
  bool sage = false;
  bool opt2 = false;  // a STeP-25 optimisation campaign (config "dialect": "step-v2")
  QString error;  // non-empty: the workspace could not be read
  QVector<CurvePoint> curve;
  QVector<TaskStatusRow> tasks;
  qint64 tokens = 0;
  double cost = 0;
  int solved = 0, taskCount = 0;
  bool finished = false;
  QString finishReason;
  double fastTolerance = kDefaultFastTolerance;  // the campaign's tie tolerance (config `fast_tolerance`)
  // The run comparison's drill-down data (learn::load_run; compare only): null when not loaded or when the
  // log could not be folded (runError says why).
  std::shared_ptr<const learn::RunRecord> run;
  QString runError;
};

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::EventBatch)
Q_DECLARE_METATYPE(sf::widgets::CampaignUpdate)
Q_DECLARE_METATYPE(sf::widgets::CampaignSummary)
Q_DECLARE_METATYPE(sf::widgets::CampaignRunState)
Q_DECLARE_METATYPE(QVector<sf::widgets::CampaignSummary>)
