// The performance explorer's comparison with the task's baseline (issue 33 item 6): cycles, off-chip and
// on-chip bytes and % of peak of both programs with the change, the per-node deltas of busy cycles (nodes
// matched by their position when both programs have the same operators in the same order, otherwise by
// source line and operator), and a side-by-side text diff of the two programs.
#pragma once

#include <QWidget>

#include "widgets/perf2/perf2_types.hpp"

class QTableWidget;
class QLabel;

namespace sf::widgets {
class ProgramDiffView;
}

namespace sf::widgets::perf2 {

class DiffView : public QWidget {
  Q_OBJECT
 public:
  explicit DiffView(QWidget* parent = nullptr);
  void setBaseline(const Outcome& o);
  void setOutcome(const Outcome& o);  // a failed outcome keeps the last good comparison

  QTableWidget* totals() const { return totals_; }
  QTableWidget* nodes() const { return nodes_; }
  ProgramDiffView* textDiff() const { return text_; }
  QString summary() const;

 private:
  void refresh();
  Outcome base_, cur_;
  QLabel* summary_;
  QTableWidget* totals_;
  QTableWidget* nodes_;
  ProgramDiffView* text_;
};

}  // namespace sf::widgets::perf2
