#include "core/inspect/graph_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <sstream>

namespace sf::inspect {

namespace {

const char* node_kind_name(GraphNode::Kind k) {
  switch (k) {
    case GraphNode::Kind::Input:
      return "input";
    case GraphNode::Kind::Primitive:
      return "primitive";
    case GraphNode::Kind::Output:
      return "output";
    case GraphNode::Kind::Unused:
      return "unused";
  }
  return "?";
}

// A DOT double-quoted string body: quotes and backslashes escaped, newlines as \n.
std::string dot_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string cell(double v) {
  return std::to_string(static_cast<long long>(std::lround(v)));
}

}  // namespace

LayoutResult text_layout(const DataflowGraph& g) {
  LayoutInput in;
  for (const auto& n : g.nodes)
    in.node_sizes.emplace_back(static_cast<double>(std::max(n.title.size(), n.subtitle.size()) + 4), 2.0);
  for (const auto& e : g.edges) {
    in.edges.emplace_back(e.from, e.to);
    in.label_sizes.emplace_back(static_cast<double>(e.label().size() + 2), 1.0);
  }
  in.node_gap = 2;
  in.layer_gap = 1;
  return layered_layout(in);
}

std::string graph_text(const DataflowGraph& g, std::string_view title) {
  const LayoutResult lay = text_layout(g);
  std::ostringstream out;
  out << "dataflow graph of " << title << ": " << g.nodes.size() << " node"
      << (g.nodes.size() == 1 ? "" : "s") << ", " << g.edges.size() << " edge"
      << (g.edges.size() == 1 ? "" : "s") << ", " << g.violation_count() << " affinity violation"
      << (g.violation_count() == 1 ? "" : "s") << "\n";
  std::size_t title_w = 0;
  for (const auto& n : g.nodes) title_w = std::max(title_w, n.title.size());
  out << "nodes (layer and position of the layered layout, in character cells):\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    std::string id = "n" + std::to_string(i);
    std::string kind = node_kind_name(n.kind);
    out << "  " << id << std::string(id.size() < 5 ? 5 - id.size() : 1, ' ') << kind
        << std::string(kind.size() < 11 ? 11 - kind.size() : 1, ' ') << n.title
        << std::string(title_w - n.title.size() + 2, ' ') << "layer " << lay.layers[i] << " at ("
        << cell(lay.centers[i].x) << ", " << cell(lay.centers[i].y) << ")";
    if (!n.subtitle.empty()) out << "  " << n.subtitle;
    out << "\n";
  }
  out << "edges:\n";
  for (const auto& e : g.edges) {
    out << "  n" << e.from << " -> n" << e.to << "  " << e.label();
    if (e.violation) out << "  affinity violation";
    out << "\n";
  }
  return out.str();
}

std::string graph_dot(const DataflowGraph& g, std::string_view title) {
  const LayoutResult lay = text_layout(g);
  std::ostringstream out;
  out << "digraph \"" << dot_escape(title) << "\" {\n"
      << "  rankdir=TB;\n"
      << "  node [shape=box, fontname=\"monospace\"];\n"
      << "  edge [fontname=\"monospace\", fontsize=10];\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    std::string label = n.title;
    if (!n.subtitle.empty()) label += "\n" + n.subtitle;
    out << "  n" << i << " [label=\"" << dot_escape(label) << "\"";
    switch (n.kind) {
      case GraphNode::Kind::Input:
      case GraphNode::Kind::Output:
        out << ", shape=ellipse";
        break;
      case GraphNode::Kind::Unused:
        out << ", shape=plaintext, fontcolor=gray40";
        break;
      case GraphNode::Kind::Primitive:
        break;
    }
    out << "];\n";
  }
  for (const auto& e : g.edges) {
    out << "  n" << e.from << " -> n" << e.to << " [label=\"" << dot_escape(e.label()) << "\"";
    if (e.violation) out << ", color=red, fontcolor=red";
    out << "];\n";
  }
  std::map<int, std::vector<std::size_t>> rows;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) rows[lay.layers[i]].push_back(i);
  for (const auto& [layer, nodes] : rows) {
    if (nodes.size() < 2) continue;
    out << "  { rank=same;";
    for (std::size_t n : nodes) out << " n" << n << ";";
    out << " }\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace sf::inspect
