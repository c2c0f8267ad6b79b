#include "widgets/engine/engine_bridge.hpp"

#include "widgets/campaign/campaign_worker.hpp"
#include "widgets/engine/engine_worker.hpp"

namespace sf::widgets {

namespace {

void registerTypes() {
  static const bool done = [] {
    qRegisterMetaType<sf::widgets::JobKind>("sf::widgets::JobKind");
    qRegisterMetaType<sf::widgets::RewriteKind>("sf::widgets::RewriteKind");
    qRegisterMetaType<sf::widgets::CheckSnapshot>("sf::widgets::CheckSnapshot");
    qRegisterMetaType<sf::widgets::SimulateSnapshot>("sf::widgets::SimulateSnapshot");
    qRegisterMetaType<sf::widgets::VerifySnapshot>("sf::widgets::VerifySnapshot");
    qRegisterMetaType<sf::widgets::RewriteSnapshot>("sf::widgets::RewriteSnapshot");
    qRegisterMetaType<sf::widgets::TaskListSnapshot>("sf::widgets::TaskListSnapshot");
    qRegisterMetaType<sf::widgets::EventBatch>("sf::widgets::EventBatch");
    qRegisterMetaType<sf::widgets::CampaignUpdate>("sf::widgets::CampaignUpdate");
    qRegisterMetaType<sf::widgets::CampaignSummary>("sf::widgets::CampaignSummary");
    qRegisterMetaType<sf::widgets::CampaignRunState>("sf::widgets::CampaignRunState");
    qRegisterMetaType<sf::widgets::ReplayStory>("sf::widgets::ReplayStory");
    qRegisterMetaType<sf::widgets::AuditMemorySnapshotPtr>("sf::widgets::AuditMemorySnapshotPtr");
    qRegisterMetaType<QVector<sf::widgets::CampaignSummary>>("QVector<sf::widgets::CampaignSummary>");
    return true;
  }();
  (void)done;
}

std::size_t idx(JobKind k) { return static_cast<std::size_t>(k); }

}  // namespace

EngineBridge::EngineBridge(QObject* parent) : QObject(parent), control_(std::make_shared<JobControl>()) {
  registerTypes();
  thread_.setObjectName(QStringLiteral("StepForge engine"));
  worker_ = new EngineWorker(control_);
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);

  connect(this, &EngineBridge::checkQueued, worker_, &EngineWorker::check, Qt::QueuedConnection);
  connect(this, &EngineBridge::simulateQueued, worker_, &EngineWorker::simulate, Qt::QueuedConnection);
  connect(this, &EngineBridge::verifyQueued, worker_, &EngineWorker::verify, Qt::QueuedConnection);
  connect(this, &EngineBridge::rewriteQueued, worker_, &EngineWorker::rewrite, Qt::QueuedConnection);
  connect(this, &EngineBridge::taskListQueued, worker_, &EngineWorker::listTasks, Qt::QueuedConnection);
  connect(worker_, &EngineWorker::taskListReady, this, &EngineBridge::taskListReady);

  connect(worker_, &EngineWorker::checkFinished, this, [this](const CheckSnapshot& s) {
    if (deliverable(JobKind::Check, s.seq)) emit checkFinished(s);
  });
  connect(worker_, &EngineWorker::simulateFinished, this, [this](const SimulateSnapshot& s) {
    if (deliverable(JobKind::Simulate, s.seq)) emit simulateFinished(s);
  });
  connect(worker_, &EngineWorker::verifyFinished, this, [this](const VerifySnapshot& s) {
    if (deliverable(JobKind::Verify, s.seq)) emit verifyFinished(s);
  });
  connect(worker_, &EngineWorker::rewriteFinished, this, [this](const RewriteSnapshot& s) {
    if (deliverable(JobKind::Rewrite, s.seq)) emit rewriteFinished(s);
  });
  connect(worker_, &EngineWorker::progress, this,
          [this](JobKind k, quint64 seq, int done, int total, const QString& what) {
            if (control_->alive(k, seq)) emit progress(k, seq, done, total, what);
          });
  thread_.start();

  campaignThread_.setObjectName(QStringLiteral("StepForge campaign"));
  campaign_ = new CampaignWorker;
  campaign_->moveToThread(&campaignThread_);
  connect(&campaignThread_, &QThread::finished, campaign_, &QObject::deleteLater);
  connect(campaign_, &CampaignWorker::update, this, [this](const CampaignUpdate& u) {
    if (u.session == session_) emit campaignUpdated(u);
  });
  connect(campaign_, &CampaignWorker::eventsFed, this, [this](quint64 session, const EventBatch& b) {
    if (session == session_) emit campaignEvents(b);
  });
  connect(campaign_, &CampaignWorker::replayStory, this, [this](quint64 session, const ReplayStory& st) {
    if (session == session_) emit replayStory(st);
  });
  connect(campaign_, &CampaignWorker::auditMemorySnapshot, this,
          [this](quint64 session, const AuditMemorySnapshotPtr& s) {
            if (session == session_) emit auditMemorySnapshot(s);
          });
  connect(campaign_, &CampaignWorker::stateChanged, this,
          [this](quint64 session, CampaignRunState st, const QString& msg) {
            if (session != session_) return;
            campaignState_ = st;
            emit campaignStateChanged(st, msg);
          });
  connect(campaign_, &CampaignWorker::comparisonReady, this,
          [this](quint64 seq, const QVector<CampaignSummary>& s) {
            if (seq == compareSeq_) emit comparisonReady(s);
          });
  campaignThread_.start();
}

EngineBridge::~EngineBridge() {
  // The campaign worker's destructor (in its thread) cancels and joins a running engine.
  campaignThread_.quit();
  campaignThread_.wait();
  for (int k = 0; k < kJobKinds; ++k) control_->cancelled[static_cast<std::size_t>(k)] = nextSeq_;
  thread_.quit();
  // A running job is bounded by the verifier's time limit; queued ones are skipped as cancelled.
  thread_.wait();
}

quint64 EngineBridge::begin(JobKind kind) {
  quint64 seq = ++nextSeq_;
  control_->latest[idx(kind)] = seq;
  setBusy(kind, true);
  return seq;
}

quint64 EngineBridge::requestCheck(const QString& text, const QString& path, quint64 revision) {
  quint64 seq = begin(JobKind::Check);
  emit checkQueued(seq, revision, text, path);
  return seq;
}

quint64 EngineBridge::requestSimulate(const QString& text, const QString& path) {
  quint64 seq = begin(JobKind::Simulate);
  emit simulateQueued(seq, text, path);
  return seq;
}

quint64 EngineBridge::requestVerify(const QString& text, const QString& path) {
  quint64 seq = begin(JobKind::Verify);
  emit verifyQueued(seq, text, path, chip_);
  return seq;
}

quint64 EngineBridge::requestRewrite(RewriteKind kind, const QString& text, const QString& path, quint64 revision) {
  quint64 seq = begin(JobKind::Rewrite);
  emit rewriteQueued(seq, revision, kind, text, path);
  return seq;
}

void EngineBridge::requestTaskList() { emit taskListQueued(); }

void EngineBridge::cancel(JobKind kind) {
  if (!busy_[idx(kind)]) return;
  quint64 seq = control_->latest[idx(kind)];
  control_->cancelled[idx(kind)] = seq;
  setBusy(kind, false);
  emit cancelled(kind, seq);
}

void EngineBridge::cancelAll() {
  for (int k = 0; k < kJobKinds; ++k) cancel(static_cast<JobKind>(k));
}

quint64 EngineBridge::startCampaign(const QByteArray& configJson, const QString& dir) {
  const quint64 s = ++session_;
  QMetaObject::invokeMethod(campaign_, [w = campaign_, s, configJson, dir] { w->start(s, configJson, dir); },
                            Qt::QueuedConnection);
  return s;
}

quint64 EngineBridge::continueCampaign(const QString& dir) {
  const quint64 s = ++session_;
  QMetaObject::invokeMethod(campaign_, [w = campaign_, s, dir] { w->continueWorkspace(s, dir); }, Qt::QueuedConnection);
  return s;
}

quint64 EngineBridge::openWorkspace(const QString& dir) {
  const quint64 s = ++session_;
  QMetaObject::invokeMethod(campaign_, [w = campaign_, s, dir] { w->open(s, dir); }, Qt::QueuedConnection);
  return s;
}

quint64 EngineBridge::replayWorkspace(const QString& dir, double eventsPerSecond) {
  const quint64 s = ++session_;
  QMetaObject::invokeMethod(campaign_, [w = campaign_, s, dir, eventsPerSecond] { w->replay(s, dir, eventsPerSecond); },
                            Qt::QueuedConnection);
  return s;
}

void EngineBridge::setReplaySpeed(double eventsPerSecond) {
  QMetaObject::invokeMethod(campaign_, [w = campaign_, eventsPerSecond] { w->setReplaySpeed(eventsPerSecond); },
                            Qt::QueuedConnection);
}

void EngineBridge::seekReplay(int position) {
  QMetaObject::invokeMethod(campaign_, [w = campaign_, s = session_, position] { w->seekReplay(s, position); },
                            Qt::QueuedConnection);
}

void EngineBridge::setPauseAtMoments(bool on) {
  QMetaObject::invokeMethod(campaign_, [w = campaign_, on] { w->setPauseAtMoments(on); }, Qt::QueuedConnection);
}

void EngineBridge::pauseCampaign() {
  QMetaObject::invokeMethod(campaign_, &CampaignWorker::pause, Qt::QueuedConnection);
}

void EngineBridge::resumeCampaign() {
  QMetaObject::invokeMethod(campaign_, &CampaignWorker::resume, Qt::QueuedConnection);
}

void EngineBridge::cancelCampaign() {
  QMetaObject::invokeMethod(campaign_, &CampaignWorker::cancel, Qt::QueuedConnection);
}

quint64 EngineBridge::requestComparison(const QStringList& dirs) {
  const quint64 seq = ++compareSeq_;
  QMetaObject::invokeMethod(campaign_, [w = campaign_, seq, dirs] { w->compare(seq, dirs); }, Qt::QueuedConnection);
  return seq;
}

bool EngineBridge::isBusy(JobKind kind) const { return busy_[idx(kind)]; }

bool EngineBridge::deliverable(JobKind kind, quint64 seq) {
  if (!control_->alive(kind, seq)) return false;
  setBusy(kind, false);
  return true;
}

void EngineBridge::setBusy(JobKind kind, bool busy) {
  if (busy_[idx(kind)] == busy) return;
  busy_[idx(kind)] = busy;
  emit busyChanged(kind, busy);
}

}  // namespace sf::widgets
