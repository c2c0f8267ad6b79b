#include "widgets/campaign/campaign_feed.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <QCoreApplication>

#include "core/learn/config.hpp"
#include "core/learn/verdict_words.hpp"
#include "core/store/content_store.hpp"
#include "core/store/event_log.hpp"
#include "core/store/workspace.hpp"

namespace sf::widgets {

using nlohmann::json;

QString campaignRunStateName(CampaignRunState s) {
  switch (s) {
    case CampaignRunState::Idle: return QCoreApplication::translate("CampaignRunState", "idle");
    case CampaignRunState::Running: return QCoreApplication::translate("CampaignRunState", "running");
    case CampaignRunState::Paused: return QCoreApplication::translate("CampaignRunState", "paused");
    case CampaignRunState::Following: return QCoreApplication::translate("CampaignRunState", "following");
    case CampaignRunState::Replaying: return QCoreApplication::translate("CampaignRunState", "replaying");
    case CampaignRunState::Finished: return QCoreApplication::translate("CampaignRunState", "finished");
    case CampaignRunState::Cancelled: return QCoreApplication::translate("CampaignRunState", "cancelled");
    case CampaignRunState::Failed: return QCoreApplication::translate("CampaignRunState", "failed");
    case CampaignRunState::Halted: return QCoreApplication::translate("CampaignRunState", "paused (needs attention)");
  }
  return {};
}

namespace {

QString capped(const std::string& s) {
  QString q = QString::fromStdString(s);
  if (q.size() > CampaignFeed::kMaxMessageChars) {
    q.truncate(CampaignFeed::kMaxMessageChars);
    q += QStringLiteral("\n… (truncated)");
  }
  return q;
}

QString verdictText(const learn::Verdict& v) {
  if (v.pass) return QStringLiteral("pass");
  QString s = QStringLiteral("fail");
  const QString stage = QString::fromStdString(v.stage), code = QString::fromStdString(v.code);
  if (!stage.isEmpty() || !code.isEmpty()) s += QStringLiteral(": ") + (stage + QLatin1Char(' ') + code).trimmed();
  return s;
}

}  // namespace

TaskStatusRow& CampaignFeed::task(const std::string& id) {
  auto it = taskIndex_.find(id);
  if (it != taskIndex_.end()) return tasks_[it->second];
  taskIndex_[id] = tasks_.size();
  TaskStatusRow r;
  r.task = QString::fromStdString(id);
  tasks_.push_back(r);
  return tasks_.back();
}

CampaignUpdate CampaignFeed::consume(const std::vector<json>& envelopes) {
  std::int64_t malformed = 0;
  auto events = learn::decode_events(envelopes, &malformed);
  malformed_ += malformed;
  return consume(events);
}

CampaignUpdate CampaignFeed::consume(const std::vector<learn::Event>& events, std::size_t begin, std::size_t end) {
  CampaignUpdate u;
  const qint64 firstRow = rows_;
  end = std::min(end, events.size());
  for (std::size_t i = begin; i < end; ++i) {
    if (apply(events[i], u, firstRow)) ++events_;
    else ++malformed_;  // a call or summary whose figures are of the wrong type: skipped
  }
  fillTotals(u);
  return u;
}

void CampaignFeed::fillTotals(CampaignUpdate& u) const {
  u.name = name_;
  u.mode = mode_;
  u.model = model_;
  u.sage = sage_;
  u.opt2 = opt2_;
  u.fastTolerance = fastTolerance_;
  u.taskStatus = QVector<TaskStatusRow>(tasks_.begin(), tasks_.end());
  u.events = events_;
  u.tokens = tokens_;
  u.cost = cost_;
  u.iteration = iteration_;
  u.done = done_;
  u.total = total_;
  if (done_ > 0 && total_ > done_ && lastT_ > iterT0_) u.etaSeconds = (lastT_ - iterT0_) / double(done_) * double(total_ - done_);
  u.solved = static_cast<int>(std::count_if(tasks_.begin(), tasks_.end(), [](const auto& t) { return t.solved; }));
  u.taskCount = static_cast<int>(tasks_.size());
  u.finished = finished_;
  u.finishReason = finishReason_;
}

bool CampaignFeed::apply(const learn::Event& e, CampaignUpdate& u, qint64 firstRow) {
  if (e.t > 0) lastT_ = e.t;
  if (const auto* cs = std::get_if<learn::CampaignStarted>(&e.body)) {
    if (started_) return true;  // a second start (resume never writes one): ignored
    started_ = true;
    const learn::CampaignHeader h = learn::campaign_header(*cs);
    name_ = QString::fromStdString(h.name);
    mode_ = QString::fromStdString(h.mode);
    model_ = QString::fromStdString(h.model);
    sage_ = mode_ == QLatin1String("sage");
    opt2_ = cs->config.is_object() && cs->config.value("dialect", std::string()) == "step-v2";
    fastTolerance_ = learn::fast_tolerance_of(cs->config);
    for (const auto& ti : cs->tasks) {
      if (ti.id.empty()) continue;
      task(ti.id);
    }
    applyCurve(e, u);
  } else if (const auto* is = std::get_if<learn::IterationStarted>(&e.body)) {
    iteration_ = is->iteration;
    total_ = static_cast<qint64>(is->tasks.size() * is->temperatures.size()) * is->n;
    done_ = 0;
    iterT0_ = e.t;
  } else if (const auto* es = std::get_if<learn::EpisodeStarted>(&e.body)) {
    iteration_ = es->episode;
    total_ = es->max_rounds;
    done_ = 0;
    iterT0_ = e.t;
    task(es->task);
    applyCurve(e, u);
  } else if (const auto* c = std::get_if<learn::LlmCall>(&e.body)) {
    return onLlmCall(e.seq, *c, u);
  } else if (const auto* v = std::get_if<learn::Verdict>(&e.body)) {
    onVerdict(*v, u, firstRow);
  } else if (const auto* s = std::get_if<learn::IterationSummary>(&e.body)) {
    if (!applyCurve(e, u)) return false;  // figures of the wrong type: skipped
    onIterationSummary(*s);
  } else if (const auto* ef = std::get_if<learn::EpisodeFinished>(&e.body)) {
    onEpisodeFinished(*ef);
    applyCurve(e, u);
  } else if (const auto* t = std::get_if<learn::Opt2TaskStarted>(&e.body)) {
    task(t->task);
    applyCurve(e, u);
  } else if (std::holds_alternative<learn::Opt2Round>(e.body)) {
    applyCurve(e, u);  // a point per proposal
  } else if (const auto* f = std::get_if<learn::CampaignFinished>(&e.body)) {
    finished_ = true;
    finishReason_ = QString::fromStdString(f->reason);
  }
  return true;
}

std::shared_ptr<const TraceDetail> traceDetailOf(const learn::CallView& c, std::shared_ptr<const store::ContentStore> blobs) {
  auto d = std::make_shared<TraceDetail>();
  d->prompt = c.prompt;
  d->blobs = std::move(blobs);
  d->response = capped(c.response);
  d->impl = capped(c.impl);
  d->guardianDiff = capped(c.guardian_diff);
  d->reasoning = capped(c.reasoning);
  d->finishReason = QString::fromStdString(c.finish_reason);
  for (const auto& id : c.rules_used) d->rulesUsed << QString::fromStdString(id);
  QStringList lines;
  for (const auto& dg : c.diagnostics)
    lines << QStringLiteral("%1 %2:%3 %4")
                 .arg(QString::fromStdString(dg.code))
                 .arg(dg.line)
                 .arg(dg.column)
                 .arg(QString::fromStdString(dg.message));
  d->diagnostics = lines.join(QLatin1Char('\n'));
  if (!c.error_kind.empty())
    d->diagnostics += QStringLiteral("\nLLM error %1: %2")
                          .arg(QString::fromStdString(c.error_kind), QString::fromStdString(c.error_message));
  return d;
}

bool CampaignFeed::onLlmCall(qint64 seq, const learn::LlmCall& call, CampaignUpdate& u) {
  std::string err;
  const auto c = learn::call_view(call.trace, err);
  if (!c) return false;
  TraceRow r;
  r.seq = seq;
  r.role = QString::fromStdString(c->role);
  r.task = QString::fromStdString(call.task);
  r.iteration = call.iteration;
  r.temperatureIndex = call.temperature_index;
  r.sample = call.sample_index;
  r.tokens = c->input_tokens + c->output_tokens;
  r.latency = c->latency_s;
  r.cost = c->cost_usd;
  r.fromCache = c->from_cache;
  r.error = QString::fromStdString(c->error_kind);
  r.detail = traceDetailOf(*c, blobs_);
  tokens_ += r.tokens;
  cost_ += r.cost;
  pending_[{r.iteration, call.task, r.temperatureIndex, r.sample}].push_back(rows_);
  ++rows_;
  task(call.task);
  u.traceRows.push_back(std::move(r));
  return true;
}

void CampaignFeed::onVerdict(const learn::Verdict& v, CampaignUpdate& u, qint64 firstRow) {
  SampleKey key{v.iteration, v.task, v.temperature_index, v.sample_index};
  const QString text = verdictText(v);
  const QString word = QString::fromStdString(learn::verdict_word(v.pass, v.stage, v.code));
  // Cost-model fields of a PASS verdict (optional; an infeasible program has no speedup).
  const qint64 cycles = v.pass && v.cycles && *v.cycles >= 0 ? static_cast<qint64>(*v.cycles) : -1;
  const double speedup = v.pass && v.speedup && *v.speedup >= 0 && v.feasible.value_or(true) ? *v.speedup : -1;
  if (auto it = pending_.find(key); it != pending_.end()) {
    for (qint64 row : it->second) {
      if (row >= firstRow) {
        TraceRow& r = u.traceRows[static_cast<int>(row - firstRow)];
        r.verdict = text;
        r.verdictWord = word;
        r.cycles = cycles;
        r.speedup = speedup;
      } else {
        u.verdictUpdates.push_back({static_cast<int>(row), text, cycles, speedup, word});
      }
    }
    pending_.erase(it);
  }
  TaskStatusRow& ts = task(v.task);
  ts.samples++;
  if (v.pass) {
    ts.successes++;
    if (sage_) ts.solved = true;
    if (speedup >= 0 && (!ts.bestSpeedup || speedup > *ts.bestSpeedup)) ts.bestSpeedup = speedup;
  }
  ++done_;
}

void CampaignFeed::onIterationSummary(const learn::IterationSummary& s) {
  for (const auto& r : s.results)
    if (r.newly_solved) task(r.task).solved = true;
}

void CampaignFeed::onEpisodeFinished(const learn::EpisodeFinished& e) {
  if (e.solved) task(e.task).solved = true;
}

bool CampaignFeed::applyCurve(const learn::Event& e, CampaignUpdate& u) {
  // learn::CurveView is the report's rule for the curve; the feed gives it its running totals.
  const auto applied = curve_view_.apply(e, tokens_, cost_);
  if (applied == learn::CurveView::Applied::MalformedSummary) return false;
  if (applied == learn::CurveView::Applied::Point) {
    const learn::CurveFigures& f = curve_view_.points().back();
    CurvePoint p;
    p.x = f.x;
    p.tokens = f.tokens;
    p.cost = f.cost_usd;
    p.pass1 = f.pass_at_1;
    p.passN = f.pass_at_n;
    p.solved = f.solved;
    p.tasks = f.tasks;
    for (const auto& [tag, v] : f.by_tag) p.byTag[tag] = v;
    p.fast1 = f.fast_1;
    p.fast15 = f.fast_1_5;
    p.medianSpeedup = f.median_speedup;
    p.fast2 = f.fast_2;
    p.geomeanSpeedup = f.geomean_speedup;
    p.verdicts = f.verdicts;
    curve_.push_back(p);
    u.newPoints.push_back(p);
  }
  return true;
}

CampaignSummary CampaignFeed::summary() const {
  CampaignSummary s;
  s.name = name_;
  s.mode = mode_;
  s.sage = sage_;
  s.opt2 = opt2_;
  s.fastTolerance = fastTolerance_;
  s.curve = curve_;
  s.tasks = QVector<TaskStatusRow>(tasks_.begin(), tasks_.end());
  s.tokens = tokens_;
  s.cost = cost_;
  s.solved = static_cast<int>(std::count_if(tasks_.begin(), tasks_.end(), [](const auto& t) { return t.solved; }));
  s.taskCount = static_cast<int>(tasks_.size());
  s.finished = finished_;
  s.finishReason = finishReason_;
  return s;
}

void CampaignFeed::setWorkspace(const std::filesystem::path& dir) {
  blobs_ = std::make_shared<const store::ContentStore>(dir / "blobs");
}

QString tracePromptText(const TraceDetail& d) {
  if (!d.prompt.is_array() || d.prompt.empty()) return {};
  static const store::ContentStore kNoStore{std::filesystem::path()};
  std::string error;
  auto messages = store::load_prompt(d.prompt, d.blobs ? *d.blobs : kNoStore, error);
  if (!messages)
    return QCoreApplication::translate("TracePane", "(the prompt cannot be shown: %1)").arg(QString::fromStdString(error));
  QStringList parts;
  for (const auto& m : *messages)
    parts << QStringLiteral("[%1]\n%2").arg(QString::fromStdString(m["role"].get<std::string>()),
                                            capped(m["content"].get<std::string>()));
  return parts.join(QStringLiteral("\n\n"));
}

CampaignSummary summarizeWorkspace(const QString& dir) {
  CampaignSummary s;
  std::string err;
  const std::filesystem::path p = dir.toStdString();
  auto ws = store::Workspace::open_read_only(p, err);
  if (!ws) {
    s.dir = dir;
    s.error = QString::fromStdString(err);
    return s;
  }
  CampaignFeed feed;
  feed.consume(ws->loaded_events());  // decoded once here (the read boundary)
  s = feed.summary();
  s.dir = dir;
  if (s.name.isEmpty()) s.name = QString::fromStdString(ws->config().value("name", std::string()));
  return s;
}

}  // namespace sf::widgets
