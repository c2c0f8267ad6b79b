#include "widgets/campaign_feed.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <QCoreApplication>

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

// Field readers: a missing or null field gives the default; a field of another type makes the event malformed
// (it is skipped and counted).
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string ss(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw Malformed(key);
  return it->get<std::string>();
}

QString qs(const json& j, const char* key) { return QString::fromStdString(ss(j, key)); }

template <class T>
T num(const json& j, const char* key, T def = T{}) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_number()) throw Malformed(key);
  return it->get<T>();
}

bool flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

const json& sub(const json& j, const char* key) {
  static const json empty = json::object();
  auto it = j.find(key);
  return (it != j.end() && it->is_object()) ? *it : empty;
}

// Optional fields added later (older logs lack them): absent, null or of another type all read as "none" and
// never make the event malformed.
std::optional<double> optNum(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

QString capped(const std::string& s) {
  QString q = QString::fromStdString(s);
  if (q.size() > CampaignFeed::kMaxMessageChars) {
    q.truncate(CampaignFeed::kMaxMessageChars);
    q += QStringLiteral("\n… (truncated)");
  }
  return q;
}

QString verdictText(const json& e) {
  if (flag(e, "pass")) return QStringLiteral("pass");
  QString s = QStringLiteral("fail");
  const QString stage = qs(e, "stage"), code = qs(e, "code");
  if (!stage.isEmpty() || !code.isEmpty()) s += QStringLiteral(": ") + (stage + QLatin1Char(' ') + code).trimmed();
  return s;
}

QString verdictWordOf(const json& e) {
  return QString::fromStdString(learn::verdict_word(flag(e, "pass"), ss(e, "stage"), ss(e, "code")));
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

CampaignUpdate CampaignFeed::consume(const std::vector<json>& events) { return consume(events, 0, events.size()); }

CampaignUpdate CampaignFeed::consume(const std::vector<json>& events, std::size_t begin, std::size_t end) {
  CampaignUpdate u;
  const qint64 firstRow = rows_;
  end = std::min(end, events.size());
  for (std::size_t i = begin; i < end; ++i) {
    try {
      if (!events[i].is_object()) {
        ++malformed_;
        continue;
      }
      apply(events[i], u, firstRow);
      ++events_;
    } catch (const std::exception&) {
      ++malformed_;  // a field of the wrong type: the event is skipped
    }
  }
  fillTotals(u);
  return u;
}

void CampaignFeed::fillTotals(CampaignUpdate& u) const {
  u.name = name_;
  u.mode = mode_;
  u.model = model_;
  u.sage = sage_;
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

void CampaignFeed::apply(const json& e, CampaignUpdate& u, qint64 firstRow) {
  const std::string type = ss(e, "type");
  const double t = num<double>(e, "t");
  if (t > 0) lastT_ = t;
  if (type == "campaign_started") {
    if (started_) return;  // a second start (resume never writes one): ignored
    started_ = true;
    const json& cfg = sub(e, "config");
    name_ = qs(cfg, "name");
    mode_ = qs(cfg, "mode");
    model_ = qs(sub(cfg, "backend"), "model");
    sage_ = mode_ == QLatin1String("sage");
    if (auto it = e.find("tasks"); it != e.end() && it->is_array()) {
      for (const auto& ti : *it) {
        if (!ti.is_object()) continue;
        const std::string id = ss(ti, "id");
        if (id.empty()) continue;
        task(id);
        tagOf_[id] = ss(ti, "tag");
      }
    }
  } else if (type == "iteration_started") {
    iteration_ = num<int>(e, "iteration");
    const auto tasks = e.contains("tasks") && e["tasks"].is_array() ? e["tasks"].size() : 0;
    const auto temps = e.contains("temperatures") && e["temperatures"].is_array() ? e["temperatures"].size() : 0;
    total_ = static_cast<qint64>(tasks * temps) * num<qint64>(e, "n");
    done_ = 0;
    iterT0_ = t;
  } else if (type == "episode_started") {
    iteration_ = num<int>(e, "episode");
    total_ = num<qint64>(e, "max_rounds");
    done_ = 0;
    iterT0_ = t;
    task(ss(e, "task"));
  } else if (type == "llm_call") {
    onLlmCall(e, u);
  } else if (type == "verdict") {
    onVerdict(e, u, firstRow);
  } else if (type == "iteration_summary") {
    onIterationSummary(e, u);
  } else if (type == "episode_finished") {
    onEpisodeFinished(e, u);
  } else if (type == "campaign_finished") {
    finished_ = true;
    finishReason_ = qs(e, "reason");
  }
}

std::shared_ptr<const TraceDetail> traceDetailOf(const json& tr, std::shared_ptr<const store::ContentStore> blobs) {
  auto d = std::make_shared<TraceDetail>();
  if (auto it = tr.find("prompt"); it != tr.end() && it->is_array()) d->prompt = *it;
  d->blobs = std::move(blobs);
  d->response = capped(ss(tr, "response"));
  d->impl = capped(ss(tr, "impl"));
  d->guardianDiff = capped(ss(tr, "guardian_diff"));
  d->reasoning = capped(ss(tr, "reasoning"));
  d->finishReason = qs(tr, "finish_reason");
  if (auto it = tr.find("rules_used"); it != tr.end() && it->is_array())
    for (const auto& id : *it)
      if (id.is_string() && d->rulesUsed.size() < 64) d->rulesUsed << QString::fromStdString(id.get<std::string>());
  if (auto it = tr.find("diagnostics"); it != tr.end() && it->is_array()) {
    QStringList lines;
    for (const auto& dg : *it)
      if (dg.is_object())
        lines << QStringLiteral("%1 %2:%3 %4")
                     .arg(qs(dg, "code"))
                     .arg(num<int>(dg, "line"))
                     .arg(num<int>(dg, "column"))
                     .arg(qs(dg, "message"));
    d->diagnostics = lines.join(QLatin1Char('\n'));
  }
  if (const QString kind = qs(sub(tr, "error"), "kind"); !kind.isEmpty())
    d->diagnostics += QStringLiteral("\nLLM error %1: %2").arg(kind, qs(sub(tr, "error"), "message"));
  return d;
}

void CampaignFeed::onLlmCall(const json& e, CampaignUpdate& u) {
  const json& tr = sub(e, "trace");
  TraceRow r;
  r.seq = num<qint64>(e, "seq");
  r.role = qs(tr, "role");
  const std::string taskId = ss(e, "task");
  r.task = QString::fromStdString(taskId);
  r.iteration = num<int>(e, "iteration");
  r.temperatureIndex = num<int>(e, "temperature_index");
  r.sample = num<int>(e, "sample_index");
  const json& usage = sub(tr, "usage");
  r.tokens = num<qint64>(usage, "input_tokens") + num<qint64>(usage, "output_tokens");
  r.latency = num<double>(tr, "latency_s");
  r.cost = num<double>(tr, "cost_usd");
  r.fromCache = flag(tr, "from_cache");
  r.error = qs(sub(tr, "error"), "kind");
  r.detail = traceDetailOf(tr, blobs_);
  tokens_ += r.tokens;
  cost_ += r.cost;
  pending_[{r.iteration, taskId, r.temperatureIndex, r.sample}].push_back(rows_);
  ++rows_;
  task(taskId);
  u.traceRows.push_back(std::move(r));
}

void CampaignFeed::onVerdict(const json& e, CampaignUpdate& u, qint64 firstRow) {
  const std::string taskId = ss(e, "task");
  SampleKey key{num<int>(e, "iteration"), taskId, num<int>(e, "temperature_index"), num<int>(e, "sample_index")};
  const QString v = verdictText(e);
  const QString word = verdictWordOf(e);
  const bool pass = flag(e, "pass");
  // Cost-model fields of a PASS verdict (optional).
  const double cyc = pass ? optNum(e, "cycles").value_or(-1.0) : -1.0;
  double sp = pass ? optNum(e, "speedup").value_or(-1.0) : -1.0;
  if (auto it = e.find("feasible"); it != e.end() && it->is_boolean() && !it->get<bool>()) sp = -1.0;
  const qint64 cycles = cyc >= 0 ? static_cast<qint64>(cyc) : -1;
  const double speedup = sp >= 0 ? sp : -1;
  if (auto it = pending_.find(key); it != pending_.end()) {
    for (qint64 row : it->second) {
      if (row >= firstRow) {
        TraceRow& r = u.traceRows[static_cast<int>(row - firstRow)];
        r.verdict = v;
        r.verdictWord = word;
        r.cycles = cycles;
        r.speedup = speedup;
      } else {
        u.verdictUpdates.push_back({static_cast<int>(row), v, cycles, speedup, word});
      }
    }
    pending_.erase(it);
  }
  TaskStatusRow& ts = task(taskId);
  ts.samples++;
  if (pass) {
    ts.successes++;
    if (sage_) ts.solved = true;
    if (speedup >= 0 && (!ts.bestSpeedup || speedup > *ts.bestSpeedup)) ts.bestSpeedup = speedup;
  }
  ++done_;
}

void CampaignFeed::onIterationSummary(const json& e, CampaignUpdate& u) {
  if (auto it = e.find("results"); it != e.end() && it->is_array())
    for (const auto& r : *it)
      if (r.is_object() && flag(r, "newly_solved")) task(ss(r, "task")).solved = true;
  const json& m = sub(e, "metrics");
  const json& cu = sub(m, "cumulative");
  CurvePoint p;
  p.x = num<int>(e, "iteration");
  p.tokens = num<qint64>(sub(m, "tokens"), "total");
  p.cost = num<double>(m, "cost_usd");
  p.pass1 = num<double>(cu, "pass_at_1");
  p.passN = num<double>(cu, "pass_at_n");
  p.solved = num<int>(cu, "solved");
  p.tasks = num<int>(cu, "tasks");
  for (const auto& [tag, v] : sub(cu, "by_tag").items())
    if (v.is_object()) p.byTag[tag] = {num<double>(v, "pass_at_1"), num<double>(v, "pass_at_n")};
  // Performance metrics next to pass_at_1 (optional): the cumulative ones, else the iteration's own.
  const json& it = sub(m, "iteration");
  auto perf = [&](const char* k) { return cu.contains(k) ? optNum(cu, k) : optNum(it, k); };
  p.fast1 = perf("fast_1");
  p.fast15 = perf("fast_1_5");
  p.medianSpeedup = perf("median_speedup");
  curve_.push_back(p);
  u.newPoints.push_back(p);
}

void CampaignFeed::onEpisodeFinished(const json& e, CampaignUpdate& u) {
  const std::string taskId = ss(e, "task");
  const bool solved = flag(e, "solved");
  TaskStatusRow& ts = task(taskId);
  if (solved) {
    ts.solved = true;
    solvedTasks_.insert(taskId);
  }
  const std::string tag = tagOf_.count(taskId) ? tagOf_[taskId] : std::string("untagged");
  for (const std::string& k : {std::string(), tag}) {
    auto& [eps, ok] = episodes_[k];
    ++eps;
    if (solved) ++ok;
  }
  CurvePoint p;
  p.x = num<int>(e, "episode");
  p.tokens = tokens_;
  p.cost = cost_;
  const auto& [eps, ok] = episodes_[std::string()];
  p.pass1 = eps ? double(ok) / eps : 0.0;  // ER over the episodes so far
  p.tasks = static_cast<int>(tasks_.size());
  p.solved = static_cast<int>(solvedTasks_.size());
  p.passN = p.tasks ? double(p.solved) / p.tasks : 0.0;
  for (const auto& [k, v] : episodes_)
    if (!k.empty()) p.byTag[k] = {v.first ? double(v.second) / v.first : 0.0, v.first ? double(v.second) / v.first : 0.0};
  curve_.push_back(p);
  u.newPoints.push_back(p);
}

CampaignSummary CampaignFeed::summary() const {
  CampaignSummary s;
  s.name = name_;
  s.mode = mode_;
  s.sage = sage_;
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
  feed.consume(ws->loaded_events());
  s = feed.summary();
  s.dir = dir;
  if (s.name.isEmpty()) s.name = QString::fromStdString(ws->config().value("name", std::string()));
  return s;
}

}  // namespace sf::widgets
