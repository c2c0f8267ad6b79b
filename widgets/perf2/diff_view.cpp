#include "widgets/perf2/diff_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/inspect/perf2_explain.hpp"
#include "widgets/editor/program_diff_view.hpp"

namespace sf::widgets::perf2 {

namespace ex = sf::inspect::perf2;

namespace {

QString diffDelta(std::int64_t v) { return (v > 0 ? QStringLiteral("+") : QString()) + groupNum(v); }

QTableWidgetItem* diffCell(const QString& t, bool right = true) {
  auto* i = new QTableWidgetItem(t);
  i->setTextAlignment(right ? (Qt::AlignRight | Qt::AlignVCenter) : (Qt::AlignLeft | Qt::AlignVCenter));
  return i;
}

}  // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), totals_(new QTableWidget(this)), nodes_(new QTableWidget(this)),
      text_(new ProgramDiffView(this)) {
  setObjectName(QStringLiteral("Perf2DiffView"));
  summary_->setWordWrap(true);
  summary_->setObjectName(QStringLiteral("Perf2DiffSummary"));
  for (auto* t : {totals_, nodes_}) {
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setStretchLastSection(true);
  }
  totals_->setColumnCount(4);
  totals_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("This program"), tr("Change")});
  nodes_->setColumnCount(5);
  nodes_->setHorizontalHeaderLabels(
      {tr("Node"), tr("Baseline busy (cycles)"), tr("Busy (cycles)"), tr("Change (cycles)"), tr("Limit")});
  auto* top = new QWidget(this);
  auto* tl = new QVBoxLayout(top);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addWidget(summary_);
  tl->addWidget(totals_, 2);
  tl->addWidget(nodes_, 3);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(text_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(split);
  refresh();
}

void DiffView::setBaseline(const Outcome& o) {
  base_ = o;
  refresh();
}

void DiffView::setOutcome(const Outcome& o) {
  if (!o.ok) return;
  cur_ = o;
  refresh();
}

QString DiffView::summary() const { return summary_->text(); }

void DiffView::refresh() {
  if (!base_.ok || !cur_.ok) {
    summary_->setText(!base_.ok ? tr("No baseline: this task has no baseline program, or it did not time.")
                                : tr("No timing of this program yet."));
    totals_->setRowCount(0);
    nodes_->setRowCount(0);
    return;
  }
  const auto& b = base_.report;
  const auto& c = cur_.report;
  summary_->setText(tr("%1 cycles against the baseline's %2: %3× the baseline's speed.")
                        .arg(groupNum(c.cycles), groupNum(b.cycles))
                        .arg(static_cast<double>(b.cycles) / std::max<std::int64_t>(1, c.cycles), 0, 'f', 2));
  struct Row {
    QString name;
    std::int64_t b, c;
  };
  const Row rows[] = {
      {tr("Cycles"), b.cycles, c.cycles},
      {tr("Off-chip bytes read (B)"), b.offchip_read_bytes, c.offchip_read_bytes},
      {tr("Off-chip bytes written (B)"), b.offchip_write_bytes, c.offchip_write_bytes},
      {tr("On-chip bytes (B)"), b.onchip_bytes, c.onchip_bytes},
      {tr("FLOP"), b.flops, c.flops},
  };
  totals_->setRowCount(6);
  int r = 0;
  for (const auto& row : rows) {
    totals_->setItem(r, 0, diffCell(row.name, false));
    totals_->setItem(r, 1, diffCell(groupNum(row.b)));
    totals_->setItem(r, 2, diffCell(groupNum(row.c)));
    totals_->setItem(r, 3, diffCell(diffDelta(row.c - row.b)));
    ++r;
  }
  totals_->setItem(r, 0, diffCell(tr("% of peak"), false));
  totals_->setItem(r, 1, diffCell(QStringLiteral("%1 %").arg(b.pct_of_peak, 0, 'f', 1)));
  totals_->setItem(r, 2, diffCell(QStringLiteral("%1 %").arg(c.pct_of_peak, 0, 'f', 1)));
  totals_->setItem(r, 3, diffCell(QStringLiteral("%1%2 points").arg(c.pct_of_peak >= b.pct_of_peak ? "+" : "").arg(c.pct_of_peak - b.pct_of_peak, 0, 'f', 1)));
  totals_->resizeColumnsToContents();

  // Per-node deltas.
  bool sameShape = b.nodes.size() == c.nodes.size();
  for (std::size_t i = 0; sameShape && i < b.nodes.size(); ++i) sameShape = b.nodes[i].op == c.nodes[i].op;
  nodes_->setRowCount(static_cast<int>(c.nodes.size()));
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    const auto& n = c.nodes[i];
    const ex::NodeReport* m = nullptr;
    if (sameShape) m = &b.nodes[i];
    else
      for (const auto& x : b.nodes)
        if (x.line == n.line && x.op == n.op && x.implicit == n.implicit) m = &x;
    const int row = static_cast<int>(i);
    nodes_->setItem(row, 0, diffCell((n.line > 0 ? tr("line %1 ").arg(n.line) : QString()) + QString::fromStdString(n.op), false));
    nodes_->setItem(row, 1, diffCell(m ? groupNum(m->busy) : tr("new")));
    nodes_->setItem(row, 2, diffCell(groupNum(n.busy)));
    nodes_->setItem(row, 3, diffCell(m ? diffDelta(n.busy - m->busy) : QStringLiteral("-")));
    nodes_->setItem(row, 4, diffCell(limitLabel(n.limit), false));
    nodes_->item(row, 4)->setForeground(limitColor(n.limit).darker(130));
  }
  nodes_->resizeColumnsToContents();
  text_->setTexts(QString::fromStdString(base_.source), QString::fromStdString(cur_.source), tr("baseline"),
                  tr("this program"));
}

}  // namespace sf::widgets::perf2
