// ProgramDiffView: a side-by-side, syntax-coloured line diff of two STeP programs (or two task documents).
// Two texts and two titles in; the diff is core/common/text_diff (Myers), the colours are StepLexer's.
// Rows are aligned (filler lines on the shorter side of a change), the margins show each side's real line
// numbers, deleted lines are red on the left, inserted lines green on the right, fillers grey; the two
// panes scroll together. Optionally (off by default) both programs are compared in their
// §9 canonical form (names renamed in definition order, kwargs ordered), so renames and layout vanish.
#pragma once

#include "core/common/text_diff.hpp"
#include "widgets/editor/step_lexer.hpp"

#include <QString>
#include <QWidget>

#include <vector>

class QsciScintilla;
class QLabel;
class QCheckBox;
class QToolButton;

namespace sf::widgets {

class ProgramDiffView : public QWidget {
  Q_OBJECT
 public:
  // Program: the texts are impl bodies (styled as STeP from the first line). Document: whole task
  // documents or solution files (YAML with an impl: block).
  enum class Content { Program, Document };

  explicit ProgramDiffView(QWidget* parent = nullptr);

  void setTexts(const QString& oldText, const QString& newText, const QString& oldTitle = QString(),
                const QString& newTitle = QString());
  void setContent(Content c);
  Content content() const { return content_; }
  // Compare the §9 canonical forms (Program content only; a side that does not parse is shown as written,
  // with a note). Off by default. The checkbox in the header toggles it too.
  void setCanonical(bool on);
  bool canonical() const { return canonical_; }
  // Task names (fns, streams, sizes) for the lexer's colours; optional.
  void setNames(const StepLexer::Names& names);

  const std::vector<text::SideBySideRow>& rows() const { return rows_; }
  text::DiffStats stats() const { return stats_; }
  int hunkCount() const { return static_cast<int>(hunkRows_.size()); }
  // The first row of each hunk (a change), in order.
  const std::vector<int>& hunkRows() const { return hunkRows_; }
  int currentHunk() const { return currentHunk_; }
  QString summaryText() const;  // "+3 −2 · 2 changes", "identical", plus a canonical-form note
  QsciScintilla* leftEditor() const { return left_; }
  QsciScintilla* rightEditor() const { return right_; }
  // The texts actually compared (the canonical forms when on and parsable).
  const QString& comparedOld() const { return comparedOld_; }
  const QString& comparedNew() const { return comparedNew_; }

  // Marker numbers (for tests and for callers that want to read the rows' marks).
  enum Marker { DeletedMarker = 0, InsertedMarker = 1, FillerMarker = 2 };

 public Q_SLOTS:
  void nextHunk();
  void previousHunk();

 Q_SIGNALS:
  void diffChanged();

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void rebuild();
  void applyColours();
  void goToHunk(int index);
  QsciScintilla* makePane();

  Content content_ = Content::Program;
  bool canonical_ = false;
  QString oldText_, newText_, comparedOld_, comparedNew_, canonicalNote_;
  std::vector<text::SideBySideRow> rows_;
  text::DiffStats stats_;
  std::vector<int> hunkRows_;
  int currentHunk_ = -1;

  QLabel* oldTitle_ = nullptr;
  QLabel* newTitle_ = nullptr;
  QLabel* summary_ = nullptr;
  QCheckBox* canonicalBox_ = nullptr;
  QToolButton* prev_ = nullptr;
  QToolButton* next_ = nullptr;
  QsciScintilla* left_ = nullptr;
  QsciScintilla* right_ = nullptr;
  StepLexer* leftLexer_ = nullptr;
  StepLexer* rightLexer_ = nullptr;
  bool syncing_ = false;
};

}  // namespace sf::widgets
