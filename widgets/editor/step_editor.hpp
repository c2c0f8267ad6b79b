// StepEditor: the QScintilla editor for task documents and solution files. UTF-8 throughout, the STeP lexer,
// completion and call tips (StepApis), and live checking through EngineBridge: edits are debounced (~300 ms),
// each check supersedes the previous one, and only a result for the current text is shown, as squiggles,
// margin markers and inline annotations of every stream's type and shape.
// Both dialects: the document's dialect (its `dialect:` line, else the last check's task) picks the lexer's
// words, the completions and call tips (STeP-25: operators, kwargs, the operator card) and the type text
// (v2: stream shape and tile, outermost-first). With an error, the statements above the one it is in keep their
// types, and that statement's line says where the types stop.
//
// Margins: 0 holds the line numbers and 1 the issue markers (ErrorMarker, WarningMarker); margins 2 and up are
// not used by the editor and are free for others (widgets/perf2's cost annotations).
#pragma once

#include <QTimer>
#include <QVector>

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include "widgets/engine/engine_types.hpp"

namespace sf::widgets {

class EngineBridge;
class StepLexer;
class StepApis;

class StepEditor : public QsciScintilla {
  Q_OBJECT
 public:
  enum Marker { ErrorMarker = 0, WarningMarker = 1 };
  enum Indicator { ErrorIndicator = 8, WarningIndicator = 9 };

  explicit StepEditor(QWidget* parent = nullptr);

  // Live checking through `bridge` (not owned; may be null to switch it off).
  void attachBridge(EngineBridge* bridge);
  void setDebounceMs(int ms) { debounce_.setInterval(ms); }
  // Requests a check of the current text now (no debounce).
  void checkNow();

  void setFilePath(const QString& path) { path_ = path; }
  const QString& filePath() const { return path_; }
  // Increases on every change of the text.
  quint64 revision() const { return revision_; }
  // Replaces the whole text as one undoable edit.
  void replaceAllText(const QString& text);

  // Shows a check result: squiggles, markers, annotations; updates the lexer's and the completer's names.
  void applyCheck(const CheckSnapshot& s);
  // Squiggles and margin markers for `issues` (file-relative locations).
  void showIssues(const QVector<IssueRow>& issues);
  void showStreamAnnotations(const std::vector<inspect::StreamAnnotation>& streams);
  void clearIssues();
  const CheckSnapshot& lastCheck() const { return last_; }

  // Moves the cursor to a file-relative 1-based line:column (column in UTF-8 bytes, as the core reports it).
  void gotoLocation(int line, int column);
  // Byte position of a 1-based line:column (clamped to the line).
  int positionOf(int line, int column) const;

  // Shows the signature of the primitive whose call the cursor is in (after "step.P("); false if none.
  bool showPrimitiveCallTip();

  // The dialect the editor works in (the lexer's: step-v1 until a document says otherwise); restyles on a change.
  void setV2(bool v2);
  bool isV2() const;
  // The line where the types stop (the first statement an error took them from; 0: none) and that error's code.
  int typesStopLine() const { return stopLine_; }

  StepLexer* stepLexer() const { return lexer_; }
  StepApis* stepApis() const { return apis_; }
  void applyPalette();

 signals:
  void checked(const sf::widgets::CheckSnapshot& s);

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void setup();
  void updateDialectFromText();

  StepLexer* lexer_ = nullptr;
  StepApis* apis_ = nullptr;
  EngineBridge* bridge_ = nullptr;
  QTimer debounce_;
  QString path_;
  quint64 revision_ = 0;
  CheckSnapshot last_;
  QsciStyle annotationStyle_;
  QsciStyle stopStyle_;
  int stopLine_ = 0;
  QString stopCode_;
};

// True when the palette's window colour is dark (the system is in dark mode).
bool isDarkPalette(const QPalette& p);

}  // namespace sf::widgets
