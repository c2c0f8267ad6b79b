// stepforge-cli graph FILE [--dot] (issue 14 item 4): the dataflow graph of a program as text and as Graphviz
// DOT, from core/inspect (the code the GUI's graph view draws), and its errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/e2e/cli_test_util.hpp"

namespace cli_graph_tests {

using sf::e2e::cli;
using sf::e2e::CliRun;

std::string sourcePath(const std::string& rel) {
  return std::string(SF_SOURCE_DIR) + "/" + rel;
}

}  // namespace cli_graph_tests

TEST(CliGraph, TextAndDotOfAProgram) {
  using namespace cli_graph_tests;
  const std::string file = sourcePath("resources/solutions/rope/neox_halves.yaml");
  CliRun t = cli("graph " + file, false);
  ASSERT_EQ(t.code, 0) << t.out;
  // Two inputs, three primitives, one output; four stream edges plus the output edge.
  EXPECT_NE(t.out.find("dataflow graph of rope/neox_halves: 6 nodes, 5 edges, 0 affinity violations"),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("primitive  Scan(fn=fn_sum, b=1)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("input      E0"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("Map(fn=fn_neoxrope)   layer 3"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("line 5"), std::string::npos) << t.out;  // file lines: Map is the impl's third line
  EXPECT_NE(t.out.find(" -> "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("P: [N, M] of fp32"), std::string::npos) << t.out;  // an edge with its stream type
  EXPECT_NE(t.out.find("layer 0 at ("), std::string::npos) << t.out;

  CliRun d = cli("graph --dot " + file, false);
  ASSERT_EQ(d.code, 0) << d.out;
  EXPECT_EQ(d.out.rfind("digraph \"rope/neox_halves\" {", 0), 0u) << d.out;
  EXPECT_NE(d.out.find("[label=\"Scan(fn=fn_sum, b=1)\\nline 3\"]"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("shape=ellipse"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("[label=\"P: [N, M] of fp32\"]"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("{ rank=same;"), std::string::npos) << d.out;  // E0 and E1 share the top row
  EXPECT_EQ(d.out.back(), '\n');
  EXPECT_NE(d.out.find("}\n"), std::string::npos);
}

TEST(CliGraph, AffinityViolationsAreFlaggedAndErrorsExplained) {
  using namespace cli_graph_tests;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sf_cli_graph_test";
  std::filesystem::create_directories(dir);
  // E0 used twice without a Copy and E1 never: the graph is drawn, both uses of E0 and the dead E1 flagged;
  // the type error this causes goes to stderr and the edges after it are untyped.
  const std::string twice = (dir / "twice.yaml").string();
  std::ofstream(twice) << "task: rope/neox_halves\nimpl: |\n  Z = step.Zip().apply((E0, E0))\n"
                          "  Y = step.Map(fn=fn_neoxrope).apply(Z)\n  return Y\n";
  CliRun v = cli("graph " + twice);
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("6 nodes, 5 edges, 3 affinity violations"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("n0 -> n2  E0: [N, M] of fp32  affinity violation"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("unused     unused"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("twice.yaml:4:38: error:"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("[T-FN-INPUT]"), std::string::npos) << v.out;
  CliRun vd = cli("graph --dot " + twice, false);
  EXPECT_NE(vd.out.find("color=red"), std::string::npos) << vd.out;
  // A program that does not parse has no graph: the diagnostic with its location, exit 1.
  const std::string broken = (dir / "broken.yaml").string();
  std::ofstream(broken)
      << "task: rope/neox_halves\nimpl: |\n  P = step.Scan(fn=fn_sum b=1).apply(E0)\n  return P\n";
  CliRun b = cli("graph " + broken);
  EXPECT_EQ(b.code, 1) << b.out;
  EXPECT_NE(b.out.find("broken.yaml:3:"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("no graph"), std::string::npos) << b.out;
  // A missing file: exit 2.
  CliRun m = cli("graph " + (dir / "missing.yaml").string());
  EXPECT_EQ(m.code, 2) << m.out;
  std::filesystem::remove_all(dir);
}
