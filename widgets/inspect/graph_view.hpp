// The dataflow graph pane (issue 8, item 3): a QGraphicsView showing a DataflowGraph snapshot with a layered
// top-to-bottom layout. Nodes are primitive applications (plus task inputs, outputs and unused-stream
// markers), edges are streams labelled with their shape and type; affinity violations are drawn in red.
// Selecting a node emits statementActivated(line); selectStatementAtLine(line) selects the node of that
// statement (no signal).
#pragma once

#include <QGraphicsView>
#include <QPointer>
#include <memory>
#include <vector>

#include "core/inspect/graph_layout.hpp"
#include "core/inspect/dataflow_graph.hpp"

class QGraphicsPathItem;
class QGraphicsItem;
class QGraphicsScene;

namespace sf::widgets {

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  // Item data keys set on every scene item this view creates (for tooltips, tests and tools).
  // KindKey: "node", "edge", "label"; IndexKey: node/edge index; with a cost report: ShareKey (node: share of
  // busy cycles, 0..1) and TokensKey (label: tokens on the edge).
  // UtilisationKey (node: busy / total cycles, 0..1; the label and the fill show it).
  enum ItemData { KindKey = 0, IndexKey = 1, ShareKey = 2, TokensKey = 3, UtilisationKey = 4 };

  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  void setGraph(inspect::DataflowGraph graph);
  void clearGraph();
  // The cost model's report for this program (null: none): nodes are coloured by their share of the busy
  // cycles and edge labels carry token counts. Kept across setGraph until replaced.
  void setCostReport(std::shared_ptr<const cost::CostReport> report);
  const cost::CostReport* costReport() const { return cost_.get(); }
  const inspect::GraphCostOverlay& costOverlay() const { return overlay_; }
  // The fill of a primitive node with `share` of the busy cycles, of at most `maxShare` among the nodes.
  static QColor shareColor(double share, double maxShare);
  // The fill of a node with `utilisation` (busy / total cycles, 0..1): the same scale for every program.
  static QColor utilisationColor(double utilisation) { return shareColor(utilisation, 1.0); }
  // The legend of the cost colours (shown over the view while a cost report is set; null before).
  QWidget* costLegend() const { return legend_; }
  const inspect::DataflowGraph& graph() const { return graph_; }
  const inspect::LayoutResult& layout() const { return layout_; }

  int selectedNode() const;  // -1 when none
  QGraphicsItem* nodeItem(int node) const;
  QGraphicsPathItem* edgeItem(int edge) const;
  QGraphicsItem* edgeLabelItem(int edge) const;

  static QColor violationColor();
  static QColor edgeColor();

 public Q_SLOTS:
  // Selects the node of the statement spanning `line` (clears the selection if there is none) and scrolls to
  // it. Does not emit statementActivated.
  void selectStatementAtLine(int line);
  void zoomToFit();
  void zoomIn();
  void zoomOut();

 Q_SIGNALS:
  // The user selected the node of the statement starting at `line` (file line, 1-based).
  void statementActivated(int line);

 protected:
  void wheelEvent(QWheelEvent* event) override;

 private:
  void onSelectionChanged();
  void rebuildScene();

  QGraphicsScene* scene_;
  inspect::DataflowGraph graph_;
  std::shared_ptr<const cost::CostReport> cost_;
  inspect::GraphCostOverlay overlay_;
  inspect::LayoutResult layout_;
  std::vector<QGraphicsItem*> nodes_;
  std::vector<QGraphicsPathItem*> edges_;
  std::vector<QGraphicsItem*> labels_;
  bool syncing_ = false;
  QWidget* legend_ = nullptr;
};

}  // namespace sf::widgets
