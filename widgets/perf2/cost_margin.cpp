#include "widgets/perf2/cost_margin.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QToolTip>

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyledtext.h>

#include <algorithm>
#include <cmath>

#include "core/inspect/perf2_explain.hpp"

namespace sf::widgets::perf2 {

using step2::perf::Limit;
using step2::perf::NodeReport;

namespace {

// v in the largest unit of `units` (steps of `base`) that keeps it under 1000 (1024 for bytes) after rounding:
// whole numbers in the first unit, one decimal below `decimalsBelow`, else whole.
QString abbrevWith(std::int64_t v, double base, const char* const* units, int nunits, double decimalsBelow,
                   const QString& sep) {
  const bool neg = v < 0;
  double x = std::fabs(static_cast<double>(v));
  int u = 0;
  while (u + 1 < nunits && x >= base - 0.5) {
    x /= base;
    ++u;
  }
  QString num;
  if (u == 0) num = QString::number(static_cast<qint64>(std::llround(x)));
  else if (x < decimalsBelow - 0.05) num = QString::number(x, 'f', 1);
  else num = QString::number(static_cast<qint64>(std::llround(x)));
  return (neg ? QStringLiteral("-") : QString()) + num + sep + QString::fromLatin1(units[u]);
}

}  // namespace

QString abbrevCount(std::int64_t v) {
  static const char* const units[] = {"", "k", "M", "G", "T"};
  return abbrevWith(v, 1000.0, units, 5, 100.0, QString());
}

QString abbrevBytes(std::int64_t v) {
  static const char* const units[] = {"", "K", "M", "G", "T"};
  return abbrevWith(v, 1024.0, units, 5, 10.0, QString());
}

QString shareBar(double share, int cells) {
  share = std::clamp(share, 0.0, 1.0);
  int eighths = static_cast<int>(std::lround(share * cells * 8));
  if (share > 0 && eighths == 0) eighths = 1;
  QString s(eighths / 8, QChar(0x2588));                                        // full blocks
  if (eighths % 8) s += QChar(static_cast<char16_t>(0x2590 - eighths % 8));  // ▏ (1/8) … ▉ (7/8)
  while (s.size() < cells) s += QLatin1Char(' ');
  return s;
}

namespace {

QString shareText(const NodeReport& n, std::int64_t totalCycles) {
  const double pct = 100.0 * inspect::perf2::utilisation(n, totalCycles);
  return n.busy > 0 && pct < 0.5 ? QStringLiteral("<1%") : QString::number(std::lround(pct)) + QLatin1Char('%');
}

}  // namespace

QString compactCostMarginText(const NodeReport& n, std::int64_t totalCycles) {
  return QStringLiteral("%1 %2").arg(abbrevCount(n.busy), 5).arg(shareText(n, totalCycles), 4);
}

QString costMarginText(const NodeReport& n, std::int64_t totalCycles) {
  QString s = QStringLiteral("%1 cyc %2").arg(abbrevCount(n.busy), 5).arg(shareText(n, totalCycles), 4);
  s += QStringLiteral(" · ") + abbrevBytes(n.offchip_bytes) + QLatin1Char('/') + abbrevBytes(n.onchip_bytes) +
       QStringLiteral(" B");
  if (n.compute_bw > 0) s += QStringLiteral(" · bw ") + QString::number(n.compute_bw);
  return s;
}

CostMargin::CostMargin(QsciScintilla* editor, QObject* parent) : QObject(parent), editor_(editor) {
  setObjectName(QStringLiteral("Perf2CostMargin"));
  editor_->viewport()->installEventFilter(this);
  connect(editor_, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
    if (margin == kMargin && rows_.count(line)) editor_->setCursorPosition(line, 0);
  });
}

QFont CostMargin::marginFont() const {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setPointSizeF(std::max(7.0, editor_->font().pointSizeF() - 1.5));
  return f;
}

void CostMargin::makeStyles() {
  const QFont f = marginFont();
  // The margins' background (the editor sets it through STYLE_LINENUMBER), in Scintilla's BGR order.
  const long bgr = editor_->SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, QsciScintillaBase::STYLE_LINENUMBER);
  const QColor paper(static_cast<int>(bgr & 0xff), static_cast<int>((bgr >> 8) & 0xff), static_cast<int>((bgr >> 16) & 0xff));
  const bool dark = paper.lightness() < 128;
  auto setUp = [&](QsciStyle& s, const QColor& c) {
    s.setFont(f);
    s.setPaper(paper);
    s.setColor(c);
  };
  setUp(text_, dark ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x30, 0x30, 0x30));
  setUp(staleStyle_, dark ? QColor(0x70, 0x70, 0x70) : QColor(0xa0, 0xa0, 0xa0));
  staleStyle_.setDescription(tr("Stale cost"));
  for (Limit l : {Limit::PmuRead, Limit::Compute, Limit::WriteBack, Limit::HbmRequests, Limit::Waiting, Limit::None})
    setUp(bars_[static_cast<int>(l)], limitColor(l));
}

void CostMargin::setOutcome(const Outcome& o, const std::vector<int>& editorLineOfImplLine) {
  if (!o.ok || !editor_) return;
  outcome_ = o;
  stale_ = false;
  staleWhy_.clear();
  rows_.clear();
  const auto& nodes = o.report.nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int l = nodes[i].line;
    if (l < 1 || l > static_cast<int>(editorLineOfImplLine.size())) continue;
    const int el = editorLineOfImplLine[static_cast<std::size_t>(l) - 1];
    if (el < 0 || el >= editor_->lines()) continue;
    Row& r = rows_[el];
    r.nodes.push_back(static_cast<int>(i));
    // The statement's own node before an implicit Broadcast it feeds; among equals, the busiest.
    const auto better = [&](const NodeReport& a, const NodeReport& b) {
      return a.implicit != b.implicit ? !a.implicit : a.busy > b.busy;
    };
    if (r.node < 0 || better(nodes[i], nodes[static_cast<std::size_t>(r.node)])) r.node = static_cast<int>(i);
  }
  render();
}

void CostMargin::markStale(const QString& why) {
  if (rows_.empty()) return;
  if (stale_ && staleWhy_ == why) return;
  stale_ = true;
  staleWhy_ = why;
  render();
}

void CostMargin::clear() {
  rows_.clear();
  stale_ = false;
  staleWhy_.clear();
  outcome_ = Outcome{};
  render();
}

QString CostMargin::fullMarginText(int line) const {
  const auto it = rows_.find(line);
  if (it == rows_.end()) return {};
  const auto& n = outcome_.report.nodes[static_cast<std::size_t>(it->second.node)];
  return shareBar(inspect::perf2::utilisation(n, outcome_.report.cycles)) + QLatin1Char(' ') +
         costMarginText(n, outcome_.report.cycles);
}

QString CostMargin::compactMarginText(int line) const {
  const auto it = rows_.find(line);
  if (it == rows_.end()) return {};
  const auto& n = outcome_.report.nodes[static_cast<std::size_t>(it->second.node)];
  return shareBar(inspect::perf2::utilisation(n, outcome_.report.cycles)) + QLatin1Char(' ') +
         compactCostMarginText(n, outcome_.report.cycles);
}

QString CostMargin::marginText(int line) const { return compact_ ? compactMarginText(line) : fullMarginText(line); }

Limit CostMargin::limitAt(int line) const {
  const auto it = rows_.find(line);
  return it == rows_.end() ? Limit::None : outcome_.report.nodes[static_cast<std::size_t>(it->second.node)].limit;
}

QColor CostMargin::barColorAt(int line) const {
  if (!rows_.count(line)) return {};
  return stale_ ? staleStyle_.color() : limitColor(limitAt(line));
}

QString CostMargin::hoverText(int line) const {
  const auto it = rows_.find(line);
  if (it == rows_.end()) return {};
  QStringList parts;
  if (stale_)
    parts << tr("Stale: %1\nThese are the numbers of the last program that was timed.").arg(staleWhy_);
  for (int i : it->second.nodes)
    parts << QString::fromStdString(
        inspect::perf2::node_words(outcome_.report.nodes[static_cast<std::size_t>(i)], outcome_.report.cycles));
  return parts.join(QStringLiteral("\n\n"));
}

int CostMargin::marginWidth() const { return editor_ ? editor_->marginWidth(kMargin) : 0; }

int CostMargin::lineAtMargin(const QPoint& pos) const {
  if (!editor_) return -1;
  int x0 = 0;
  for (int m = 0; m < kMargin; ++m) x0 += editor_->marginWidth(m);
  const int w = editor_->marginWidth(kMargin);
  if (w <= 0 || pos.x() < x0 || pos.x() >= x0 + w) return -1;
  int textX = 0;
  for (int m = 0; m < editor_->margins(); ++m) textX += editor_->marginWidth(m);
  const long p = editor_->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMPOINT, static_cast<unsigned long>(textX + 1),
                                        static_cast<long>(pos.y()));
  return static_cast<int>(editor_->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, static_cast<unsigned long>(p)));
}

bool CostMargin::eventFilter(QObject* watched, QEvent* e) {
  // The viewport resized: the full or the compact form (setting the margin does not resize it: no loop).
  if (e->type() == QEvent::Resize && editor_ && watched == editor_->viewport() && !rows_.empty() &&
      wantCompact() != compact_)
    render();
  if (e->type() == QEvent::ToolTip && editor_ && watched == editor_->viewport()) {
    auto* he = static_cast<QHelpEvent*>(e);
    const int line = lineAtMargin(he->pos());
    if (line < 0) return false;
    const QString t = hoverText(line);
    if (t.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(he->globalPos(), t, editor_->viewport());
    return true;
  }
  return QObject::eventFilter(watched, e);
}

bool CostMargin::wantCompact() const {
  if (!editor_ || rows_.empty()) return false;
  const QFontMetrics fm(marginFont());
  int full = 0;
  for (const auto& [line, row] : rows_) full = std::max(full, fm.horizontalAdvance(fullMarginText(line)));
  return full + kMarginPad > kMaxWidthShare * editor_->viewport()->width();
}

void CostMargin::render() {
  if (!editor_) return;
  editor_->clearMarginText();
  if (rows_.empty()) {
    editor_->setMarginWidth(kMargin, 0);
    editor_->setMarginSensitivity(kMargin, false);
    return;
  }
  makeStyles();
  editor_->setMarginType(kMargin, QsciScintilla::TextMargin);
  editor_->setMarginSensitivity(kMargin, true);
  compact_ = wantCompact();
  const QFontMetrics fm(text_.font());
  int width = 0;
  // The styles go into the editor once, and the pieces name them by number: QsciStyledText's QsciStyle
  // constructor copies the style to the heap and never frees it (a leak per piece, seen by LeakSanitizer).
  text_.apply(editor_);
  staleStyle_.apply(editor_);
  for (const auto& [limit, b] : bars_) b.apply(editor_);
  for (const auto& [line, row] : rows_) {
    const QString all = marginText(line);
    const QString bar = all.left(kBarCells), rest = all.mid(kBarCells);
    QList<QsciStyledText> parts;
    parts << QsciStyledText(bar, (stale_ ? staleStyle_ : bars_[static_cast<int>(limitAt(line))]).style())
          << QsciStyledText(rest, (stale_ ? staleStyle_ : text_).style());
    editor_->setMarginText(line, parts);
    width = std::max(width, fm.horizontalAdvance(all));
  }
  editor_->setMarginWidth(kMargin, width + kMarginPad);
}

}  // namespace sf::widgets::perf2
