#include "widgets/campaign/comparison_pane.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QListWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/campaign/comparison_model.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/campaign/run_comparison_view.hpp"
#include "widgets/campaign/run_speedup_chart.hpp"

namespace sf::widgets {

namespace {

// A read-only table whose columns are as wide as their contents (the Task column as its longest id) and whose
// rows follow the font; the last column takes what is left.
QTableView* tableView(QAbstractItemModel* m, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(m);
  v->verticalHeader()->hide();
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
  v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  v->horizontalHeader()->setStretchLastSection(true);
  v->setAlternatingRowColors(true);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setEditTriggers(QAbstractItemView::NoEditTriggers);
  v->setWordWrap(false);
  return v;
}

// The pane's layout does not report a height for its width: the dock's scroll area then sizes the pane to the
// dock (down to the pane's minimum) instead of to the preferred height of every tab, which would push the tables
// and charts below the dock's edge behind a scroll bar.
class FillLayout : public QVBoxLayout {
 public:
  using QVBoxLayout::QVBoxLayout;
  bool hasHeightForWidth() const override { return false; }
};

}  // namespace

ComparisonPane::ComparisonPane(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ComparisonPane"));
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("comparisonWorkspaces"));
  list_->setToolTip(tr("The workspaces to compare, one campaign each"));
  // Two lines (more scroll): the tabs below get the height.
  list_->setMaximumHeight(2 * list_->fontMetrics().lineSpacing() + 2 * list_->frameWidth() + 4);
  auto* add = new QPushButton(tr("Add Workspace…"), this);
  auto* remove = new QPushButton(tr("Remove"), this);
  auto* run = new QPushButton(tr("Compare"), this);
  auto* top = new QHBoxLayout;
  top->addWidget(list_, 1);
  for (QPushButton* b : {add, remove, run}) top->addWidget(b, 0, Qt::AlignTop);

  curves_ = new LearningCurves(this);
  speedups_ = new RunSpeedupChart(this);
  summary_ = new ComparisonSummaryModel(this);
  tasks_ = new ComparisonTaskModel(this);
  tabs_ = new QTabWidget(this);
  summaryView_ = tableView(summary_, tabs_);
  summaryView_->setObjectName(QStringLiteral("comparisonSummary"));
  taskView_ = tableView(tasks_, tabs_);
  taskView_->setObjectName(QStringLiteral("comparisonTasks"));
  grid_ = new RunComparisonView(tabs_);
  tabs_->addTab(curves_, tr("Curves"));
  tabs_->addTab(speedups_, tr("Speedups"));
  tabs_->addTab(summaryView_, tr("Tokens and cost"));
  tabs_->addTab(taskView_, tr("Per-task success"));
  tabs_->addTab(grid_, tr("Drill-down"));

  auto* l = new FillLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addLayout(top);
  l->addWidget(tabs_, 1);

  connect(grid_, &RunComparisonView::statusMessage, this, &ComparisonPane::statusMessage);
  connect(add, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Campaign workspace to compare"), startDir_);
    if (!d.isEmpty()) list_->addItem(d);
  });
  connect(remove, &QPushButton::clicked, this, [this] { delete list_->currentItem(); });
  connect(run, &QPushButton::clicked, this, [this] { emit compareRequested(workspaces()); });
}

void ComparisonPane::setWorkspaces(const QStringList& dirs) {
  list_->clear();
  list_->addItems(dirs);
}

QStringList ComparisonPane::workspaces() const {
  QStringList dirs;
  for (int i = 0; i < list_->count(); ++i) dirs << list_->item(i)->text();
  return dirs;
}

void ComparisonPane::setCampaigns(const QVector<CampaignSummary>& c) {
  curves_->setCampaigns(c);
  summary_->setCampaigns(c);
  tasks_->setCampaigns(c);
  std::vector<RunRecordPtr> runs;
  QStringList problems;
  for (const auto& s : c) {
    if (s.run) runs.push_back(s.run);
    else problems << QStringLiteral("%1: %2").arg(s.dir, s.error.isEmpty() ? s.runError : s.error);
  }
  speedups_->setRuns(runs);
  grid_->setRuns(std::move(runs), problems);
  fitColumns();
}

void ComparisonPane::fitColumns() {
  // ResizeToContents sizes to the rows in view only when asked; the whole column is measured here so that the
  // longest task id fits even when its row is scrolled out of sight.
  for (QTableView* v : {summaryView_, taskView_}) v->resizeColumnsToContents();
}

}  // namespace sf::widgets
