#include "widgets/audit/memory_inspector.hpp"
#include "widgets/qt_text.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "widgets/audit/memory_inspector_model.hpp"
#include "widgets/column_sizing.hpp"

namespace sf::widgets {

MemoryInspector::MemoryInspector(QWidget* parent)
    : QWidget(parent), model_(new MemoryInspectorModel(this)), proxy_(new QSortFilterProxyModel(this)) {
  setObjectName(QStringLiteral("memoryInspector"));
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(MemoryInspectorModel::SortRole);
  proxy_->setFilterRole(MemoryInspectorModel::StateRole);
  proxy_->setFilterKeyColumn(MemoryInspectorModel::StateColumn);

  stateCombo_ = new QComboBox(this);
  stateCombo_->addItem(tr("All states"), QString());
  stateCombo_->addItem(tr("Cold"), QStringLiteral("cold"));
  stateCombo_->addItem(tr("Validated"), QStringLiteral("validated"));
  stateCombo_->addItem(tr("Hot"), QStringLiteral("hot"));
  counts_ = new QLabel(this);
  gauge_ = new QProgressBar(this);
  gauge_->setToolTip(tr("Resident tokens of the hot rules / the hot budget B"));
  auto* importButton = new QPushButton(tr("Import…"), this);
  auto* exportButton = new QPushButton(tr("Export…"), this);
  auto* top = new QHBoxLayout;
  top->addWidget(stateCombo_);
  top->addWidget(counts_);
  top->addWidget(new QLabel(tr("Hot budget:"), this));
  top->addWidget(gauge_, 1);
  top->addWidget(importButton);
  top->addWidget(exportButton);

  table_ = new QTableView(this);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  sizeColumnsWithTextColumn(table_->horizontalHeader(), MemoryInspectorModel::RuleColumn);  // ids, counts: never cut
  // The rule column wraps (a rule is a sentence or two): rows grow to their text, nothing is cut.
  table_->setWordWrap(true);
  table_->setTextElideMode(Qt::ElideNone);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSortIndicatorShown(true);
  table_->setToolTip(tr("Click a column header to sort by it"));

  // The legend of the states and the credit (docs/gui.md, glossary).
  legend_ = new QLabel(
      tr("<b>cold</b>: retrievable, not validated yet · <b style=\"color:#1e8449\">validated</b>: adopted often "
         "enough by enough tasks with utility above 0, still retrievable · <b style=\"color:#c0392b\">hot</b>: "
         "resident in every prompt, within the hot budget. <b>Utility U</b>: moved at each episode's end by the "
         "item's credit (adopted items share the episode's outcome; retrieved and never adopted: −δ). "
         "<b>Access</b>: retrievals / episodes it could be retrieved in."),
      this);
  legend_->setObjectName(QStringLiteral("memoryLegend"));
  legend_->setWordWrap(true);

  series_ = new QLineSeries(this);
  series_->setPointsVisible(true);
  auto* chart = new QChart;
  chart->addSeries(series_);
  chart->legend()->hide();
  chart->setTitle(tr("Utility over episodes"));
  axisX_ = new QValueAxis(chart);
  axisX_->setTitleText(tr("episode"));
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis(chart);
  axisY_->setTitleText(tr("utility U"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  series_->attachAxis(axisX_);
  series_->attachAxis(axisY_);
  chartView_ = new QChartView(chart, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  applyChartFonts();

  provenance_ = new QTextBrowser(this);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("memoryStatus"));
  status_->setWordWrap(true);  // a load error names a path and a code: wrapped, never wider than the dock
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(chartView_);
  bottom->addWidget(provenance_);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 1);
  bottom->setSizes({500, 600});
  chartView_->setMinimumWidth(320);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(bottom);
  rollback_ = new QLabel(this);
  rollback_->setObjectName(QStringLiteral("consolidationRollback"));
  rollback_->setWordWrap(true);
  rollback_->setToolTip(tr("The consolidation guard: a consolidation step that would have shrunk the resident "
                           "context to less than half while dropping recently adopted items is undone"));
  rollback_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(legend_);
  layout->addWidget(rollback_);
  layout->addWidget(split, 1);
  layout->addWidget(status_);

  connect(stateCombo_, &QComboBox::currentIndexChanged, this,
          [this] { setStateFilter(stateCombo_->currentData().toString()); });
  connect(importButton, &QPushButton::clicked, this, &MemoryInspector::importDialog);
  connect(exportButton, &QPushButton::clicked, this, &MemoryInspector::exportDialog);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &MemoryInspector::updateDetail);
  connect(model_, &MemoryInspectorModel::budgetChanged, this, &MemoryInspector::updateGauge);
  connect(model_, &MemoryInspectorModel::rollbacksChanged, this, &MemoryInspector::updateRollbacks);
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    updateGauge();
    updateRollbacks();
    updateDetail();
  });
  connect(model_, &QAbstractItemModel::rowsInserted, this, &MemoryInspector::updateGauge);
  connect(model_, &QAbstractItemModel::dataChanged, this, [this] {
    updateGauge();
    if (!shownId_.isEmpty()) updateDetail();
  });
  connect(model_, &MemoryInspectorModel::trajectoryChanged, this, [this](const QString& id) {
    if (id == shownId_) updateDetail();
  });
  connect(this, &MemoryInspector::statusMessage, status_, &QLabel::setText);
  updateGauge();
  updateDetail();
}

void MemoryInspector::setStateFilter(const QString& state) {
  const int i = stateCombo_->findData(state);
  if (i >= 0 && i != stateCombo_->currentIndex()) stateCombo_->setCurrentIndex(i);
  proxy_->setFilterRegularExpression(
      state.isEmpty()
          ? QRegularExpression()
          : QRegularExpression(QLatin1Char('^') + QRegularExpression::escape(state) + QLatin1Char('$')));
}

bool MemoryInspector::openSnapshot(const AuditMemorySnapshot& s) {
  QString error;
  if (!model_->openSnapshot(s, &error)) {
    emit statusMessage(tr("Cannot load the memory of %1: %2").arg(s.dir, error));
    return false;
  }
  emit statusMessage(tr("%n memory item(s)", nullptr, model_->rowCount()));
  table_->resizeColumnToContents(MemoryInspectorModel::IdColumn);
  if (proxy_->rowCount() > 0) table_->setCurrentIndex(proxy_->index(0, 0));
  return true;
}

void MemoryInspector::applyEvent(const learn::Event& event) { model_->applyEvent(event); }

void MemoryInspector::applyEvent(const nlohmann::json& envelope) { model_->applyEvent(envelope); }

bool MemoryInspector::importFrom(const QString& path, QString* error) {
  QString e;
  if (!model_->importFile(path, &e)) {
    if (error) *error = e;
    emit statusMessage(tr("Import failed: %1").arg(e));
    return false;
  }
  emit statusMessage(tr("Imported %n item(s) from %1", nullptr, model_->rowCount()).arg(path));
  return true;
}

bool MemoryInspector::exportTo(const QString& path, QString* error) {
  QString e;
  if (!model_->exportFile(path, &e)) {
    if (error) *error = e;
    emit statusMessage(tr("Export failed: %1").arg(e));
    return false;
  }
  emit statusMessage(tr("Exported %n item(s) to %1", nullptr, model_->rowCount()).arg(path));
  return true;
}

void MemoryInspector::importDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Import memory"), QString(),
                                                    tr("StepForge memory (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!importFrom(path, &error))
    QMessageBox::warning(
        this, tr("Import memory"),
        tr("The file %1 is not a valid StepForge memory file and was not imported.\n\n%2").arg(path, error));
}

void MemoryInspector::exportDialog() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export memory"), QStringLiteral("memory.json"),
                                                    tr("StepForge memory (*.json)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportTo(path, &error))
    QMessageBox::warning(this, tr("Export memory"),
                         tr("Cannot export the memory to %1.\n\n%2").arg(path, error));
}

void MemoryInspector::updateGauge() {
  const int budget = std::max(1, model_->budget());
  const int hot = model_->hotTokens();
  gauge_->setRange(0, budget);
  gauge_->setValue(std::min(hot, budget));
  gauge_->setFormat(
      tr("%1 / %2 tokens (%3%)").arg(hot).arg(model_->budget()).arg(100.0 * hot / budget, 0, 'f', 1));
  counts_->setText(tr("cold %1 · validated %2 · hot %3")
                       .arg(model_->countInState(memory::ItemState::Cold))
                       .arg(model_->countInState(memory::ItemState::Validated))
                       .arg(model_->countInState(memory::ItemState::Hot)));
}

void MemoryInspector::updateRollbacks() {
  const auto& rbs = model_->rollbacks();
  if (rbs.empty()) {
    rollback_->clear();
    rollback_->hide();
    return;
  }
  const auto& r = rbs.back();
  QStringList lost;
  for (const auto& id : r.lost_adopted) lost << qs(id);
  QString text = tr("Consolidation rolled back after episode %1: the resident set was kept (the step would have "
                    "shrunk the resident context from %2 to %3 tokens and dropped recently adopted %4).")
                     .arg(r.episode)
                     .arg(r.hot_tokens_before)
                     .arg(r.hot_tokens_after)
                     .arg(lost.join(QStringLiteral(", ")));
  if (rbs.size() > 1) text += QLatin1Char(' ') + tr("%n rollback(s) in this campaign.", nullptr, static_cast<int>(rbs.size()));
  rollback_->setText(text);
  rollback_->show();
}

QString MemoryInspector::rollbackText() const {
  return rollback_->isHidden() ? QString() : rollback_->text();
}

QString MemoryInspector::selectedId() const {
  const QModelIndex cur = table_->currentIndex();
  return cur.isValid() ? proxy_->mapToSource(cur).data(MemoryInspectorModel::IdRole).toString() : QString();
}

void MemoryInspector::selectItem(const QString& id) {
  const int row = model_->rowOfId(id);
  if (row < 0) return;
  const QModelIndex p = proxy_->mapFromSource(model_->index(row, 0));
  if (p.isValid()) table_->setCurrentIndex(p);
}

QString MemoryInspector::provenanceText() const {
  return provenance_->toPlainText();
}

void MemoryInspector::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) applyChartFonts();
}

void MemoryInspector::applyChartFonts() {
  // QtCharts does not inherit the widget font (the presentation layout's larger one must reach the chart).
  const QFont base = font();
  QFont title = base;
  title.setBold(true);
  QChart* chart = chartView_->chart();
  chart->setTitleFont(title);
  for (QValueAxis* a : {axisX_, axisY_}) {
    a->setLabelsFont(base);
    a->setTitleFont(base);
  }
  chartView_->setMinimumHeight(std::max(160, QFontMetrics(base).height() * 10));
}

void MemoryInspector::updateDetail() {
  shownId_ = selectedId();
  const int row = model_->rowOfId(shownId_);
  const QVector<QPointF> pts = row >= 0 ? model_->trajectory(shownId_) : QVector<QPointF>();
  series_->replace(pts);
  double x0 = 0, x1 = 1, y0 = -0.2, y1 = 0.8;  // the ATU range with the defaults
  for (const auto& p : pts) {
    x1 = std::max(x1, p.x());
    y0 = std::min(y0, p.y());
    y1 = std::max(y1, p.y());
  }
  if (!pts.isEmpty()) x0 = std::min(pts.front().x(), x1 - 1);
  axisX_->setRange(x0, x1);
  axisY_->setRange(y0, y1);
  chartView_->chart()->setTitle(row >= 0 ? tr("Utility of %1 over episodes").arg(shownId_)
                                         : tr("Utility over episodes"));
  if (row < 0) {
    provenance_->setHtml(model_->rowCount() == 0
                             ? tr("<p><i>No memory items: a sage campaign fills its memory as it runs; Import… "
                                  "loads a memory file.</i></p>")
                             : tr("<p><i>Select a memory item.</i></p>"));
    return;
  }
  const auto& m = model_->item(row);
  auto pre = [](const std::string& s) {
    return QStringLiteral("<pre style=\"white-space: pre-wrap\">") + qs(s).toHtmlEscaped() +
           QStringLiteral("</pre>");
  };
  QString html = QStringLiteral("<h3>") + qs(m.id).toHtmlEscaped() + QStringLiteral(" (") +
                 qs(std::string(memory::state_name(m.state))) + QStringLiteral(")</h3>");
  html += QStringLiteral("<p>") +
          tr("Source: task %1, episode %2")
              .arg(qs(m.source_task).toHtmlEscaped(), QString::number(m.source_episode)) +
          QStringLiteral("<br>") +
          tr("Utility %1 after %2 update(s); retrieved in %3 episode(s), adopted in %4, by %5 operator(s); "
             "access %6")
              .arg(m.utility, 0, 'f', 3)
              .arg(m.n_updates)
              .arg(m.retrieval_count)
              .arg(m.adoption_count)
              .arg(m.adopting_tasks.size())
              .arg(m.access, 0, 'f', 2) +
          QStringLiteral("</p>");
  html += QStringLiteral("<p><b>") + tr("Rule") + QStringLiteral("</b></p>") + pre(m.rule);
  if (!m.evidence.empty())
    html += QStringLiteral("<p><b>") + tr("Evidence") + QStringLiteral("</b></p>") + pre(m.evidence);
  if (m.code_example)
    html += QStringLiteral("<p><b>") + tr("Code example") + QStringLiteral("</b></p>") + pre(*m.code_example);
  if (m.pattern)
    html += QStringLiteral("<p><b>") + tr("Pattern") + QStringLiteral("</b></p>") + pre(*m.pattern);
  if (m.resident_rule)
    html += QStringLiteral("<p><b>") + tr("Resident form (%1 tokens)").arg(m.resident_tokens) +
            QStringLiteral("</b></p>") +
            pre(*m.resident_rule + (m.resident_code ? "\n" + *m.resident_code : std::string()));
  provenance_->setHtml(html);
}

}  // namespace sf::widgets
