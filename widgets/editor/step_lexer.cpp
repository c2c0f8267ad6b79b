#include "widgets/editor/step_lexer.hpp"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include <Qsci/qsciscintilla.h>

#include "core/step/primitives.hpp"
#include "core/step2/ops.hpp"

namespace sf::widgets {

namespace {

bool isWordStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isWordChar(char c) { return isWordStart(c) || (c >= '0' && c <= '9'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

const QSet<QByteArray>& implKeywords() {
  static const QSet<QByteArray> k{"step", "apply", "return", "for", "in", "zip"};
  return k;
}
const QSet<QByteArray>& fnKeywords() {
  static const QSet<QByteArray> k{"return", "if", "else", "for", "in", "and", "or", "not", "True", "False", "None"};
  return k;
}
const QSet<QByteArray>& kwargKeys() {
  static const QSet<QByteArray> k = [] {
    QSet<QByteArray> keys;
    for (auto key : step::param_keys())
      keys.insert(QByteArray(key.data(), static_cast<qsizetype>(key.size())));
    return keys;
  }();
  return k;
}

std::string_view view(const QByteArray& w) { return {w.constData(), static_cast<std::size_t>(w.size())}; }

const QSet<QByteArray>& step2Keywords() {
  static const QSet<QByteArray> k{"step", "apply", "Tile"};
  return k;
}
const QSet<QByteArray>& step2KwargKeys() {
  static const QSet<QByteArray> k = [] {
    QSet<QByteArray> keys;
    for (const auto& op : step2::op_table())
      for (const auto& kw : op.kwargs) keys.insert(QByteArray(kw.name));
    return keys;
  }();
  return k;
}

}  // namespace

StepLexer::StepLexer(QObject* parent) : QsciLexerCustom(parent) {}

bool StepLexer::isPrimitive(const QByteArray& w) { return step::is_primitive_name(view(w)); }
bool StepLexer::isStep2Operator(const QByteArray& w) { return step2::find_op(view(w)) != nullptr; }
bool StepLexer::isStep2Kwarg(const QByteArray& w) { return step2KwargKeys().contains(w); }
bool StepLexer::isStep2Fn(const QByteArray& w) { return step2::find_fn(view(w)).has_value(); }

QString StepLexer::description(int style) const {
  switch (style) {
    case Default: return tr("Default");
    case Comment: return tr("Comment");
    case Key: return tr("Document key");
    case Primitive: return tr("Primitive");
    case Keyword: return tr("Keyword");
    case Fn: return tr("Task fn");
    case Stream: return tr("Stream");
    case Number: return tr("Number");
    case Operator: return tr("Punctuation");
    case Size: return tr("Size symbol");
    case Parameter: return tr("Primitive parameter");
    case Text: return tr("Text");
    default: return {};
  }
}

QColor StepLexer::defaultColor(int style) const {
  // Light and dark variants with similar hues (readable on either background).
  switch (style) {
    case Comment: return dark_ ? QColor(0x7f, 0x9f, 0x7f) : QColor(0x5a, 0x7a, 0x5a);
    case Key: return dark_ ? QColor(0x8c, 0xb4, 0xff) : QColor(0x1f, 0x4e, 0xb4);
    case Primitive: return dark_ ? QColor(0xff, 0xb8, 0x6c) : QColor(0xa6, 0x4b, 0x00);
    case Keyword: return dark_ ? QColor(0xd4, 0x9c, 0xff) : QColor(0x7a, 0x1f, 0xa2);
    case Fn: return dark_ ? QColor(0x6c, 0xe0, 0xd0) : QColor(0x00, 0x7a, 0x6e);
    case Stream: return dark_ ? QColor(0xf0, 0xe0, 0x80) : QColor(0x80, 0x50, 0x00);
    case Number: return dark_ ? QColor(0xff, 0x8c, 0x8c) : QColor(0xb0, 0x1c, 0x1c);
    case Operator: return dark_ ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x55, 0x55, 0x55);
    case Size: return dark_ ? QColor(0x9c, 0xe0, 0x8c) : QColor(0x2e, 0x7d, 0x32);
    case Parameter: return dark_ ? QColor(0xc0, 0xc8, 0xff) : QColor(0x3f, 0x51, 0xb5);
    case Text: return dark_ ? QColor(0xc8, 0xc8, 0xc8) : QColor(0x44, 0x44, 0x44);
    default: return dark_ ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x1e, 0x1e, 0x1e);
  }
}

QColor StepLexer::defaultPaper(int) const { return dark_ ? QColor(0x1e, 0x1f, 0x22) : QColor(0xff, 0xff, 0xff); }

QFont StepLexer::defaultFont(int style) const {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (style == Primitive || style == Key) f.setBold(true);
  if (style == Comment) f.setItalic(true);
  return f;
}

QStringList StepLexer::autoCompletionWordSeparators() const { return {QStringLiteral(".")}; }

const char* StepLexer::wordCharacters() const {
  return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
}

void StepLexer::setNames(Names names) { names_ = std::move(names); }

void StepLexer::setDark(bool dark) {
  dark_ = dark;
  for (int s = 0; s < StyleCount; ++s) {
    setColor(defaultColor(s), s);
    setPaper(defaultPaper(s), s);
  }
  setDefaultPaper(defaultPaper(0));
  setDefaultColor(defaultColor(0));
}

uchar StepLexer::wordStyle(const QByteArray& w, Context ctx, bool beforeEquals) const {
  if (ctx == Impl && dialect_ == Dialect::V2) {
    if (step2Keywords().contains(w)) return Keyword;
    if (isStep2Operator(w)) return Primitive;
    if (beforeEquals && isStep2Kwarg(w)) return Parameter;
    if (isStep2Fn(w)) return Fn;
  } else if (ctx == Impl) {
    if (implKeywords().contains(w)) return Keyword;
    if (isPrimitive(w)) return Primitive;
    if (beforeEquals && kwargKeys().contains(w)) return Parameter;
  } else if (ctx == FnCode) {
    if (fnKeywords().contains(w)) return Keyword;
  }
  if (names_.fns.contains(w)) return Fn;
  if (names_.streams.contains(w)) return Stream;
  if (names_.sizes.contains(w)) return Size;
  if (w.endsWith("_value") && names_.sizes.contains(w.left(w.size() - 6))) return Size;
  return ctx == Yaml ? Text : Default;
}

void StepLexer::styleCode(const QByteArray& line, int from, Context ctx, QVector<uchar>& out) const {
  const int n = static_cast<int>(line.size());
  int i = from;
  while (i < n) {
    char c = line[i];
    if (c == '#') {
      for (; i < n; ++i) out[i] = Comment;
      return;
    }
    if (isWordStart(c)) {
      int j = i;
      while (j < n && isWordChar(line[j])) ++j;
      int k = j;
      while (k < n && line[k] == ' ') ++k;
      bool beforeEquals = k < n && line[k] == '=' && (k + 1 >= n || line[k + 1] != '=');
      uchar s = wordStyle(line.mid(i, j - i), ctx, beforeEquals);
      for (; i < j; ++i) out[i] = s;
      continue;
    }
    // Floats everywhere but in a v1 program (there '.' is `step.`'s).
    const bool floats = ctx != Impl || dialect_ == Dialect::V2;
    if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(line[i + 1]) && floats)) {
      int j = i;
      while (j < n && (isDigit(line[j]) || (floats && (line[j] == '.' || line[j] == 'e' ||
                                                       ((line[j] == '-' || line[j] == '+') && j > i &&
                                                        line[j - 1] == 'e')))))
        ++j;
      for (; i < j; ++i) out[i] = Number;
      continue;
    }
    if ((ctx == Yaml || (ctx == Impl && dialect_ == Dialect::V2)) && (c == '"' || c == '\'')) {
      int j = i + 1;
      while (j < n && line[j] != c) ++j;
      if (j < n) ++j;
      for (; i < j; ++i) out[i] = Text;
      continue;
    }
    out[i] = (c == ' ' || c == '\t' || static_cast<unsigned char>(c) >= 0x80) ? (ctx == Yaml ? Text : Default)
                                                                                : Operator;
    ++i;
  }
}

void StepLexer::styleFlowKeys(const QByteArray& line, int from, QVector<uchar>& out) const {
  // Keys of flow mappings ("{name: E0, dtype: fp32}") are keys.
  const int n = static_cast<int>(line.size());
  for (int a = from; a < n; ++a) {
    if (!isWordStart(line[a]) || (a > 0 && isWordChar(line[a - 1]))) continue;
    int b = a;
    while (b < n && isWordChar(line[b])) ++b;
    if (b < n && line[b] == ':' && (b + 1 == n || line[b + 1] == ' ')) {
      for (int c = a; c < b; ++c) out[c] = Key;
    }
    a = b;
  }
}

void StepLexer::styleYaml(const QByteArray& line, LineState& st, QVector<uchar>& out) const {
  const int n = static_cast<int>(line.size());
  int i = 0;
  while (i < n && line[i] == ' ') ++i;
  if (i < n && line[i] == '#') {
    for (; i < n; ++i) out[i] = Comment;
    return;
  }
  while (i + 1 < n && line[i] == '-' && line[i + 1] == ' ') {  // list item markers
    out[i] = Operator;
    i += 2;
    while (i < n && line[i] == ' ') ++i;
  }
  // A key: word characters (or a quoted word) followed by ':' and a space or the end.
  int j = i;
  while (j < n && (isWordChar(line[j]) || line[j] == '-' || line[j] == '.')) ++j;
  bool isKey = j > i && j < n && line[j] == ':' && (j + 1 == n || line[j + 1] == ' ');
  if (!isKey) {
    styleCode(line, i, Yaml, out);
    styleFlowKeys(line, i, out);
    return;
  }
  const QByteArray key = line.mid(i, j - i);
  const int keyCol = i;
  for (; i < j; ++i) out[i] = Key;
  out[i++] = Operator;
  int v = i;
  while (v < n && line[v] == ' ') ++v;
  if (v < n && (line[v] == '|' || line[v] == '>')) {
    for (; i < n && line[i] != '#'; ++i) out[i] = Operator;
    for (; i < n; ++i) out[i] = Comment;
    st.indent = keyCol;
    st.ctx = key == "impl" ? Impl : (key == "body" || key == "reference") ? FnCode : Prose;
    return;
  }
  styleCode(line, i, Yaml, out);
  styleFlowKeys(line, i, out);
  if (key == "title" || key == "description") {
    for (int a = i; a < n; ++a) out[a] = Text;
  }
}

QVector<uchar> StepLexer::styleLine(const QByteArray& line, LineState& st) const {
  const int n = static_cast<int>(line.size());
  QVector<uchar> out(n, Default);
  int indent = 0;
  while (indent < n && line[indent] == ' ') ++indent;
  const bool blank = indent == n || line.trimmed().isEmpty();
  if (st.ctx != Yaml) {
    if (blank) return out;
    if (indent > st.indent) {
      if (st.ctx == Prose) {
        for (int i = 0; i < n; ++i) out[i] = Text;
      } else {
        styleCode(line, 0, st.ctx, out);
      }
      return out;
    }
    st = LineState{};
  }
  styleYaml(line, st, out);
  return out;
}

void StepLexer::styleText(int start, int end) {
  QsciScintilla* ed = editor();
  if (!ed || start >= end) return;
  const int lineCount = static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_GETLINECOUNT));
  const int docLen = static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_GETLENGTH));
  int line = static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, static_cast<unsigned long>(start)));
  const int lastLine =
      static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, static_cast<unsigned long>(end)));
  LineState st = line > 0 ? LineState::decode(static_cast<int>(
                                ed->SendScintilla(QsciScintillaBase::SCI_GETLINESTATE, static_cast<unsigned long>(line - 1))))
                          : initial_;
  const long lineStartPos = ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, static_cast<unsigned long>(line));
  startStyling(static_cast<int>(lineStartPos));
  bool carry = false;  // the state after the last line changed: keep going
  for (; line < lineCount && (line <= lastLine || carry); ++line) {
    const long ls = ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, static_cast<unsigned long>(line));
    const long le = ed->SendScintilla(QsciScintillaBase::SCI_GETLINEENDPOSITION, static_cast<unsigned long>(line));
    const long next = line + 1 < lineCount
                          ? ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, static_cast<unsigned long>(line + 1))
                          : docLen;
    QByteArray bytes(static_cast<qsizetype>(le - ls), '\0');
    if (le > ls) ed->SendScintilla(QsciScintillaBase::SCI_GETTEXTRANGE, ls, le, bytes.data());
    QVector<uchar> styles = styleLine(bytes, st);
    int i = 0;
    while (i < styles.size()) {
      int j = i;
      while (j < styles.size() && styles[j] == styles[i]) ++j;
      setStyling(j - i, styles[i]);
      i = j;
    }
    if (next > le) setStyling(static_cast<int>(next - le), Default);
    const int old = static_cast<int>(ed->SendScintilla(QsciScintillaBase::SCI_GETLINESTATE, static_cast<unsigned long>(line)));
    ed->SendScintilla(QsciScintillaBase::SCI_SETLINESTATE, static_cast<unsigned long>(line), static_cast<long>(st.encode()));
    carry = line >= lastLine && old != st.encode();
  }
}

}  // namespace sf::widgets
