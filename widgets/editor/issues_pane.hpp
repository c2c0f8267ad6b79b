// IssuesPane: the Issues dock's content: the diagnostics list (one row per diagnostic, the message column
// elided when narrow) and under it a detail line that shows the selected diagnostic (or, with none selected,
// the first one) in full: code, location, the message and its fix on a line of its own, wrapped to the pane's
// width so nothing is cut off, at 1366x768 too. Clicking a row moves the editor (lineActivated).
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace sf::widgets {

class IssuesModel;
struct IssueRow;

class IssuesPane : public QWidget {
  Q_OBJECT
 public:
  explicit IssuesPane(IssuesModel* model, QWidget* parent = nullptr);

  QTreeView* view() const { return view_; }
  QLabel* detail() const { return detail_; }
  // The detail line's text for one diagnostic (rich text: code and location in bold, the fix on its own line).
  static QString detailText(const IssueRow& r);

 signals:
  void lineActivated(int line, int column);

 private:
  void updateDetail();

  IssuesModel* model_;
  QTreeView* view_;
  QLabel* detail_;
};

}  // namespace sf::widgets
