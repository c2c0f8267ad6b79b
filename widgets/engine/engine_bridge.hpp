// EngineBridge: the GUI's only door to the engine. The engine runs in a worker thread owned by the bridge;
// requests go down as queued signals, results come back as immutable value snapshots (engine_types.hpp),
// progress is throttled to ~10 updates/s, a newer request of a kind supersedes an older one (its result is
// never delivered), and every request can be cancelled. No method ever waits on the engine.
#pragma once

#include <memory>

#include <QObject>
#include <QThread>

#include "widgets/audit/audit_snapshot.hpp"
#include "widgets/campaign/campaign_types.hpp"
#include "widgets/engine/engine_types.hpp"
#include "widgets/campaign/replay_types.hpp"

namespace sf::widgets {

struct JobControl;
class EngineWorker;
class CampaignWorker;

class EngineBridge : public QObject {
  Q_OBJECT
 public:
  explicit EngineBridge(QObject* parent = nullptr);
  ~EngineBridge() override;

  // Each returns the request's sequence number (increasing, shared by all kinds). `path` is the document's
  // file (for diagnostics); `revision` is echoed back so the caller can drop results for stale text.
  quint64 requestCheck(const QString& text, const QString& path = {}, quint64 revision = 0);
  quint64 requestSimulate(const QString& text, const QString& path = {});
  quint64 requestVerify(const QString& text, const QString& path = {});
  // The chip profile (bundled name or path) the cost model uses after a PASS ("" or "default": the default).
  void setChipProfile(const QString& nameOrPath) { chip_ = nameOrPath; }
  QString chipProfile() const { return chip_; }
  quint64 requestRewrite(RewriteKind kind, const QString& text, const QString& path = {}, quint64 revision = 0);

  // Loads the bundled catalogue (once) and delivers its tasks with taskListReady.
  void requestTaskList();

  // Cancels the pending or running request of `kind`: its result is dropped and cancelled() is emitted at once.
  void cancel(JobKind kind);
  void cancelAll();
  // True between a request and its result (or its cancellation / supersession by a later result).
  bool isBusy(JobKind kind) const;

  // Campaigns (issue 8 items 6-8, issue 9 items 3-4) run on a second thread (CampaignWorker). One session at a
  // time: each of these starts a new session (the returned number) and ends the previous one (a running
  // engine is cancelled); updates of older sessions are never delivered. Updates come at most 10 times a second.
  quint64 startCampaign(const QByteArray& configJson, const QString& dir);  // creates the workspace
  quint64 continueCampaign(const QString& dir);  // continues an unfinished workspace in this process
  quint64 openWorkspace(const QString& dir);     // finished or live (followed as events.jsonl grows)
  quint64 replayWorkspace(const QString& dir, double eventsPerSecond);  // demo mode; <= 0: fastest
  void setReplaySpeed(double eventsPerSecond);
  void seekReplay(int position);          // CampaignWorker::seekReplay (the current session)
  void setPauseAtMoments(bool on);        // a replay pauses after each key moment of its story
  void pauseCampaign();
  void resumeCampaign();
  void cancelCampaign();
  quint64 requestComparison(const QStringList& dirs);  // delivers comparisonReady
  quint64 campaignSession() const { return session_; }
  CampaignRunState campaignState() const { return campaignState_; }

 signals:
  void checkFinished(const sf::widgets::CheckSnapshot& s);
  void simulateFinished(const sf::widgets::SimulateSnapshot& s);
  void verifyFinished(const sf::widgets::VerifySnapshot& s);
  void rewriteFinished(const sf::widgets::RewriteSnapshot& s);
  void taskListReady(const sf::widgets::TaskListSnapshot& s);
  void progress(sf::widgets::JobKind kind, quint64 seq, int done, int total, const QString& what);
  void cancelled(sf::widgets::JobKind kind, quint64 seq);
  void busyChanged(sf::widgets::JobKind kind, bool busy);
  void campaignUpdated(const sf::widgets::CampaignUpdate& u);
  // Every event fed to the models, in log order (live, followed or replayed): for panes that follow events.
  void campaignEvents(const sf::widgets::EventBatch& events);
  // A workspace session (opened, continued or started; not a replay), once before its first update and event
  // batch: the audit pane's and the memory inspector's snapshot of the events logged so far (and of audit.json
  // and memory.json), built on the campaign thread. Its first `events` events are also in the event batches.
  void auditMemorySnapshot(const sf::widgets::AuditMemorySnapshotPtr& snapshot);
  void campaignStateChanged(sf::widgets::CampaignRunState state, const QString& message);
  // A replay's story (episode starts, key moments), once per replay session before its first update.
  void replayStory(const sf::widgets::ReplayStory& story);
  void comparisonReady(const QVector<sf::widgets::CampaignSummary>& summaries);

  // Internal: queued to the worker.
  void checkQueued(quint64 seq, quint64 revision, const QString& text, const QString& path);
  void simulateQueued(quint64 seq, const QString& text, const QString& path);
  void verifyQueued(quint64 seq, const QString& text, const QString& path, const QString& chip);
  void taskListQueued();
  void rewriteQueued(quint64 seq, quint64 revision, sf::widgets::RewriteKind kind, const QString& text,
                     const QString& path);

 private:
  quint64 begin(JobKind kind);
  bool deliverable(JobKind kind, quint64 seq);  // still the live request; clears busy when it is
  void setBusy(JobKind kind, bool busy);

  std::shared_ptr<JobControl> control_;
  QThread thread_;
  EngineWorker* worker_ = nullptr;  // lives in thread_, deleted when it finishes
  quint64 nextSeq_ = 0;
  QString chip_;
  bool busy_[kJobKinds] = {};
  QThread campaignThread_;
  CampaignWorker* campaign_ = nullptr;  // lives in campaignThread_
  quint64 session_ = 0, compareSeq_ = 0;
  CampaignRunState campaignState_ = CampaignRunState::Idle;
};

}  // namespace sf::widgets
