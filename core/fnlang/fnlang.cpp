// Entry point: lex, parse and compile a fn body; convert internal errors into diagnostics.
#include "core/fnlang/fnlang.hpp"

#include "core/fnlang/compiler.hpp"
#include "core/fnlang/lexer.hpp"
#include "core/fnlang/parser.hpp"

namespace sf::fnlang {

sf::Location map_body_loc(const CompileOptions& opt, BodyLoc at) {
  const auto& ls = opt.line_starts;
  if (ls.empty()) return {at.line + 1, at.col + 1};
  if (at.line < static_cast<int>(ls.size())) {
    const auto& b = ls[static_cast<std::size_t>(at.line)];
    return {b.line, b.column + at.col};
  }
  const auto& b = ls.back();
  // Past the last known line (e.g. "end of body"): continue counting from the last start.
  return {b.line + at.line - static_cast<int>(ls.size()) + 1, b.column + at.col};
}

std::int64_t Program::flops() const {
  std::int64_t total = 0;
  for (const auto& op : m_.ops) total += op.flops;
  return total;
}

std::shared_ptr<const Program> compile(std::string_view body, const CompileOptions& opt, sf::Diagnostics& diags) {
  try {
    Ast ast = Parser(Lexer(body).run()).run();
    ir::Module m = Compiler(opt, ast).run();
    return std::make_shared<const Program>(std::move(m));
  } catch (const FnError& e) {
    const sf::Location loc = map_body_loc(opt, e.at);
    const std::string code = e.family ? (opt.mode == Mode::Fn ? "X-FN-" : "X-REF-") + e.code : e.code;
    const std::string prefix = opt.mode == Mode::Fn ? "fn " + opt.fn_name + " line " + std::to_string(loc.line) + ": "
                                                    : "reference line " + std::to_string(loc.line) + ": ";
    diags.push_back(make_error(code, prefix + e.msg, loc));
  } catch (const std::bad_alloc&) {
    diags.push_back(make_error(opt.mode == Mode::Fn ? "X-FN-LIMIT" : "X-REF-LIMIT", "fn body too large to compile"));
  }
  return nullptr;
}

}  // namespace sf::fnlang
