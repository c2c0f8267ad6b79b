#include "widgets/editor/step2_apis.hpp"

#include <QFile>
#include <QRegularExpression>

#include "core/bench/catalogue.hpp"
#include "core/step2/ops.hpp"

namespace sf::widgets {

namespace {

constexpr int kMaxRows = 64;
constexpr int kMaxCell = 2000;
constexpr int kTipWidth = 100;

QStringList cells(const QString& row) {
  QString r = row.trimmed();
  if (r.startsWith(QLatin1Char('|'))) r.remove(0, 1);
  if (r.endsWith(QLatin1Char('|'))) r.chop(1);
  QStringList out;
  for (const QString& c : r.split(QLatin1Char('|'))) out << c.trimmed().left(kMaxCell);
  return out;
}

// "label: text" wrapped at kTipWidth columns, continuation lines indented by two spaces.
QString wrapped(const QString& label, const QString& text) {
  QStringList lines;
  QString cur = label + QLatin1Char(':');
  bool fresh = true;  // the line holds only the label
  for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    if (!fresh && cur.size() + 1 + w.size() > kTipWidth) {
      lines << cur;
      cur = QStringLiteral("  ") + w;
      continue;
    }
    cur += QLatin1Char(' ') + w;
    fresh = false;
  }
  lines << cur;
  return lines.join(QLatin1Char('\n'));
}

// The kwarg names a kwargs cell lists: the leading name of each `code span`, parenthesised remarks left out
// ("`fn` (`matmul`, `matmul_t`), `rank=b`" -> fn, rank).
QStringList cardKwargs(const QString& cell) {
  static const QRegularExpression paren(QStringLiteral(R"(\([^()]*\))"));
  static const QRegularExpression span(QStringLiteral(R"(`([A-Za-z_][A-Za-z0-9_]*)[^`]*`)"));
  QString c = cell;
  c.remove(paren);
  QStringList out;
  for (auto it = span.globalMatch(c); it.hasNext();) out << it.next().captured(1);
  return out;
}

QString plain(QString s) { return s.remove(QLatin1Char('`')); }

}  // namespace

Step2Card Step2Card::parse(const QString& markdown) {
  Step2Card card;
  QStringList header;
  for (const QString& line : markdown.split(QLatin1Char('\n'))) {
    if (!line.trimmed().startsWith(QLatin1Char('|'))) {
      header.clear();  // a table ends at the first line that is not a row
      continue;
    }
    const QStringList cs = cells(line);
    if (header.isEmpty()) {
      header = cs;
      continue;
    }
    static const QRegularExpression op(QStringLiteral(R"(^`([A-Za-z][A-Za-z0-9]*)`$)"));
    auto m = op.match(cs.value(0));
    if (!m.hasMatch() || card.entries_.size() >= kMaxRows) continue;
    Entry e;
    e.op = m.captured(1);
    e.kwargs = cardKwargs(cs.value(1));
    QStringList tip;
    for (int i = 1; i < cs.size() && i < header.size(); ++i)
      if (!cs[i].isEmpty()) tip << wrapped(plain(header[i]), plain(cs[i]));
    e.tip = tip.join(QLatin1Char('\n'));
    card.entries_ << e;
  }
  return card;
}

const Step2Card& Step2Card::bundled() {
  static const Step2Card card = [] {
    QFile f(QString::fromStdString(bench::resource_dir()) + QStringLiteral("/manual_v2/operators.md"));
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 20)) return Step2Card{};
    return parse(QString::fromUtf8(f.readAll()));
  }();
  return card;
}

const Step2Card::Entry* Step2Card::find(const QString& op) const {
  for (const auto& e : entries_)
    if (e.op == op) return &e;
  return nullptr;
}

namespace step2_apis {

QStringList operators() {
  QStringList out;
  for (const auto& o : step2::op_table()) out << QString::fromLatin1(o.name);
  return out;
}

QStringList kwargs(const QString& op) {
  QStringList out;
  if (const step2::OpInfo* info = step2::find_op(op.toStdString()))
    for (const auto& k : info->kwargs) out << QString::fromLatin1(k.name) + QLatin1Char('=');
  return out;
}

QStringList tileFns() {
  QStringList out;
  for (const auto& f : step2::fn_table()) out << QString::fromLatin1(f.name);
  return out;
}

QStringList completions(const QString& prefix, const QString& lineBeforeCursor, const QStringList& definedAbove,
                        const QStringList& tensors, const QStringList& sizes, bool afterStepDot) {
  QStringList cands;
  if (afterStepDot) {
    cands = operators();
  } else {
    static const QRegularExpression openCall(QStringLiteral(R"(step\s*\.\s*([A-Za-z]+)\s*\(([^()]*)$)"));
    static const QRegularExpression afterFn(QStringLiteral(R"(\bfn\s*=\s*\w*$)"));
    auto m = openCall.match(lineBeforeCursor);
    if (m.hasMatch() && afterFn.match(lineBeforeCursor).hasMatch()) {
      cands << tileFns();
    } else if (m.hasMatch()) {
      cands << kwargs(m.captured(1)) << sizes << QStringLiteral("Tile");
    } else {
      cands << tensors << definedAbove << sizes << QStringLiteral("step") << QStringLiteral("apply");
    }
  }
  QStringList out;
  for (const QString& c : cands)
    if (c.startsWith(prefix) && c != prefix && !out.contains(c)) out << c;
  return out;
}

QString callTip(const QString& op) {
  const step2::OpInfo* info = step2::find_op(op.toStdString());
  if (!info) return {};
  QStringList kws;
  for (const auto& k : info->kwargs)
    kws << (k.required ? QStringLiteral("%1=…") : QStringLiteral("[%1=…]")).arg(QString::fromLatin1(k.name));
  const char* apply = info->arity == step2::Arity::One   ? "x"
                      : info->arity == step2::Arity::Two ? "(x, y)"
                                                         : "[x0, x1, …]";
  QString tip = QStringLiteral("step.%1(%2).apply(%3)\n%4")
                    .arg(op, kws.join(QStringLiteral(", ")), QString::fromUtf8(apply), QString::fromUtf8(info->doc));
  if (const auto* e = Step2Card::bundled().find(op)) tip += QStringLiteral("\n") + e->tip;
  return tip;
}

}  // namespace step2_apis

}  // namespace sf::widgets
