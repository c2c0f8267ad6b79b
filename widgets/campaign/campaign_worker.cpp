#include "widgets/campaign/campaign_worker.hpp"

#include "core/bench/catalogue.hpp"
#include "core/learn/run_comparison.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/engine_setup.hpp"
#include "core/learn/launcher.hpp"
#include "core/learn/projections.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/provider.hpp"

#include <QTimer>

namespace sf::widgets {

using nlohmann::json;

// Receives the engine's typed events on its threads; the worker drains them on its tick.
class CampaignWorker::Sink : public learn::EventSink {
 public:
  void on_event(const learn::Event& e) override {
    std::lock_guard l(mu_);
    queue_.push_back(e);
  }
  std::vector<learn::Event> drain() {
    std::lock_guard l(mu_);
    std::vector<learn::Event> out;
    out.swap(queue_);
    return out;
  }

 private:
  std::mutex mu_;
  std::vector<learn::Event> queue_;
};

CampaignWorker::CampaignWorker(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  timer_->setInterval(kTickMs);
  connect(timer_, &QTimer::timeout, this, &CampaignWorker::tick);
}

CampaignWorker::~CampaignWorker() { stopSession(); }

void CampaignWorker::shutdown() {
  stopSession();
  timer_->stop();
}

void CampaignWorker::stopSession() {
  if (engine_) {
    engine_->cancel();
    engine_->wait();
  }
  engine_.reset();
  setup_.reset();
  ws_.reset();
  sink_.reset();
  source_ = Source::None;
  feed_ = CampaignFeed{};
  firstUpdate_ = true;
  backlog_.clear();
  replayEvents_.clear();
  replayBreaks_.clear();
  replayPos_ = 0;
  replayCredit_ = 0;
  log_.reset();
}

void CampaignWorker::begin(quint64 session, const QString& dir, Source src) {
  stopSession();
  session_ = session;
  dir_ = dir;
  source_ = src;
  feed_.setWorkspace(dir.toStdString());
}

void CampaignWorker::setState(CampaignRunState s, const QString& message) {
  state_ = s;
  emit stateChanged(session_, s, message);
}

bool CampaignWorker::launch(std::unique_ptr<store::Workspace> ws, std::vector<learn::Event> logged, QString& error,
                            bool& halted) {
  synth::register_builtin_provider();
  sink_ = std::make_unique<Sink>();
  // The preflight request runs on this worker's thread, not the GUI's.
  learn::Launch l = learn::launch_campaign(*ws, bench::resource_dir(), sink_.get());
  halted = l.outcome == learn::LaunchOutcome::Halted;
  const QString why = QString::fromStdString(l.error);
  switch (l.outcome) {
    case learn::LaunchOutcome::Ok: break;
    case learn::LaunchOutcome::ConfigError: error = tr("campaign.json: %1").arg(why); return false;
    case learn::LaunchOutcome::SetupError: error = why; return false;
    case learn::LaunchOutcome::LogError: error = tr("events.jsonl: %1").arg(why); return false;
    case learn::LaunchOutcome::Halted: error = tr("%1 — fix it, then Resume").arg(why); return false;
  }
  backlog_ = std::move(logged);  // a continued run shows what was logged before
  ws_ = std::move(ws);
  setup_ = std::move(l.setup);
  engine_ = std::move(l.engine);
  engine_->start();
  setState(CampaignRunState::Running);
  feed({});
  timer_->start();
  return true;
}

void CampaignWorker::start(quint64 session, const QByteArray& configJson, const QString& dir) {
  begin(session, dir, Source::Engine);
  json j = json::parse(configJson.constData(), configJson.constData() + configJson.size(), nullptr, false);
  std::string err;
  std::optional<learn::CampaignConfig> cfg;
  if (j.is_discarded()) err = "the config is not valid JSON";
  else cfg = learn::config_from_json(j, err);
  if (cfg) err = learn::validate(*cfg);
  if (!err.empty()) {
    setState(CampaignRunState::Failed, tr("Invalid configuration: %1").arg(QString::fromStdString(err)));
    return;
  }
  auto ws = store::Workspace::create(dir.toStdString(), learn::config_to_json(*cfg), err);
  if (!ws) {
    setState(CampaignRunState::Failed, QString::fromStdString(err));
    return;
  }
  sendSnapshot({});  // a new workspace: nothing logged, no audit.json or memory.json yet
  QString error;
  bool halted = false;
  if (!launch(std::move(ws), {}, error, halted))
    setState(halted ? CampaignRunState::Halted : CampaignRunState::Failed, error);
}

void CampaignWorker::continueWorkspace(quint64 session, const QString& dir) {
  begin(session, dir, Source::Engine);
  std::string err;
  auto ws = store::Workspace::open(dir.toStdString(), err);
  if (!ws) {
    sendSnapshot({}, QString::fromStdString(err));
    setState(CampaignRunState::Failed, QString::fromStdString(err));
    return;
  }
  std::vector<learn::Event> logged = decode(ws->loaded_events());  // decoded once: the snapshot and the feed
  sendSnapshot(logged);
  QString error;
  bool halted = false;
  if (!launch(std::move(ws), std::move(logged), error, halted))
    setState(halted ? CampaignRunState::Halted : CampaignRunState::Failed, error);
}

bool CampaignWorker::openLog(const QString& dir, std::vector<learn::Event>& events, QString* why) {
  const std::filesystem::path d = dir.toStdString();
  std::string err;
  nlohmann::json config;
  std::vector<json> lines;
  // campaign.json and the log are checked (newer versions, corruption) before anything is shown.
  if (store::Workspace::read_config(d, config, err)) {
    log_ = std::make_unique<store::EventLogReader>(d / "events.jsonl");
    if (!log_->read(lines, err)) {
      if (why) *why = QString::fromStdString(err);  // "events.jsonl:LINE: ..."
      err = (d / err).string();
    } else {
      err.clear();
    }
  } else if (why) {
    *why = QString::fromStdString(err);
  }
  if (!err.empty()) {
    setState(CampaignRunState::Failed, QString::fromStdString(err));
    source_ = Source::None;
    log_.reset();
    return false;
  }
  events = decode(lines);
  return true;
}

std::vector<learn::Event> CampaignWorker::decode(const std::vector<json>& lines) {
  std::int64_t malformed = 0;
  auto events = learn::decode_events(lines, &malformed);
  feed_.countMalformed(malformed);
  return events;
}

void CampaignWorker::sendSnapshot(const std::vector<learn::Event>& events, const QString& logError) {
  emit auditMemorySnapshot(session_, buildAuditMemorySnapshot(dir_, events, feed_.malformed(), logError));
}

void CampaignWorker::open(quint64 session, const QString& dir) {
  begin(session, dir, Source::Follow);
  QString why;
  if (!openLog(dir, backlog_, &why)) {
    sendSnapshot({}, why);  // both panes say why, as the state does
    return;
  }
  sendSnapshot(backlog_);  // the events read at opening; the growth reaches the panes as event batches
  setState(CampaignRunState::Following);
  tick();
  if (source_ == Source::Follow) timer_->start();
}

void CampaignWorker::replay(quint64 session, const QString& dir, double eventsPerSecond) {
  begin(session, dir, Source::Replay);
  if (!openLog(dir, replayEvents_)) return;
  {
    // A replay shows the log as it is now: its unterminated last line too, when it is an event.
    std::vector<json> tail;
    std::string err;
    if (log_->finish(tail, err)) {
      auto rest = decode(tail);
      replayEvents_.insert(replayEvents_.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
    }
    log_.reset();
  }
  replaySpeed_ = eventsPerSecond;
  {
    learn::StoryView story;
    for (const auto& e : replayEvents_) story.apply(e);
    ReplayStory rs;
    rs.length = static_cast<int>(replayEvents_.size());
    for (std::size_t p : story.episode_starts()) rs.episodeStarts.push_back(static_cast<int>(p));
    replayBreaks_.clear();
    for (const auto& m : story.moments()) {
      rs.moments.push_back({static_cast<int>(m.position), m.x, QString::fromUtf8(learn::moment_kind_name(m.kind)),
                            QString::fromStdString(m.caption)});
      replayBreaks_.push_back(m.position);
    }
    // A sage campaign's memory-off run next to it is the story's baseline (its curve is drawn under the replay's).
    if (auto base = learn::memory_off_baseline(dir.toStdString())) {
      const QString b = QString::fromStdString(base->string());
      CampaignSummary s = summarizeWorkspace(b);
      if (s.error.isEmpty() && !s.curve.isEmpty()) {
        rs.baselineDir = b;
        rs.baselineCurve = s.curve;
      }
    }
    emit replayStory(session_, rs);
  }
  setState(CampaignRunState::Replaying);
  feed({});
  timer_->start();
}

void CampaignWorker::setReplaySpeed(double eventsPerSecond) { replaySpeed_ = eventsPerSecond; }

void CampaignWorker::setPauseAtMoments(bool on) { pauseAtMoments_ = on; }

void CampaignWorker::seekReplay(quint64 session, int position) {
  if (session != session_ || replayEvents_.empty()) return;
  const std::size_t to = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(position, 1)), 1, replayEvents_.size());
  if (to == replayPos_) return;
  std::size_t from = replayPos_;
  if (to < replayPos_) {  // backward: fold the first events afresh
    feed_ = CampaignFeed{};
    feed_.setWorkspace(dir_.toStdString());  // trace details resolve prompt parts in its blobs/
    firstUpdate_ = true;
    from = 0;
  }
  replayPos_ = to;
  replayCredit_ = 0;
  feed(std::vector<learn::Event>(replayEvents_.begin() + static_cast<std::ptrdiff_t>(from),
                                 replayEvents_.begin() + static_cast<std::ptrdiff_t>(to)));
  if (source_ != Source::Replay) {  // finished: scrubbing makes it a paused replay again
    source_ = Source::Replay;
    timer_->start();
  }
  if (replayPos_ >= replayEvents_.size()) {
    setState(CampaignRunState::Finished, feed_.summary().finishReason);
    source_ = Source::None;
    timer_->stop();
  } else if (state_ != CampaignRunState::Paused) {
    setState(CampaignRunState::Paused);
  }
}

void CampaignWorker::pause() {
  if (state_ != CampaignRunState::Running && state_ != CampaignRunState::Replaying) return;
  if (source_ == Source::Engine && engine_) engine_->pause();
  setState(CampaignRunState::Paused);
}

void CampaignWorker::resume() {
  if (state_ == CampaignRunState::Halted && !dir_.isEmpty()) {
    continueWorkspace(session_, dir_);
    return;
  }
  if (state_ != CampaignRunState::Paused) return;
  if (source_ == Source::Engine && engine_) {
    engine_->resume();
    setState(CampaignRunState::Running);
  } else if (source_ == Source::Replay) {
    setState(CampaignRunState::Replaying);
  }
}

void CampaignWorker::cancel() {
  if (source_ == Source::Engine && engine_) {
    engine_->resume();  // a paused engine must run to notice the cancel
    engine_->cancel();  // the tick reports the end
    return;
  }
  if (source_ == Source::Follow || source_ == Source::Replay) {
    timer_->stop();
    source_ = Source::None;
    setState(CampaignRunState::Cancelled);
  }
}

void CampaignWorker::compare(quint64 seq, const QStringList& dirs) {
  QVector<CampaignSummary> out;
  for (const QString& d : dirs) {
    CampaignSummary s = summarizeWorkspace(d);
    if (s.error.isEmpty()) {
      std::string err;
      if (auto r = learn::load_run(d.toStdString(), err))
        s.run = std::make_shared<const learn::RunRecord>(std::move(*r));
      else
        s.runError = QString::fromStdString(err);
    }
    out.push_back(std::move(s));
  }
  emit comparisonReady(seq, out);
}

void CampaignWorker::readGrowth() {
  if (!log_) return;
  std::vector<json> lines;
  std::string err;
  // A bad line appended to a followed log is skipped (the reader goes on after it); the log was checked whole
  // when it was opened.
  while (!log_->read(lines, err, kMaxGrowthBytes)) {
  }
  auto events = decode(lines);
  backlog_.insert(backlog_.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
}

void CampaignWorker::feed(std::vector<learn::Event> events) {
  if (events.empty() && !firstUpdate_) return;
  CampaignUpdate u = feed_.consume(events);
  u.session = session_;
  u.dir = dir_;
  u.reset = firstUpdate_;
  firstUpdate_ = false;
  if (source_ == Source::Engine && engine_) {
    const auto p = engine_->progress();
    if (p.iteration >= 0) {
      u.iteration = p.iteration;
      u.done = p.done;
      u.total = p.total;
      u.etaSeconds = p.eta_s;
    }
  }
  emit update(u);
  if (!events.empty()) emit eventsFed(session_, std::make_shared<const std::vector<learn::Event>>(std::move(events)));
}

void CampaignWorker::tick() {
  std::vector<learn::Event> batch;
  auto takeBacklog = [&] {
    const std::size_t n = std::min(backlog_.size(), kMaxEventsPerTick);
    batch.assign(std::make_move_iterator(backlog_.begin()), std::make_move_iterator(backlog_.begin() + static_cast<std::ptrdiff_t>(n)));
    backlog_.erase(backlog_.begin(), backlog_.begin() + static_cast<std::ptrdiff_t>(n));
  };
  switch (source_) {
    case Source::None: timer_->stop(); return;
    case Source::Engine: {
      auto fresh = sink_->drain();
      backlog_.insert(backlog_.end(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
      const bool ended = !engine_->progress().running;
      if (ended) {
        learn::RunResult r = engine_->wait();
        auto rest = sink_->drain();
        backlog_.insert(backlog_.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
        takeBacklog();
        if (backlog_.empty()) {
          feed(std::move(batch));
          timer_->stop();
          source_ = Source::None;
          engine_.reset();
          setup_.reset();
          ws_.reset();
          sink_.reset();
          switch (r.status) {
            case learn::RunStatus::Finished: setState(CampaignRunState::Finished, QString::fromStdString(r.reason)); break;
            case learn::RunStatus::Cancelled: setState(CampaignRunState::Cancelled); break;
            case learn::RunStatus::Failed: setState(CampaignRunState::Failed, QString::fromStdString(r.error)); break;
            case learn::RunStatus::Paused:
              setState(CampaignRunState::Halted, tr("%1 — fix it, then Resume").arg(QString::fromStdString(r.error)));
              break;
          }
          return;
        }
      } else {
        takeBacklog();
      }
      feed(std::move(batch));
      return;
    }
    case Source::Follow:
      if (backlog_.empty()) readGrowth();
      takeBacklog();
      feed(std::move(batch));
      if (backlog_.empty() && feed_.finished()) {
        timer_->stop();
        source_ = Source::None;
        setState(CampaignRunState::Finished, feed_.summary().finishReason);
      }
      return;
    case Source::Replay: {
      if (state_ == CampaignRunState::Paused) return;
      std::size_t n;
      if (replaySpeed_ <= 0) {
        n = kMaxEventsPerTick;
      } else {
        replayCredit_ += replaySpeed_ * kTickMs / 1000.0;
        n = static_cast<std::size_t>(replayCredit_);
        replayCredit_ -= static_cast<double>(n);
      }
      n = std::min(n, replayEvents_.size() - replayPos_);
      bool atMoment = false;
      if (pauseAtMoments_)
        for (std::size_t b : replayBreaks_)
          if (b > replayPos_ && b <= replayPos_ + n) {
            n = b - replayPos_;  // stop right after the moment's event
            atMoment = true;
            break;
          }
      batch.assign(replayEvents_.begin() + static_cast<std::ptrdiff_t>(replayPos_),
                   replayEvents_.begin() + static_cast<std::ptrdiff_t>(replayPos_ + n));
      replayPos_ += n;
      feed(std::move(batch));
      if (replayPos_ >= replayEvents_.size()) {
        timer_->stop();
        source_ = Source::None;  // the events stay: seekReplay can scrub back
        setState(CampaignRunState::Finished, feed_.summary().finishReason);
      } else if (atMoment) {
        setState(CampaignRunState::Paused, tr("key moment"));
      }
      return;
    }
  }
}

}  // namespace sf::widgets
