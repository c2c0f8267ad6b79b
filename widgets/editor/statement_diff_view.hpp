// StatementDiffView: the agent's diff (issue 34 item 13). Two programs side by side, aligned statement by
// statement whatever their streams are called (inspect::diff_programs): changed tokens highlighted, renamed
// names underlined and listed in a legend line ("renamed: a→x, b→y"), deleted statements red on the left,
// inserted ones green on the right, long runs of unchanged statements folded into one row that opens on a
// click. The rows wrap (monospace, in the widget's font size, so the presentation font too) and never need a
// horizontal scroll bar, so the diff reads in a narrow dock. A round whose answer had no program shows a
// "No program in the answer" state with the reason instead of a diff (not a deletion of every line).
// ProgramDiffView stays the line diff of the campaign panes (run comparison, lineage, the v2 explorer).
#pragma once

#include "core/inspect/program_diff.hpp"

#include <QSet>
#include <QString>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTextBrowser;

namespace sf::widgets {

class StatementDiffView : public QWidget {
  Q_OBJECT
 public:
  explicit StatementDiffView(QWidget* parent = nullptr);

  // Compares two programs (impl bodies); the titles head the two columns.
  void setPrograms(const QString& oldText, const QString& newText, const QString& oldTitle = QString(),
                   const QString& newTitle = QString(),
                   inspect::DiffDialect dialect = inspect::DiffDialect::Auto);
  // The answer had no program: `reason` says why (no program, cut at the token limit, unreadable), `detail`
  // is the message behind it (may be empty).
  void setNoProgram(const QString& reason, const QString& detail = QString());
  void clear();

  bool noProgram() const { return noProgram_; }
  const inspect::ProgramDiff& diff() const { return diff_; }
  // "statements: 1 changed · 2 inserted · 12 unchanged", "no change except names (2 renamed)", … (shown with a
  // "show unchanged" / "fold unchanged" link when there is something to fold)
  QString summaryText() const;
  QString legendText() const;   // "renamed: a→x, b→y" ("" without renames)
  QString noteText() const;     // why the texts were compared line by line ("" when aligned)
  QString stateText() const;    // the no-program state's text ("" otherwise)
  // The diff's text as shown (folded rows as their "… N unchanged statements" line), without break hints.
  QString bodyText() const;
  QTextBrowser* body() const { return body_; }
  QLabel* stateLabel() const { return state_; }
  // Unchanged runs folded (the default) or all shown (the summary's link toggles it).
  void setFolding(bool on);
  bool folding() const { return folding_; }
  int foldedRuns() const { return foldedRuns_; }
  void unfold(int run);  // opens one folded run (what a click on its row does)

 Q_SIGNALS:
  void diffChanged();

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void render();
  void applyFont();

  inspect::ProgramDiff diff_;
  QString oldTitle_, newTitle_;
  bool noProgram_ = false;
  bool folding_ = true;
  int foldedRuns_ = 0;
  QSet<int> unfolded_;  // runs opened by a click (first row index of the run)

  QLabel* summary_ = nullptr;
  QLabel* legend_ = nullptr;
  QLabel* note_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QTextBrowser* body_ = nullptr;
  QLabel* state_ = nullptr;
};

}  // namespace sf::widgets
