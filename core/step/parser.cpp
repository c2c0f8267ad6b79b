#include "core/step/parser.hpp"

#include <algorithm>
#include <utility>

#include "core/step/lexer.hpp"

namespace sf::step {

namespace {

struct ParseFailure {
  Diagnostic diag;
};

class Parser {
 public:
  Parser(std::vector<Token> toks, const LocationMap& map, std::size_t max_statements)
      : toks_(std::move(toks)), map_(map), max_statements_(max_statements) {}

  Program run() {
    Program prog;
    // One statement per logical line: no regrowth (a Statement is large to move).
    prog.stmts.reserve(std::min<std::size_t>(
        max_statements_ + 1,
        static_cast<std::size_t>(std::count_if(toks_.begin(), toks_.end(),
                                               [](const Token& t) { return t.kind == TokKind::Newline; }))));
    skip_newlines();
    while (peek().kind != TokKind::End) {
      if (prog.stmts.size() >= max_statements_) {
        const Token& t = peek();
        if (t.kind == TokKind::Error) throw ParseFailure{*t.error};
        Location l = loc(t);
        throw ParseFailure{make_error("L-STATEMENTS",
                                      "line " + std::to_string(l.line) + ": the program has more than " +
                                          std::to_string(max_statements_) + " statements (the limit)",
                                      l)};
      }
      statement(prog.stmts.emplace_back());  // parsed in place: a Statement is large to move
      skip_newlines();
    }
    return prog;
  }

 private:
  // ---- token helpers ----
  const Token& peek(std::size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& advance() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    last_ = &t;
    return t;
  }
  Location loc(const Token& t) const { return map_.at(t.line, t.col); }
  bool is_punct(const Token& t, char c) const { return t.kind == TokKind::Punct && t.text[0] == c; }
  bool is_name(const Token& t, std::string_view s) const { return t.kind == TokKind::Name && t.text == s; }
  bool at_eol(const Token& t) const {
    return t.kind == TokKind::Newline || t.kind == TokKind::End || t.kind == TokKind::Error;
  }
  void skip_newlines() {
    while (peek().kind == TokKind::Newline) advance();
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokKind::Name: return "'" + std::string(t.text) + "'";
      case TokKind::Int: return "the integer " + std::string(t.text);
      case TokKind::Punct: return "'" + std::string(t.text) + "'";
      case TokKind::Newline: return "the end of the line";
      default: return "the end of the program";
    }
  }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    if (t.kind == TokKind::Error) throw ParseFailure{*t.error};
    Location l = loc(t);
    throw ParseFailure{make_error("P-SYNTAX", "line " + std::to_string(l.line) + ": " + msg, l)};
  }
  [[noreturn]] void fail_expected(const Token& t, const std::string& what) const {
    if (t.kind == TokKind::Name && is_python_keyword(t.text))
      fail(t, "expected " + what + ", got the Python keyword '" + std::string(t.text) + "', which is not STeP syntax");
    fail(t, "expected " + what + ", got " + describe(t));
  }
  // The expected-what texts are views and pieces, joined only on an error (a statement's parse builds none).
  void expect_punct(char c, std::string_view where, std::string_view where2 = {}) {
    if (!is_punct(peek(), c))
      fail_expected(peek(), std::string("'") + c + "' " + std::string(where) + std::string(where2));
    advance();
  }
  const Token& expect_name(std::string_view what) {
    const Token& t = peek();
    if (t.kind != TokKind::Name || is_python_keyword(t.text)) fail_expected(t, std::string(what));
    return advance();
  }
  void expect_word(std::string_view w, std::string_view where, std::string_view where2 = {},
                   std::string_view where3 = {}) {
    if (!is_name(peek(), w))
      fail_expected(peek(), "'" + std::string(w) + "' " + std::string(where) + std::string(where2) +
                                std::string(where3));
    advance();
  }
  void end_statement(Statement& st) {
    st.end_line = loc(*last_).line;
    const Token& t = peek();
    if (t.kind == TokKind::Newline || t.kind == TokKind::End) return;
    fail(t, "unexpected " + describe(t) + " after the end of the statement (one statement per line)");
  }

  // ---- statements ----
  // Parses one statement into `st` (default-constructed).
  void statement(Statement& st) {
    const Token& t = peek();
    if (is_name(t, "return")) return return_stmt(st);
    if (t.kind == TokKind::Name && is_python_keyword(t.text)) {
      if (t.text == "def")
        fail(t, "a function definition (def) is not STeP syntax: an impl is a flat list of assignments "
                "ending with return; fns are given by the task");
      if (t.text == "lambda") fail(t, "a lambda is not STeP syntax: fns are given by the task");
      fail(t, "the Python keyword '" + std::string(t.text) +
                  "' is not STeP syntax: an impl is a flat list of assignments ending with return");
    }
    if (t.kind != TokKind::Name && !is_punct(t, '('))
      fail(t, "expected a statement (an assignment or return), got " + describe(t));

    st.loc = loc(t);
    bool paren = false;
    if (t.kind == TokKind::Name && (is_punct(peek(1), '.') || is_punct(peek(1), '('))) {
      if (t.text == "step")
        fail(t, "a bare primitive call is not a STeP statement: assign its result, e.g. "
                "`Y = step.Map(fn=f).apply(X)`");
      fail(t, "a Python call or attribute '" + std::string(t.text) + std::string(peek(1).text) +
                  "...' is not STeP syntax: a statement is `targets = step.<Primitive>(...).apply(...)`");
    }
    if (is_punct(t, '(')) {
      paren = true;
      advance();
      target(st);
      while (is_punct(peek(), ',')) {
        advance();
        if (is_punct(peek(), ')')) break;
        target(st);
      }
      expect_punct(')', "to close the target list");
    } else {
      target(st);
      while (is_punct(peek(), ',')) {
        advance();
        target(st);
      }
    }
    if (!is_punct(peek(), '=')) fail_expected(peek(), "'=' after the assignment target(s)");
    advance();

    const Token& r = peek();
    if (is_name(r, "step")) {
      st.kind = Statement::Kind::Assign;
      prim_call(st.call);
    } else if (is_punct(r, '[')) {
      if (is_name(peek(1), "step")) {
        st.kind = Statement::Kind::Comprehension;
        comprehension(st.comp);
      } else {
        if (st.targets.size() != 1 || paren)
          fail(r, "a fn list is assigned to exactly one name: `fns = [fn_a, fn_b]`");
        st.kind = Statement::Kind::FnList;
        advance();
        if (is_punct(peek(), ']')) fail(peek(), "an empty list is not STeP syntax: a fn list names task fns");
        for (;;) {
          const Token& n = expect_name("a fn name in the fn list");
          st.fn_names.emplace_back(n.text);
          st.fn_name_locs.push_back(loc(n));
          if (is_punct(peek(), ',')) {
            advance();
            if (is_punct(peek(), ']')) break;
            continue;
          }
          if (is_punct(peek(), ']')) break;
          fail_expected(peek(), "',' or ']' in the fn list");
        }
        advance();
      }
    } else if (r.kind == TokKind::Name && !is_python_keyword(r.text)) {
      if (is_punct(peek(1), '('))
        fail(r, "a Python call '" + std::string(r.text) +
                    "(...)' is not STeP syntax: the right-hand side must be step.<Primitive>(...).apply(...)");
      if (peek(1).kind == TokKind::Error) fail(peek(1), "");
      if (at_eol(peek(1)))
        fail(r, "an alias '" + st.targets.front() + " = " + std::string(r.text) +
                    "' is not STeP syntax: every statement applies a primitive; use '" + std::string(r.text) +
                    "' directly");
      fail(r, "expected step.<Primitive>(...).apply(...) or a list comprehension after '=', got " + describe(r));
    } else if (is_name(r, "lambda")) {
      fail(r, "a lambda is not STeP syntax: fns are given by the task");
    } else if (r.kind == TokKind::Int) {
      fail(r, "a literal (" + std::string(r.text) + ") is not STeP syntax: the right-hand side must be "
              "step.<Primitive>(...).apply(...) or a list comprehension");
    } else {
      fail_expected(r, "step.<Primitive>(...).apply(...) or a list comprehension after '='");
    }
    end_statement(st);
  }

  void target(Statement& st) {
    const Token& n = expect_name("an assignment target name");
    st.targets.emplace_back(n.text);
    st.target_locs.push_back(loc(n));
  }

  void return_stmt(Statement& st) {
    st.kind = Statement::Kind::Return;
    st.loc = loc(advance());
    if (at_eol(peek())) fail_expected(peek(), "the stream(s) to return after 'return'");
    if (is_punct(peek(), '(')) {
      advance();
      ref_list(st.returns, true);
      expect_punct(')', "to close the returned list");
    } else {
      ref_list(st.returns, false);
    }
    end_statement(st);
  }

  void ref_list(std::vector<Ref>& out, bool paren) {
    ref(out.emplace_back());
    while (is_punct(peek(), ',')) {
      advance();
      if (paren ? is_punct(peek(), ')') : at_eol(peek())) break;
      ref(out.emplace_back());
    }
  }

  // ---- expressions ----
  // The parse functions below fill a default-constructed node in place (nodes are not moved into their
  // vectors).
  void ref(Ref& r) {
    const Token& t = peek();
    r.loc = loc(t);
    if (is_punct(t, '[')) {
      advance();
      r.kind = Ref::Kind::List;
      if (is_punct(peek(), ']')) fail(peek(), "an empty list is not STeP syntax: list the streams to merge");
      for (;;) {
        ref(r.items.emplace_back());
        if (is_punct(peek(), ',')) {
          advance();
          if (is_punct(peek(), ']')) break;
          continue;
        }
        if (is_punct(peek(), ']')) break;
        fail_expected(peek(), "',' or ']' in the list of streams");
      }
      advance();
      return;
    }
    if (t.kind == TokKind::Int)
      fail(t, "a literal (" + std::string(t.text) + ") is not STeP syntax here: expected a stream name");
    const Token& n = expect_name("a stream name");
    r.name = n.text;
    if (is_punct(peek(), '[')) {
      advance();
      const Token& i = peek();
      if (i.kind != TokKind::Int) fail_expected(i, "an integer index in " + r.name + "[...]");
      r.kind = Ref::Kind::Index;
      r.index = advance().value;
      expect_punct(']', "after the index");
    }
  }

  void kwval(KwVal& v) {
    const Token& t = peek();
    v.loc = loc(t);
    if (t.kind == TokKind::Int) {
      v.kind = KwVal::Kind::Int;
      v.integer = advance().value;
      return;
    }
    if (t.kind == TokKind::Name && !is_python_keyword(t.text)) {
      v.kind = KwVal::Kind::Name;
      v.name = advance().text;
      return;
    }
    if (is_punct(t, '[') || is_punct(t, '(')) {
      const char close = is_punct(t, '[') ? ']' : ')';
      advance();
      v.kind = KwVal::Kind::IntList;
      for (;;) {
        const Token& i = peek();
        if (i.kind != TokKind::Int) fail_expected(i, "an integer in the integer list");
        v.list.push_back(advance().value);
        if (is_punct(peek(), ',')) {
          advance();
          if (is_punct(peek(), close)) break;
          continue;
        }
        if (is_punct(peek(), close)) {
          if (close == ')' && v.list.size() == 1)
            fail(peek(), "a parenthesised integer list needs a comma: write (" + std::to_string(v.list[0]) +
                             ",) or [" + std::to_string(v.list[0]) + "]");
          break;
        }
        fail_expected(peek(), std::string("',' or '") + close + "' in the integer list");
      }
      advance();
      return;
    }
    fail_expected(t, "a parameter value (an integer, a name or an integer list)");
  }

  void prim_call(PrimCall& c) {
    c.loc = loc(advance());  // "step"
    expect_punct('.', "after 'step'");
    const Token& p = expect_name("a primitive name after 'step.'");
    c.prim = p.text;
    c.prim_loc = loc(p);
    expect_punct('(', "after step.", c.prim);
    while (!is_punct(peek(), ')')) {
      const Token& k = peek();
      if (!(k.kind == TokKind::Name && is_punct(peek(1), '='))) {
        if (k.kind == TokKind::Int || (k.kind == TokKind::Name && !is_python_keyword(k.text)) ||
            is_punct(k, '[') || is_punct(k, '('))
          fail(k, "positional arguments are not STeP syntax: step." + c.prim +
                      " takes keyword arguments such as fn=f, b=1");
        fail_expected(k, "a keyword argument or ')'");
      }
      if (is_python_keyword(k.text)) fail_expected(k, "a parameter name");
      for (const auto& other : c.kwargs)
        if (other.key == k.text)
          fail(k, "step." + c.prim + " got " + std::string(k.text) + "= twice: each parameter is given at most once");
      Kwarg& kw = c.kwargs.emplace_back();
      kw.key = k.text;
      kw.loc = loc(k);
      advance();
      advance();  // '='
      kwval(kw.value);
      if (is_punct(peek(), ',')) {
        advance();
        continue;
      }
      if (!is_punct(peek(), ')')) fail_expected(peek(), "',' or ')' after the keyword argument");
    }
    advance();  // ')'
    if (!is_punct(peek(), '.')) fail_expected(peek(), "'.apply(...)' after step." + c.prim + "(...)");
    advance();
    expect_word("apply", "after step.", c.prim, "(...).");
    expect_punct('(', "after '.apply'");
    apply_arg(c.arg);
    expect_punct(')', "to close .apply(...)");
  }

  void apply_arg(ApplyArg& a) {
    const Token& t = peek();
    a.loc = loc(t);
    if (is_punct(t, ')')) fail(t, "apply needs an argument: a stream, or a tuple of streams");
    if (!is_punct(t, '(')) {
      ref(a.refs.emplace_back());
      return;
    }
    advance();
    ref(a.refs.emplace_back());
    if (is_punct(peek(), ')')) {
      advance();
      return;
    }
    if (!is_punct(peek(), ',')) fail_expected(peek(), "',' or ')' in the tuple");
    advance();
    if (is_punct(peek(), ')'))
      fail(peek(), "a one-element tuple is not STeP syntax: write the stream without parentheses");
    a.tuple = true;
    for (;;) {
      ref(a.refs.emplace_back());
      if (is_punct(peek(), ',')) {
        advance();
        if (is_punct(peek(), ')')) break;
        continue;
      }
      if (is_punct(peek(), ')')) break;
      fail_expected(peek(), "',' or ')' in the tuple");
    }
    advance();
  }

  struct IterItem {
    bool literal = false;
    std::string name;
    std::vector<std::string> names;
    std::vector<Location> locs;
    Location loc;
  };

  IterItem iter_item() {
    IterItem it;
    const Token& t = peek();
    it.loc = loc(t);
    if (is_punct(t, '[')) {
      advance();
      it.literal = true;
      if (is_punct(peek(), ']')) fail(peek(), "an empty list is not STeP syntax");
      for (;;) {
        const Token& n = expect_name("a name in the list");
        it.names.emplace_back(n.text);
        it.locs.push_back(loc(n));
        if (is_punct(peek(), ',')) {
          advance();
          if (is_punct(peek(), ']')) break;
          continue;
        }
        if (is_punct(peek(), ']')) break;
        fail_expected(peek(), "',' or ']' in the list");
      }
      advance();
      return it;
    }
    it.name = expect_name("a list name or a list [A, B, ...] in zip(...)").text;
    return it;
  }

  static bool arg_is(const PrimCall& c, const std::string& v) {
    return !c.arg.tuple && c.arg.refs.size() == 1 && c.arg.refs[0].kind == Ref::Kind::Name && c.arg.refs[0].name == v;
  }
  static bool fn_is(const PrimCall& c, const std::string& v) {
    for (const auto& k : c.kwargs)
      if (k.key == "fn" && k.value.kind == KwVal::Kind::Name && k.value.name == v) return true;
    return false;
  }

  void comprehension(Comprehension& comp) {
    advance();  // '['
    prim_call(comp.body);
    if (!is_name(peek(), "for")) fail_expected(peek(), "'for' in the list comprehension");
    advance();
    std::vector<std::pair<std::string, Location>> vars;
    auto var = [&]() {
      const Token& n = expect_name("a loop variable name");
      vars.emplace_back(n.text, loc(n));
    };
    if (is_punct(peek(), '(')) {
      advance();
      var();
      expect_punct(',', "between the two loop variables");
      var();
      expect_punct(')', "after the loop variables");
    } else {
      var();
      if (is_punct(peek(), ',')) {
        advance();
        var();
      }
    }
    if (!is_name(peek(), "in")) fail_expected(peek(), "'in' after the loop variable(s)");
    advance();
    const Token& it = peek();
    if (is_name(it, "zip") && is_punct(peek(1), '(')) {
      if (vars.size() != 2)
        fail(it, "iterating over zip(...) needs two loop variables: `for f, s in zip(FNS, LIST)`");
      advance();
      advance();
      IterItem a = iter_item();
      expect_punct(',', "between the two arguments of zip");
      IterItem b = iter_item();
      expect_punct(')', "to close zip(...)");
      comp.zipped = true;
      // Decide which loop variable is the fn: the one given as fn=, else the one that is not the apply argument,
      // else (neither) the first, as in `for f, s in zip(FNS, LIST)`.
      bool fns_first = true;
      if (fn_is(comp.body, vars[1].first) && !fn_is(comp.body, vars[0].first))
        fns_first = false;
      else if (!fn_is(comp.body, vars[0].first) && arg_is(comp.body, vars[0].first))
        fns_first = false;
      comp.fns_first = fns_first;
      const auto& fv = fns_first ? vars[0] : vars[1];
      const auto& sv = fns_first ? vars[1] : vars[0];
      const IterItem& fi = fns_first ? a : b;
      const IterItem& si = fns_first ? b : a;
      comp.fn_var = fv.first;
      comp.fn_var_loc = fv.second;
      comp.stream_var = sv.first;
      comp.stream_var_loc = sv.second;
      comp.fns_loc = fi.loc;
      if (fi.literal) {
        comp.fns_literal = fi.names;
        comp.fns_literal_locs = fi.locs;
      } else {
        comp.fns_name = fi.name;
      }
      comp.list_loc = si.loc;
      if (si.literal) {
        comp.list_literal = si.names;
        comp.list_literal_locs = si.locs;
      } else {
        comp.list_name = si.name;
      }
    } else {
      if (vars.size() != 1)
        fail(it, "two loop variables need zip(...): `for f, s in zip(FNS, LIST)`");
      if (is_punct(it, '['))
        fail(it, "a comprehension iterates over a stream-list name (or zip(FNS, LIST)), not over a list literal");
      comp.stream_var = vars[0].first;
      comp.stream_var_loc = vars[0].second;
      comp.list_loc = loc(it);
      comp.list_name = expect_name("a stream-list name after 'in'").text;
    }
    if (!is_punct(peek(), ']')) fail_expected(peek(), "']' to close the list comprehension");
    advance();
  }

  std::vector<Token> toks_;
  std::size_t pos_ = 0;
  const Token* last_ = nullptr;
  const LocationMap& map_;
  std::size_t max_statements_;
};

// `newlines`: the number of '\n' in `text` (the lexer's End token is on that line).
int last_impl_line(std::string_view text, int newlines) {
  int lines = newlines;
  if (!text.empty() && text.back() == '\n') --lines;
  return std::max(lines, 0);
}

}  // namespace

std::optional<Program> parse_impl(std::string_view text, const ParseOptions& options, Diagnostics& diags) {
  LocationMap map(&options.line_starts);
  if (text.size() > options.max_bytes) {
    Location l = map.at(0, 0);
    diags.push_back(make_error("L-SIZE",
                               "line " + std::to_string(l.line) + ": the program has " + std::to_string(text.size()) +
                                   " bytes, more than the limit of " + std::to_string(options.max_bytes),
                               l));
    return std::nullopt;
  }
  try {
    std::vector<Token> tokens = tokenize(text, map, options.max_nesting);
    // The nesting limit is a resource limit on the text (§15.3): it wins over grammar errors earlier on the
    // line, so a bracket bomb is always reported as P-NESTING at the first bracket beyond the limit.
    if (!tokens.empty() && tokens.back().kind == TokKind::Error && tokens.back().error->code == "P-NESTING") {
      diags.push_back(*tokens.back().error);
      return std::nullopt;
    }
    const int newlines = !tokens.empty() && tokens.back().kind == TokKind::End
                             ? tokens.back().line
                             : static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    Parser p(std::move(tokens), map, options.max_statements);
    Program prog = p.run();
    prog.last_line = map.at(last_impl_line(text, newlines), 0).line;
    return prog;
  } catch (const ParseFailure& f) {
    diags.push_back(f.diag);
    return std::nullopt;
  } catch (const std::exception& e) {  // e.g. std::bad_alloc: never escape the core
    diags.push_back(make_error("P-SYNTAX", std::string("the program could not be parsed: ") + e.what(), map.at(0, 0)));
    return std::nullopt;
  }
}

}  // namespace sf::step
