#include "widgets/editor/step_editor.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QPalette>
#include <QRegularExpression>

#include <Qsci/qscistyle.h>

#include "widgets/engine/engine_bridge.hpp"
#include "widgets/editor/step_apis.hpp"
#include "widgets/editor/step_lexer.hpp"

namespace sf::widgets {

bool isDarkPalette(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

StepEditor::StepEditor(QWidget* parent) : QsciScintilla(parent) { setup(); }

void StepEditor::setup() {
  setUtf8(true);
  lexer_ = new StepLexer(this);
  apis_ = new StepApis(lexer_);
  setLexer(lexer_);
  setAutoCompletionSource(QsciScintilla::AcsAPIs);
  setAutoCompletionThreshold(1);
  setAutoCompletionCaseSensitivity(true);
  setAutoCompletionReplaceWord(false);
  setCallTipsStyle(QsciScintilla::CallTipsNoContext);
  setCallTipsVisible(0);

  setIndentationsUseTabs(false);
  setTabWidth(2);
  setAutoIndent(true);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setCaretLineVisible(true);
  setEolMode(QsciScintilla::EolUnix);

  // Margin 0: line numbers; margin 1: issue markers.
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(0, QStringLiteral("00000"));
  setMarginType(1, QsciScintilla::SymbolMargin);
  setMarginWidth(1, 14);
  setMarginMarkerMask(1, (1 << ErrorMarker) | (1 << WarningMarker));
  markerDefine(QsciScintilla::Circle, ErrorMarker);
  markerDefine(QsciScintilla::RightTriangle, WarningMarker);
  setMarkerBackgroundColor(QColor(0xd3, 0x2f, 0x2f), ErrorMarker);
  setMarkerForegroundColor(QColor(0x8e, 0x1b, 0x1b), ErrorMarker);
  setMarkerBackgroundColor(QColor(0xf5, 0xa6, 0x23), WarningMarker);
  setMarkerForegroundColor(QColor(0x9c, 0x62, 0x00), WarningMarker);

  indicatorDefine(QsciScintilla::SquiggleLowIndicator, ErrorIndicator);
  setIndicatorForegroundColor(QColor(0xe0, 0x20, 0x20), ErrorIndicator);
  indicatorDefine(QsciScintilla::SquiggleLowIndicator, WarningIndicator);
  setIndicatorForegroundColor(QColor(0xe0, 0x90, 0x00), WarningIndicator);
  setIndicatorDrawUnder(false, ErrorIndicator);

  setAnnotationDisplay(QsciScintilla::AnnotationIndented);

  debounce_.setSingleShot(true);
  debounce_.setInterval(300);
  connect(&debounce_, &QTimer::timeout, this, &StepEditor::checkNow);
  connect(this, &QsciScintilla::textChanged, this, [this] {
    ++revision_;
    updateDialectFromText();
    if (bridge_) debounce_.start();
  });
  connect(this, &QsciScintillaBase::SCN_CHARADDED, this, [this](int ch) {
    if (ch == '(') showPrimitiveCallTip();
  });
  applyPalette();
}

bool StepEditor::showPrimitiveCallTip() {
  int line = 0, index = 0;
  getCursorPosition(&line, &index);
  const QString before = text(line).left(index);
  static const QRegularExpression call(QStringLiteral(R"(step\s*\.\s*([A-Za-z]+)\s*\([^()]*$)"));
  auto m = call.match(before);
  if (!m.hasMatch()) return false;
  QList<int> shifts;
  const QStringList tips =
      apis_->callTips({QStringLiteral("step"), m.captured(1), QString()}, 0, QsciScintilla::CallTipsNoContext, shifts);
  if (tips.isEmpty()) return false;
  const long at = SendScintilla(SCI_GETCURRENTPOS);
  const QByteArray tip = tips.front().toUtf8();
  SendScintilla(SCI_CALLTIPSHOW, static_cast<unsigned long>(at), tip.constData());
  return true;
}

void StepEditor::setV2(bool v2) {
  const auto d = v2 ? StepLexer::Dialect::V2 : StepLexer::Dialect::V1;
  if (lexer_->dialect() == d) return;
  lexer_->setDialect(d);
  recolor();
}

bool StepEditor::isV2() const { return lexer_->dialect() == StepLexer::Dialect::V2; }

void StepEditor::updateDialectFromText() {
  // A task document names its dialect in a top-level `dialect:` line (first by convention); a solution file
  // has none and keeps the dialect its last check found.
  const int n = std::min(lines(), 64);
  for (int l = 0; l < n; ++l) {
    const QString t = text(l);
    if (!t.startsWith(QLatin1String("dialect:"))) continue;
    setV2(t.mid(8).section(QLatin1Char('#'), 0, 0).trimmed() == QLatin1String("step-v2"));
    return;
  }
}

void StepEditor::applyPalette() {
  const bool dark = isDarkPalette(palette());
  lexer_->setDark(dark);
  const QColor paper = lexer_->defaultPaper(0);
  setCaretLineBackgroundColor(dark ? paper.lighter(130) : QColor(0xf3, 0xf6, 0xfb));
  setCaretForegroundColor(dark ? QColor(Qt::white) : QColor(Qt::black));
  setMarginsBackgroundColor(dark ? paper.lighter(115) : QColor(0xf0, 0xf0, 0xf0));
  setMarginsForegroundColor(dark ? QColor(0x90, 0x90, 0x90) : QColor(0x70, 0x70, 0x70));
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setItalic(true);
  annotationStyle_.setDescription(tr("Stream type"));
  annotationStyle_.setColor(dark ? QColor(0x9a, 0xb8, 0xd8) : QColor(0x40, 0x60, 0x90));
  annotationStyle_.setPaper(dark ? paper.lighter(125) : QColor(0xee, 0xf3, 0xfa));
  annotationStyle_.setFont(f);
  stopStyle_.setDescription(tr("Where the types stop"));
  stopStyle_.setColor(dark ? QColor(0xff, 0x9a, 0x9a) : QColor(0xa0, 0x1c, 0x1c));
  stopStyle_.setPaper(dark ? paper.lighter(125) : QColor(0xfb, 0xee, 0xee));
  stopStyle_.setFont(f);
  recolor();
  showStreamAnnotations(last_.streams);
}

void StepEditor::changeEvent(QEvent* e) {
  QsciScintilla::changeEvent(e);
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
    if (lexer_ && isDarkPalette(palette()) != lexer_->dark()) applyPalette();
  }
}

void StepEditor::attachBridge(EngineBridge* bridge) {
  if (bridge_) disconnect(bridge_, nullptr, this, nullptr);
  bridge_ = bridge;
  if (!bridge_) {
    debounce_.stop();
    return;
  }
  connect(bridge_, &EngineBridge::checkFinished, this, [this](const CheckSnapshot& s) {
    if (s.revision != revision_) return;  // a result for older text: a newer check is on its way
    applyCheck(s);
  });
}

void StepEditor::checkNow() {
  debounce_.stop();
  if (bridge_) bridge_->requestCheck(text(), path_, revision_);
}

void StepEditor::replaceAllText(const QString& t) {
  int line = 0, index = 0;
  getCursorPosition(&line, &index);
  beginUndoAction();
  selectAll();
  replaceSelectedText(t);
  endUndoAction();
  setCursorPosition(std::min(line, lines() - 1), 0);
}

void StepEditor::applyCheck(const CheckSnapshot& s) {
  last_ = s;
  StepLexer::Names names;
  for (const auto& n : s.fns) names.fns.insert(n.toUtf8());
  for (const auto& n : s.inputs) names.streams.insert(n.toUtf8());
  for (const auto& n : s.parameters) names.streams.insert(n.toUtf8());
  for (const auto& n : s.programStreams) names.streams.insert(n.toUtf8());
  for (const auto& n : s.sizes) names.sizes.insert(n.toUtf8());
  QStringList inputs = s.inputs + s.parameters;
  if (s.program && s.program->task.is_v2()) {  // STeP-25: the off-chip tensors and the program's targets
    for (const auto& t : s.program->task.tensor_inputs) inputs << QString::fromStdString(t.name);
    for (const auto* list : {&s.program->task.tensor_inputs, &s.program->task.tensor_outputs})
      for (const auto& t : *list) names.streams.insert(QByteArray::fromStdString(t.name));
    if (const auto& v2 = s.program->result.v2; v2 && v2->program)
      for (const auto& st : v2->program->stmts)
        for (const auto& t : st.targets) names.streams.insert(QByteArray::fromStdString(t));
  }
  stopLine_ = s.program ? inspect::types_stop_line(*s.program) : 0;
  stopCode_.clear();
  for (const auto& is : s.issues)  // the error that stopped the types: the first one from that line on
    if (stopLine_ > 0 && is.severity == Severity::Error && is.line >= stopLine_ && stopCode_.isEmpty()) stopCode_ = is.code;
  if (s.documentLoaded) {  // keep the last known names while the document does not parse
    if (s.program) setV2(s.program->task.is_v2());
    lexer_->setNames(std::move(names));
    apis_->setTaskNames({inputs, s.fns, s.sizes});
    recolor();
  }
  showIssues(s.issues);
  showStreamAnnotations(s.streams);
  emit checked(s);
}

int StepEditor::positionOf(int line, int column) const {
  const int l = std::clamp(line - 1, 0, std::max(0, lines() - 1));
  const long start = SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(l));
  const long end = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(l));
  return static_cast<int>(std::clamp<long>(start + std::max(0, column - 1), start, end));
}

void StepEditor::clearIssues() {
  const long len = SendScintilla(SCI_GETLENGTH);
  for (int ind : {ErrorIndicator, WarningIndicator}) {
    SendScintilla(SCI_SETINDICATORCURRENT, static_cast<unsigned long>(ind));
    SendScintilla(SCI_INDICATORCLEARRANGE, 0UL, len);
  }
  markerDeleteAll(ErrorMarker);
  markerDeleteAll(WarningMarker);
}

void StepEditor::showIssues(const QVector<IssueRow>& issues) {
  clearIssues();
  for (const auto& is : issues) {
    if (is.line <= 0 || is.line > lines() || is.severity == Severity::Note) continue;
    const bool err = is.severity == Severity::Error;
    markerAdd(is.line - 1, err ? ErrorMarker : WarningMarker);
    long from = 0, to = 0;
    const long lineStart = SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(is.line - 1));
    const long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(is.line - 1));
    if (is.column > 0) {
      from = positionOf(is.line, is.column);
      to = SendScintilla(SCI_WORDENDPOSITION, static_cast<unsigned long>(from), 1L);
      if (to <= from) to = std::min(from + 1, lineEnd);
    } else {  // whole line (without its indentation)
      from = SendScintilla(SCI_GETLINEINDENTPOSITION, static_cast<unsigned long>(is.line - 1));
      to = lineEnd;
    }
    if (to <= from && lineEnd > lineStart) {  // at the end of a line: mark its last character
      from = std::max(lineStart, lineEnd - 1);
      to = lineEnd;
    }
    if (to <= from) continue;
    SendScintilla(SCI_SETINDICATORCURRENT, static_cast<unsigned long>(err ? ErrorIndicator : WarningIndicator));
    SendScintilla(SCI_INDICATORFILLRANGE, static_cast<unsigned long>(from), to - from);
  }
}

void StepEditor::showStreamAnnotations(const std::vector<inspect::StreamAnnotation>& streams) {
  clearAnnotations();
  QMap<int, QStringList> byLine;
  for (const auto& s : streams)
    if (s.line > 0 && s.line <= lines()) byLine[s.line - 1] << QStringLiteral("%1: %2").arg(QString::fromStdString(s.name), QString::fromStdString(s.type));
  for (auto it = byLine.cbegin(); it != byLine.cend(); ++it)
    annotate(it.key(), it.value().join(QStringLiteral("   ")), annotationStyle_);
  if (stopLine_ > 0 && stopLine_ <= lines() && !byLine.contains(stopLine_ - 1))
    annotate(stopLine_ - 1, tr("types stop here (%1)").arg(stopCode_.isEmpty() ? tr("an error") : stopCode_),
             stopStyle_);
}

void StepEditor::gotoLocation(int line, int column) {
  if (line <= 0) return;
  const int pos = positionOf(line, column);
  SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(pos));
  ensureLineVisible(line - 1);
  setFocus();
}

}  // namespace sf::widgets
