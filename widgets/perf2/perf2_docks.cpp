#include "widgets/perf2/perf2_docks.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>

#include "core/bench/catalogue.hpp"
#include "core/inspect/perf2_time.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/perf2/cost_margin.hpp"
#include "widgets/perf2/pareto_view.hpp"
#include "widgets/perf2/perf2_engine.hpp"
#include "widgets/perf2/perf_explorer.hpp"

namespace sf::widgets::perf2 {

Perf2Docks::Perf2Docks(QMainWindow* window, StepEditor* editor)
    : QObject(window), window_(window), editor_(editor), debounce_(new QTimer(this)),
      shared_(std::make_shared<Shared>()) {
  auto shared = shared_;
  explorer_ = new Explorer(
      [shared](const std::string& impl) {
        std::shared_ptr<const step::TaskDoc> task;
        step2::perf::Chip chip;
        {
          std::lock_guard<std::mutex> lock(shared->m);
          task = shared->task;
          chip = shared->chip;
        }
        Outcome o;
        o.source = impl;
        if (!task) {
          o.error = "no STeP-25 task is open";
          return o;
        }
        auto t = inspect::perf2::time_program(*task, impl, chip);
        o.ok = t.ok;
        o.error = std::move(t.error);
        o.error_line = t.error_line;
        o.graph = std::move(t.graph);
        o.report = std::move(t.report);
        return o;
      },
      this);
  // The Pareto view's verifier: the task open when it runs.
  explorer_->setVerifier(engineVerifier([shared]() -> std::shared_ptr<const step::TaskDoc> {
    std::lock_guard<std::mutex> lock(shared->m);
    return shared->task;
  }));
  docks_ = explorer_->installDocks(window);
  // One tab group with the dataflow graph, so the right dock area does not grow taller than the screen.
  if (auto* graph = window->findChild<QDockWidget*>(QStringLiteral("GraphDock")))
    for (auto* d : docks_) window->tabifyDockWidget(graph, d);
  for (auto* d : docks_) d->hide();
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(debounce_, &QTimer::timeout, this, &Perf2Docks::refresh);
  connect(editor_, &QsciScintilla::textChanged, debounce_, qOverload<>(&QTimer::start));
  connect(explorer_, &Explorer::lineActivated, this, [this](int implLine) {
    const int l = editorLine(implLine);
    if (l >= 0) editor_->gotoLocation(l + 1, 1);
  });
  connect(editor_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
    if (!task_) return;
    for (std::size_t i = 0; i < task_->impl_line_starts.size(); ++i)
      if (task_->impl_line_starts[i].line == line + 1) explorer_->selectLine(static_cast<int>(i) + 1);
  });
  connect(explorer_, &Explorer::applyRequested, this, &Perf2Docks::apply);
  // The cost margin follows the editor's own program (not the what-if proposals): new numbers, or stale.
  margin_ = new CostMargin(editor_, this);
  connect(explorer_, &Explorer::timed, this, [this](const Outcome& o) {
    if (!task_ || o.source != lastImpl_) return;
    if (!o.ok) return margin_->markStale(QString::fromStdString(o.error));
    std::vector<int> lines;
    for (const auto& s : task_->impl_line_starts) lines.push_back(s.line - 1);
    margin_->setOutcome(o, lines);
  });
  connect(explorer_, &Explorer::programActivated, this, &Perf2Docks::apply);  // a Pareto point opens its program
}

int Perf2Docks::editorLine(int implLine) const {
  if (!task_ || implLine < 1 || implLine > static_cast<int>(task_->impl_line_starts.size())) return -1;
  return task_->impl_line_starts[static_cast<std::size_t>(implLine) - 1].line - 1;
}

void Perf2Docks::refresh() {
  const std::string text = editor_->text().toStdString();
  const bool v2 = text.find("step-v2") != std::string::npos && text.size() <= step::kMaxDocumentBytes;
  std::optional<step::TaskDoc> doc;
  if (v2) {
    Diagnostics d;
    doc = step::load_task_text(text, "", d);
  }
  if (!doc || !doc->is_v2() || !doc->impl) {
    if (task_ && !v2) {  // no longer a v2 document: hide the explorer
      task_.reset();
      margin_->clear();
      for (auto* d : docks_) d->hide();
    } else if (task_) {
      margin_->markStale(tr("the document does not load as a STeP-25 task with an impl"));
    }
    return;
  }
  auto task = std::make_shared<const step::TaskDoc>(std::move(*doc));
  const std::string key = task->id + "|" + task->chip + "|" + task->raw_text_without_impl;
  const bool newTask = key != lastTaskKey_;
  task_ = task;
  if (newTask) {
    std::string err;
    auto chip = step2::perf::find_chip(task->chip.empty() ? "accelopt-step" : task->chip, bench::resource_dir(), err);
    {
      std::lock_guard<std::mutex> lock(shared_->m);
      shared_->task = task;
      shared_->chip = chip.value_or(step2::perf::accelopt_step());
    }
    explorer_->clearPrograms();  // the Pareto view is per task
    explorer_->paretoView()->setTaskName(QString::fromStdString(task->id));
    explorer_->setRoofs(roofsOf(shared_->chip));
    explorer_->setSizes(inspect::perf2::size_values(*task));
    explorer_->setBaseline(inspect::perf2::baseline_impl(*task, bench::resource_dir()).value_or(std::string()));
    lastTaskKey_ = key;
    for (auto* d : docks_) d->show();
    docks_.front()->raise();
  } else {
    std::lock_guard<std::mutex> lock(shared_->m);
    shared_->task = task;
  }
  if (newTask || *task->impl != lastImpl_) {
    lastImpl_ = *task->impl;
    explorer_->setProgram(lastImpl_);
  }
}

void Perf2Docks::apply(const QString& impl) {
  if (!task_ || task_->impl_line_starts.empty()) return;
  const auto& starts = task_->impl_line_starts;
  const int first = starts.front().line - 1;
  int last = std::min(starts.back().line - 1, editor_->lines() - 1);
  while (last > first && editor_->text(last).trimmed().isEmpty()) --last;  // keep trailing blank lines
  const int indent = std::max(0, starts.front().column - 1);
  const QString pad(indent, QLatin1Char(' '));
  QStringList lines = impl.split(QLatin1Char('\n'));
  while (!lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();
  for (auto& l : lines) l = l.isEmpty() ? l : pad + l;
  editor_->beginUndoAction();
  editor_->setSelection(first, 0, last, editor_->text(last).endsWith(QLatin1Char('\n')) ? editor_->text(last).size() - 1 : editor_->text(last).size());
  editor_->replaceSelectedText(lines.join(QLatin1Char('\n')));
  editor_->endUndoAction();
  refresh();
}

}  // namespace sf::widgets::perf2
