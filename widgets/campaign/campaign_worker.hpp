// The campaign side of EngineBridge: a QObject in its own thread (so a long verification in the editor's
// worker never stalls a campaign's feed, and the reverse). One session at a time: a live run (CampaignEngine;
// its typed events come through an EventSink), a followed workspace (events.jsonl read as it grows, e.g. written
// by `stepforge-cli campaign run`), or a demo replay of a recorded workspace at an adjustable speed. Following
// and replaying read the log with the same store::EventLogReader and decode each line once, here. Every 100 ms
// a tick turns the new events into one CampaignUpdate (CampaignFeed): at most 10 updates per second. A session
// on a workspace (opened, continued or started; not a replay) first sends the audit pane's and the memory
// inspector's AuditMemorySnapshot, folded here from the events already logged (the same decoded events the
// session then feeds), with the workspace's audit.json and memory.json read here too.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "widgets/audit/audit_snapshot.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/campaign/replay_types.hpp"

#include <QObject>
#include <QStringList>

class QTimer;

namespace sf::learn {
class CampaignEngine;
struct CampaignSetup;
}  // namespace sf::learn
namespace sf::store {
class EventLogReader;
class Workspace;
}

namespace sf::widgets {

class CampaignWorker : public QObject {
  Q_OBJECT
 public:
  explicit CampaignWorker(QObject* parent = nullptr);
  ~CampaignWorker() override;

  static constexpr int kTickMs = 100;
  static constexpr std::size_t kMaxEventsPerTick = 20000;
  static constexpr std::uint64_t kMaxGrowthBytes = std::uint64_t(256) << 20;  // read from a followed log per tick

 public slots:
  // Creates the workspace `dir` with `configJson` and runs the campaign (the builtin synthesizer provider is
  // registered as in the CLI).
  void start(quint64 session, const QByteArray& configJson, const QString& dir);
  // Continues an unfinished workspace in this process (resume after a cancel or a crash).
  void continueWorkspace(quint64 session, const QString& dir);
  // Opens a workspace: replays what is logged, then follows the log while no campaign_finished was read.
  void open(quint64 session, const QString& dir);
  // Replays a recorded workspace at `eventsPerSecond` (<= 0: as fast as the ticks allow).
  void replay(quint64 session, const QString& dir, double eventsPerSecond);
  void setReplaySpeed(double eventsPerSecond);
  // Moves a replay (running, paused or finished) to `position` events applied (at least 1: campaign_started):
  // forward by feeding the events in between, backward by folding the first `position` events afresh (the
  // update says reset and the event batch starts at campaign_started). A finished replay becomes paused.
  void seekReplay(quint64 session, int position);
  // With `on`, a running replay pauses right after each key moment of its story.
  void setPauseAtMoments(bool on);
  void pause();
  void resume();   // a paused run; a halted one continues its workspace in a new run
  void cancel();  // a live run: cancels the engine; following / replaying: stops
  void compare(quint64 seq, const QStringList& dirs);
  void shutdown();  // cancels and joins a running engine (called before the thread quits)

 signals:
  void update(const sf::widgets::CampaignUpdate& u);
  void eventsFed(quint64 session, const sf::widgets::EventBatch& events);
  void stateChanged(quint64 session, sf::widgets::CampaignRunState state, const QString& message);
  void replayStory(quint64 session, const sf::widgets::ReplayStory& story);
  // Once per workspace session, before its first update: the audit and memory of the events logged so far.
  void auditMemorySnapshot(quint64 session, const sf::widgets::AuditMemorySnapshotPtr& snapshot);
  void comparisonReady(quint64 seq, const QVector<sf::widgets::CampaignSummary>& summaries);

 private:
  class Sink;
  enum class Source { None, Engine, Follow, Replay };
  void stopSession();
  void begin(quint64 session, const QString& dir, Source src);
  // False with `error` when the run could not start; `halted` then says the endpoint failed its preflight
  // request (a state to resume from, not a failure of the workspace).
  // `logged`: the workspace's events decoded when it was opened (fed first).
  bool launch(std::unique_ptr<store::Workspace> ws, std::vector<learn::Event> logged, QString& error, bool& halted);
  void tick();
  void feed(std::vector<learn::Event> events);
  // Opens `dir` for following or replaying: checks campaign.json, reads the log's complete lines with log_ and
  // decodes them into `events`; false (state Failed) when either cannot be read, with the reason in `why`.
  bool openLog(const QString& dir, std::vector<learn::Event>& events, QString* why = nullptr);
  // Sends the session's AuditMemorySnapshot of `events` (the workspace's logged events), or of `logError`.
  void sendSnapshot(const std::vector<learn::Event>& events, const QString& logError = {});
  std::vector<learn::Event> decode(const std::vector<nlohmann::json>& lines);  // malformed ones counted by feed_
  void readGrowth();  // the lines log_ finds appended since, into backlog_
  void setState(CampaignRunState s, const QString& message = {});

  QTimer* timer_;
  quint64 session_ = 0;
  QString dir_;
  Source source_ = Source::None;
  CampaignRunState state_ = CampaignRunState::Idle;
  CampaignFeed feed_;
  bool firstUpdate_ = true;

  std::unique_ptr<Sink> sink_;
  std::unique_ptr<store::Workspace> ws_;
  std::unique_ptr<learn::CampaignSetup> setup_;
  std::unique_ptr<learn::CampaignEngine> engine_;

  // events.jsonl of a followed or replayed workspace: the one reader, from the first line on (store::EventLogReader).
  std::unique_ptr<store::EventLogReader> log_;
  std::vector<learn::Event> backlog_;  // read but not yet fed (big logs are fed in chunks)

  std::vector<learn::Event> replayEvents_;
  std::size_t replayPos_ = 0;
  double replaySpeed_ = 0, replayCredit_ = 0;
  std::vector<std::size_t> replayBreaks_;  // positions of the story's moments (pause there when asked)
  bool pauseAtMoments_ = false;
};

}  // namespace sf::widgets
