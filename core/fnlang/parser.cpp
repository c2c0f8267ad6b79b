#include "core/fnlang/parser.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace sf::fnlang {

bool is_python_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 35> kw = {
      "False", "None",   "True",  "and",   "as",       "assert", "async",  "await",    "break",
      "class", "continue", "def", "del",   "elif",     "else",   "except", "finally",  "for",
      "from",  "global", "if",    "import", "in",      "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise", "return", "try",     "while",  "with",   "yield"};
  return std::find(kw.begin(), kw.end(), s) != kw.end();
}

namespace {
std::string describe(const Token& t) {
  switch (t.kind) {
    case TokKind::Newline: return "end of line";
    case TokKind::End: return "end of body";
    case TokKind::String: return "string '" + t.text + "'";
    default: return "'" + t.text + "'";
  }
}
}  // namespace

const Token& Parser::peek(int ahead) const {
  std::size_t i = std::min(p_ + static_cast<std::size_t>(ahead), t_.size() - 1);
  return t_[i];
}

bool Parser::is_op(std::string_view op, int ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokKind::Op && t.text == op;
}

void Parser::unexpected(const char* expected) const {
  throw FnError{"SYNTAX", true, peek().at, std::string("expected ") + expected + ", found " + describe(peek())};
}

const Token& Parser::expect_op(std::string_view op, const char* what) {
  if (!is_op(op)) unexpected(what);
  return t_[p_++];
}

void Parser::enter(const Token& at) {
  if (++nest_ > kMaxNesting) {
    throw FnError{"P-NESTING", false, at.at,
                  "expressions nest deeper than " + std::to_string(kMaxNesting) + " levels"};
  }
}

Ast Parser::run() {
  while (peek().kind != TokKind::End) {
    if (peek().kind == TokKind::Newline) {
      ++p_;
      continue;
    }
    statement();
    if (peek().kind != TokKind::Newline && peek().kind != TokKind::End) unexpected("end of line");
  }
  return std::move(ast_);
}

void Parser::statement() {
  Stmt s;
  const Token& first = peek();
  s.at = first.at;
  if (first.kind == TokKind::Name && first.text == "return") {
    ++p_;
    s.is_return = true;
    s.exprs.push_back(expr());
    while (is_op(",")) {
      ++p_;
      if (peek().kind == TokKind::Newline || peek().kind == TokKind::End) break;
      s.exprs.push_back(expr());
    }
    ast_.stmts.push_back(std::move(s));
    return;
  }
  // targets: NAME {"," NAME} "="
  for (;;) {
    const Token& t = peek();
    if (t.kind != TokKind::Name) unexpected("a name to assign or 'return'");
    if (is_python_keyword(t.text)) {
      throw FnError{"SYNTAX", true, t.at, "'" + t.text + "' is a Python keyword, not a name"};
    }
    s.targets.push_back(t.text);
    s.target_locs.push_back(t.at);
    ++p_;
    if (is_op(",")) {
      ++p_;
      continue;
    }
    if (is_op("=")) break;
    unexpected(s.targets.size() == 1 && !is_op("==") ? "'=' (a statement is 'name = expression' or 'return ...')"
                                                     : "'='");
  }
  ++p_;  // '='
  s.exprs.push_back(expr());
  ast_.stmts.push_back(std::move(s));
}

int Parser::binary(const Token& op, int l, int r, NodeKind k) {
  Node n;
  n.kind = k;
  n.text = op.text;
  n.at = op.at;
  n.kids = {l, r};
  return ast_.add(std::move(n));
}

static bool is_cmp(const Token& t) {
  return t.kind == TokKind::Op &&
         (t.text == ">" || t.text == ">=" || t.text == "<" || t.text == "<=" || t.text == "==" || t.text == "!=");
}

int Parser::expr() {
  int l = arith();
  if (is_cmp(peek())) {
    Token op = t_[p_++];
    int r = arith();
    l = binary(op, l, r, NodeKind::Compare);
    if (is_cmp(peek())) {
      throw FnError{"SYNTAX", true, peek().at, "comparisons cannot be chained; combine them with * or where()"};
    }
  }
  return l;
}

int Parser::arith() {
  int l = term();
  while (is_op("+") || is_op("-")) {
    Token op = t_[p_++];
    l = binary(op, l, term(), NodeKind::Binary);
  }
  return l;
}

int Parser::term() {
  int l = unary();
  while (is_op("*") || is_op("/") || is_op("//") || is_op("@")) {
    Token op = t_[p_++];
    l = binary(op, l, unary(), NodeKind::Binary);
  }
  return l;
}

int Parser::unary() {
  if (is_op("-") || is_op("+")) {
    Token op = t_[p_++];
    enter(op);
    int c = unary();
    leave();
    Node n;
    n.kind = NodeKind::Unary;
    n.text = op.text;
    n.at = op.at;
    n.kids = {c};
    return ast_.add(std::move(n));
  }
  return power();
}

int Parser::power() {
  int base = postfix();
  if (is_op("**")) {
    Token op = t_[p_++];
    enter(op);
    int e = unary();
    leave();
    return binary(op, base, e, NodeKind::Binary);
  }
  return base;
}

int Parser::postfix() {
  int base = atom();
  while (is_op("[")) {
    Token open = t_[p_++];
    enter(open);
    Node n;
    n.kind = NodeKind::Subscript;
    n.at = open.at;
    n.kids.push_back(base);
    n.kids.push_back(subscript_item());
    while (is_op(",")) {
      ++p_;
      if (is_op("]")) break;
      n.kids.push_back(subscript_item());
    }
    expect_op("]", "']'");
    leave();
    base = ast_.add(std::move(n));
  }
  return base;
}

int Parser::subscript_item() {
  if (peek().kind == TokKind::Ellipsis) {
    Node n;
    n.kind = NodeKind::Ellipsis;
    n.at = peek().at;
    ++p_;
    return ast_.add(std::move(n));
  }
  Node sl;
  sl.kind = NodeKind::Slice;
  sl.at = peek().at;
  int first = -1;
  if (!is_op(":")) {
    first = expr();
    if (!is_op(":")) return first;
  }
  ++p_;  // ':'
  int stop = -1, step = -1;
  if (!is_op(":") && !is_op(",") && !is_op("]")) stop = expr();
  if (is_op(":")) {
    ++p_;
    if (!is_op(",") && !is_op("]")) step = expr();
  }
  sl.kids = {first, stop, step};
  return ast_.add(std::move(sl));
}

int Parser::atom() {
  const Token& t = peek();
  Node n;
  n.at = t.at;
  switch (t.kind) {
    case TokKind::Int:
      n.kind = NodeKind::Int;
      n.ival = t.ival;
      n.num = t.num;
      n.text = t.text;
      ++p_;
      return ast_.add(std::move(n));
    case TokKind::Float:
      n.kind = NodeKind::Float;
      n.num = t.num;
      n.text = t.text;
      ++p_;
      return ast_.add(std::move(n));
    case TokKind::String:
      n.kind = NodeKind::Str;
      n.text = t.text;
      ++p_;
      return ast_.add(std::move(n));
    case TokKind::Name: {
      if (is_python_keyword(t.text) && t.text != "True" && t.text != "False" && t.text != "None") {
        throw FnError{"SYNTAX", true, t.at, "'" + t.text + "' is a Python keyword and not part of the fn language"};
      }
      n.text = t.text;
      ++p_;
      if (!is_op("(")) {
        n.kind = NodeKind::Name;
        return ast_.add(std::move(n));
      }
      n.kind = NodeKind::Call;
      enter(peek());
      ++p_;  // '('
      bool seen_kw = false;
      while (!is_op(")")) {
        if (peek().kind == TokKind::Name && is_op("=", 1)) {
          n.kwnames.push_back(peek().text);
          n.kwlocs.push_back(peek().at);
          p_ += 2;
          n.kids.push_back(expr());
          seen_kw = true;
        } else {
          if (seen_kw) {
            throw FnError{"SYNTAX", true, peek().at, "positional argument after a keyword argument"};
          }
          n.kids.push_back(expr());
        }
        if (is_op(",")) {
          ++p_;
          continue;
        }
        if (!is_op(")")) unexpected("',' or ')'");
      }
      ++p_;  // ')'
      leave();
      return ast_.add(std::move(n));
    }
    case TokKind::Op:
      if (t.text == "(") {
        enter(t);
        ++p_;
        int e = expr();
        if (is_op(",")) {
          throw FnError{"SYNTAX", true, peek().at, "tuples are not values in the fn language (only 'a, b = chunk(...)')"};
        }
        expect_op(")", "')'");
        leave();
        return e;
      }
      if (t.text == "[") {
        enter(t);
        ++p_;
        n.kind = NodeKind::List;
        while (!is_op("]")) {
          n.kids.push_back(expr());
          if (is_op(",")) {
            ++p_;
            continue;
          }
          if (!is_op("]")) unexpected("',' or ']'");
        }
        ++p_;
        leave();
        return ast_.add(std::move(n));
      }
      break;
    default:
      break;
  }
  unexpected("an expression");
}

}  // namespace sf::fnlang
