// Issue 34 items 6 and 7: the v1 Performance pane says what bounds the program, shows units and a legend and
// names every unit tied for the bottleneck; the dataflow graph shows each node's utilisation (busy / total
// cycles, not a share of all busy cycles) with a legend. Driven by hand-built cost reports.
#include <gtest/gtest.h>

#include <QApplication>
#include <QGraphicsItem>
#include <QTableView>

#include "core/inspect/dataflow_graph.hpp"
#include "core/inspect/perf_words.hpp"
#include "widgets/editor/performance_pane.hpp"
#include "widgets/inspect/graph_view.hpp"

using namespace sf;
using namespace sf::widgets;

namespace {

// Two loads tie for the bottleneck (600 busy cycles each of 1,000), a Map is busy 200 cycles.
std::shared_ptr<cost::CostReport> tiedReport() {
  auto r = std::make_shared<cost::CostReport>();
  r->chip = "default";
  r->cycles = 1000;
  r->allocated_compute = 64;
  r->flops = 6400;
  r->utilisation = 0.1;
  auto unit = [](int line, const char* prim, const char* name, std::int64_t busy) {
    cost::UnitReport u;
    u.line = line;
    u.primitive = prim;
    u.name = name;
    u.busy = busy;
    return u;
  };
  r->units = {unit(0, "Load", "E0", 600), unit(0, "Load", "E1", 600), unit(3, "Map", "T2", 200),
              unit(0, "Store", "T2", 100)};
  r->bottleneck = 0;
  return r;
}

}  // namespace

TEST(PerfWords, TiesAreAllNamedAndTheBoundIsSaid) {
  const auto r = tiedReport();
  EXPECT_EQ(inspect::tied_bottlenecks(*r), (std::vector<int>{0, 1}));
  const std::string s = inspect::bound_sentence(*r);
  EXPECT_NE(s.find("Bound by off-chip reads: Load E0 and Load E1 tie, each busy 600 of 1,000 cycles (60.0 %)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("10.0 % of the allocated 64 FLOPs/cycle"), std::string::npos) << s;
  EXPECT_DOUBLE_EQ(inspect::unit_utilisation(r->units[2], r->cycles), 0.2);
  r->units[1].busy = 599;
  EXPECT_EQ(inspect::tied_bottlenecks(*r), (std::vector<int>{0}));
  EXPECT_EQ(inspect::bound_sentence(*r).find(" tie"), std::string::npos);
}

TEST(PerformancePaneV1, SaysTheBoundHasUnitsALegendAndMarksEveryTiedBottleneck) {
  PerformancePane pane;
  PerfSnapshot s;
  s.ok = true;
  s.chip = QStringLiteral("default");
  s.report = tiedReport();
  s.baselineCycles = 2000;
  s.speedup = 2.0;
  pane.setSnapshot(s);
  EXPECT_TRUE(pane.boundText().startsWith(QStringLiteral("Bound by off-chip reads"))) << pane.boundText().toStdString();
  EXPECT_TRUE(pane.boundText().contains(QStringLiteral("tie"))) << pane.boundText().toStdString();
  const QString totals = pane.totalsText();
  EXPECT_TRUE(totals.contains(QStringLiteral("Bottleneck (2 tied)"))) << totals.toStdString();
  EXPECT_TRUE(totals.contains(QStringLiteral("Load E0 (line -), Load E1 (line -)"))) << totals.toStdString();
  auto* m = pane.unitsModel();
  EXPECT_EQ(m->headerData(PerfUnitsModel::Busy, Qt::Horizontal).toString(), QStringLiteral("Busy (cycles)"));
  EXPECT_EQ(m->headerData(PerfUnitsModel::StallIn, Qt::Horizontal).toString(), QStringLiteral("Stall in (cycles)"));
  EXPECT_EQ(m->headerData(PerfUnitsModel::Utilisation, Qt::Horizontal).toString(), QStringLiteral("Utilisation"));
  EXPECT_EQ(m->index(2, PerfUnitsModel::Utilisation).data().toString(), QStringLiteral("20.0 %"));
  int marked = 0;
  for (int i = 0; i < m->rowCount(); ++i) marked += m->index(i, 0).data(PerfUnitsModel::BottleneckRole).toBool();
  EXPECT_EQ(marked, 2);
  EXPECT_TRUE(m->index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("tied with 1 other")));
  EXPECT_TRUE(pane.legendText().contains(QStringLiteral("bottleneck")));
  EXPECT_TRUE(pane.legendText().contains(QStringLiteral("Utilisation = busy cycles")));
  // No report: no sentence.
  pane.clear();
  EXPECT_TRUE(pane.boundText().isEmpty());
}

TEST(GraphViewV1, NodesShowUtilisationWithALegend) {
  inspect::DataflowGraph g;
  inspect::GraphNode in;
  in.kind = inspect::GraphNode::Kind::Input;
  in.title = "E0";
  inspect::GraphNode map;
  map.title = "Map(fn=fn_neg)";
  map.line = 3;
  map.end_line = 3;
  map.statement = 0;
  inspect::GraphNode out;
  out.kind = inspect::GraphNode::Kind::Output;
  out.title = "S0";
  out.statement = 1;
  g.nodes = {in, map, out};
  g.edges = {{0, 1, "E0", "", "", false}, {1, 2, "T2", "", "", false}};
  auto r = tiedReport();
  r->units.erase(r->units.begin() + 1);  // E0 load, Map at line 3, Store
  GraphView v;
  v.resize(600, 400);
  v.setGraph(g);
  EXPECT_TRUE(!v.costLegend() || v.costLegend()->isHidden());
  v.setCostReport(r);
  const auto& o = v.costOverlay();
  ASSERT_EQ(o.node_utilisation.size(), 3u);
  EXPECT_DOUBLE_EQ(o.node_utilisation[0], 0.6);   // 600 / 1000, not 600 / 900 of all busy cycles
  EXPECT_DOUBLE_EQ(o.node_utilisation[1], 0.2);
  EXPECT_DOUBLE_EQ(o.node_share[0], 600.0 / 900.0);
  EXPECT_DOUBLE_EQ(v.nodeItem(1)->data(GraphView::UtilisationKey).toDouble(), 0.2);
  EXPECT_TRUE(v.nodeItem(0)->toolTip().contains(QStringLiteral("60.0 % utilised"))) << v.nodeItem(0)->toolTip().toStdString();
  ASSERT_TRUE(v.costLegend());
  EXPECT_FALSE(v.costLegend()->isHidden());
  EXPECT_EQ(GraphView::utilisationColor(1.0), QColor(QStringLiteral("#f97316")));
  EXPECT_NE(GraphView::utilisationColor(0.2), GraphView::utilisationColor(0.6));
}
