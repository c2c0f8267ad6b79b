// Recursive-descent parser for fn bodies (step-dialect §10.3). Recursion is bounded: brackets and
// nested prefix/power operators deeper than kMaxNesting raise P-NESTING at the offending token.
#pragma once

#include <string_view>
#include <vector>

#include "core/fnlang/ast.hpp"

namespace sf::fnlang {

bool is_python_keyword(std::string_view s);

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}
  // Throws FnError on a syntax error.
  Ast run();

 private:
  const Token& peek(int ahead = 0) const;
  bool is_op(std::string_view op, int ahead = 0) const;
  const Token& expect_op(std::string_view op, const char* what);
  [[noreturn]] void unexpected(const char* expected) const;
  void enter(const Token& at);
  void leave() { --nest_; }
  void statement();
  int expr();
  int arith();
  int term();
  int unary();
  int power();
  int postfix();
  int atom();
  int subscript_item();
  int binary(const Token& op, int l, int r, NodeKind k);

  std::vector<Token> t_;
  std::size_t p_ = 0;
  int nest_ = 0;
  Ast ast_;
};

}  // namespace sf::fnlang
