#include "widgets/campaign/trace_pane.hpp"

#include "widgets/campaign/campaign_feed.hpp"
#include "widgets/editor/golden_promote.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sf::widgets {

namespace {

QPlainTextEdit* textView(QWidget* parent) {
  auto* t = new QPlainTextEdit(parent);
  t->setReadOnly(true);
  t->setLineWrapMode(QPlainTextEdit::NoWrap);
  t->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  return t;
}

}  // namespace

TracePane::TracePane(QWidget* parent)
    : QWidget(parent), model_(new TraceModel(this)), proxy_(new TraceFilterProxy(this)) {
  setObjectName(QStringLiteral("TracePane"));
  proxy_->setSourceModel(model_);

  role_ = new QComboBox(this);
  role_->addItem(tr("All roles"), QString());
  verdict_ = new QComboBox(this);
  verdict_->addItem(tr("All verdicts"), int(TraceFilterProxy::VerdictFilter::Any));
  verdict_->addItem(tr("Pass"), int(TraceFilterProxy::VerdictFilter::Pass));
  verdict_->addItem(tr("Fail"), int(TraceFilterProxy::VerdictFilter::Fail));
  verdict_->addItem(tr("Pending"), int(TraceFilterProxy::VerdictFilter::Pending));
  task_ = new QLineEdit(this);
  task_->setPlaceholderText(tr("Task id"));
  task_->setClearButtonEnabled(true);
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Search…"));
  search_->setClearButtonEnabled(true);
  deep_ = new QCheckBox(tr("in responses"), this);
  deep_->setToolTip(tr("Also search the responses and programs (slower on large campaigns)"));
  follow_ = new QCheckBox(tr("Follow"), this);
  follow_->setChecked(true);
  follow_->setToolTip(tr("Scroll to the newest call"));
  count_ = new QLabel(this);

  auto* filters = new QHBoxLayout;
  filters->addWidget(role_);
  filters->addWidget(verdict_);
  filters->addWidget(task_, 1);
  filters->addWidget(search_, 2);
  filters->addWidget(deep_);
  filters->addWidget(follow_);
  filters->addWidget(count_);

  view_ = new QTableView(this);
  view_->setModel(proxy_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  // Every column as wide as its header and contents (task ids and verdicts are never cut); the last one
  // takes the rest, and a narrow pane scrolls sideways.
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->setWordWrap(false);
  view_->setAlternatingRowColors(true);
  // Episode lineage of the selected row's sage episode (issue 20 item 5): Ctrl+L or the context menu.
  lineageAction_ = new QAction(tr("Episode &Lineage"), this);
  lineageAction_->setShortcut(QKeySequence(tr("Ctrl+L")));
  lineageAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  view_->addAction(lineageAction_);
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  connect(lineageAction_, &QAction::triggered, this, &TracePane::requestLineage);
  promoteAction_ = new QAction(tr("Promote to &Golden"), this);
  promoteAction_->setObjectName(QStringLiteral("tracePromoteGolden"));
  promoteAction_->setShortcut(QKeySequence(tr("Ctrl+G")));
  promoteAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  promoteAction_->setToolTip(tr("Verify the call's program and add it to the golden set (Ctrl+G)"));
  view_->addAction(promoteAction_);
  connect(promoteAction_, &QAction::triggered, this, &TracePane::promoteCurrent);

  tabs_ = new QTabWidget(this);
  prompt_ = textView(tabs_);
  response_ = textView(tabs_);
  impl_ = textView(tabs_);
  diff_ = textView(tabs_);
  verdictText_ = textView(tabs_);
  reasoning_ = textView(tabs_);
  tabs_->addTab(response_, tr("Response"));
  tabs_->addTab(impl_, tr("Program"));
  tabs_->addTab(diff_, tr("Guardian diff"));
  tabs_->addTab(verdictText_, tr("Verdict"));
  tabs_->addTab(prompt_, tr("Prompt"));
  // Collapsed: the tab is there only for a call whose answer came with reasoning.
  tabs_->addTab(reasoning_, tr("Reasoning"));
  tabs_->setTabVisible(tabs_->indexOf(reasoning_), false);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(view_);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);

  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);
  l->addLayout(filters);
  l->addWidget(split, 1);

  connect(model_, &TraceModel::rolesChanged, this, [this](const QStringList& roles) {
    const QString cur = role_->currentData().toString();
    role_->blockSignals(true);
    while (role_->count() > 1) role_->removeItem(1);
    for (const auto& r : roles) role_->addItem(r, r);
    role_->setCurrentIndex(std::max(0, role_->findData(cur)));
    role_->blockSignals(false);
  });
  connect(role_, &QComboBox::currentIndexChanged, this, [this] {
    proxy_->setRoleFilter(role_->currentData().toString());
    updateCount();
  });
  connect(verdict_, &QComboBox::currentIndexChanged, this, [this] {
    proxy_->setVerdictFilter(static_cast<TraceFilterProxy::VerdictFilter>(verdict_->currentData().toInt()));
    updateCount();
  });
  connect(task_, &QLineEdit::textChanged, this, [this](const QString& t) {
    proxy_->setTaskFilter(t.trimmed());
    updateCount();
  });
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) {
    proxy_->setSearchText(t);
    updateCount();
  });
  connect(deep_, &QCheckBox::toggled, this, [this](bool on) {
    proxy_->setSearchResponses(on);
    updateCount();
  });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { showDetail(cur); });
  updateCount();
}

bool TracePane::requestLineage() {
  const QModelIndex src = proxy_->mapToSource(view_->currentIndex());
  if (!src.isValid()) return false;
  const TraceRow& r = model_->row(src.row());
  emit lineageRequested(r.iteration, r.task);
  return true;
}

bool TracePane::promoteCurrent() {
  const QModelIndex src = proxy_->mapToSource(view_->currentIndex());
  if (!src.isValid()) {
    emit statusMessage(tr("Not promoted: select a call first"));
    return false;
  }
  const TraceRow& r = model_->row(src.row());
  GoldenCandidate c;
  c.impl = r.detail ? r.detail->impl.toStdString() : std::string();
  c.provenance = {campaign_.toStdString(), dir_.toStdString(), r.task.toStdString(), r.iteration, r.sample,
                  llmModel_.toStdString(), "trace"};
  if (r.cycles >= 0) c.cycles = r.cycles;
  if (r.speedup >= 0) c.speedup = r.speedup;
  const GoldenPromotion p = promoteCatalogueProgram(goldenFileForWorkspace(dir_), r.task.toStdString(), c);
  emit statusMessage(p.message);
  return p.ok;
}

void TracePane::clear() {
  model_->clear();
  showDetail({});
  updateCount();
}

void TracePane::apply(const CampaignUpdate& u) {
  if (u.reset) showDetail({});
  dir_ = u.dir;
  campaign_ = u.name;
  llmModel_ = u.model;
  model_->apply(u);
  if (follow_->isChecked() && !u.traceRows.isEmpty()) view_->scrollToBottom();
  if (view_->currentIndex().isValid()) showDetail(view_->currentIndex());  // a verdict may have arrived
  updateCount();
}

void TracePane::setSearchText(const QString& text) { search_->setText(text); }
void TracePane::setTaskFilter(const QString& task) { task_->setText(task); }

void TracePane::updateCount() {
  count_->setText(tr("%1 of %2 calls").arg(proxy_->rowCount()).arg(model_->rowCount()));
}

void TracePane::showRow(int row) {
  const QModelIndex p = proxy_->mapFromSource(model_->index(row, 0));
  if (!p.isValid()) return;
  view_->setCurrentIndex(p);
  showDetail(p);
}

void TracePane::showDetail(const QModelIndex& proxyIndex) {
  const QModelIndex src = proxy_->mapToSource(proxyIndex);
  if (!src.isValid()) {
    for (auto* t : {prompt_, response_, impl_, diff_, verdictText_, reasoning_}) t->clear();
    tabs_->setTabVisible(tabs_->indexOf(reasoning_), false);
    return;
  }
  const TraceRow& r = model_->row(src.row());
  const TraceDetail empty;
  const TraceDetail& d = r.detail ? *r.detail : empty;
  prompt_->setPlainText(tracePromptText(d));
  response_->setPlainText(d.response);
  reasoning_->setPlainText(d.reasoning);
  tabs_->setTabVisible(tabs_->indexOf(reasoning_), !d.reasoning.isEmpty());
  impl_->setPlainText(d.impl);
  diff_->setPlainText(d.guardianDiff.isEmpty() ? tr("(the guardian changed nothing)") : d.guardianDiff);
  // Samples are numbered from 1 for people, as in the Sample column (the log counts from 0; a call outside any
  // sample, e.g. a sage consolidation, has none). Iterations keep the log's numbers (iteration 0 is the first).
  QString v = (r.sample >= 0 ? tr("%1 — %2, iteration %3, sample %4 (temperature index %5)\n")
                                   .arg(r.verdict.isEmpty() ? tr("pending") : r.verdict, r.task)
                                   .arg(r.iteration)
                                   .arg(r.sample + 1)
                                   .arg(r.temperatureIndex)
                             : tr("%1 — %2, iteration %3, no sample\n")
                                   .arg(r.verdict.isEmpty() ? tr("pending") : r.verdict, r.task)
                                   .arg(r.iteration));
  v += tr("role %1, %2 tokens, %3 s, $%4%5\n")
           .arg(r.role)
           .arg(r.tokens)
           .arg(r.latency, 0, 'f', 2)
           .arg(r.cost, 0, 'f', 4)
           .arg(r.fromCache ? tr(", from the cache") : QString());
  if (!d.finishReason.isEmpty()) v += tr("finish reason %1").arg(d.finishReason) + QLatin1Char('\n');
  if (!d.rulesUsed.isEmpty()) v += tr("resident rules used: %1").arg(d.rulesUsed.join(QStringLiteral(", "))) + QLatin1Char('\n');
  if (!d.diagnostics.isEmpty()) v += QLatin1Char('\n') + d.diagnostics;
  verdictText_->setPlainText(v);
}

QString TracePane::detailText(const QString& which) const {
  if (which == QLatin1String("prompt")) return prompt_->toPlainText();
  if (which == QLatin1String("response")) return response_->toPlainText();
  if (which == QLatin1String("impl")) return impl_->toPlainText();
  if (which == QLatin1String("diff")) return diff_->toPlainText();
  if (which == QLatin1String("verdict")) return verdictText_->toPlainText();
  if (which == QLatin1String("reasoning")) return reasoning_->toPlainText();
  return {};
}

}  // namespace sf::widgets
