#include "widgets/engine/engine_worker.hpp"

#include <algorithm>

#include "core/cost/baseline.hpp"
#include "core/step/printer.hpp"
#include "widgets/engine/engine_jobs.hpp"
#include "widgets/editor/task_browser_model.hpp"

namespace sf::widgets {

namespace {

QString bindingText(const step::SizeBinding& b) {
  QStringList parts;
  for (const auto& [k, v] : b) parts << QStringLiteral("%1=%2").arg(QString::fromStdString(k)).arg(v);
  return parts.join(QStringLiteral(", "));
}

}  // namespace

struct EngineWorker::CostContext {
  explicit CostContext(cost::ChipProfile chip)
      : model(std::move(chip)), baselines(model, bench::resource_dir() + "/solutions") {}
  cost::CostModel model;
  cost::Baselines baselines;
};

EngineWorker::EngineWorker(std::shared_ptr<JobControl> control, QObject* parent)
    : QObject(parent), control_(std::move(control)) {}

EngineWorker::~EngineWorker() = default;

EngineWorker::CostContext* EngineWorker::costContext(const QString& chip, QString* error) {
  const QString name = chip.isEmpty() ? QStringLiteral("default") : chip;
  if (auto it = cost_.find(name); it != cost_.end()) return it->second.get();
  std::string err;
  auto profile = cost::find_chip(name.toStdString(), bench::resource_dir(), err);
  if (!profile) {
    if (error) *error = QString::fromStdString(err);
    return nullptr;
  }
  auto& slot = cost_[name];
  slot = std::make_unique<CostContext>(std::move(*profile));
  return slot.get();
}

PerfSnapshot EngineWorker::perfOf(const inspect::CheckedProgram& p, const QString& chip) {
  PerfSnapshot s;
  s.taskId = QString::fromStdString(p.task.id);
  s.chip = chip.isEmpty() ? QStringLiteral("default") : chip;
  QString err;
  CostContext* c = costContext(s.chip, &err);
  if (!c) {
    s.why = tr("Chip profile %1: %2").arg(s.chip, err);
    return s;
  }
  Diagnostics diags;
  cost::EvalOptions opts;
  opts.timeline_buckets = kPerfTimelineBuckets;
  auto r = c->model.evaluate(p.task, *p.result.program, *p.result.typed, diags, opts);
  if (!r) {
    s.issues = toIssueRows(diags);
    s.why = diags.empty() ? tr("The cost model could not time the program.")
                          : tr("The cost model could not time the program: %1 %2")
                                .arg(QString::fromStdString(diags.front().code),
                                     QString::fromStdString(diags.front().message));
    return s;
  }
  std::string why;
  if (auto b = c->baselines.cycles(p.task, &why)) s.baselineCycles = *b;
  else s.baselineWhy = QString::fromStdString(why);
  if (auto sp = cost::speedup(*r, s.baselineCycles ? std::optional<std::int64_t>(*s.baselineCycles) : std::nullopt))
    s.speedup = *sp;
  s.report = std::make_shared<const cost::CostReport>(std::move(*r));
  s.ok = true;
  return s;
}

const bench::Catalogue* EngineWorker::catalogue() {
  if (!catalogue_) {
    // A broken bundled task is skipped (and listed with the task list; `stepforge-cli tasks validate` too).
    catalogue_ = bench::Catalogue::load(bench::resource_dir(), catalogueDiags_);
  }
  return &*catalogue_;
}

void EngineWorker::report(ProgressThrottle& t, JobKind kind, quint64 seq, int done, int total, const QString& what) {
  if (t.admit(done >= total)) emit progress(kind, seq, done, total, what);
}

void EngineWorker::check(quint64 seq, quint64 revision, const QString& text, const QString& path) {
  if (!control_->alive(JobKind::Check, seq)) return;  // superseded while queued
  CheckSnapshot s = makeCheckSnapshot(text.toStdString(), path.toStdString(), catalogue());
  s.seq = seq;
  s.revision = revision;
  if (control_->alive(JobKind::Check, seq)) emit checkFinished(s);
}

void EngineWorker::simulate(quint64 seq, const QString& text, const QString& path) {
  const JobKind k = JobKind::Simulate;
  if (!control_->alive(k, seq)) return;
  ProgressThrottle throttle;
  SimulateSnapshot s;
  s.seq = seq;
  report(throttle, k, seq, 0, 3, tr("checking"));
  Diagnostics diags;
  auto p = inspect::load_and_check(text.toStdString(), path.toStdString(), catalogue(), diags);
  if (p) diags.insert(diags.end(), p->result.diags.begin(), p->result.diags.end());
  if (!p || !p->result.ok()) {
    s.issues = toIssueRows(diags);
    report(throttle, k, seq, 3, 3, tr("failed"));
    if (control_->alive(k, seq)) emit simulateFinished(s);
    return;
  }
  s.taskId = QString::fromStdString(p->task.id);
  const auto [sizes, seed] = inspect::simulation_input(p->task);
  s.binding = bindingText(sizes);
  s.seed = seed;
  bool stopped = false;
  auto sim = inspect::simulate_once(*p, verifier_, diags, [&](int phase) {
    stopped = !control_->alive(k, seq);
    if (!stopped)
      report(throttle, k, seq, phase, 3, phase == 1 ? tr("generating inputs and reference") : tr("simulating"));
    return !stopped;
  });
  if (stopped) return;
  if (!sim) {
    s.issues = toIssueRows(diags);
    report(throttle, k, seq, 3, 3, tr("failed"));
    emit simulateFinished(s);
    return;
  }
  s.seconds = sim->seconds;
  s.ok = sim->ok();
  s.issues = toIssueRows(diags);
  s.program = p;
  s.run = sim->run;
  s.prepared = sim->prepared;
  s.inspector = sim->inspector;
  report(throttle, k, seq, 3, 3, tr("done"));
  if (control_->alive(k, seq)) emit simulateFinished(s);
}

void EngineWorker::verify(quint64 seq, const QString& text, const QString& path, const QString& chip) {
  const JobKind k = JobKind::Verify;
  if (!control_->alive(k, seq)) return;
  ProgressThrottle throttle;
  VerifySnapshot s;
  s.seq = seq;
  Diagnostics diags;
  auto p = inspect::load_and_check(text.toStdString(), path.toStdString(), catalogue(), diags);
  auto noPerf = [&](const QString& why) {
    auto perf = std::make_shared<PerfSnapshot>();
    perf->taskId = s.taskId;
    perf->chip = chip.isEmpty() ? QStringLiteral("default") : chip;
    perf->why = why;
    perf->issues = s.issues;
    s.perf = std::move(perf);
  };
  if (!p) {
    s.stage = QStringLiteral("document");
    s.code = diags.empty() ? QString() : QString::fromStdString(diags.front().code);
    s.issues = toIssueRows(diags);
    noPerf(tr("The document does not load (%1).").arg(s.code));
    if (control_->alive(k, seq)) emit verifyFinished(s);
    return;
  }
  s.taskId = QString::fromStdString(p->task.id);
  // The expensive part of a verification is generating the inputs and the reference of each input set; it is
  // done here set by set (the verifier caches it), so a cancel takes effect between sets.
  if (p->result.ok()) {
    const auto bindings = p->task.bindings();
    const int total = static_cast<int>(bindings.size() * p->task.verify.seeds.size()) + 1;
    int done = 0;
    for (const auto& b : bindings) {
      for (auto seed : p->task.verify.seeds) {
        if (!control_->alive(k, seq)) return;
        report(throttle, k, seq, done, total, tr("input set %1 of %2").arg(done + 1).arg(total - 1));
        Diagnostics ignored;  // reported again by verify()
        verifier_.prepare(p->task, b, seed, ignored);
        ++done;
      }
    }
    if (!control_->alive(k, seq)) return;
    report(throttle, k, seq, done, total, tr("simulating and comparing"));
  }
  verify::Report r = verifier_.verify(p->task, p->impl, p->impl_line_starts);
  s.pass = r.pass;
  s.stage = r.stage ? QString(QLatin1String(stage_name(*r.stage))) : QString();
  s.code = QString::fromStdString(r.code);
  s.issues = toIssueRows(r.diags);
  for (const auto& set : r.sets) {
    double mx = 0;
    for (const auto& o : set.outputs) mx = std::max(mx, o.stats.max_abs);
    s.sets.push_back({bindingText(set.sizes), set.seed, set.alt, set.pass, mx});
  }
  s.maxAbsError = r.max_abs_error;
  s.maxRelError = r.max_rel_error;
  s.seconds = r.seconds;
  s.programLength = r.program_length;
  s.canonicalKey = QString::fromStdString(r.canonical_key);
  if (r.pass && p->result.ok()) {
    if (!control_->alive(k, seq)) return;
    report(throttle, k, seq, 0, 1, tr("estimating cost"));
    s.perf = std::make_shared<const PerfSnapshot>(perfOf(*p, chip));
  } else {
    noPerf(tr("The program does not verify: stage %1, %2.").arg(s.stage, s.code));
  }
  report(throttle, k, seq, 1, 1, tr("done"));
  if (control_->alive(k, seq)) emit verifyFinished(s);
}

void EngineWorker::listTasks() {
  TaskListSnapshot s;
  const bench::Catalogue* cat = catalogue();
  s.tasks = std::make_shared<const std::vector<TaskEntry>>(task_entries(*cat));
  s.issues = toIssueRows(catalogueDiags_);
  emit taskListReady(s);
}

void EngineWorker::rewrite(quint64 seq, quint64 revision, RewriteKind kind, const QString& text, const QString& path) {
  if (!control_->alive(JobKind::Rewrite, seq)) return;
  RewriteSnapshot s = rewriteDocument(kind, text.toStdString(), path.toStdString(), catalogue());
  s.seq = seq;
  s.revision = revision;
  if (control_->alive(JobKind::Rewrite, seq)) emit rewriteFinished(s);
}

}  // namespace sf::widgets
