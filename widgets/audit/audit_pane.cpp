#include "widgets/audit/audit_pane.hpp"
#include "widgets/qt_text.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "widgets/audit/audit_code_view.hpp"
#include "widgets/campaign/episode_lineage_view.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/column_sizing.hpp"

namespace sf::widgets {

AuditPane::AuditPane(QWidget* parent)
    : QWidget(parent), model_(new AuditModel(this)), filter_(new AuditFilterModel(this)) {
  setObjectName(QStringLiteral("auditPane"));
  filter_->setSourceModel(model_);

  // Filters.
  taskCombo_ = new QComboBox(this);
  taskCombo_->addItem(tr("All tasks"), QString());
  adoptedCombo_ = new QComboBox(this);
  adoptedCombo_->addItem(tr("Adopted or not"));
  adoptedCombo_->addItem(tr("Adopted"));
  adoptedCombo_->addItem(tr("Not adopted"));
  labelCombo_ = new QComboBox(this);
  labelCombo_->addItem(tr("Any label"), QString());
  labelCombo_->addItem(tr("Unlabelled"), QStringLiteral("-"));
  labelCombo_->addItem(tr("Full"), QStringLiteral("full"));
  labelCombo_->addItem(tr("Partial"), QStringLiteral("partial"));
  labelCombo_->addItem(tr("Unrelated"), QStringLiteral("unrelated"));
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Search rationale, item, task, note, rule"));
  search_->setClearButtonEnabled(true);
  auto* filters = new QHBoxLayout;
  filters->addWidget(taskCombo_);
  filters->addWidget(adoptedCombo_);
  filters->addWidget(labelCombo_);
  filters->addWidget(search_, 1);

  // Sampling.
  sampleN_ = new QSpinBox(this);
  sampleN_->setRange(1, 100000);
  sampleN_->setValue(50);
  sampleN_->setPrefix(tr("N = "));
  seedEdit_ = new QLineEdit(this);
  seedEdit_->setValidator(
      new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,19}")), this));
  seedEdit_->setToolTip(tr("Seed of the random sample (the same seed draws the same records)"));
  seedEdit_->setMaximumWidth(160);
  setSeed(QRandomGenerator::global()->bounded(1000000u));
  auto* newSeed = new QPushButton(tr("New seed"), this);
  auto* sampleButton = new QPushButton(tr("Sample"), this);
  sampleButton->setToolTip(tr("Show N records drawn at random for a blind audit"));
  auto* allButton = new QPushButton(tr("Show all"), this);
  blind_ = new QCheckBox(tr("Blind"), this);
  blind_->setChecked(false);  // Sample ticks it: a sample is drawn for a blind audit
  blind_->setToolTip(tr("Hide the adoption claim, rank, score, existing labels and other auditors' labels (B); "
                        "Sample turns it on"));
  sampleInfo_ = new QLabel(this);
  auditorEdit_ = new QLineEdit(this);
  auditorEdit_->setToolTip(tr("Your name: labels are saved per auditor (kept in the preferences)"));
  auditorEdit_->setMaximumWidth(140);
  auto* sampling = new QHBoxLayout;
  sampling->addWidget(new QLabel(tr("Random sample:"), this));
  sampling->addWidget(sampleN_);
  sampling->addWidget(new QLabel(tr("seed"), this));
  sampling->addWidget(seedEdit_);
  sampling->addWidget(newSeed);
  sampling->addWidget(sampleButton);
  sampling->addWidget(allButton);
  sampling->addWidget(blind_);
  sampling->addWidget(sampleInfo_, 1);
  sampling->addWidget(new QLabel(tr("Auditor"), this));
  sampling->addWidget(auditorEdit_);

  table_ = new QTableView(this);
  table_->setModel(filter_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  sizeColumnsWithTextColumn(table_->horizontalHeader(), AuditModel::RationaleColumn);
  table_->setWordWrap(false);
  table_->installEventFilter(this);
  auto* lineage = new QAction(tr("Episode &Lineage (L)"), table_);
  table_->addAction(lineage);
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);
  connect(lineage, &QAction::triggered, this, [this] { showLineage(); });

  // Detail.
  detail_ = new QTextBrowser(this);
  detail_->setOpenLinks(false);
  before_ = new AuditCodeView(false, this);
  after_ = new AuditCodeView(true, this);
  before_->installEventFilter(this);
  after_->installEventFilter(this);
  beforeTitle_ = new QLabel(tr("Before"), this);
  afterTitle_ = new QLabel(tr("After"), this);
  auto* beforeBox = new QWidget(this);
  auto* bl = new QVBoxLayout(beforeBox);
  bl->setContentsMargins(0, 0, 0, 0);
  bl->addWidget(beforeTitle_);
  bl->addWidget(before_);
  auto* afterBox = new QWidget(this);
  auto* al = new QVBoxLayout(afterBox);
  al->setContentsMargins(0, 0, 0, 0);
  al->addWidget(afterTitle_);
  al->addWidget(after_);
  auto* codeSplit = new QSplitter(Qt::Horizontal, this);
  codeSplit->addWidget(beforeBox);
  codeSplit->addWidget(afterBox);
  // Keep both sides scrolled together.
  connect(before_, &QsciScintilla::SCN_UPDATEUI, this, [this](int) {
    const int first = before_->firstVisibleLine();
    if (after_->firstVisibleLine() != first) after_->setFirstVisibleLine(first);
  });

  // Labels.
  auto* full = new QPushButton(tr("&1 Full"), this);
  auto* partial = new QPushButton(tr("&2 Partial"), this);
  auto* unrelated = new QPushButton(tr("&3 Unrelated"), this);
  full->setToolTip(tr("The revision fully applies the experience (key 1)"));
  partial->setToolTip(tr("The revision partly applies the experience (key 2)"));
  unrelated->setToolTip(tr("The revision is unrelated to the experience (key 3)"));
  note_ = new QLineEdit(this);
  note_->setPlaceholderText(tr("Note (saved with the next label; Ctrl+1/2/3 label, Ctrl+Enter completes)"));
  note_->installEventFilter(this);
  currentLabel_ = new QLabel(this);
  auto* labels = new QHBoxLayout;
  labels->addWidget(new QLabel(tr("Label (1/2/3, J/K to move, ? for all keys):"), this));
  labels->addWidget(full);
  labels->addWidget(partial);
  labels->addWidget(unrelated);
  labels->addWidget(note_, 1);
  labels->addWidget(currentLabel_);

  // Summary.
  summary_ = new QLabel(this);
  auto* csv = new QPushButton(tr("Export CSV…"), this);
  auto* md = new QPushButton(tr("Export Markdown…"), this);
  status_ = new QLabel(this);
  auto* summaryRow = new QHBoxLayout;
  summaryRow->addWidget(summary_, 1);
  summaryRow->addWidget(csv);
  summaryRow->addWidget(md);

  auto* detailSplit = new QSplitter(Qt::Vertical, this);
  detailSplit->addWidget(detail_);
  detailSplit->addWidget(codeSplit);
  detailSplit->setStretchFactor(1, 2);
  // The records fill the pane: the table takes the larger share and never fewer than ~6 rows.
  table_->setMinimumHeight(table_->fontMetrics().lineSpacing() * 8);
  auto* main = new QSplitter(Qt::Vertical, this);
  main->addWidget(table_);
  main->addWidget(detailSplit);
  main->setStretchFactor(0, 3);
  main->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(filters);
  layout->addLayout(sampling);
  layout->addWidget(main, 1);
  layout->addLayout(labels);
  layout->addLayout(summaryRow);
  layout->addWidget(status_);

  connect(taskCombo_, &QComboBox::currentIndexChanged, this,
          [this] { filter_->setTaskFilter(taskCombo_->currentData().toString()); });
  connect(adoptedCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    filter_->setAdoptedFilter(i == 1   ? AuditFilterModel::Adopted::Yes
                              : i == 2 ? AuditFilterModel::Adopted::No
                                       : AuditFilterModel::Adopted::Any);
  });
  connect(labelCombo_, &QComboBox::currentIndexChanged, this,
          [this] { filter_->setLabelFilter(labelCombo_->currentData().toString()); });
  connect(search_, &QLineEdit::textChanged, filter_, &AuditFilterModel::setTextFilter);
  connect(newSeed, &QPushButton::clicked, this,
          [this] { setSeed(QRandomGenerator::global()->bounded(1000000u)); });
  connect(sampleButton, &QPushButton::clicked, this, [this] { sample(sampleN_->value(), seed()); });
  connect(allButton, &QPushButton::clicked, this, &AuditPane::showAll);
  connect(blind_, &QCheckBox::toggled, this, &AuditPane::updateBlind);
  connect(blind_, &QCheckBox::toggled, this, &AuditPane::updateSummary);
  {
    QString me = QSettings().value(QStringLiteral("audit/auditor")).toString();
    if (me.isEmpty()) me = model_->auditor();
    auditorEdit_->setText(me);
    model_->setAuditor(me);
  }
  connect(auditorEdit_, &QLineEdit::editingFinished, this, [this] { setAuditor(auditorEdit_->text()); });
  connect(full, &QPushButton::clicked, this, [this] { labelCurrent(0); });
  connect(partial, &QPushButton::clicked, this, [this] { labelCurrent(1); });
  connect(unrelated, &QPushButton::clicked, this, [this] { labelCurrent(2); });
  connect(csv, &QPushButton::clicked, this, [this] { exportDialog(false); });
  connect(md, &QPushButton::clicked, this, [this] { exportDialog(true); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AuditPane::updateDetail);
  connect(model_, &AuditModel::labelsChanged, this, [this] {
    updateSummary();
    updateDetail();
  });
  connect(model_, &QAbstractItemModel::rowsInserted, this, [this] {
    updateTaskFilter();
    updateSummary();
  });
  labelButtons_ = {full, partial, unrelated};
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    // After a failed open nothing can be labelled (the error is in the status line).
    for (auto* b : labelButtons_) b->setEnabled(model_->openError().isEmpty());
    updateTaskFilter();
    updateSummary();
    updateDetail();
  });
  connect(this, &AuditPane::statusMessage, status_, &QLabel::setText);
  updateSummary();
  updateDetail();
}

bool AuditPane::openSnapshot(const AuditMemorySnapshot& s) {
  QString error;
  memoryItems_.clear();
  if (s.memory)
    for (const auto& it : s.memory->items())
      memoryItems_.insert(qs(it.id), {qs(it.rule), qs(it.evidence), qs(it.source_task), it.source_episode});
  filter_->clearSample();
  sampleInfo_->clear();
  if (!model_->openSnapshot(s, &error)) {
    emit statusMessage(tr("Cannot open the audit of %1: %2").arg(s.dir, error));
    return false;
  }
  updateBlind();
  table_->resizeColumnToContents(AuditModel::TaskColumn);
  table_->resizeColumnToContents(AuditModel::ItemColumn);
  QString msg = tr("%n adoption record(s)", nullptr, model_->rowCount());
  if (model_->skippedEvents() > 0)
    msg += QStringLiteral(" — ") + tr("%n malformed event(s) skipped", nullptr,
                                      static_cast<int>(model_->skippedEvents()));
  emit statusMessage(msg);
  if (filter_->rowCount() > 0) selectProxyRow(0);
  return true;
}

void AuditPane::applyEvent(const learn::Event& event) { model_->applyEvent(event); }

int AuditPane::currentSourceRow() const {
  const QModelIndex cur = table_->currentIndex();
  if (!cur.isValid()) return -1;
  return filter_->mapToSource(cur).row();
}

void AuditPane::selectProxyRow(int row) {
  if (row < 0 || row >= filter_->rowCount()) return;
  table_->setCurrentIndex(filter_->index(row, 0));
  table_->scrollTo(filter_->index(row, 0));
}

void AuditPane::moveBy(int delta) {
  const int rows = filter_->rowCount();
  if (rows == 0) return;
  const QModelIndex cur = table_->currentIndex();
  const int row = cur.isValid() ? std::clamp(cur.row() + delta, 0, rows - 1) : 0;
  selectProxyRow(row);
}

bool AuditPane::labelCurrent(int index) {
  const int row = currentSourceRow();
  QString error;
  if (index < 0 || index >= static_cast<int>(store::kAuditLabels.size())) return false;
  const QString label = QString::fromLatin1(
      store::kAuditLabels[static_cast<std::size_t>(index)].data(),
      static_cast<qsizetype>(store::kAuditLabels[static_cast<std::size_t>(index)].size()));
  if (!model_->setLabel(row, label, note_->text(), &error)) {
    emit statusMessage(tr("Label not saved: %1").arg(error));
    return false;
  }
  note_->clear();
  emit statusMessage(tr("Labelled %1 as %2").arg(qs(store::to_string(model_->record(row).key())), label));
  moveBy(1);  // complete-and-advance
  return true;
}

bool AuditPane::completeCurrent() {
  const int row = currentSourceRow();
  const auto* l = row >= 0 ? model_->labelOf(row) : nullptr;
  if (!l) {
    emit statusMessage(tr("Choose a label first: 1 full, 2 partial, 3 unrelated"));
    return false;
  }
  return labelCurrent(store::audit_label_index(l->label));
}

void AuditPane::setAuditor(const QString& name) {
  const QString me = name.trimmed();
  if (me.isEmpty()) {
    auditorEdit_->setText(model_->auditor());
    return;
  }
  if (auditorEdit_->text() != me) auditorEdit_->setText(me);
  QSettings().setValue(QStringLiteral("audit/auditor"), me);
  model_->setAuditor(me);
}

QString AuditPane::auditor() const {
  return model_->auditor();
}

EpisodeLineageView* AuditPane::showLineage() {
  const int row = currentSourceRow();
  if (row < 0) {
    emit statusMessage(tr("Choose a record first"));
    return nullptr;
  }
  QString error;
  auto* v = showEpisodeLineage(this, qs(model_->workspace().dir.string()),
                               static_cast<int>(model_->record(row).episode), &error);
  if (!v) emit statusMessage(tr("No episode lineage: %1").arg(error));
  return v;
}

quint64 AuditPane::seed() const {
  return seedEdit_->text().toULongLong();
}
void AuditPane::setSeed(quint64 seed) {
  seedEdit_->setText(QString::number(seed));
}
bool AuditPane::blind() const { return blind_->isChecked(); }

void AuditPane::sample(int n, quint64 seed) {
  setSeed(seed);
  sampleN_->setValue(n);
  const auto keys = store::sample_records(model_->workspace().log.records, static_cast<std::size_t>(n), seed);
  filter_->setSample(keys);
  blind_->setChecked(true);  // (toggled → updateBlind)
  sampleInfo_->setText(
      tr("Sample of %1 of %2 records, seed %3").arg(keys.size()).arg(model_->rowCount()).arg(seed));
  updateBlind();
  updateSummary();
  selectProxyRow(0);
}

void AuditPane::showAll() {
  filter_->clearSample();
  blind_->setChecked(false);  // every record, with its claim: the blind audit is over
  sampleInfo_->clear();
  updateBlind();
  updateSummary();
}

void AuditPane::updateBlind() {
  const bool hide = blind();
  for (int c :
       {AuditModel::AdoptedColumn, AuditModel::RankColumn, AuditModel::ScoreColumn, AuditModel::LabelColumn})
    table_->setColumnHidden(c, hide);
  updateDetail();
}

void AuditPane::updateTaskFilter() {
  const QString cur = taskCombo_->currentData().toString();
  const QStringList tasks = model_->tasks();
  if (taskCombo_->count() == tasks.size() + 1) return;  // unchanged (tasks only grow)
  QSignalBlocker block(taskCombo_);
  taskCombo_->clear();
  taskCombo_->addItem(tr("All tasks"), QString());
  for (const auto& t : tasks) taskCombo_->addItem(t, t);
  taskCombo_->setCurrentIndex(std::max(0, taskCombo_->findData(cur)));
}

store::AuditSummary AuditPane::summary() const {
  const auto& ws = model_->workspace();
  const std::string me = model_->auditor().toStdString();
  return filter_->sampling() ? store::summarize(ws.log.records, ws.labels, me, &filter_->sample())
                             : store::summarize(ws.log.records, ws.labels, me);
}

void AuditPane::updateSummary() {
  const auto s = summary();
  QStringList parts;
  const QStringList names = {tr("full"), tr("partial"), tr("unrelated")};
  for (int i = 0; i < 3; ++i)
    parts << tr("%1 %2 (%3%)")
                 .arg(names[i])
                 .arg(s.counts[static_cast<std::size_t>(i)])
                 .arg(s.percent(static_cast<std::size_t>(i)), 0, 'f', 1);
  QString text = (filter_->sampling() ? tr("Sample: ") : tr("All records: ")) + parts.join(QStringLiteral(" · ")) +
                 QStringLiteral(" — ") + tr("%1 of %2 labelled").arg(s.labelled).arg(s.records);
  // Agreement with every other auditor (never in a blind audit).
  if (!blind()) {
    const auto& ws = model_->workspace();
    const std::string me = model_->auditor().toStdString();
    for (const auto& other : ws.labels.auditors()) {
      if (other == me) continue;
      const auto a = store::agreement(ws.log.records, ws.labels, me, other,
                                      filter_->sampling() ? &filter_->sample() : nullptr);
      if (a.both == 0) continue;
      QString k = a.kappa ? QString::number(*a.kappa, 'f', 2) : tr("undefined");
      if (a.ci_low && a.ci_high)
        k += QStringLiteral(" [%1, %2]").arg(*a.ci_low, 0, 'f', 2).arg(*a.ci_high, 0, 'f', 2);
      text += QStringLiteral(" — ") + tr("vs %1: %2 both, %3% agree, κ %4, %5 disagreements")
                                          .arg(qs(store::auditor_display_name(other)))
                                          .arg(a.both)
                                          .arg(100.0 * a.raw, 0, 'f', 1)
                                          .arg(k)
                                          .arg(a.disagreements.size());
    }
  }
  summary_->setText(text);
}

bool AuditPane::exportSummary(const QString& path, bool markdown, QString* error) const {
  const auto s = summary();
  const std::string text = markdown ? store::summary_markdown(s) : store::summary_csv(s);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    if (error) *error = f.errorString();
    return false;
  }
  const QByteArray bytes = QByteArray::fromStdString(text);
  if (f.write(bytes) != bytes.size()) {
    if (error) *error = f.errorString();
    return false;
  }
  return true;
}

void AuditPane::exportDialog(bool markdown) {
  const QString path = QFileDialog::getSaveFileName(
      this, markdown ? tr("Export audit summary as Markdown") : tr("Export audit summary as CSV"),
      markdown ? QStringLiteral("audit-summary.md") : QStringLiteral("audit-summary.csv"),
      markdown ? tr("Markdown (*.md)") : tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (exportSummary(path, markdown, &error))
    emit statusMessage(tr("Summary written to %1").arg(path));
  else
    emit statusMessage(tr("Cannot write %1: %2").arg(path, error));
}

QString AuditPane::detailText() const {
  return detail_->toPlainText();
}

void AuditPane::updateDetail() {
  const int row = currentSourceRow();
  if (row < 0 || row >= model_->rowCount()) {
    detail_->setHtml(model_->rowCount() == 0
                         ? tr("<p><i>No adoption records: a sage campaign (mode sage) writes one each time its agent "
                              "is shown a memory item. Open its workspace (Campaign → Open Workspace).</i></p>")
                         : tr("<p><i>Select an adoption record.</i></p>"));
    before_->setCode({}, {});
    after_->setCode({}, {});
    currentLabel_->clear();
    return;
  }
  const auto& r = model_->record(row);
  const bool hide = blind();
  QString rule, evidence, provenance;
  if (const auto* e = model_->experience(r.item)) {
    rule = qs(e->rule);
    evidence = qs(e->evidence);
    provenance =
        tr("from task %1, episode %2, %3 tokens").arg(qs(e->source_task)).arg(e->episode).arg(e->tokens);
  } else if (auto it = memoryItems_.find(qs(r.item)); it != memoryItems_.end()) {
    rule = it->rule;
    evidence = it->evidence;
    provenance = tr("from task %1, episode %2 (memory.json)").arg(it->sourceTask).arg(it->sourceEpisode);
  } else {
    rule = tr("(no experience_added event and no memory.json entry for this item)");
  }
  auto pre = [](const QString& s) {
    return QStringLiteral("<pre style=\"white-space: pre-wrap\">") + s.toHtmlEscaped() +
           QStringLiteral("</pre>");
  };
  QString html;
  html +=
      QStringLiteral("<h3>") + tr("Experience %1").arg(qs(r.item).toHtmlEscaped()) + QStringLiteral("</h3>");
  if (!provenance.isEmpty())
    html += QStringLiteral("<p><i>") + provenance.toHtmlEscaped() + QStringLiteral("</i></p>");
  html += QStringLiteral("<p><b>") + tr("Rule") + QStringLiteral("</b></p>") + pre(rule);
  if (!evidence.isEmpty())
    html += QStringLiteral("<p><b>") + tr("Evidence") + QStringLiteral("</b></p>") + pre(evidence);
  html += QStringLiteral("<p><b>") +
          tr("Task %1, episode %2, round %3").arg(qs(r.task).toHtmlEscaped()).arg(r.episode).arg(r.round);
  if (!hide)
    html +=
        QStringLiteral(" — ") + (r.adopted ? tr("adopted") : tr("not adopted")) +
        tr(", rank %1, score %2, utility %3").arg(r.rank).arg(r.score, 0, 'f', 3).arg(r.utility, 0, 'f', 3);
  html += QStringLiteral("</b></p>");
  html +=
      QStringLiteral("<p><b>") + tr("Agent's rationale") + QStringLiteral("</b></p>") + pre(qs(r.rationale));
  detail_->setHtml(html);

  const QString before = qs(r.before), after = qs(r.after);
  const LineDiff d = diffLines(before, after);
  before_->setCode(before, d.removed);
  after_->setCode(after, d.added);
  beforeTitle_->setText(r.round == 0       ? tr("Before (no earlier round)")
                        : before.isEmpty() ? tr("Before (round %1: no program)").arg(r.round - 1)
                                           : tr("Before (round %1)").arg(r.round - 1));
  afterTitle_->setText(after.isEmpty() ? tr("After (no program produced)")
                                       : tr("After (round %1)").arg(r.round));
  const auto* l = model_->labelOf(row);
  QString current = hide || !l ? QString() : tr("yours: %1").arg(qs(l->label));
  // Other auditors' labels: never in a blind audit.
  if (!hide)
    if (const auto* by = model_->workspace().labels.of(r.key()))
      for (const auto& [name, other] : *by)
        if (qs(name) != model_->auditor())
          current += (current.isEmpty() ? QString() : QStringLiteral(" · ")) +
                     tr("%1: %2").arg(qs(store::auditor_display_name(name)), qs(other.label));
  currentLabel_->setText(current);
}

}  // namespace sf::widgets
