// The dataflow graph of a program as text or Graphviz DOT (`stepforge-cli graph FILE [--dot]`, issue 14 item
// 4): the same DataflowGraph and layered layout the GUI's graph view draws, written out. Qt-free.
#pragma once

#include <string>
#include <string_view>

#include "core/inspect/dataflow_graph.hpp"
#include "core/inspect/graph_layout.hpp"

namespace sf::inspect {

// The layered layout of `g` with every node and edge label measured in character cells (node: its longest
// text line + 4 wide, 2 high; label: its text + 2 wide, 1 high), so the CLI reports the GUI's rows and order.
LayoutResult text_layout(const DataflowGraph& g);

// One line per node ("n3  primitive  Map(fn=fn_score)  layer 2 at (14, 9)  line 6") and per edge
// ("n3 -> n4  T4: [N] of B[D]", "  affinity violation" when flagged), after a summary line naming `title`.
std::string graph_text(const DataflowGraph& g, std::string_view title);

// A Graphviz digraph: inputs and outputs as ellipses, primitives as boxes, unused markers as grey text, edges
// labelled with their stream and compact type (violations red), one `rank=same` group per layout row.
std::string graph_dot(const DataflowGraph& g, std::string_view title);

}  // namespace sf::inspect
