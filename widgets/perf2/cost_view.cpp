#include "widgets/perf2/cost_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "core/inspect/perf2_explain.hpp"

namespace sf::widgets::perf2 {

namespace ex = sf::inspect::perf2;
using step2::perf::Limit;

namespace {


// The utilisation bar: a track, a filled part as long as the utilisation in the limit's colour, and the
// limit's name.
class CostBarDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& idx) const override {
    QStyledItemDelegate::paint(p, opt, QModelIndex());
    const double u = idx.data(CostModel::UtilisationRole).toDouble();
    const auto lim = static_cast<Limit>(idx.data(CostModel::LimitRole).toInt());
    const QRect r = opt.rect.adjusted(3, 3, -3, -3);
    p->save();
    p->fillRect(r, opt.palette.alternateBase());
    p->fillRect(QRect(r.left(), r.top(), std::max(1, static_cast<int>(r.width() * u)), r.height()), limitColor(lim));
    p->setPen(opt.palette.text().color());
    p->drawText(r.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignRight, limitLabel(lim));
    p->restore();
  }
  QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex& idx) const override {
    QSize s = QStyledItemDelegate::sizeHint(opt, idx);
    s.setWidth(std::max(s.width(), opt.fontMetrics.horizontalAdvance(QStringLiteral("HBM requests")) + 60));
    return s;
  }
};

}  // namespace

QString limitLegendHtml() {
  QString h = QCoreApplication::translate("perf2", "Bar length: utilisation (busy / total cycles). Colour: ");
  const Limit ls[] = {Limit::PmuRead, Limit::Compute, Limit::WriteBack, Limit::HbmRequests, Limit::Waiting};
  QStringList parts;
  for (Limit l : ls)
    parts << QStringLiteral("<span style=\"background:%1\">&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
                 .arg(limitColor(l).name(), limitLabel(l).toHtmlEscaped());
  return h + parts.join(QStringLiteral("&nbsp;&nbsp; "));
}

CostModel::CostModel(QObject* parent) : QAbstractTableModel(parent) {}

void CostModel::setOutcome(const Outcome& o) {
  beginResetModel();
  outcome_ = o;
  lines_ = QString::fromStdString(o.source).split(QLatin1Char('\n'));
  bottlenecks_ = ex::bottlenecks(o.report);
  endResetModel();
}

int CostModel::rowOfLine(int line) const {
  for (std::size_t i = 0; i < outcome_.report.nodes.size(); ++i)
    if (outcome_.report.nodes[i].line == line) return static_cast<int>(i);
  return -1;
}

int CostModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(outcome_.report.nodes.size());
}
int CostModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CostModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& n = outcome_.report.nodes[static_cast<std::size_t>(index.row())];
  const std::int64_t cycles = outcome_.report.cycles;
  const bool bottleneck = std::find(bottlenecks_.begin(), bottlenecks_.end(), index.row()) != bottlenecks_.end();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Line: return n.line > 0 ? QString::number(n.line) : QStringLiteral("-");
        case Statement: {
          QString s = n.line > 0 && n.line <= lines_.size() ? lines_[n.line - 1].trimmed() : QString();
          if (n.implicit) s = tr("(implicit %1) ").arg(QString::fromStdString(n.op)) + s;
          return s;
        }
        case Busy: return groupNum(n.busy);
        case Share: return QStringLiteral("%1 %").arg(100.0 * ex::utilisation(n, cycles), 0, 'f', 1);
        case Offchip: return groupNum(n.offchip_bytes);
        case Onchip: return groupNum(n.onchip_bytes);
        case ComputeBw: return n.compute_bw > 0 ? groupNum(n.compute_bw) : QStringLiteral("-");
        case LimitBar: return QString();
      }
      return {};
    case Qt::ToolTipRole: return QString::fromStdString(ex::node_words(n, cycles));
    case Qt::TextAlignmentRole:
      return index.column() == Statement ? static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter)
                                         : static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
      if (bottleneck) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case LineRole: return n.line;
    case BottleneckRole: return bottleneck;
    case UtilisationRole: return ex::utilisation(n, cycles);
    case LimitRole: return static_cast<int>(n.limit);
    default: return {};
  }
}

QVariant CostModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Busy: return tr("Cycles the node spent working (loads, compute, stores, request issue)");
      case Share: return tr("Utilisation: busy cycles / the program's total cycles");
      case Offchip: return tr("Bytes the node moves to or from off-chip memory (HBM)");
      case Onchip: return tr("On-chip memory the node needs, in bytes");
      case ComputeBw: return tr("The node's compute bandwidth, FLOP per cycle");
      case LimitBar: return tr("What limits the node in its busiest phase; the bar is its utilisation");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Line: return tr("Line");
    case Statement: return tr("Statement");
    case Busy: return tr("Busy (cycles)");
    case Share: return tr("Utilisation");
    case Offchip: return tr("Off-chip (B)");
    case Onchip: return tr("On-chip (B)");
    case ComputeBw: return tr("compute_bw (FLOP/cycle)");
    case LimitBar: return tr("Limit");
  }
  return {};
}

CostView::CostView(QWidget* parent)
    : QWidget(parent), model_(new CostModel(this)), sentence_(new QLabel(this)), table_(new QTableView(this)),
      legend_(new QLabel(this)) {
  setObjectName(QStringLiteral("Perf2CostView"));
  sentence_->setObjectName(QStringLiteral("Perf2BoundSentence"));
  sentence_->setWordWrap(true);
  sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setModel(model_);
  table_->setItemDelegateForColumn(CostModel::LimitBar, new CostBarDelegate(table_));
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setSectionResizeMode(CostModel::Statement, QHeaderView::Stretch);
  table_->horizontalHeader()->setMinimumSectionSize(40);
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  legend_->setText(limitLegendHtml());
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(sentence_);
  lay->addWidget(table_, 1);
  lay->addWidget(legend_);
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
    const int line = i.data(CostModel::LineRole).toInt();
    if (line > 0) Q_EMIT lineActivated(line);
  });
  setOutcome({});
}

void CostView::setOutcome(const Outcome& o) {
  model_->setOutcome(o);
  if (!o.ok) {
    sentence_->setText(o.error.empty() ? tr("No timing yet.") : QString::fromStdString(o.error));
    return;
  }
  sentence_->setText(tr("%1 cycles. %2")
                         .arg(QString::fromStdString(ex::group_digits(o.report.cycles)),
                              QString::fromStdString(ex::bound_sentence(o.report))));
  for (int c = 0; c < CostModel::ColumnCount; ++c)
    if (c != CostModel::Statement) table_->resizeColumnToContents(c);
}

void CostView::selectLine(int line) {
  const int row = model_->rowOfLine(line);
  if (row >= 0) table_->selectRow(row);
}

QString CostView::sentence() const { return sentence_->text(); }

}  // namespace sf::widgets::perf2
