#include "widgets/editor/agent_runner.hpp"

#include <QSettings>
#include <QStandardPaths>
#include <QThread>

#include "core/agent/prompt_builder.hpp"
#include "core/bench/catalogue.hpp"
#include "core/llm/backend_config.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/price_table.hpp"
#include "core/store/golden.hpp"
#include "core/synth/provider.hpp"
#include "widgets/editor/golden_promote.hpp"

#ifdef SF_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace sf::widgets {


QString defaultAgentSessionDir() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/agent-session");
}

AgentSettings agentSettings(bool withDefaults) {
  QSettings s;
  AgentSettings a;
  const QByteArray b = s.value(QLatin1String(kAgentBackendKey)).toByteArray();
  if (!b.isEmpty()) {
    auto j = nlohmann::json::parse(b.toStdString(), nullptr, false);
    if (j.is_object()) a.backend = j;
  }
  a.memoryWorkspace = s.value(QLatin1String(kAgentMemoryKey)).toString();
  a.sessionDir = s.value(QLatin1String(kAgentSessionKey)).toString();
  if (a.sessionDir.isEmpty() && withDefaults) a.sessionDir = defaultAgentSessionDir();
  a.goldenFile = s.value(QLatin1String(kAgentGoldenKey)).toString();
  if (a.goldenFile.isEmpty() && withDefaults)
    a.goldenFile = a.sessionDir + QLatin1Char('/') + QLatin1String(store::kGoldenFileName);
  return a;
}

void setAgentSettings(const AgentSettings& a) {
  QSettings s;
  s.setValue(QLatin1String(kAgentBackendKey), QByteArray::fromStdString(a.backend.dump()));
  s.setValue(QLatin1String(kAgentMemoryKey), a.memoryWorkspace);
  s.setValue(QLatin1String(kAgentSessionKey), a.sessionDir);
  s.setValue(QLatin1String(kAgentGoldenKey), a.goldenFile);
  s.sync();
}

QString agentBackendError(const nlohmann::json& backend) {
  std::string err;
  auto cfg = llm::backend_config_from_json(backend, err);
  if (!cfg) return QString::fromStdString(err);
  if (auto problem = llm::validate(*cfg); !problem.empty()) return QString::fromStdString(problem);
  return {};
}

namespace {
constexpr char kKeyringService[] = "StepForge";
constexpr char kKeyringNamesKey[] = "agent/keyringNames";
}  // namespace

bool keyringAvailable() {
#ifdef SF_HAVE_QTKEYCHAIN
  return true;
#else
  return false;
#endif
}

void storeKeyInKeyring(const QString& keyEnv, const QString& key, QObject* context,
                       std::function<void(bool, const QString&)> done) {
  llm::set_session_key(keyEnv.toStdString(), key.toStdString());
#ifdef SF_HAVE_QTKEYCHAIN
  auto* job = new QKeychain::WritePasswordJob(QLatin1String(kKeyringService));
  job->setAutoDelete(true);
  job->setInsecureFallback(false);  // never a plain-text file
  job->setKey(keyEnv);
  job->setTextData(key.trimmed());
  QObject::connect(job, &QKeychain::Job::finished, context, [keyEnv, done](QKeychain::Job* j) {
    if (j->error() != QKeychain::NoError) {
      done(false, AgentRunner::tr("the OS keyring did not store the key (%1); it is used for this session only")
                      .arg(j->errorString()));
      return;
    }
    QSettings s;
    QStringList names = s.value(QLatin1String(kKeyringNamesKey)).toStringList();
    if (!names.contains(keyEnv)) names << keyEnv;
    s.setValue(QLatin1String(kKeyringNamesKey), names);
    done(true, AgentRunner::tr("stored in the OS keyring as %1").arg(keyEnv));
  });
  job->start();
#else
  (void)context;
  done(false, AgentRunner::tr("this build has no OS keyring; the key is used for this session only"));
#endif
}

void loadKeysFromKeyring() {
#ifdef SF_HAVE_QTKEYCHAIN
  for (const QString& name : QSettings().value(QLatin1String(kKeyringNamesKey)).toStringList()) {
    if (!llm::key_env_problem(name.toStdString()).empty()) continue;
    auto* job = new QKeychain::ReadPasswordJob(QLatin1String(kKeyringService));
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(name);
    QObject::connect(job, &QKeychain::Job::finished, [name](QKeychain::Job* j) {
      auto* r = static_cast<QKeychain::ReadPasswordJob*>(j);
      if (r->error() == QKeychain::NoError) llm::set_session_key(name.toStdString(), r->textData().toStdString());
    });
    job->start();
  }
#endif
}

// Everything the rounds use, built on the worker thread and rebuilt when the settings change.
struct AgentRunner::State {
  std::string key;  // the settings it was built for
  std::unique_ptr<llm::ChatBackend> backend;
  std::optional<llm::PriceTable> prices;
  std::unique_ptr<learn::InteractiveSession> session;
  std::string manual, model;
  QString sessionDir;
  verify::Verifier verifier;  // promotions

  // "" when ready for `job`, else why not.
  QString prepare(const AgentJob& job) {
    const std::string k = job.settings.backend.dump() + '\n' + job.settings.memoryWorkspace.toStdString() + '\n' +
                          job.settings.sessionDir.toStdString() + '\n' + job.chip.toStdString();
    if (session && k == key) return {};
    session.reset();
    backend.reset();
    key.clear();
    std::string err;
    if (QString why = agentBackendError(job.settings.backend); !why.isEmpty())
      return AgentRunner::tr("backend in the preferences: %1").arg(why);
    const llm::BackendConfig cfg = *llm::backend_config_from_json(job.settings.backend, err);
    if (cfg.kind == llm::BackendKind::Builtin) synth::register_builtin_provider();
    auto made = llm::make_backend(cfg);
    if (!made.backend) return QString::fromStdString(made.error);
    const std::string res = bench::resource_dir();
    if (manual.empty()) {
      auto m = agent::load_manual(res, agent::ManualMode::Auto, err);
      if (!m) return QString::fromStdString(err);
      manual = *m;
    }
    if (!prices) prices = llm::PriceTable::load(res + "/configs/prices.json", err);
    learn::InteractiveOptions io;
    io.model = cfg.model;
    io.endpoint = cfg;  // names the endpoint and the fix when a call fails for its reason
    io.chip = job.chip.toStdString();
    io.session_config = {{"backend", llm::backend_config_to_json(cfg)}, {"model", cfg.model}, {"source", "gui"}};
    auto s = std::make_unique<learn::InteractiveSession>(*made.backend, prices ? &*prices : nullptr, manual, io);
    if (!job.settings.memoryWorkspace.isEmpty() &&
        !s->use_workspace_memory(job.settings.memoryWorkspace.toStdString(), err))
      return AgentRunner::tr("memory workspace %1: %2").arg(job.settings.memoryWorkspace, QString::fromStdString(err));
    if (!job.settings.sessionDir.isEmpty() && !s->open_session_log(job.settings.sessionDir.toStdString(), err))
      return AgentRunner::tr("session workspace %1: %2").arg(job.settings.sessionDir, QString::fromStdString(err));
    backend = std::move(made.backend);
    session = std::move(s);
    model = cfg.model;
    sessionDir = job.settings.sessionDir;
    key = k;
    return {};
  }
};

AgentRunner::AgentRunner(QObject* parent)
    : QObject(parent), thread_(new QThread), ctx_(new QObject), state_(std::make_shared<State>()) {
  thread_->setObjectName(QStringLiteral("AgentRunner"));
  ctx_->moveToThread(thread_);
  thread_->start();
}

AgentRunner::~AgentRunner() {
  cancel_.cancel();
  thread_->quit();
  thread_->wait();
  delete ctx_;  // its thread has finished: work never started is dropped with it
  delete thread_;
  // The state (backend, session) goes with the last reference: the worker's lambdas are done.
}

void AgentRunner::post(std::function<void()> fn) {
  QMetaObject::invokeMethod(ctx_, std::move(fn), Qt::QueuedConnection);
}

bool AgentRunner::taskOf(const QString& document, step::TaskDoc& task, std::string& program, QString& error) {
  Diagnostics ds;
  const std::string text = document.toStdString();
  step::AnyDoc any = step::load_any_text(text, "editor", ds);
  if (any.task) {
    program = any.task->impl.value_or(std::string());
    task = std::move(*any.task);
    return true;
  }
  if (any.solution) {
    const step::TaskDoc* t = bundledCatalogue().find(any.solution->task_id);
    if (!t) {
      error = AgentRunner::tr("task '%1' is not in the benchmark catalogue").arg(QString::fromStdString(any.solution->task_id));
      return false;
    }
    task = *t;
    program = any.solution->impl;
    return true;
  }
  error = ds.empty() ? AgentRunner::tr("the editor holds no task document or solution file")
                     : AgentRunner::tr("the document does not load: %1 at %2:%3")
                           .arg(QString::fromStdString(ds.front().message))
                           .arg(ds.front().loc.line)
                           .arg(ds.front().loc.column);
  return false;
}

quint64 AgentRunner::start(const AgentJob& job) {
  if (running_) return 0;
  const quint64 id = ++next_;
  running_ = id;
  cancel_ = llm::CancelToken{};
  const llm::CancelToken cancel = cancel_;
  auto state = state_;
  post([this, state, job, id, cancel] {
    AgentOutcome o;
    o.job = id;
    o.action = job.action;
    o.instruction = job.instruction;
    o.document = job.document;
    step::TaskDoc task;
    std::string program;
    QString error;
    if (!taskOf(job.document, task, program, error)) {
      o.error = error;
    } else if (QString why = state->prepare(job); !why.isEmpty()) {
      o.error = why;
      o.taskId = QString::fromStdString(task.id);
    } else {
      o.program = QString::fromStdString(program);
      o.taskId = QString::fromStdString(task.id);
      o.model = QString::fromStdString(state->model);
      o.sessionDir = state->sessionDir;
      learn::InteractiveRequest req;
      req.action = job.action;
      req.program = program;
      req.instruction = job.instruction.toStdString();
      // Every finished call: the round's running totals (tokens, cost).
      auto totals = std::make_shared<AgentDelta>();
      auto live = [this, id, totals](const agent::TraceEvent& e) {
        totals->totals = true;
        totals->inputTokens += e.usage.input_tokens;
        totals->outputTokens += e.usage.output_tokens;
        if (e.cost_usd) {
          totals->costUsd += *e.cost_usd;
          totals->priced = true;
        }
        const AgentDelta d = *totals;
        QMetaObject::invokeMethod(this, [this, id, d] { emit delta(id, d); }, Qt::QueuedConnection);
      };
      auto onDelta = [this, id](const llm::StreamDelta& s) {
        AgentDelta d;
        d.text = QString::fromStdString(s.text);
        d.reasoning = QString::fromStdString(s.reasoning);
        d.progress = QString::fromStdString(s.progress);
        d.outputTokens = s.output_tokens;
        d.inputTokens = s.input_tokens;
        QMetaObject::invokeMethod(this, [this, id, d] { emit delta(id, d); }, Qt::QueuedConnection);
      };
      auto r = std::make_shared<learn::InteractiveResult>(state->session->run(task, req, cancel, live, onDelta));
      for (const auto& t : r->traces)
        if (t.cost_usd) {
          o.costUsd += *t.cost_usd;
          o.priced = true;
        }
      o.result = std::move(r);
    }
    QMetaObject::invokeMethod(
        this,
        [this, o] {
          if (running_ == o.job) running_ = 0;
          emit finished(o);
        },
        Qt::QueuedConnection);
  });
  return id;
}

void AgentRunner::cancel() { cancel_.cancel(); }

void AgentRunner::recordDecision(int round, const QString& taskId, const QString& decision) {
  auto state = state_;
  post([this, state, round, taskId, decision] {
    std::string err;
    if (state->session) state->session->record_decision(round, taskId.toStdString(), decision.toStdString(), err);
    else err = "no agent session";
    const QString e = QString::fromStdString(err);
    QMetaObject::invokeMethod(this, [this, round, decision, e] { emit decisionRecorded(round, decision, e); },
                              Qt::QueuedConnection);
  });
}

void AgentRunner::promoteToGolden(const QString& goldenFile, const QString& document, const QString& impl,
                                  const QString& model, const QString& sessionDir, int round,
                                  std::optional<std::int64_t> cycles, std::optional<double> speedup) {
  auto state = state_;
  post([this, state, goldenFile, document, impl, model, sessionDir, round, cycles, speedup] {
    step::TaskDoc task;
    std::string program;
    QString error;
    GoldenPromotion p;
    if (!taskOf(document, task, program, error)) {
      p.message = tr("Not promoted: %1").arg(error);
    } else {
      GoldenCandidate c;
      c.impl = impl.toStdString();
      c.provenance.workspace = sessionDir.toStdString();
      c.provenance.iteration = round;
      c.provenance.model = model.toStdString();
      c.provenance.source = "editor";
      c.cycles = cycles;
      c.speedup = speedup;
      p = promoteToGoldenFile(goldenFile, task, c, state->verifier);
    }
    const bool ok = p.ok;
    const QString message = p.message;
    QMetaObject::invokeMethod(this, [this, ok, message] { emit promoted(ok, message); }, Qt::QueuedConnection);
  });
}

}  // namespace sf::widgets
