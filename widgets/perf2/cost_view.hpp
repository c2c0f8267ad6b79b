// The cost-annotated source of a STeP-25 program (issue 33 item 2): one row per node in program order,
// beside its statement: busy cycles and utilisation (busy / total cycles), off-chip and on-chip bytes,
// compute_bw, and a bar as long as the utilisation, coloured by what limits the node. Hovering a row gives
// the node's full report in words, with units. Above: the sentence saying what bounds the program and its
// % of peak; below: the legend of the bar colours. Every tied bottleneck is bold. The primary view of these
// numbers is the editor's cost margin (cost_margin.hpp); this table is the unabbreviated one in a dock.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QWidget>

#include "widgets/perf2/perf2_types.hpp"

class QLabel;
class QTableView;

namespace sf::widgets::perf2 {

class CostModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Line, Statement, Busy, Share, Offchip, Onchip, ComputeBw, LimitBar, ColumnCount };
  enum Role { LineRole = Qt::UserRole + 1, BottleneckRole, UtilisationRole, LimitRole };
  explicit CostModel(QObject* parent = nullptr);

  void setOutcome(const Outcome& o);
  const Outcome& outcome() const { return outcome_; }
  int rowOfLine(int line) const;  // the first node row of a source line, -1 when none

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  Outcome outcome_;
  QStringList lines_;
  std::vector<int> bottlenecks_;
};

class CostView : public QWidget {
  Q_OBJECT
 public:
  explicit CostView(QWidget* parent = nullptr);
  void setOutcome(const Outcome& o);
  void selectLine(int line);

  CostModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString sentence() const;

 Q_SIGNALS:
  void lineActivated(int line);

 private:
  CostModel* model_;
  QLabel* sentence_;
  QTableView* table_;
  QLabel* legend_;
};

// The legend of the limit colours as rich text (shared by the cost view and the timeline).
QString limitLegendHtml();

}  // namespace sf::widgets::perf2
