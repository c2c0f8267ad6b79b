// CampaignFeed: the one place where campaign events become model updates (ARCHITECTURE: the GUI's models are
// built by replaying events, so a live, a resumed, a followed and a replayed run look the same). It folds
// typed events (core/learn/events.hpp, decoded once where they were read) in log order and returns, per
// batch, the new trace rows, the verdicts of earlier rows, the new curve points, the task statuses and the
// running totals. Qt value types only; no QObject, no threads.
// Tolerant: an event of an unknown type is ignored, a malformed one (a call or summary whose figures have the
// wrong type, an envelope that does not decode) is skipped and counted.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/learn/projections.hpp"
#include "widgets/campaign/campaign_types.hpp"

namespace sf::widgets {

class CampaignFeed {
 public:
  // The workspace the events come from: trace details resolve their prompt parts in its blobs/.
  void setWorkspace(const std::filesystem::path& dir);

  // Consumes `events` [begin, end) (typed, in log order). The returned update carries the running totals.
  CampaignUpdate consume(const std::vector<learn::Event>& events, std::size_t begin = 0,
                         std::size_t end = std::size_t(-1));
  // Envelopes (a hand-written list): decoded once by learn::decode_events, those that do not decode counted
  // in malformed(), then consumed.
  CampaignUpdate consume(const std::vector<nlohmann::json>& envelopes);
  CampaignUpdate consume(std::initializer_list<nlohmann::json> envelopes) {
    return consume(std::vector<nlohmann::json>(envelopes));
  }
  // Events a reader could not decode (counted in malformed()).
  void countMalformed(qint64 n) { malformed_ += n; }

  CampaignSummary summary() const;
  const QVector<CurvePoint>& curve() const { return curve_; }
  qint64 rows() const { return rows_; }
  qint64 malformed() const { return malformed_; }
  bool finished() const { return finished_; }
  bool started() const { return started_; }

  // Per-message cap of the prompt texts kept for the detail view (characters).
  static constexpr int kMaxMessageChars = 256 * 1024;

 private:
  using SampleKey = std::tuple<int, std::string, int, int>;  // iteration, task, temperature index, sample
  bool apply(const learn::Event& e, CampaignUpdate& u, qint64 firstRow);  // false: malformed, skipped
  bool onLlmCall(qint64 seq, const learn::LlmCall& call, CampaignUpdate& u);
  void onVerdict(const learn::Verdict& v, CampaignUpdate& u, qint64 firstRow);
  void onIterationSummary(const learn::IterationSummary& s);
  void onEpisodeFinished(const learn::EpisodeFinished& e);
  bool applyCurve(const learn::Event& e, CampaignUpdate& u);  // false: a summary whose figures are malformed
  TaskStatusRow& task(const std::string& id);
  void fillTotals(CampaignUpdate& u) const;

  std::shared_ptr<const store::ContentStore> blobs_;
  bool started_ = false, sage_ = false, opt2_ = false, finished_ = false;
  QString name_, mode_, model_, finishReason_;
  double fastTolerance_ = kDefaultFastTolerance;
  std::vector<TaskStatusRow> tasks_;
  std::map<std::string, std::size_t> taskIndex_;
  std::map<SampleKey, std::vector<qint64>> pending_;  // rows of calls whose verdict has not arrived
  QVector<CurvePoint> curve_;
  qint64 rows_ = 0, events_ = 0, malformed_ = 0;
  qint64 tokens_ = 0;
  double cost_ = 0;
  int iteration_ = -1;
  qint64 done_ = 0, total_ = 0;
  double iterT0_ = 0, lastT_ = 0;
  learn::CurveView curve_view_;  // the report's rule for the curve
};

// The detail texts of one agent call (learn::call_view of an llm_call's trace: prompt messages, response,
// program, guardian diff, diagnostics and LLM error), each message capped at kMaxMessageChars. `blobs` is the
// content store its prompt parts name (the workspace's blobs/; null for a live prompt logged whole).
std::shared_ptr<const TraceDetail> traceDetailOf(const learn::CallView& call,
                                                 std::shared_ptr<const store::ContentStore> blobs);

// The prompt of a trace row as the detail view shows it: "[system]\n...\n\n[user]\n..." (each message capped
// at CampaignFeed::kMaxMessageChars), reassembled by store::load_prompt; when a part cannot be read, the reason
// (naming the blob file) instead.
QString tracePromptText(const TraceDetail& d);

// Reads a whole workspace (campaign.json + events.jsonl) and folds it. Errors go to CampaignSummary::error.
CampaignSummary summarizeWorkspace(const QString& dir);

}  // namespace sf::widgets
