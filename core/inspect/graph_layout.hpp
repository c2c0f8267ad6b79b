// A layered (Sugiyama-style) layout for small dataflow graphs, Qt-free: longest-path layering with sources
// pulled down to their first consumer, one label slot per edge in the gap below its source, dummy slots for
// long edges, barycentric crossing reduction and a balanced coordinate assignment. Flows top to bottom.
#pragma once

#include <utility>
#include <vector>

namespace sf::inspect {

struct LayoutPoint {
  double x = 0, y = 0;
};

struct LayoutInput {
  std::vector<std::pair<double, double>> node_sizes;  // (width, height) per node
  std::vector<std::pair<int, int>> edges;             // (from, to) node indices; self-loops are ignored
  std::vector<std::pair<double, double>>
      label_sizes;        // (width, height) per edge; empty or missing => no label
  double node_gap = 24;   // horizontal space between neighbours in a layer
  double layer_gap = 28;  // vertical space between a node row and a label row
};

struct LayoutResult {
  std::vector<LayoutPoint> centers;                  // per node
  std::vector<int> layers;                           // per node: node row (0 = top)
  std::vector<std::vector<LayoutPoint>> edge_paths;  // per edge: source bottom, label/dummy slots, target top
  std::vector<LayoutPoint> label_centers;            // per edge
  double width = 0, height = 0;                      // bounding box from (0, 0)
  int crossings = 0;                                 // edge crossings between adjacent rows after ordering
};

LayoutResult layered_layout(const LayoutInput& in);

}  // namespace sf::inspect
