#include "widgets/editor/task_browser.hpp"

#include <QHeaderView>
#include <QAbstractItemDelegate>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace sf::widgets {

namespace {

// Matches a row when the filter text occurs in the task id, its title (tooltip) or its tags.
class TaskFilterProxy : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setNeedle(const QString& needle) {
    needle_ = needle.trimmed();
    invalidateFilter();
  }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
    const QString& needle = needle_;
    if (needle.isEmpty()) return true;
    const QModelIndex i = sourceModel()->index(row, 0, parent);
    if (!sourceModel()->data(i, TaskBrowserModel::IsTaskRole).toBool()) return false;  // groups: via children
    const QString hay =
        sourceModel()->data(i, TaskBrowserModel::TaskIdRole).toString() + QLatin1Char('\n') +
        sourceModel()->data(i, Qt::ToolTipRole).toString() + QLatin1Char('\n') +
        sourceModel()->data(sourceModel()->index(row, TaskBrowserModel::TagsColumn, parent)).toString();
    return hay.contains(needle, Qt::CaseInsensitive);
  }

 private:
  QString needle_;
};

}  // namespace

TaskBrowser::TaskBrowser(QWidget* parent)
    : QWidget(parent), model_(new TaskBrowserModel(this)), proxy_(new TaskFilterProxy(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setRecursiveFilteringEnabled(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter tasks (id, title, tag)"));
  filter_->setClearButtonEnabled(true);
  layout->addWidget(filter_);
  view_ = new QTreeView(this);
  view_->setModel(proxy_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  // The id column is as wide as the ids (never elided), the others as their contents; tags are secondary
  // (grey) and a narrow dock scrolls sideways rather than hiding the ids.
  view_->header()->setStretchLastSection(true);
  view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->setTextElideMode(Qt::ElideNone);
  view_->setAccessibleName(tr("Tasks"));
  layout->addWidget(view_);

  connect(filter_, &QLineEdit::textChanged, this, &TaskBrowser::setFilterText);
  connect(view_, &QTreeView::activated, this, [this](const QModelIndex& idx) {
    const QString id = idx.data(TaskBrowserModel::TaskIdRole).toString();
    if (!id.isEmpty()) Q_EMIT taskActivated(id);
  });
}

void TaskBrowser::setTasks(std::vector<TaskEntry> tasks) {
  model_->setTasks(std::move(tasks));
  view_->expandAll();
  updateGeometry();  // the size hint follows the columns
}

QSize TaskBrowser::sizeHint() const {
  // Wide enough for every column (ids included) at the current font: a dock opens showing them.
  int w = view_->frameWidth() * 2 + view_->indentation() + view_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  for (int c = 0; c < TaskBrowserModel::ColumnCount; ++c)
    w += std::max(columnContentWidth(c), view_->header()->sectionSizeHint(c));
  return {std::max(QWidget::sizeHint().width(), w), QWidget::sizeHint().height()};
}

void TaskBrowser::setTaskStatus(const QString& id, bool solved, double rate) {
  model_->setTaskStatus(id, solved, rate);
}

void TaskBrowser::clearStatuses() {
  model_->clearStatuses();
}

void TaskBrowser::setFilterText(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);  // re-enters through textChanged
  static_cast<TaskFilterProxy*>(proxy_)->setNeedle(text);
  view_->expandAll();
}

QString TaskBrowser::currentTask() const {
  return view_->currentIndex().data(TaskBrowserModel::TaskIdRole).toString();
}

bool TaskBrowser::selectTask(const QString& id) {
  const QModelIndex src = model_->indexOfTask(id);
  if (!src.isValid()) return false;
  const QModelIndex idx = proxy_->mapFromSource(src);
  if (!idx.isValid()) return false;
  view_->setCurrentIndex(idx);
  view_->scrollTo(idx);
  return true;
}

int TaskBrowser::columnContentWidth(int column) const {
  // The widest cell of the column (tasks indented under their group), as the delegate draws it.
  QStyleOptionViewItem opt;
  opt.initFrom(view_);
  int widest = 0;
  const QAbstractItemModel* m = view_->model();
  for (int g = 0; g < m->rowCount(); ++g) {
    const QModelIndex gi = m->index(g, column);
    widest = std::max(widest, view_->itemDelegate()->sizeHint(opt, gi).width() + (column == 0 ? view_->indentation() : 0));
    const QModelIndex parent = m->index(g, 0);
    for (int t = 0; t < m->rowCount(parent); ++t)
      widest = std::max(widest, view_->itemDelegate()->sizeHint(opt, m->index(t, column, parent)).width() +
                                    (column == 0 ? 2 * view_->indentation() : 0));
  }
  return widest;
}

}  // namespace sf::widgets
