// StepLexer: a QScintilla lexer for STeP task documents (YAML) with their embedded code: the `impl:` program
// (primitives, keywords, kwargs, task fns, stream names, size symbols, numbers, comments) and the fn-language
// blocks (`body:`, `reference:`). Block context is carried from line to line in Scintilla's line state.
// The program is styled in the document's dialect (setDialect): step-v1's primitives and parameters, or
// STeP-25's operators, kwargs and tile fns (core/step2/ops.hpp), its `Tile`, floats (c=0.5) and strings.
#pragma once

#include <QByteArray>
#include <QSet>
#include <QVector>

#include <Qsci/qscilexercustom.h>

namespace sf::widgets {

class StepLexer : public QsciLexerCustom {
  Q_OBJECT
 public:
  enum Style {
    Default = 0,
    Comment,
    Key,        // YAML key
    Primitive,  // Map, Zip, ...
    Keyword,    // step, apply, return, for, in, zip (and fn-language keywords)
    Fn,         // a task fn (func_name)
    Stream,     // a task input or a stream defined by the program
    Number,
    Operator,
    Size,       // size symbol or X_value constant
    Parameter,  // kwarg key: fn a b n L S N
    Text,       // prose (description) and other YAML values
    StyleCount
  };

  // Where a line is: plain YAML, or inside a block scalar of a given kind.
  enum Context { Yaml = 0, Impl = 1, FnCode = 2, Prose = 3 };
  struct LineState {
    Context ctx = Yaml;
    int indent = -1;  // column of the key that opened the block
    int encode() const { return static_cast<int>(ctx) | ((indent + 1) << 2); }
    static LineState decode(int v) { return {static_cast<Context>(v & 3), (v >> 2) - 1}; }
  };

  struct Names {
    QSet<QByteArray> fns, streams, sizes;
  };

  enum class Dialect { V1, V2 };

  explicit StepLexer(QObject* parent = nullptr);

  const char* language() const override { return "STeP"; }
  QString description(int style) const override;
  void styleText(int start, int end) override;
  QColor defaultColor(int style) const override;
  QColor defaultPaper(int style) const override;
  QFont defaultFont(int style) const override;
  QStringList autoCompletionWordSeparators() const override;
  const char* wordCharacters() const override;

  // The names that get the Fn / Stream / Size styles (restyle the document afterwards).
  void setNames(Names names);
  const Names& names() const { return names_; }
  // Colours for a dark or a light background.
  void setDark(bool dark);
  bool dark() const { return dark_; }
  // The state before the first line: Yaml for a document (default); {Impl, -1} styles a bare program
  // (the body of an impl block, e.g. in the program diff view) as STeP.
  void setInitialState(LineState st) { initial_ = st; }
  // The dialect the impl block is styled in (restyle the document afterwards); V1 by default.
  void setDialect(Dialect d) { dialect_ = d; }
  Dialect dialect() const { return dialect_; }
  LineState initialState() const { return initial_; }

  // Styles one line (no line terminator): one style per byte; `st` is the state before the line and becomes
  // the state after it.
  QVector<uchar> styleLine(const QByteArray& line, LineState& st) const;

  static bool isPrimitive(const QByteArray& word);
  // STeP-25: an operator name (OffChipLoad, ...), a kwarg of any operator, a tile fn (matmul, ...).
  static bool isStep2Operator(const QByteArray& word);
  static bool isStep2Kwarg(const QByteArray& word);
  static bool isStep2Fn(const QByteArray& word);

 private:
  void styleCode(const QByteArray& line, int from, Context ctx, QVector<uchar>& out) const;
  void styleFlowKeys(const QByteArray& line, int from, QVector<uchar>& out) const;
  void styleYaml(const QByteArray& line, LineState& st, QVector<uchar>& out) const;
  uchar wordStyle(const QByteArray& w, Context ctx, bool beforeEquals) const;

  Names names_;
  bool dark_ = false;
  LineState initial_;
  Dialect dialect_ = Dialect::V1;
};

}  // namespace sf::widgets
