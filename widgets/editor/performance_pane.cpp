#include "widgets/editor/performance_pane.hpp"
#include "core/common/speedup.hpp"

#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>

#include "core/inspect/perf_words.hpp"

namespace sf::widgets {

QString formatCount(qint64 v) { return QString::number(v); }

QString formatSpeedup(double s) { return QString::fromStdString(speedup_text(s)); }  // "tie (1.00×)" within 1%

// ----------------------------------------------------------------------------------------------- units model

PerfUnitsModel::PerfUnitsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PerfUnitsModel::setReport(std::shared_ptr<const cost::CostReport> r) {
  beginResetModel();
  report_ = std::move(r);
  ties_ = report_ ? inspect::tied_bottlenecks(*report_) : std::vector<int>{};
  endResetModel();
}

int PerfUnitsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->units.size());
}

int PerfUnitsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QColor PerfUnitsModel::bottleneckColor() { return QColor(QStringLiteral("#fde68a")); }

QVariant PerfUnitsModel::data(const QModelIndex& index, int role) const {
  if (!report_ || !index.isValid() || index.row() >= rowCount()) return {};
  const auto& u = report_->units[static_cast<std::size_t>(index.row())];
  const bool bottleneck = std::find(ties_.begin(), ties_.end(), index.row()) != ties_.end();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Line: return u.line > 0 ? QString::number(u.line) : QStringLiteral("-");
        case Primitive: return QString::fromStdString(u.primitive);
        case Stream: return QString::fromStdString(u.name);
        case Busy: return formatCount(u.busy);
        case StallIn: return formatCount(u.stall_in);
        case BlockedOut: return formatCount(u.blocked_out);
        case TokensIn: return formatCount(u.tokens_in);
        case TokensOut: return formatCount(u.tokens_out);
        case Utilisation: return QStringLiteral("%1 %").arg(100.0 * inspect::unit_utilisation(u, report_->cycles), 0, 'f', 1);
      }
      return {};
    case Qt::TextAlignmentRole:
      return index.column() == Primitive || index.column() == Stream
                 ? static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter)
                 : static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      return bottleneck ? QVariant(bottleneckColor()) : QVariant();
    case Qt::ForegroundRole:
      return bottleneck ? QVariant(QColor(Qt::black)) : QVariant();
    case Qt::FontRole:
      if (bottleneck) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      if (!bottleneck) return {};
      return ties_.size() > 1 ? tr("Bottleneck, tied with %n other unit(s): the most busy cycles", "",
                                   static_cast<int>(ties_.size()) - 1)
                              : tr("Bottleneck: the unit with the most busy cycles");
    case LineRole: return u.line;
    case BottleneckRole: return bottleneck;
    default: return {};
  }
}

QVariant PerfUnitsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Busy: return tr("Cycles the unit spent working");
      case StallIn: return tr("Cycles the unit waited for an input token");
      case BlockedOut: return tr("Cycles the unit waited for room on its output channel");
      case TokensIn: return tr("Tokens the unit received");
      case TokensOut: return tr("Tokens the unit sent");
      case Utilisation: return tr("Busy cycles / the program's total cycles");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Line: return tr("Line");
    case Primitive: return tr("Primitive");
    case Stream: return tr("Stream");
    case Busy: return tr("Busy (cycles)");
    case StallIn: return tr("Stall in (cycles)");
    case BlockedOut: return tr("Blocked out (cycles)");
    case TokensIn: return tr("Tokens in");
    case TokensOut: return tr("Tokens out");
    case Utilisation: return tr("Utilisation");
  }
  return {};
}

// ----------------------------------------------------------------------------------------------- timeline

PerfTimeline::PerfTimeline(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("PerfTimeline"));
  setAccessibleName(tr("Unit timeline"));
  setMouseTracking(false);
}

QColor PerfTimeline::busyColor() { return QColor(QStringLiteral("#16a34a")); }
QColor PerfTimeline::stalledColor() { return QColor(QStringLiteral("#f59e0b")); }

void PerfTimeline::setReport(std::shared_ptr<const cost::CostReport> r) {
  report_ = std::move(r);
  updateGeometry();
  update();
}

QSize PerfTimeline::sizeHint() const {
  const int n = report_ ? static_cast<int>(report_->units.size()) : 0;
  return {kLabelWidth + 480, kAxisHeight + n * kRowHeight + 4};
}

QSize PerfTimeline::minimumSizeHint() const { return {kLabelWidth + 120, sizeHint().height()}; }

QRect PerfTimeline::rowRect(int unit) const { return {0, unit * kRowHeight, width(), kRowHeight}; }

int PerfTimeline::unitAt(int y) const {
  if (!report_ || y < 0) return -1;
  const int u = y / kRowHeight;
  return u < static_cast<int>(report_->units.size()) ? u : -1;
}

void PerfTimeline::mousePressEvent(QMouseEvent* e) {
  const int u = unitAt(static_cast<int>(e->position().y()));
  if (u >= 0) Q_EMIT unitClicked(u);
  QWidget::mousePressEvent(e);
}

void PerfTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (!report_ || report_->units.empty() || report_->timeline_bucket_cycles <= 0) {
    p.setPen(palette().text().color());
    p.drawText(rect(), Qt::AlignCenter, tr("No timeline"));
    return;
  }
  const auto& r = *report_;
  const double plotW = std::max(20, width() - kLabelWidth - 8);
  const double cycles = static_cast<double>(std::max<std::int64_t>(r.cycles, 1));
  const double bw = static_cast<double>(r.timeline_bucket_cycles);
  const QColor text = palette().text().color();
  QFont small = font();
  small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
  p.setFont(small);
  for (int x = 0; x < static_cast<int>(r.units.size()); ++x) {
    const auto& u = r.units[static_cast<std::size_t>(x)];
    const QRect row = rowRect(x);
    if (x % 2) p.fillRect(row, palette().alternateBase());
    const QString label = (u.line > 0 ? QString::number(u.line) : QStringLiteral("-")) + QLatin1Char(' ') +
                          QString::fromStdString(u.primitive) + QLatin1Char(' ') + QString::fromStdString(u.name);
    p.setPen(text);
    p.drawText(QRect(4, row.top(), kLabelWidth - 8, row.height()), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(label, Qt::ElideRight, kLabelWidth - 8));
    const double top = row.top() + 2, h = row.height() - 4;
    const std::size_t n = std::min(u.timeline_busy.size(), u.timeline_stalled.size());
    for (std::size_t b = 0; b < n; ++b) {
      const double c0 = static_cast<double>(b) * bw;
      if (c0 >= cycles) break;
      const double c1 = std::min(cycles, c0 + bw);
      const double x0 = kLabelWidth + c0 / cycles * plotW, x1 = kLabelWidth + c1 / cycles * plotW;
      const double span = c1 - c0;
      const double fb = std::clamp(static_cast<double>(u.timeline_busy[b]) / span, 0.0, 1.0);
      const double fs = std::clamp(static_cast<double>(u.timeline_stalled[b]) / span, 0.0, 1.0 - fb);
      if (fb > 0) p.fillRect(QRectF(x0, top + h * (1 - fb), std::max(1.0, x1 - x0), h * fb), busyColor());
      if (fs > 0)
        p.fillRect(QRectF(x0, top + h * (1 - fb - fs), std::max(1.0, x1 - x0), h * fs), stalledColor());
    }
    const auto ties = inspect::tied_bottlenecks(r);
    if (std::find(ties.begin(), ties.end(), x) != ties.end()) {
      p.setPen(QPen(QColor(QStringLiteral("#b45309")), 2));
      p.setBrush(Qt::NoBrush);
      p.drawRect(QRectF(1, row.top() + 1, width() - 3, row.height() - 2));
    }
  }
  // The cycle axis.
  const int axisY = static_cast<int>(r.units.size()) * kRowHeight + 2;
  p.setPen(text);
  p.drawLine(kLabelWidth, axisY, static_cast<int>(kLabelWidth + plotW), axisY);
  for (int k = 0; k <= 4; ++k) {
    const double x = kLabelWidth + plotW * k / 4;
    p.drawLine(QPointF(x, axisY), QPointF(x, axisY + 4));
    const QString t = QString::number(static_cast<qint64>(cycles * k / 4));
    const int tw = p.fontMetrics().horizontalAdvance(t);
    p.drawText(QPointF(std::clamp(x - tw / 2.0, 0.0, width() - tw - 1.0), axisY + 4 + p.fontMetrics().ascent()), t);
  }
  p.drawText(QRect(4, axisY + 2, kLabelWidth - 8, p.fontMetrics().height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
             tr("cycles"));
  // Legend: what the two colours and the outline mean.
  const int ly = axisY + p.fontMetrics().height() + 8;
  double lx = kLabelWidth;
  const struct {
    QColor c;
    QString t;
  } items[] = {{busyColor(), tr("busy")}, {stalledColor(), tr("stalled (waiting for input or output)")}};
  for (const auto& it : items) {
    p.fillRect(QRectF(lx, ly + 2, 14, p.fontMetrics().height() - 4), it.c);
    p.setPen(text);
    p.drawText(QPointF(lx + 18, ly + p.fontMetrics().ascent()), it.t);
    lx += 30 + p.fontMetrics().horizontalAdvance(it.t);
  }
  p.setPen(QPen(QColor(QStringLiteral("#b45309")), 2));
  p.drawRect(QRectF(lx, ly + 2, 14, p.fontMetrics().height() - 4));
  p.setPen(text);
  p.drawText(QPointF(lx + 18, ly + p.fontMetrics().ascent()), tr("bottleneck"));
}

// ----------------------------------------------------------------------------------------------- pane

PerformancePane::PerformancePane(QWidget* parent)
    : QWidget(parent),
      message_(new QLabel(this)),
      totals_(new QLabel(this)),
      bound_(new QLabel(this)),
      legend_(new QLabel(this)),
      units_(new PerfUnitsModel(this)),
      view_(new QTableView(this)),
      timeline_(new PerfTimeline),
      timelineScroll_(new QScrollArea(this)) {
  setObjectName(QStringLiteral("PerformancePane"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setTextFormat(Qt::RichText);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setWordWrap(true);
  totals_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  bound_->setObjectName(QStringLiteral("PerfBoundSentence"));
  bound_->setWordWrap(true);
  bound_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bf = bound_->font();
  bf.setBold(true);
  bound_->setFont(bf);
  legend_->setObjectName(QStringLiteral("PerfLegend"));
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  legend_->setText(tr("<span style=\"background:%1\">&nbsp;<b>bold</b>&nbsp;</span> the bottleneck: every unit "
                      "tied for the most busy cycles. Utilisation = busy cycles / the program's total cycles. "
                      "Cycles are clock cycles of the chip profile.")
                       .arg(PerfUnitsModel::bottleneckColor().name()));
  view_->setObjectName(QStringLiteral("PerfUnitsView"));
  view_->setModel(units_);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  timelineScroll_->setWidget(timeline_);
  timelineScroll_->setWidgetResizable(true);
  timelineScroll_->setFrameShape(QFrame::NoFrame);

  auto* top = new QWidget(this);
  auto* tl = new QVBoxLayout(top);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addWidget(bound_);
  tl->addWidget(totals_);
  tl->addWidget(view_, 1);
  legend_->hide();  // its text is the last row of the totals (a squeezed dock must not cut it)
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(top);
  split->addWidget(timelineScroll_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(message_);
  layout->addWidget(split, 1);

  connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) { activateUnit(i.row()); });
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex& i) { activateUnit(i.row()); });
  connect(timeline_, &PerfTimeline::unitClicked, this, &PerformancePane::activateUnit);
  clear();
}

void PerformancePane::activateUnit(int unit) {
  const auto* r = units_->report();
  if (!r || unit < 0 || unit >= static_cast<int>(r->units.size())) return;
  view_->selectRow(unit);
  const int line = r->units[static_cast<std::size_t>(unit)].line;
  if (line > 0) Q_EMIT lineActivated(line);
}

void PerformancePane::clear() {
  snapshot_ = PerfSnapshot{};
  stale_ = false;
  message_->setText(tr("No report yet: verify the program (Run → Verify) to see its cost."));
  message_->show();
  totals_->clear();
  totals_->hide();
  bound_->clear();
  bound_->hide();
  units_->setReport(nullptr);
  view_->resizeColumnsToContents();  // the headers (with their units) are never elided
  timeline_->setReport(nullptr);
}

void PerformancePane::setStale(bool stale) {
  if (!snapshot_.ok || stale == stale_) return;
  stale_ = stale;
  message_->setText(stale ? tr("The program changed since this report; verify again (F7) to update it.")
                          : QString());
  message_->setVisible(stale);
}

void PerformancePane::setSnapshot(const PerfSnapshot& s) {
  snapshot_ = s;
  stale_ = false;
  if (!s.ok || !s.report) {
    QString why = s.why.isEmpty() ? tr("No cost report.") : s.why;
    for (const auto& i : s.issues) {
      if (i.severity != Severity::Error) continue;
      why += QStringLiteral("\n") + (i.line > 0 ? tr("line %1: ").arg(i.line) : QString()) + i.code +
             QStringLiteral(" ") + i.message;
    }
    message_->setText(why);
    message_->show();
    totals_->clear();
    totals_->hide();
    bound_->clear();
    bound_->hide();
    units_->setReport(nullptr);
    timeline_->setReport(nullptr);
    return;
  }
  const auto& r = *s.report;
  message_->clear();
  message_->hide();
  auto row = [](const QString& k, const QString& v) {
    return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
  };
  QString html = QStringLiteral("<table cellspacing=\"1\">");
  html += row(tr("Cycles"), tr("%1 (%2 µs at %3 GHz, chip %4)")
                                .arg(formatCount(r.cycles))
                                .arg(r.micros(), 0, 'f', 3)
                                .arg(r.clock_ghz, 0, 'g', 3)
                                .arg(QString::fromStdString(r.chip).toHtmlEscaped()));
  QString speed;
  if (s.speedup)
    speed = tr("%1 (baseline %2 cycles)").arg(formatSpeedup(*s.speedup), formatCount(s.baselineCycles.value_or(0)));
  else if (!s.baselineCycles)
    speed = tr("unknown: no baseline (%1)").arg(s.baselineWhy.toHtmlEscaped());
  else
    speed = tr("none: the program is not feasible (baseline %1 cycles)").arg(formatCount(*s.baselineCycles));
  html += row(tr("Speedup"), speed);
  html += row(tr("Off-chip bytes"), tr("%1 read, %2 written")
                                        .arg(formatCount(r.offchip_read_bytes), formatCount(r.offchip_write_bytes)));
  QString onchip = formatCount(r.onchip_bytes);
  if (r.deepened_channels > 0)
    onchip += QStringLiteral(" ") + tr("(%n deepened channel(s), %1 bytes buffered)", "", r.deepened_channels)
                                        .arg(formatCount(r.buffered_bytes));
  html += row(tr("On-chip bytes"), onchip);
  html += row(tr("FLOPs"), tr("%1 (allocated compute %2 FLOPs/cycle)")
                               .arg(formatCount(r.flops), formatCount(r.allocated_compute)));
  html += row(tr("Utilisation"), QStringLiteral("%1 %").arg(r.utilisation * 100, 0, 'f', 2));
  QString feas;
  if (r.feasible) {
    feas = tr("feasible");
  } else {
    feas = QStringLiteral("<span style=\"color:#d00000\">") + tr("not feasible") + QStringLiteral("</span>");
    for (const auto& d : r.violations)
      feas += QStringLiteral("<br>") + QString::fromStdString(d.code + " " + d.message).toHtmlEscaped();
  }
  html += row(tr("Feasibility"), feas);
  const auto ties = inspect::tied_bottlenecks(r);
  if (!ties.empty()) {
    QStringList names;
    for (int t : ties) {
      const auto& b = r.units[static_cast<std::size_t>(t)];
      names << tr("%1 %2 (line %3)")
                   .arg(QString::fromStdString(b.primitive), QString::fromStdString(b.name))
                   .arg(b.line > 0 ? QString::number(b.line) : QStringLiteral("-"));
    }
    const auto& b = r.units[static_cast<std::size_t>(ties.front())];
    html += row(ties.size() > 1 ? tr("Bottleneck (%n tied)", "", static_cast<int>(ties.size())) : tr("Bottleneck"),
                tr("%1, %2 busy cycles (%3 % utilisation)")
                    .arg(names.join(QStringLiteral(", ")).toHtmlEscaped(), formatCount(b.busy))
                    .arg(100.0 * inspect::unit_utilisation(b, r.cycles), 0, 'f', 1));
  }
  html += row(tr("Legend"), legend_->text());
  html += QStringLiteral("</table>");
  totals_->setText(html);
  totals_->show();
  bound_->setText(QString::fromStdString(inspect::bound_sentence(r)));
  bound_->show();
  units_->setReport(s.report);
  view_->resizeColumnsToContents();
  timeline_->setReport(s.report);
  if (r.bottleneck >= 0) view_->scrollTo(units_->index(r.bottleneck, 0));
}

QString PerformancePane::messageText() const { return message_->isHidden() ? QString() : message_->text(); }

QString PerformancePane::boundText() const { return bound_->isHidden() ? QString() : bound_->text(); }
QString PerformancePane::legendText() const { return legend_->text(); }

QString PerformancePane::totalsText() const {
  if (totals_->isHidden() || totals_->text().isEmpty()) return {};
  QTextDocument d;
  d.setHtml(totals_->text());
  return d.toPlainText();
}

}  // namespace sf::widgets
