// graph: the dataflow graph of a program file (issue 14 item 4; docs/cli.md), from the code the GUI's graph
// view uses (core/inspect).
//   stepforge-cli graph FILE [--dot]
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "core/inspect/graph_export.hpp"
#include "core/verify/dialect_v2.hpp"
#include "core/verify/program_file.hpp"

namespace sf::cli {

void add_graph_command(CLI::App& app, int& exit_code) {
  struct GraphOpts {
    std::string file;
    bool dot = false;
  };
  auto o = std::make_shared<GraphOpts>();
  auto* graph = app.add_subcommand("graph",
                                   "The dataflow graph of a program (nodes, edges with stream types, layout "
                                   "rows) as text or Graphviz DOT");
  graph->add_option("FILE", o->file, "A task file with impl, or a solution file naming its task")->required();
  graph->add_flag("--dot", o->dot, "Print Graphviz DOT (e.g. | dot -Tsvg > graph.svg) instead of text");
  graph->callback([o, &exit_code] {
    Diagnostics ds;
    auto pf = verify::load_program_file(o->file, &cli_catalogue(), ds);
    if (!pf) {
      print_diagnostics(ds, o->file);
      exit_code = 2;
      return;
    }
    if (pf->task.is_v2()) {  // the step-v2 graph comes from the seam (core/verify/dialect_v2.hpp)
      Diagnostics gd;
      std::string text = verify::v2::graph(*pf, o->dot, gd);
      print_diagnostics(gd, o->file);
      if (text.empty()) {
        std::cerr << "error: " << o->file << ": no graph: the program does not check\n";
        exit_code = 1;
        return;
      }
      std::cout << text;
      return;
    }
    Diagnostics gd;
    const inspect::DataflowGraph g =
        inspect::dataflow_graph_from_impl(pf->task, pf->impl, pf->impl_line_starts, &gd);
    // The graph is drawn from whatever parses (untyped edges when the types do not check, as in the GUI); the
    // diagnostics go to stderr, and a program that does not parse has no graph.
    print_diagnostics(gd, o->file);
    if (g.nodes.empty()) {
      std::cerr << "error: " << o->file
                << ": no graph: the program does not parse or names unknown streams\n";
      exit_code = 1;
      return;
    }
    std::cout << (o->dot ? inspect::graph_dot(g, pf->task.id) : inspect::graph_text(g, pf->task.id));
  });
}

}  // namespace sf::cli
