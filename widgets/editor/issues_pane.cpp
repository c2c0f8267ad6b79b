#include "widgets/editor/issues_pane.hpp"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/editor/issues_model.hpp"

namespace sf::widgets {

IssuesPane::IssuesPane(IssuesModel* model, QWidget* parent)
    : QWidget(parent), model_(model), view_(new QTreeView(this)), detail_(new QLabel(this)) {
  setObjectName(QStringLiteral("IssuesPane"));
  view_->setObjectName(QStringLiteral("IssuesView"));
  view_->setModel(model_);
  view_->setRootIsDecorated(false);
  view_->setAlternatingRowColors(true);
  view_->header()->setStretchLastSection(true);
  detail_->setObjectName(QStringLiteral("IssueDetail"));
  detail_->setWordWrap(true);
  detail_->setTextFormat(Qt::RichText);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setMargin(4);
  detail_->setAutoFillBackground(true);
  detail_->setBackgroundRole(QPalette::AlternateBase);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(0);
  l->addWidget(view_, 1);
  l->addWidget(detail_, 0);
  connect(view_, &QTreeView::activated, this, [this](const QModelIndex& i) {
    emit lineActivated(i.data(IssuesModel::LineRole).toInt(), i.data(IssuesModel::ColumnRole).toInt());
  });
  connect(view_, &QTreeView::clicked, view_, &QTreeView::activated);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &IssuesPane::updateDetail);
  connect(model_, &QAbstractItemModel::modelReset, this, &IssuesPane::updateDetail);
  updateDetail();
}

QString IssuesPane::detailText(const IssueRow& r) {
  QString msg = r.message;
  if (const QString own = QStringLiteral("line %1: ").arg(r.line); r.line > 0 && msg.startsWith(own))
    msg.remove(0, own.size());  // the location is shown once, with its column
  QString fix;
  if (const int at = msg.indexOf(QLatin1String("; fix: ")); at >= 0) {
    fix = msg.mid(at + 7);
    msg.truncate(at);
  }
  QString where = r.line > 0 ? (r.column > 0 ? tr("line %1:%2").arg(r.line).arg(r.column) : tr("line %1").arg(r.line))
                             : QString();
  QString html = QStringLiteral("<b>%1</b>%2 %3").arg(r.code.toHtmlEscaped(),
                                                      where.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(where),
                                                      msg.toHtmlEscaped());
  if (!fix.isEmpty()) html += QStringLiteral("<br><b>%1</b> %2").arg(tr("Fix:"), fix.toHtmlEscaped());
  return html;
}

void IssuesPane::updateDetail() {
  const auto& rows = model_->issues();
  if (rows.isEmpty()) {
    detail_->clear();
    detail_->hide();
    return;
  }
  const QModelIndex cur = view_->currentIndex();
  const int row = cur.isValid() && cur.row() < rows.size() ? cur.row() : 0;
  detail_->setText(detailText(rows[row]));
  detail_->show();
}

}  // namespace sf::widgets
