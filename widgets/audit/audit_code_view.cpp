#include "widgets/audit/audit_code_view.hpp"

#include <QColor>
#include <QFontDatabase>
#include <QRegularExpression>
#include <algorithm>
#include <vector>

#include "core/common/text_diff.hpp"
#include "widgets/editor/step_lexer.hpp"

namespace sf::widgets {

namespace {

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
  LineDiff d;
  const auto a = text::split_lines(before.toStdString()), b = text::split_lines(after.toStdString());
  if (static_cast<int>(a.size()) > kMaxDiffLines || static_cast<int>(b.size()) > kMaxDiffLines) {
    for (int i = 0; i < static_cast<int>(a.size()); ++i) d.removed << i;
    for (int j = 0; j < static_cast<int>(b.size()); ++j) d.added << j;
    return d;
  }
  for (const auto& l : text::diff_lines(a, b)) {
    if (l.op == text::DiffOp::Delete) d.removed << l.old_line - 1;
    if (l.op == text::DiffOp::Insert) d.added << l.new_line - 1;
  }
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
