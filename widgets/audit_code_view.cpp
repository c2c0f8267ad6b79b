#include "widgets/audit_code_view.hpp"

#include <QColor>
#include <QFontDatabase>
#include <QRegularExpression>
#include <algorithm>
#include <vector>

#include "widgets/step_lexer.hpp"

namespace sf::widgets {

namespace {

QStringList splitLines(const QString& s) {
  if (s.isEmpty()) return {};
  QStringList l = s.split(QLatin1Char('\n'));
  if (s.endsWith(QLatin1Char('\n'))) l.removeLast();
  return l;
}

// A StepLexer that colours a document without an `impl:` key as one impl block (the records carry bare
// programs; a whole task document keeps the YAML styling).
class ProgramLexer : public StepLexer {
 public:
  using StepLexer::StepLexer;
  void styleText(int start, int end) override {
    QsciScintilla* ed = editor();
    if (!ed || start >= end) return;
    if (documentMode_) {
      StepLexer::styleText(start, end);
      return;
    }
    // Programs are short: restyle the whole text from the top, starting inside an impl block.
    const QByteArray all = ed->text().toUtf8();
    startStyling(0);
    LineState st{Impl, -1};
    qsizetype from = 0;
    while (from <= all.size()) {
      qsizetype nl = all.indexOf('\n', from);
      const qsizetype end2 = nl < 0 ? all.size() : nl;
      const QVector<uchar> styles = styleLine(all.mid(from, end2 - from), st);
      int i = 0;
      while (i < styles.size()) {
        int j = i;
        while (j < styles.size() && styles[j] == styles[i]) ++j;
        setStyling(j - i, styles[i]);
        i = j;
      }
      if (nl < 0) break;
      setStyling(1, Default);
      from = nl + 1;
    }
  }
  void setDocumentMode(bool on) { documentMode_ = on; }

 private:
  bool documentMode_ = false;
};

}  // namespace

LineDiff diffLines(const QString& before, const QString& after) {
  const QStringList a = splitLines(before), b = splitLines(after);
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  LineDiff d;
  if (n > kMaxDiffLines || m > kMaxDiffLines) {
    for (int i = 0; i < n; ++i) d.removed << i;
    for (int j = 0; j < m; ++j) d.added << j;
    return d;
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..].
  std::vector<int> lcs(static_cast<std::size_t>((n + 1) * (m + 1)), 0);
  auto at = [&](int i, int j) -> int& { return lcs[static_cast<std::size_t>(i * (m + 1) + j)]; };
  for (int i = n - 1; i >= 0; --i)
    for (int j = m - 1; j >= 0; --j)
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  int i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] == b[j]) {
      ++i;
      ++j;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      d.removed << i++;
    } else {
      d.added << j++;
    }
  }
  for (; i < n; ++i) d.removed << i;
  for (; j < m; ++j) d.added << j;
  return d;
}

AuditCodeView::AuditCodeView(bool added, QWidget* parent)
    : QsciScintilla(parent), lexer_(new ProgramLexer(this)) {
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  lexer_->setDefaultFont(mono);
  for (int s = 0; s < StepLexer::StyleCount; ++s) lexer_->setFont(mono, s);
  setLexer(lexer_);
  setReadOnly(true);
  setUtf8(true);
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(0, QStringLiteral("0000"));
  setMarginWidth(1, 0);
  markerDefine(QsciScintilla::Background, ChangedMarker);
  setMarkerBackgroundColor(added ? QColor(0xd8, 0xf5, 0xd0) : QColor(0xfa, 0xd4, 0xd4), ChangedMarker);
  setWrapMode(QsciScintilla::WrapNone);
}

void AuditCodeView::setCode(const QString& text, const QVector<int>& changedLines) {
  static const QRegularExpression implKey(QStringLiteral("^impl:"), QRegularExpression::MultilineOption);
  static_cast<ProgramLexer*>(lexer_)->setDocumentMode(text.contains(implKey));
  setReadOnly(false);
  setText(text);
  setReadOnly(true);
  markerDeleteAll(ChangedMarker);
  for (int l : changedLines) markerAdd(l, ChangedMarker);
  recolor();
}

QVector<int> AuditCodeView::markedLines() const {
  QVector<int> out;
  const unsigned mask = 1u << ChangedMarker;
  for (int l = markerFindNext(0, mask); l >= 0; l = markerFindNext(l + 1, mask)) out << l;
  return out;
}

}  // namespace sf::widgets
