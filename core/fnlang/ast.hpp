// Tokens and the arena-allocated syntax tree of a fn body (step-dialect §10.3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sf::fnlang {

struct BodyLoc {
  int line = 0;  // 0-based body line
  int col = 0;   // 0-based byte column in that line
};

// Internal error carrier (never escapes compile()). `family`: code is a suffix of X-FN-/X-REF-.
struct FnError {
  std::string code;
  bool family = true;
  BodyLoc at;
  std::string msg;
};

enum class TokKind { Name, Int, Float, String, Op, Ellipsis, Newline, End };

struct Token {
  TokKind kind = TokKind::End;
  std::string text;
  BodyLoc at;
  double num = 0;
  std::int64_t ival = 0;
};

enum class NodeKind { Int, Float, Str, Name, Unary, Binary, Compare, Call, Subscript, List, Slice, Ellipsis };

// One node of the tree; children are indices into Ast::nodes (-1 = absent).
struct Node {
  NodeKind kind = NodeKind::Int;
  std::string text;  // name, operator, string contents, callee
  double num = 0;
  std::int64_t ival = 0;
  std::vector<int> kids;             // operands / positional args / [base, subs...] / slice parts
  std::vector<std::string> kwnames;  // Call: keyword names, matching the last kwnames.size() kids
  std::vector<BodyLoc> kwlocs;
  BodyLoc at;
  int depth = 1;  // height of the subtree (bounded, so tree walks cannot overflow the stack)
};

struct Stmt {
  bool is_return = false;
  std::vector<std::string> targets;
  std::vector<BodyLoc> target_locs;
  std::vector<int> exprs;  // assignment: exactly one
  BodyLoc at;
};

constexpr int kMaxNesting = 64;     // brackets and prefix/power operators (§15.3)
constexpr int kMaxTreeDepth = 1000;  // operator chains such as a + b + c + ...

struct Ast {
  std::vector<Node> nodes;
  std::vector<Stmt> stmts;
  int add(Node n) {
    for (int k : n.kids) {
      if (k >= 0 && nodes[static_cast<std::size_t>(k)].depth + 1 > n.depth) n.depth = nodes[static_cast<std::size_t>(k)].depth + 1;
    }
    if (n.depth > kMaxTreeDepth) {
      throw FnError{"P-NESTING", false, n.at, "expression is nested too deeply (more than " + std::to_string(kMaxTreeDepth) + " operators deep)"};
    }
    nodes.push_back(std::move(n));
    return static_cast<int>(nodes.size()) - 1;
  }
};

}  // namespace sf::fnlang
