// Dataflow graph: snapshot from solutions, labels, affinity violations in red, layout, editor sync.
#include <gtest/gtest.h>

#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QPen>
#include <filesystem>
#include <string>

#include "core/bench/catalogue.hpp"
#include "core/verify/program_file.hpp"
#include "core/inspect/graph_layout.hpp"
#include "widgets/inspect/graph_view.hpp"
#include "core/inspect/dataflow_graph.hpp"

using namespace sf;
using namespace sf::widgets;

namespace {

const bench::Catalogue& catalogue() {
  static const bench::Catalogue cat = [] {
    Diagnostics d;
    return bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  }();
  return cat;
}

verify::ProgramFile load_solution(const std::string& rel) {
  Diagnostics d;
  auto pf = verify::load_program_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + rel, &catalogue(), d);
  EXPECT_TRUE(pf.has_value()) << rel;
  return pf ? *pf : verify::ProgramFile{};
}

inspect::DataflowGraph graph_of(const verify::ProgramFile& pf, Diagnostics* d = nullptr) {
  return inspect::dataflow_graph_from_impl(pf.task, pf.impl, pf.impl_line_starts, d);
}

int find_edge(const inspect::DataflowGraph& g, const std::string& stream, int nth = 0) {
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (g.edges[i].stream == stream && nth-- == 0) return static_cast<int>(i);
  return -1;
}

int count_kind(const inspect::DataflowGraph& g, inspect::GraphNode::Kind k) {
  int n = 0;
  for (const auto& node : g.nodes) n += node.kind == k ? 1 : 0;
  return n;
}

const char* const kReuse =
    "P = step.Scan(fn=fn_sum, b=1).apply(E0)\n"
    "Z = step.Zip().apply((P, E1))\n"
    "Y = step.Map(fn=fn_neoxrope).apply(Z)\n"
    "Q = step.Scan(fn=fn_sum, b=1).apply(P)\n"
    "return Y\n";

}  // namespace

TEST(GraphData, NeoxHalvesNodesEdgesAndLabels) {
  auto pf = load_solution("rope/neox_halves.yaml");
  auto g = graph_of(pf);
  // Inputs E0, E1; Scan, Zip, Map; output S0.
  ASSERT_EQ(g.nodes.size(), 6u);
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Input), 2);
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Primitive), 3);
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Output), 1);
  ASSERT_EQ(g.edges.size(), 5u);
  EXPECT_EQ(g.violation_count(), 0);
  EXPECT_EQ(g.nodes[2].title, "Scan(fn=fn_sum, b=1)");
  EXPECT_EQ(g.nodes[2].line, 3);  // impl starts on file line 3
  EXPECT_EQ(g.nodes[3].title, "Zip()");
  EXPECT_EQ(g.nodes[4].title, "Map(fn=fn_neoxrope)");
  EXPECT_EQ(g.nodes[5].title, "S0");
  EXPECT_EQ(g.nodes[5].line, 6);
  int p = find_edge(g, "P"), z = find_edge(g, "Z"), y = find_edge(g, "Y");
  ASSERT_GE(p, 0);
  ASSERT_GE(z, 0);
  ASSERT_GE(y, 0);
  EXPECT_EQ(g.edges[static_cast<std::size_t>(p)].label(), "P: [N, M] of fp32");
  EXPECT_EQ(g.edges[static_cast<std::size_t>(z)].label(), "Z: [N, M] of [fp32, B[D]]");
  EXPECT_EQ(g.edges[static_cast<std::size_t>(z)].full_type, "[N, M] of [fp32, Buffer(fp32, [D])]");
  EXPECT_EQ(g.edges[static_cast<std::size_t>(y)].label(), "Y: [N, M] of B[D]");
  EXPECT_EQ(g.edges[static_cast<std::size_t>(y)].from, 4);
  EXPECT_EQ(g.edges[static_cast<std::size_t>(y)].to, 5);
  EXPECT_EQ(g.node_at_line(4), 3);
  EXPECT_EQ(g.node_at_line(1), -1);
}

TEST(GraphData, MoeEndToEndWithPartitionComprehensionAndMerge) {
  auto pf = load_solution("moe_e2e/mlp_threshold_residual.yaml");
  auto g = graph_of(pf);
  // 1 input, 11 primitive statements (the fn list is not a node), 1 output.
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Input), 1);
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Primitive), 11);
  EXPECT_EQ(count_kind(g, inspect::GraphNode::Kind::Output), 1);
  EXPECT_EQ(g.edges.size(), 15u);
  EXPECT_EQ(g.violation_count(), 0);
  int t12 = find_edge(g, "T12");
  ASSERT_GE(t12, 0);
  EXPECT_EQ(g.edges[static_cast<std::size_t>(t12)].label(), "T12: list of 2 × [B[D], fp32]");
  int t1 = find_edge(g, "T1");
  ASSERT_GE(t1, 0);
  EXPECT_EQ(g.edges[static_cast<std::size_t>(t1)].label(), "T1: [N, M] of B[D]");
  // The comprehension node names its loop.
  bool found = false;
  for (const auto& n : g.nodes)
    if (n.title == "[Map(fn=f)]") {
      found = true;
      EXPECT_EQ(n.subtitle, "line 13: for f, s in zip(experts, T12)");
    }
  EXPECT_TRUE(found);
}

TEST(GraphData, ReusedStreamIsAViolationOnEveryUse) {
  // E0 used twice, no Copy: both uses are A-MULTI edges; types are still known.
  auto pf = load_solution("rope/neox_halves.yaml");
  pf.impl_line_starts.clear();
  // P is used twice (Zip and a second Scan) and the second Scan's result Q is never used.
  pf.impl = kReuse;
  Diagnostics d;
  auto g = graph_of(pf, &d);
  ASSERT_FALSE(g.nodes.empty());
  int p0 = find_edge(g, "P", 0), p1 = find_edge(g, "P", 1);
  ASSERT_GE(p0, 0);
  ASSERT_GE(p1, 0);
  EXPECT_TRUE(g.edges[static_cast<std::size_t>(p0)].violation);
  EXPECT_TRUE(g.edges[static_cast<std::size_t>(p1)].violation);
  EXPECT_EQ(g.edges[static_cast<std::size_t>(p0)].label(), "P: [N, M] of fp32");
  // Q is dead: an edge to an "unused" marker, also red.
  int q = find_edge(g, "Q");
  ASSERT_GE(q, 0);
  EXPECT_TRUE(g.edges[static_cast<std::size_t>(q)].violation);
  EXPECT_EQ(g.nodes[static_cast<std::size_t>(g.edges[static_cast<std::size_t>(q)].to)].kind,
            inspect::GraphNode::Kind::Unused);
  EXPECT_FALSE(g.edges[static_cast<std::size_t>(find_edge(g, "E1"))].violation);
  EXPECT_EQ(g.violation_count(), 3);
  // Return of a tuple-typed stream where the task wants a buffer is a type error: no types, graph still
  // drawn.
  pf.impl = "P = step.Scan(fn=fn_sum, b=1).apply(E0)\nZ = step.Zip().apply((P, E1))\nreturn Z\n";
  auto g2 = graph_of(pf);
  ASSERT_EQ(g2.edges.size(), 4u);
  EXPECT_EQ(g2.edges[static_cast<std::size_t>(find_edge(g2, "Z"))].label(), "Z");
}

TEST(GraphData, ParseErrorGivesEmptyGraphAndDiagnostic) {
  auto pf = load_solution("rope/neox_halves.yaml");
  Diagnostics d;
  auto g = inspect::dataflow_graph_from_impl(pf.task, "P = step.Scan(fn=fn_sum b=1).apply(E0)\n", {}, &d);
  EXPECT_TRUE(g.nodes.empty());
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.front().code, "P-SYNTAX");
}

TEST(GraphView, RedEdgeItemForReusedStream) {
  auto pf = load_solution("rope/neox_halves.yaml");
  pf.impl_line_starts.clear();
  pf.impl = kReuse;
  GraphView view;
  view.setGraph(graph_of(pf));
  const auto& g = view.graph();
  int reds = 0, greys = 0;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    auto* item = view.edgeItem(static_cast<int>(i));
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->data(GraphView::KindKey).toString(), QStringLiteral("edge"));
    if (item->pen().color() == GraphView::violationColor()) ++reds;
    if (item->pen().color() == GraphView::edgeColor()) ++greys;
    EXPECT_EQ(item->pen().color() == GraphView::violationColor(), g.edges[i].violation);
  }
  EXPECT_EQ(reds, 3);
  EXPECT_EQ(greys, static_cast<int>(g.edges.size()) - 3);
  int labels = 0, nodes = 0;
  for (auto* it : view.scene()->items()) {
    const QString kind = it->data(GraphView::KindKey).toString();
    labels += kind == QStringLiteral("label") ? 1 : 0;
    nodes += kind == QStringLiteral("node") ? 1 : 0;
  }
  EXPECT_EQ(labels, static_cast<int>(g.edges.size()));
  EXPECT_EQ(nodes, static_cast<int>(g.nodes.size()));
}

TEST(GraphView, SelectionSyncsWithEditorLines) {
  auto pf = load_solution("rope/neox_halves.yaml");
  GraphView view;
  view.setGraph(graph_of(pf));
  std::vector<int> emitted;
  QObject::connect(&view, &GraphView::statementActivated, [&](int line) { emitted.push_back(line); });
  // Editor -> graph: no echo signal.
  view.selectStatementAtLine(4);
  EXPECT_EQ(view.selectedNode(), 3);
  EXPECT_TRUE(emitted.empty());
  view.selectStatementAtLine(1);  // the "task:" line has no statement
  EXPECT_EQ(view.selectedNode(), -1);
  // Graph -> editor.
  view.scene()->clearSelection();
  view.nodeItem(4)->setSelected(true);
  ASSERT_EQ(emitted.size(), 1u);
  EXPECT_EQ(emitted[0], 5);
  // Input nodes have no statement: selecting one emits nothing.
  view.scene()->clearSelection();
  view.nodeItem(0)->setSelected(true);
  EXPECT_EQ(emitted.size(), 1u);
}

TEST(GraphLayout, LayersFlowDownAndNodesDoNotOverlap) {
  inspect::LayoutInput in;
  // Diamond with a long edge: 0 -> 1 -> 2 -> 3, 0 -> 3.
  in.node_sizes = {{40, 20}, {60, 20}, {50, 20}, {40, 20}};
  in.edges = {{0, 1}, {1, 2}, {2, 3}, {0, 3}};
  in.label_sizes = {{30, 10}, {30, 10}, {30, 10}, {30, 10}};
  auto r = inspect::layered_layout(in);
  EXPECT_EQ(r.layers, (std::vector<int>{0, 1, 2, 3}));
  for (std::size_t i = 0; i + 1 < 4; ++i) EXPECT_LT(r.centers[i].y, r.centers[i + 1].y);
  // The long edge passes through its label slot and two dummy slots: 2 ends + 5 virtual points.
  EXPECT_EQ(r.edge_paths[3].size(), 7u);
  EXPECT_EQ(r.edge_paths[0].size(), 3u);
  EXPECT_DOUBLE_EQ(r.edge_paths[0].front().y, r.centers[0].y + 10);
  EXPECT_DOUBLE_EQ(r.edge_paths[0].back().y, r.centers[1].y - 10);
  EXPECT_EQ(r.crossings, 0);
  // A source is pulled down next to its only consumer.
  inspect::LayoutInput in2;
  in2.node_sizes = {{40, 20}, {40, 20}, {40, 20}, {40, 20}};
  in2.edges = {{0, 1}, {1, 2}, {3, 2}};
  auto r2 = inspect::layered_layout(in2);
  EXPECT_EQ(r2.layers, (std::vector<int>{0, 1, 2, 1}));
  // Same-layer nodes keep their minimum separation.
  EXPECT_GE(std::abs(r2.centers[1].x - r2.centers[3].x), 40 + in2.node_gap - 1e-9);
}

TEST(GraphLayout, CyclesAndBadEdgesDoNotBreakIt) {
  inspect::LayoutInput in;
  in.node_sizes = {{10, 10}, {10, 10}};
  in.edges = {{0, 1}, {1, 0}, {0, 0}, {5, 1}};
  auto r = inspect::layered_layout(in);
  EXPECT_EQ(r.centers.size(), 2u);
  EXPECT_FALSE(r.edge_paths[0].empty());
  EXPECT_FALSE(r.edge_paths[1].empty());
  EXPECT_TRUE(r.edge_paths[2].empty());
  EXPECT_TRUE(r.edge_paths[3].empty());
  EXPECT_TRUE(inspect::layered_layout({}).centers.empty());
}

TEST(GraphView, EveryBenchmarkSolutionIsTypedCleanAndReadable) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(std::string(SF_SOURCE_DIR) + "/resources/solutions")) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    const std::string rel = fs::relative(entry.path(), std::string(SF_SOURCE_DIR) + "/resources/solutions").string();
    auto pf = load_solution(rel);
    GraphView view;
    view.setGraph(graph_of(pf));
    const auto& g = view.graph();
    EXPECT_GE(g.nodes.size(), 3u) << rel;
    EXPECT_EQ(g.violation_count(), 0) << rel;
    for (const auto& e : g.edges) EXPECT_FALSE(e.type.empty()) << rel << " " << e.stream;
    // No two node boxes overlap, and no label box overlaps a node box.
    std::vector<QRectF> boxes;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      boxes.push_back(view.nodeItem(static_cast<int>(i))->sceneBoundingRect().adjusted(3, 3, -3, -3));
    std::size_t node_boxes = boxes.size();
    for (std::size_t i = 0; i < g.edges.size(); ++i)
      boxes.push_back(view.edgeLabelItem(static_cast<int>(i))->sceneBoundingRect());
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j)
        EXPECT_FALSE(boxes[i].intersects(boxes[j]))
            << rel << ": " << (i < node_boxes ? "node " : "label ") << i << " overlaps " << j;
  }
  EXPECT_EQ(files, 32);
}
