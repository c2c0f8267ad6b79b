// The step-v2 impl parser (docs/step25.md, "Program syntax"): a small lexer (names, integers, floats, the
// punctuation = , . ( ) [ ] * / -, # comments, brackets joining lines) and a recursive-descent parser over
// logical lines. Locations go through step::LocationMap exactly as v1's parser.
#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/step/lexer.hpp"  // LocationMap
#include "core/step2/program.hpp"

namespace sf::step2 {
namespace {

enum class Tk { Name, Int, Float, Punct, Newline, End };
struct Tok {
  Tk kind = Tk::End;
  std::string_view text;
  std::int64_t value = 0;
  double number = 0;
  int line = 0, col = 0;
};

struct Failure {
  Diagnostic diag;
};

constexpr std::int64_t kMaxInt = 2147483647;
constexpr int kMaxNesting = 16;

bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  Lexer(std::string_view s, const step::LocationMap& map) : s_(s), map_(map) {}

  std::vector<Tok> run() {
    std::vector<Tok> out;
    int depth = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '\n') {
        if (depth == 0 && !out.empty() && out.back().kind != Tk::Newline) out.push_back(tok(Tk::Newline, 1));
        ++i_, ++line_, col0_ = i_;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
        continue;
      }
      if (name_start(c)) {
        std::size_t b = i_;
        while (i_ < s_.size() && (name_start(s_[i_]) || digit(s_[i_]))) ++i_;
        if (i_ - b > 64) fail(b, "a name longer than 64 characters");
        out.push_back(at(Tk::Name, b, i_ - b));
        continue;
      }
      if (digit(c)) {
        out.push_back(number());
        continue;
      }
      if (std::string_view("=,.()[]*/-").find(c) != std::string_view::npos) {
        if (c == '(' || c == '[') {
          if (++depth > kMaxNesting) fail(i_, "brackets nested deeper than " + std::to_string(kMaxNesting));
        }
        if (c == ')' || c == ']') depth = std::max(0, depth - 1);
        out.push_back(at(Tk::Punct, i_, 1));
        ++i_;
        continue;
      }
      fail(i_, std::string("unexpected character '") + (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f ? std::string("\\x") + "??" : std::string(1, c)) +
                   "': only names, numbers, = , . ( ) [ ] * / - and # comments may appear");
    }
    if (!out.empty() && out.back().kind != Tk::Newline) out.push_back(tok(Tk::Newline, 0));
    out.push_back(tok(Tk::End, 0));
    return out;
  }

 private:
  Tok tok(Tk k, std::size_t len) { return at(k, i_, len); }
  Tok at(Tk k, std::size_t b, std::size_t len) {
    Tok t;
    t.kind = k;
    t.text = s_.substr(b, len);
    t.line = line_;
    t.col = static_cast<int>(b - col0_);
    return t;
  }
  [[noreturn]] void fail(std::size_t b, const std::string& what) {
    Location l = map_.at(line_, static_cast<int>(b - col0_));
    throw Failure{make_error("P-SYNTAX", "line " + std::to_string(l.line) + ": " + what, l)};
  }
  Tok number() {
    std::size_t b = i_;
    while (i_ < s_.size() && digit(s_[i_])) ++i_;
    bool is_float = false;
    if (i_ + 1 < s_.size() && s_[i_] == '.' && digit(s_[i_ + 1])) {
      is_float = true;
      ++i_;
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      std::size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && digit(s_[j])) {
        is_float = true;
        i_ = j;
        while (i_ < s_.size() && digit(s_[i_])) ++i_;
      }
    }
    if (i_ < s_.size() && name_start(s_[i_])) fail(i_, "a number must not run into a name");
    if (i_ - b > 40) fail(b, "a number longer than 40 characters");
    Tok t = at(is_float ? Tk::Float : Tk::Int, b, i_ - b);
    std::string txt(t.text);
    if (is_float) {
      errno = 0;
      t.number = std::strtod(txt.c_str(), nullptr);
      if (errno != 0) fail(b, "the float " + txt + " is out of range");
    } else {
      if (txt.size() > 10 || std::strtoll(txt.c_str(), nullptr, 10) > kMaxInt) {
        Location l = map_.at(line_, static_cast<int>(b - col0_));
        throw Failure{make_error("P-INT", "line " + std::to_string(l.line) + ": the integer " + txt +
                                              " is larger than 2147483647", l)};
      }
      t.value = std::strtoll(txt.c_str(), nullptr, 10);
      t.number = static_cast<double>(t.value);
    }
    return t;
  }

  std::string_view s_;
  const step::LocationMap& map_;
  std::size_t i_ = 0, col0_ = 0;
  int line_ = 0;
};

class Parser {
 public:
  Parser(std::vector<Tok> t, const step::LocationMap& map, const ParseOptions& opt)
      : t_(std::move(t)), map_(map), opt_(opt) {}

  Program run() {
    Program p;
    skip_newlines();
    while (peek().kind != Tk::End) {
      if (p.stmts.size() >= opt_.max_statements) {
        Location l = loc(peek());
        throw Failure{make_error("L-STATEMENTS", "line " + std::to_string(l.line) + ": the program has more than " +
                                                     std::to_string(opt_.max_statements) + " statements (the limit)",
                                 l)};
      }
      p.stmts.push_back(statement());
      skip_newlines();
    }
    return p;
  }

 private:
  const Tok& peek(std::size_t k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  const Tok& advance() {
    const Tok& t = peek();
    if (pos_ + 1 < t_.size()) ++pos_;
    return t;
  }
  Location loc(const Tok& t) const { return map_.at(t.line, t.col); }
  bool punct(const Tok& t, char c) const { return t.kind == Tk::Punct && t.text[0] == c; }
  void skip_newlines() {
    while (peek().kind == Tk::Newline) advance();
  }
  static std::string show(const Tok& t) {
    switch (t.kind) {
      case Tk::Newline: return "the end of the line";
      case Tk::End: return "the end of the program";
      default: return "'" + std::string(t.text) + "'";
    }
  }
  [[noreturn]] void fail(const Tok& at, const std::string& expected) {
    Location l = loc(at);
    throw Failure{make_error("P-SYNTAX", "line " + std::to_string(l.line) + ": expected " + expected + ", found " +
                                             show(at),
                             l)};
  }
  const Tok& expect(char c, const std::string& what) {
    if (!punct(peek(), c)) fail(peek(), what);
    return advance();
  }
  const Tok& expect_name(const std::string& what) {
    if (peek().kind != Tk::Name) fail(peek(), what);
    return advance();
  }

  Statement statement() {
    Statement s;
    const Tok& first = expect_name("a target name at the start of a statement");
    s.loc = loc(first);
    s.line = s.loc.line;
    s.targets.emplace_back(first.text);
    s.target_locs.push_back(loc(first));
    while (punct(peek(), ',')) {
      advance();
      const Tok& n = expect_name("another target name after ','");
      s.targets.emplace_back(n.text);
      s.target_locs.push_back(loc(n));
    }
    expect('=', "'=' after the target(s)");
    const Tok& st = peek();
    if (st.kind != Tk::Name || st.text != "step") fail(st, "'step' (every statement is targets = step.OP(...).apply(...))");
    advance();
    expect('.', "'.' after 'step'");
    const Tok& op = expect_name("an operator name after 'step.'");
    s.op = std::string(op.text);
    s.op_loc = loc(op);
    expect('(', "'(' after step." + s.op);
    if (!punct(peek(), ')')) {
      for (;;) {
        s.kwargs.push_back(kwarg());
        if (punct(peek(), ',')) {
          advance();
          if (punct(peek(), ')')) break;  // trailing comma
          continue;
        }
        break;
      }
    }
    expect(')', "',' or ')' in the kwargs of step." + s.op);
    expect('.', "'.apply(...)' after step." + s.op + "(...)");
    const Tok& ap = expect_name("'apply'");
    if (ap.text != "apply") fail(ap, "'apply'");
    expect('(', "'(' after apply");
    if (punct(peek(), '(') || punct(peek(), '[')) {
      char close = punct(peek(), '(') ? ')' : ']';
      s.form = close == ')' ? Statement::ArgForm::Tuple : Statement::ArgForm::List;
      advance();
      s.args.push_back(ref());
      while (punct(peek(), ',')) {
        advance();
        if (punct(peek(), close)) break;
        s.args.push_back(ref());
        if (s.args.size() > opt_.max_list) fail(peek(), "at most " + std::to_string(opt_.max_list) + " arguments");
      }
      expect(close, std::string("',' or '") + close + "' in the argument list");
      if (s.form == Statement::ArgForm::Tuple && s.args.size() < 2)
        fail(peek(), "a second stream: a tuple argument needs at least two streams (write .apply(x) for one)");
    } else {
      s.args.push_back(ref());
    }
    expect(')', "')' closing apply(...)");
    if (peek().kind != Tk::Newline && peek().kind != Tk::End) fail(peek(), "the end of the statement");
    return s;
  }

  Ref ref() {
    const Tok& n = expect_name("a stream name");
    Ref r;
    r.name = std::string(n.text);
    r.loc = loc(n);
    if (punct(peek(), '[')) {
      advance();
      const Tok& i = peek();
      if (i.kind != Tk::Int) fail(i, "a port index (an integer)");
      advance();
      r.index = static_cast<int>(i.value);
      expect(']', "']' after the port index");
    }
    return r;
  }

  Kwarg kwarg() {
    const Tok& n = expect_name("a kwarg name");
    Kwarg k;
    k.name = std::string(n.text);
    k.loc = loc(n);
    expect('=', "'=' after the kwarg name '" + k.name + "'");
    k.value = value(k.name);
    return k;
  }

  KwValue value(const std::string& kw) {
    KwValue v;
    const Tok& t = peek();
    v.loc = loc(t);
    std::size_t begin = pos_;
    if (punct(t, '[')) {
      advance();
      v.kind = KwValue::Kind::List;
      if (!punct(peek(), ']')) {
        v.list.push_back(dim());
        while (punct(peek(), ',')) {
          advance();
          if (punct(peek(), ']')) break;
          v.list.push_back(dim());
          if (v.list.size() > opt_.max_list)
            fail(peek(), "at most " + std::to_string(opt_.max_list) + " entries in a dim list");
        }
      }
      expect(']', "',' or ']' in the dim list of " + kw);
    } else if (t.kind == Tk::Name && t.text == "Tile" && punct(peek(1), '[')) {
      advance();
      advance();
      v.kind = KwValue::Kind::Tile;
      v.list.push_back(dim());
      expect(',', "',' between the two dims of Tile[r, c]");
      v.list.push_back(dim());
      expect(']', "']' closing Tile[r, c]");
    } else if (t.kind == Tk::Float || (punct(t, '-') && (peek(1).kind == Tk::Float || peek(1).kind == Tk::Int))) {
      bool neg = punct(t, '-');
      if (neg) advance();
      const Tok& f = advance();
      if (kw != "c")
        throw Failure{make_error("P-SYNTAX", "line " + std::to_string(v.loc.line) + ": " +
                                                 (neg ? "a negative number" : "a float") + " is only allowed for c= (" +
                                                 kw + " takes integers or dims)",
                                 v.loc)};
      v.kind = KwValue::Kind::Float;
      v.number = neg ? -f.number : f.number;
      v.negative = neg;
    } else {
      v.kind = KwValue::Kind::Dim;
      bool single_name = peek().kind == Tk::Name;
      bool single_int = peek().kind == Tk::Int;
      v.dim = dim();
      if (pos_ == begin + 1 && single_name) v.name = std::string(t_[begin].text);
      if (pos_ == begin + 1 && single_int) v.number = static_cast<double>(t_[begin].value);
    }
    for (std::size_t i = begin; i < pos_; ++i) {
      v.text += t_[i].text;
      if (t_[i].text == ",") v.text += ' ';
    }
    return v;
  }

  step::Dim term() {
    const Tok& t = peek();
    if (t.kind == Tk::Int) {
      advance();
      return step::Dim::constant(t.value);
    }
    if (t.kind == Tk::Name) {
      advance();
      return step::Dim::symbol(std::string(t.text));
    }
    if (t.kind == Tk::Float) {
      Location l = loc(t);
      throw Failure{make_error("P-SYNTAX", "line " + std::to_string(l.line) + ": a float (" + std::string(t.text) +
                                               ") is only allowed for c=; dims and integer kwargs take integers "
                                               "and size symbols", l)};
    }
    fail(t, "a dim (an integer or a size symbol)");
  }

  step::Dim dim() {
    step::Dim d = term();
    int terms = 1;
    while (punct(peek(), '*') || punct(peek(), '/')) {
      bool mul = punct(advance(), '*');
      if (++terms > 16) fail(peek(), "at most 16 factors in a dim");
      step::Dim r = term();
      if (!mul && r.is_constant() && r.num() == 0) fail(peek(), "a non-zero divisor");
      d = mul ? d * r : d / r;
    }
    return d;
  }

  std::vector<Tok> t_;
  const step::LocationMap& map_;
  const ParseOptions& opt_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<Program> parse_program(std::string_view text, const ParseOptions& opt, Diagnostics& diags) {
  step::LocationMap map(&opt.line_starts);
  if (text.size() > opt.max_bytes) {
    diags.push_back(make_error("L-SIZE", "the program has " + std::to_string(text.size()) + " bytes; the limit is " +
                                             std::to_string(opt.max_bytes),
                               map.at(0, 0)));
    return std::nullopt;
  }
  try {
    Lexer lx(text, map);
    Parser p(lx.run(), map, opt);
    return p.run();
  } catch (const Failure& f) {
    diags.push_back(f.diag);
    return std::nullopt;
  }
}

}  // namespace sf::step2
