#include "widgets/campaign/run_comparison_view.hpp"
#include "core/common/speedup.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>

#include <algorithm>

#include "core/bench/catalogue.hpp"
#include "core/learn/round_parts.hpp"
#include "core/store/content_store.hpp"
#include "core/verify/verifier.hpp"
#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/editor/golden_promote.hpp"
#include "widgets/editor/program_diff_view.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shortcut_sheet.hpp"

namespace sf::widgets {

namespace {

using Metric = RunGridModel::Metric;

QString verdictOf(const learn::Verdict& v) {
  return v.pass ? QStringLiteral("pass") : QStringLiteral("fail: %1 %2").arg(qs(v.stage), qs(v.code));
}

// `runDir` is the run's workspace: the prompts' parts are read from its blobs/.
QString formatCalls(const std::vector<nlohmann::json>& calls, const std::filesystem::path& runDir) {
  QStringList out;
  const auto blobs = std::make_shared<const store::ContentStore>(runDir / "blobs");
  for (const auto& c : calls) {
    std::string err;
    const learn::CallView view = learn::call_view(c, err).value_or(learn::CallView{});
    const auto d = traceDetailOf(view, blobs);
    const QString prompt = tracePromptText(*d);
    const QString role = view.role.empty() ? QStringLiteral("?") : qs(view.role);
    QString t = QStringLiteral("=== %1 ===\n").arg(role);
    if (!prompt.isEmpty()) t += QStringLiteral("--- prompt ---\n%1\n").arg(prompt);
    if (!d->reasoning.isEmpty()) t += QStringLiteral("--- reasoning ---\n%1\n").arg(d->reasoning);
    if (!d->response.isEmpty()) t += QStringLiteral("--- response ---\n%1\n").arg(d->response);
    if (!d->finishReason.isEmpty()) t += QStringLiteral("--- finish reason: %1 ---\n").arg(d->finishReason);
    if (!d->guardianDiff.isEmpty()) t += QStringLiteral("--- guardian ---\n%1\n").arg(d->guardianDiff);
    if (!d->diagnostics.isEmpty()) t += QStringLiteral("--- diagnostics ---\n%1\n").arg(d->diagnostics);
    out << t;
  }
  return out.isEmpty() ? RunComparisonView::tr("(no agent calls logged for this sample)") : out.join(QLatin1Char('\n'));
}

}  // namespace

// ---- RunComparisonView ----

RunComparisonView::RunComparisonView(QWidget* parent) : QWidget(parent) {
  model_ = new RunGridModel(this);
  metricBox_ = new QComboBox(this);
  for (int m = 0; m < RunGridModel::kMetricCount; ++m) metricBox_->addItem(RunGridModel::metricName(Metric(m)));
  metricBox_->setCurrentIndex(int(model_->metric()));
  metricBox_->setToolTip(tr("The number each cell shows and colours (M / Shift+M)"));
  differing_ = new QCheckBox(tr("Only tasks that differ"), this);
  differing_->setToolTip(tr("Hide the tasks on which every run agrees: attempted, solved and pass@1 (F)"));
  baselineBox_ = new QComboBox(this);
  baselineBox_->setToolTip(tr("Deltas against this run (B on a cell)"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Metric"), this));
  bar->addWidget(metricBox_);
  bar->addWidget(differing_);
  bar->addWidget(new QLabel(tr("Baseline"), this));
  bar->addWidget(baselineBox_);
  bar->addStretch(1);
  bar->addWidget(new QLabel(tr("Enter open · Space mark · D diff · ? keys"), this));

  grid_ = new QTableView(this);
  grid_->setObjectName(QStringLiteral("runGrid"));
  grid_->setModel(model_);
  grid_->setSelectionBehavior(QAbstractItemView::SelectItems);
  grid_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  grid_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  grid_->verticalHeader()->setDefaultSectionSize(22);
  grid_->installEventFilter(this);

  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  cellTitle_ = new QLabel(tr("Enter on a cell opens that run's samples of the task"), this);
  cellTitle_->setWordWrap(true);
  samples_ = new QTableWidget(0, 8, this);
  samples_->setObjectName(QStringLiteral("runSamples"));
  samples_->setHorizontalHeaderLabels({tr("#"), tr("Iteration"), tr("Temp."), tr("Sample"), tr("Verdict"),
                                       tr("Cycles"), tr("Speedup"), tr("Tokens")});
  samples_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  samples_->setSelectionBehavior(QAbstractItemView::SelectRows);
  samples_->setSelectionMode(QAbstractItemView::SingleSelection);
  samples_->verticalHeader()->hide();
  samples_->installEventFilter(this);
  program_ = new QPlainTextEdit(this);
  program_->setReadOnly(true);
  program_->setFont(mono);
  program_->installEventFilter(this);
  sampleOutputs_ = new QLabel(this);
  sampleOutputs_->setWordWrap(true);
  sampleOutputs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  calls_ = new QPlainTextEdit(this);
  calls_->setReadOnly(true);
  calls_->setFont(mono);
  calls_->installEventFilter(this);
  auto* right = new QSplitter(Qt::Vertical, this);
  auto* progBox = new QWidget(right);
  auto* pl = new QVBoxLayout(progBox);
  pl->setContentsMargins(0, 0, 0, 0);
  pl->addWidget(program_, 1);
  pl->addWidget(sampleOutputs_);
  right->addWidget(progBox);
  right->addWidget(calls_);
  auto* drill = new QWidget(this);
  auto* dl = new QVBoxLayout(drill);
  dl->setContentsMargins(0, 0, 0, 0);
  dl->addWidget(cellTitle_);
  auto* ds = new QSplitter(Qt::Horizontal, drill);
  ds->addWidget(samples_);
  ds->addWidget(right);
  dl->addWidget(ds, 1);

  diff_ = new ProgramDiffView(this);
  diff_->installEventFilter(this);
  diff_->leftEditor()->installEventFilter(this);
  diff_->rightEditor()->installEventFilter(this);
  leftOutputs_ = new QLabel(this);
  rightOutputs_ = new QLabel(this);
  for (QLabel* l : {leftOutputs_, rightOutputs_}) {
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  }
  auto* diffBox = new QWidget(this);
  auto* xl = new QVBoxLayout(diffBox);
  xl->setContentsMargins(0, 0, 0, 0);
  xl->addWidget(diff_, 1);
  auto* outs = new QHBoxLayout;
  outs->addWidget(leftOutputs_, 1);
  outs->addWidget(rightOutputs_, 1);
  xl->addLayout(outs);

  tabs_ = new QTabWidget(this);
  tabs_->addTab(drill, tr("Samples"));
  tabs_->addTab(diffBox, tr("Program diff"));
  // The drill-down may be short (the splitter gives it room on demand): the grid keeps the dock's height.
  tabs_->setMinimumHeight(8 * fontMetrics().lineSpacing());

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(grid_);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 2);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->hide();
  auto* l = new QVBoxLayout(this);
  l->addLayout(bar);
  l->addWidget(note_);
  l->addWidget(split, 1);

  // Promote to golden (G): an action with a context-menu entry on the grid (the cell's program) and on the
  // sample list (the sample's program); in the program and diff views eventFilter takes G.
  auto promoteAction = [](QAbstractItemView* on, const QString& text, const QString& name, const QString& tip) {
    auto* a = new QAction(text, on);
    a->setObjectName(name);
    a->setShortcut(QKeySequence(Qt::Key_G));
    a->setShortcutContext(Qt::WidgetShortcut);
    a->setToolTip(tip);
    on->addAction(a);
    on->setContextMenuPolicy(Qt::ActionsContextMenu);
    return a;
  };
  promoteCellAction_ = promoteAction(grid_, tr("Promote to &Golden"), QStringLiteral("comparisonPromoteCell"),
                                     tr("Verify the cell's program and add it to the golden set (G)"));
  connect(promoteCellAction_, &QAction::triggered, this, [this] { promoteCell(grid_->currentIndex()); });
  promoteSampleAction_ =
      promoteAction(samples_, tr("Promote Sample to &Golden"), QStringLiteral("comparisonPromoteSample"),
                    tr("Verify the sample's program and add it to the golden set (G)"));
  connect(promoteSampleAction_, &QAction::triggered, this, &RunComparisonView::promoteShownSample);

  connect(metricBox_, &QComboBox::currentIndexChanged, this, [this](int i) { model_->setMetric(Metric(i)); });
  connect(differing_, &QCheckBox::toggled, this, [this](bool on) {
    model_->setOnlyDiffering(on);
    marked_ = QPersistentModelIndex();
  });
  connect(baselineBox_, &QComboBox::currentIndexChanged, this, [this](int i) { model_->setBaseline(i - 1); });
  connect(grid_, &QTableView::activated, this, [this](const QModelIndex& i) { openCell(i); });
  connect(samples_, &QTableWidget::currentCellChanged, this, [this](int row) { showSample(row); });
}

void RunComparisonView::setRuns(std::vector<RunRecordPtr> runs, const QStringList& problems) {
  model_->setRuns(std::move(runs));
  note_->setText(tr("Not in the grid: %1").arg(problems.join(QStringLiteral("; "))));
  note_->setVisible(!problems.isEmpty());
  marked_ = QPersistentModelIndex();
  shown_.clear();
  shownRun_ = -1;
  samples_->setRowCount(0);
  syncControls();
  if (model_->rowCount() > 0 && model_->runCount() > 0) grid_->setCurrentIndex(model_->index(0, 1));
}

void RunComparisonView::syncControls() {
  const QSignalBlocker b1(metricBox_), b2(differing_), b3(baselineBox_);
  metricBox_->setCurrentIndex(int(model_->metric()));
  differing_->setChecked(model_->onlyDiffering());
  baselineBox_->clear();
  baselineBox_->addItem(tr("(none)"));
  for (int r = 0; r < model_->runCount(); ++r) baselineBox_->addItem(model_->runTitle(r));
  baselineBox_->setCurrentIndex(model_->baseline() + 1);
}

bool RunComparisonView::openCell(const QModelIndex& index) {
  const int col = index.column();
  const auto* run = model_->run(col - 1);
  const std::string task = model_->task(index.row());
  if (!run || task.empty()) {
    emit statusMessage(tr("Choose a run's cell (not the task column)"));
    return false;
  }
  shownTask_ = task;
  shownDir_ = run->dir;
  shownRun_ = col - 1;
  shown_ = learn::task_samples(*run, task);
  cellTitle_->setText(tr("%1 in %2: %3 samples").arg(qs(task), model_->runTitle(col - 1)).arg(shown_.size()));
  samples_->setRowCount(static_cast<int>(shown_.size()));
  for (int i = 0; i < static_cast<int>(shown_.size()); ++i) {
    const auto& v = shown_[static_cast<std::size_t>(i)].verdict;
    std::int64_t tokens = 0;
    for (const auto& [role, u] : v.usage) tokens += u.input_tokens + u.output_tokens;
    const QStringList cells = {QString::number(i + 1), QString::number(v.iteration),
                               QString::number(v.temperature_index), QString::number(v.sample_index), verdictOf(v),
                               v.cycles ? QString::number(*v.cycles) : QStringLiteral("–"),
                               v.speedup ? QString::fromStdString(speedup_text(*v.speedup, run->fast_tolerance))
                                         : QStringLiteral("–"),
                               QString::number(tokens)};
    for (int c = 0; c < cells.size(); ++c) samples_->setItem(i, c, new QTableWidgetItem(cells[c]));
  }
  tabs_->setCurrentIndex(0);
  if (shown_.empty()) {
    program_->clear();
    calls_->clear();
    sampleOutputs_->setText(tr("The run has no sample of this task."));
  } else {
    samples_->setCurrentCell(0, 0);
    showSample(0);
  }
  return true;
}

void RunComparisonView::showSample(int i) {
  if (i < 0 || i >= static_cast<int>(shown_.size())) return;
  const auto& s = shown_[static_cast<std::size_t>(i)];
  program_->setPlainText(s.verdict.impl.empty() ? tr("(no program: %1)").arg(qs(s.verdict.error)) : qs(s.verdict.impl));
  calls_->setPlainText(formatCalls(s.calls, shownDir_));
  sampleOutputs_->setText(s.verdict.impl.empty() ? QString() : outputsText(shownTask_, s.verdict.impl));
}

void RunComparisonView::moveSample(int delta) {
  if (shown_.empty()) return;
  const int n = static_cast<int>(shown_.size());
  const int row = std::clamp(samples_->currentRow() + delta, 0, n - 1);
  samples_->setCurrentCell(row, 0);
  showSample(row);
}

QString RunComparisonView::outputsText(const std::string& task, const std::string& impl) {
  const step::TaskDoc* t = bundledCatalogue().find(task);
  if (!t) return tr("Outputs: task '%1' is not in the bundled catalogue, no reference to compare with").arg(qs(task));
  verify::Verifier v;
  const verify::Report rep = v.verify(*t, impl);
  QStringList lines;
  for (const auto& o : verify::compare_outputs(rep)) {
    if (o.ok())
      lines << tr("%1: all %2 values within tolerance; max abs error %3, max rel error %4")
                   .arg(qs(o.name))
                   .arg(o.values)
                   .arg(o.max_abs, 0, 'g', 3)
                   .arg(o.max_rel, 0, 'g', 3);
    else
      lines << tr("%1: %2 of %3 values differ; max abs error %4, max rel error %5; first mismatch %6 [%7]")
                   .arg(qs(o.name))
                   .arg(o.mismatches)
                   .arg(o.values)
                   .arg(o.max_abs, 0, 'g', 3)
                   .arg(o.max_rel, 0, 'g', 3)
                   .arg(qs(o.first_mismatch), qs(o.first_mismatch_code));
  }
  if (!rep.pass && lines.isEmpty())
    lines << tr("No output compared: %1").arg(qs(learn::format_round_diagnostics(rep.diags)).trimmed());
  return (rep.pass ? tr("Outputs vs reference (verifies):") : tr("Outputs vs reference (does not verify):")) +
         QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
}

bool RunComparisonView::diffCells(const QModelIndex& left, const QModelIndex& right) {
  const auto* lr = model_->run(left.column() - 1);
  const auto* rr = model_->run(right.column() - 1);
  const std::string lt = model_->task(left.row()), rt = model_->task(right.row());
  if (!lr || !rr || lt.empty() || rt.empty() || left == right) {
    emit statusMessage(tr("A diff needs two different run cells"));
    return false;
  }
  const auto lp = learn::representative_program(lr->state, lt);
  const auto rp = learn::representative_program(rr->state, rt);
  auto title = [this](int col, const std::string& task, const std::optional<learn::RepresentativeProgram>& p) {
    return tr("%1 · %2 · %3").arg(model_->runTitle(col - 1), qs(task), p ? qs(p->why) : tr("no program"));
  };
  diff_->setTexts(lp ? qs(lp->impl) : QString(), rp ? qs(rp->impl) : QString(), title(left.column(), lt, lp),
                  title(right.column(), rt, rp));
  leftOutputs_->setText(lp ? outputsText(lt, lp->impl) : tr("No program"));
  rightOutputs_->setText(rp ? outputsText(rt, rp->impl) : tr("No program"));
  tabs_->setCurrentIndex(1);
  emit statusMessage(diff_->summaryText());
  return true;
}

bool RunComparisonView::diffCurrent() {
  const QModelIndex cur = grid_->currentIndex();
  const auto sel = grid_->selectionModel()->selectedIndexes();
  if (sel.size() == 2) return diffCells(sel[0].column() <= sel[1].column() ? sel[0] : sel[1],
                                        sel[0].column() <= sel[1].column() ? sel[1] : sel[0]);
  if (marked_.isValid()) return diffCells(marked_, cur);
  if (model_->baseline() >= 0) return diffCells(model_->index(cur.row(), model_->baseline() + 1), cur);
  emit statusMessage(tr("Mark a cell with Space (or choose a baseline with B), then D on the other cell"));
  return false;
}

void RunComparisonView::markCurrent() {
  const QModelIndex cur = grid_->currentIndex();
  if (cur.column() < 1) return;
  marked_ = cur == marked_ ? QPersistentModelIndex() : QPersistentModelIndex(cur);
  emit statusMessage(marked_.isValid() ? tr("Marked %1 in %2: D on another cell diffs them")
                                             .arg(qs(model_->task(cur.row())), model_->runTitle(cur.column() - 1))
                                       : tr("Mark cleared"));
}

void RunComparisonView::setBaselineToCurrent() {
  const int run = grid_->currentIndex().column() - 1;
  if (run < 0) return;
  model_->setBaseline(model_->baseline() == run ? -1 : run);
  syncControls();
}

void RunComparisonView::cycleMetric(int delta) {
  const int n = RunGridModel::kMetricCount;
  model_->setMetric(Metric(((int(model_->metric()) + delta) % n + n) % n));
  syncControls();
}

void RunComparisonView::toggleOnlyDiffering() {
  const QModelIndex cur = grid_->currentIndex();
  const std::string task = model_->task(cur.row());
  model_->setOnlyDiffering(!model_->onlyDiffering());
  marked_ = QPersistentModelIndex();
  syncControls();
  int row = model_->rowOfTask(task);
  if (row < 0 && model_->rowCount() > 0) row = 0;
  if (row >= 0) grid_->setCurrentIndex(model_->index(row, std::max(1, cur.column())));
}

void RunComparisonView::toggleCanonical() {
  diff_->setCanonical(!diff_->canonical());
  emit statusMessage(diff_->summaryText());
}

namespace {

// A program of `run` for `task` as a golden candidate: provenance from the run and the verdict (when known).
GoldenCandidate comparisonCandidate(const learn::RunRecord& run, const std::string& task, const std::string& impl,
                                    const learn::Verdict* v) {
  GoldenCandidate c;
  c.impl = impl;
  c.provenance = {run.name, run.dir.string(), task, v ? v->iteration : -1, v ? v->sample_index : -1,
                  campaignModelOf(run.state.config), "comparison"};
  if (v) {
    c.cycles = v->cycles;
    c.speedup = v->speedup;
  }
  return c;
}

}  // namespace

bool RunComparisonView::promoteCell(const QModelIndex& index) {
  const auto* run = model_->run(index.column() - 1);
  const std::string task = model_->task(index.row());
  if (!run || task.empty()) {
    emit statusMessage(tr("Not promoted: choose a run's cell (not the task column)"));
    return false;
  }
  const auto rp = learn::representative_program(run->state, task);
  if (!rp) {
    emit statusMessage(tr("Not promoted: no sample of %1 in %2 produced a program")
                           .arg(qs(task), model_->runTitle(index.column() - 1)));
    return false;
  }
  // The verdict the representative program comes from (its sample index for the provenance).
  const learn::Verdict* from = nullptr;
  for (const learn::Verdict* v : learn::task_verdicts(run->state, task))
    if (v->iteration == rp->iteration && v->impl == rp->impl && (!from || (v->pass && !from->pass))) from = v;
  const GoldenPromotion p = promoteCatalogueProgram(goldenFileForWorkspace(QString::fromStdString(run->dir.string())),
                                                    task, comparisonCandidate(*run, task, rp->impl, from));
  emit statusMessage(p.message);
  return p.ok;
}

bool RunComparisonView::promoteShownSample() {
  const int i = samples_->currentRow();
  const auto* run = model_->run(shownRun_);
  if (!run || i < 0 || i >= static_cast<int>(shown_.size())) {
    emit statusMessage(tr("Not promoted: open a cell (Enter) and choose a sample"));
    return false;
  }
  const learn::Verdict& v = shown_[static_cast<std::size_t>(i)].verdict;
  const GoldenPromotion p = promoteCatalogueProgram(goldenFileForWorkspace(QString::fromStdString(run->dir.string())),
                                                    shownTask_, comparisonCandidate(*run, shownTask_, v.impl, &v));
  emit statusMessage(p.message);
  return p.ok;
}

QString RunComparisonView::cheatSheetText() {
  return tr("Enter — open the cell: that run's samples of the task (programs, verdicts, agent calls)\n"
            "J / K — next / previous sample of the opened cell\n"
            "Space — mark the current cell as the left side of a diff (again: clear)\n"
            "D — diff: the marked cell (or two selected cells, or the baseline's cell) against the current cell\n"
            "C — canonical form on / off in the program diff\n"
            "N / P — next / previous change in the program diff\n"
            "F — only tasks that differ on / off\n"
            "B — the current cell's run becomes the baseline (again: no baseline)\n"
            "M / Shift+M — next / previous metric\n"
            "G — promote to golden: the current cell's program (in the sample list: the sample's program)\n"
            "Esc — back to the grid\n"
            "? / F1 — this cheat sheet");
}

void RunComparisonView::showCheatSheet() {
  showShortcutSheet(this, cheatSheet_, QStringLiteral("comparisonCheatSheet"), tr("Run comparison keyboard shortcuts"),
                    cheatSheetText());
}

QWidget* RunComparisonView::cheatSheet() const { return cheatSheet_; }

bool RunComparisonView::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, event);
  auto* k = static_cast<QKeyEvent*>(event);
  const auto mods = k->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
  if (mods) return QWidget::eventFilter(watched, event);
  const bool shift = k->modifiers() & Qt::ShiftModifier;
  const bool onGrid = watched == grid_;
  if (handleSharedPaneKeys(*k, [this](int d) { moveSample(d); }, [this] { showCheatSheet(); })) return true;
  switch (k->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (!onGrid) break;
      openCell(grid_->currentIndex());
      return true;
    case Qt::Key_Space:
      if (!onGrid) break;
      markCurrent();
      return true;
    case Qt::Key_D:
      diffCurrent();
      return true;
    case Qt::Key_C:
      toggleCanonical();
      return true;
    case Qt::Key_N:
      diff_->nextHunk();
      return true;
    case Qt::Key_P:
      diff_->previousHunk();
      return true;
    case Qt::Key_F:
      toggleOnlyDiffering();
      return true;
    case Qt::Key_B:
      setBaselineToCurrent();
      return true;
    case Qt::Key_M:
      cycleMetric(shift ? -1 : 1);
      return true;
    case Qt::Key_G:
      if (watched == samples_ || watched == program_) promoteShownSample();
      else promoteCell(grid_->currentIndex());
      return true;
    case Qt::Key_Escape:
      grid_->setFocus();
      return true;
    default:
      break;
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace sf::widgets
