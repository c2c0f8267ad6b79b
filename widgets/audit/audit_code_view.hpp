// The audit pane's code revision view: a read-only QsciScintilla with the STeP colours (StepLexer; a bare
// program is coloured as an impl block) whose changed lines are marked with a background colour; and the
// line diff that finds them (longest common subsequence of lines).
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QString>
#include <QVector>

namespace sf::widgets {

class StepLexer;

// Lines (0-based) of `before` and of `after` that are not part of a longest common subsequence of lines
// (core/common/text_diff): removed lines on the left, added lines on the right. Texts above kMaxDiffLines
// lines on either side mark every line changed.
struct LineDiff {
  QVector<int> removed;  // in `before`
  QVector<int> added;    // in `after`
};
inline constexpr int kMaxDiffLines = 4000;
LineDiff diffLines(const QString& before, const QString& after);

class AuditCodeView : public QsciScintilla {
  Q_OBJECT
 public:
  enum Marker { ChangedMarker = 0 };
  // `added` picks the marker colour: green for the new revision, red for the old one.
  explicit AuditCodeView(bool added, QWidget* parent = nullptr);

  void setCode(const QString& text, const QVector<int>& changedLines);
  QVector<int> markedLines() const;

 private:
  StepLexer* lexer_;
};

}  // namespace sf::widgets
