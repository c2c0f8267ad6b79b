// Compiler: statements, names, operators and indexing (step-dialect §10.3, §10.4).
#include "core/fnlang/compiler.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/fnlang/parser.hpp"

namespace sf::fnlang {

namespace {

const std::set<std::string>& builtin_names() {
  static const std::set<std::string> s = {
      "abs",     "cos",     "erf",       "exp",       "log",       "relu",     "rsqrt",   "sigmoid", "silu",
      "sin",     "sqrt",    "square",    "tanh",      "gelu",      "gelu_tanh", "pow",     "max",     "min",
      "where",   "clamp",   "sum",       "mean",      "var",       "cumsum",   "softmax", "topk_mask", "argmax",
      "one_hot", "matmul",  "outer",     "einsum",    "transpose", "permute",  "reshape", "flatten", "unsqueeze",
      "squeeze", "broadcast", "concat",  "stack",     "chunk",     "interleave", "arange", "zeros",  "ones",
      "full",    "zeros_like", "ones_like"};
  return s;
}

bool is_in_or_state(const std::string& n) {
  std::size_t p = 0;
  if (n.rfind("in", 0) == 0) p = 2;
  else if (n.rfind("state", 0) == 0) p = 5;
  else return false;
  if (p == n.size()) return false;
  return std::all_of(n.begin() + static_cast<std::ptrdiff_t>(p), n.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool checked(std::int64_t& out, std::int64_t a, std::int64_t b, char op) {
  switch (op) {
    case '+': return !__builtin_add_overflow(a, b, &out);
    case '-': return !__builtin_sub_overflow(a, b, &out);
    default: return !__builtin_mul_overflow(a, b, &out);
  }
}

}  // namespace

bool is_builtin_name(const std::string& n) { return builtin_names().count(n) > 0; }

ir::Module Compiler::run() {
  m_.reference = opt_.mode == Mode::Reference;
  m_.code_prefix = m_.reference ? "X-REF-" : "X-FN-";
  for (std::size_t i = 0; i < opt_.args.size(); ++i) {
    const auto& a = opt_.args[i];
    int slot = new_slot(a.shape, {});
    m_.slot_defs[static_cast<std::size_t>(slot)].arg = static_cast<int>(i);
    written_[static_cast<std::size_t>(slot)] = true;
    arg_index_[a.name] = slot;
    m_.arg_slots.push_back(slot);
    m_.arg_shapes.push_back(a.shape);
  }
  const auto& stmts = ast_.stmts;
  if (stmts.empty()) fail("RETURN", {}, "the body is empty; it must end with a return statement");
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    const Stmt& s = stmts[i];
    if (!s.is_return) {
      assign(s);
      if (i + 1 == stmts.size()) fail("RETURN", s.at, "the body must end with a return statement");
      continue;
    }
    if (i + 1 != stmts.size()) fail("RETURN", stmts[i + 1].at, "statement after the return (return must be the last statement)");
    const auto& want = opt_.expected_outputs;
    if (!want.empty() && want.size() != s.exprs.size()) {
      fail("RETURN", s.at, "returns " + std::to_string(s.exprs.size()) + " value(s) but " +
                               std::to_string(want.size()) + " output field(s) are declared");
    }
    for (std::size_t j = 0; j < s.exprs.size(); ++j) {
      CV v = eval(s.exprs[j]);
      TV t = tensor(v, s.at, "a returned value");
      if (!want.empty() && t.shape != want[j]) {
        fail("SHAPE", s.at, "returns shape " + format_shape(t.shape) + " for output field " + std::to_string(j) +
                                ", declared " + format_shape(want[j]));
      }
      m_.out_slots.push_back(t.slot);
      m_.out_shapes.push_back(t.shape);
    }
  }
  return std::move(m_);
}

void Compiler::check_target(const std::string& name, BodyLoc at) {
  if (env_.count(name)) fail("REDEF", at, "'" + name + "' is already assigned; each name is assigned once");
  if (is_builtin_name(name) || name == "inf" || name == "pi") {
    fail("REDEF", at, "'" + name + "' is a builtin and cannot be assigned");
  }
  if (is_in_or_state(name)) fail("REDEF", at, "'" + name + "' is an input/state name and cannot be assigned");
  if (arg_index_.count(name)) fail("REDEF", at, "'" + name + "' is an argument of the body and cannot be assigned");
  if (opt_.sizes.count(name)) fail("REDEF", at, "'" + name + "' is a size symbol and cannot be assigned");
}

void Compiler::assign(const Stmt& s) {
  for (std::size_t i = 0; i < s.targets.size(); ++i) {
    check_target(s.targets[i], s.target_locs[i]);
    for (std::size_t j = 0; j < i; ++j) {
      if (s.targets[j] == s.targets[i]) fail("REDEF", s.target_locs[i], "'" + s.targets[i] + "' is assigned twice");
    }
  }
  CV v = eval(s.exprs[0]);
  if (s.targets.size() == 1) {
    if (v.k == CV::K::Tuple) {
      fail("ARG", s.at, "the value is a tuple of " + std::to_string(v.items.size()) +
                            " tensors; destructure it with as many names (a, b = chunk(...))");
    }
    env_[s.targets[0]] = std::move(v);
    return;
  }
  if (v.k != CV::K::Tuple) fail("ARG", s.at, "only a tuple (from chunk) can be destructured into several names");
  if (v.items.size() != s.targets.size()) {
    fail("ARG", s.at, "cannot unpack " + std::to_string(v.items.size()) + " values into " +
                          std::to_string(s.targets.size()) + " names");
  }
  for (std::size_t i = 0; i < s.targets.size(); ++i) env_[s.targets[i]] = v.items[i];
}

Compiler::CV Compiler::eval_name(const Node& n) {
  const std::string& id = n.text;
  if (auto it = env_.find(id); it != env_.end()) return it->second;
  if (auto it = arg_index_.find(id); it != arg_index_.end()) {
    return CV{CV::K::Tensor, 0, TV{it->second, m_.arg_shapes[static_cast<std::size_t>(m_.slot_defs[static_cast<std::size_t>(it->second)].arg)]}, {}, {}};
  }
  if (auto it = opt_.sizes.find(id); it != opt_.sizes.end()) return CV{CV::K::Int, it->second, {}, {}, {}};
  if (id == "True" || id == "False") return CV{CV::K::Bool, id == "True" ? 1 : 0, {}, {}, {}};
  if (id == "None") return CV{};
  if (id == "inf") return CV{CV::K::Tensor, 0, scalar(INFINITY, n.at), {}, {}};
  if (id == "pi") return CV{CV::K::Tensor, 0, scalar(M_PI, n.at), {}, {}};
  if (is_builtin_name(id)) fail("ARG", n.at, "'" + id + "' is a builtin function; call it as " + id + "(...)");
  if (m_.reference) {
    fail("NAME", n.at, "unknown name '" + id + "' (the reference sees the task inputs, parameters and sizes)");
  }
  fail("NAME", n.at, "unknown name '" + id + "' (a fn sees in0.., state0.., the task's parameters and sizes; "
                     "stream names are not visible)");
}

Compiler::CV Compiler::eval(int idx) {
  const Node& n = ast_.nodes[static_cast<std::size_t>(idx)];
  switch (n.kind) {
    case NodeKind::Int: return CV{CV::K::Int, n.ival, {}, {}, {}};
    case NodeKind::Float: return CV{CV::K::Tensor, 0, scalar(n.num, n.at), {}, {}};
    case NodeKind::Str: return CV{CV::K::Str, 0, {}, {}, n.text};
    case NodeKind::Name: return eval_name(n);
    case NodeKind::Unary: {
      CV v = eval(n.kids[0]);
      if (n.text == "+") {
        if (v.k != CV::K::Int) tensor(v, n.at, "the operand of unary +");
        return v;
      }
      if (v.k == CV::K::Int) {
        if (v.i == INT64_MIN) fail("ARG", n.at, "integer overflow");
        v.i = -v.i;
        return v;
      }
      return CV{CV::K::Tensor, 0, unary(ir::UnFn::Neg, tensor(v, n.at, "the operand of unary -"), n.at), {}, {}};
    }
    case NodeKind::Binary:
    case NodeKind::Compare: return eval_binary(n);
    case NodeKind::Call: return call(n);
    case NodeKind::Subscript: return eval_subscript(n);
    case NodeKind::List: {
      CV l{CV::K::List, 0, {}, {}, {}};
      for (int k : n.kids) l.items.push_back(eval(k));
      return l;
    }
    case NodeKind::Slice:
    case NodeKind::Ellipsis: fail("SYNTAX", n.at, "slices and '...' are only allowed inside [ ]");
  }
  fail("SYNTAX", n.at, "unsupported expression");
}

Compiler::CV Compiler::eval_binary(const Node& n) {
  CV a = eval(n.kids[0]);
  CV b = eval(n.kids[1]);
  const std::string& op = n.text;
  if (a.k == CV::K::Int && b.k == CV::K::Int && (op == "+" || op == "-" || op == "*" || op == "//")) {
    std::int64_t r = 0;
    if (op == "//") {
      if (b.i == 0) fail("ARG", n.at, "integer division by zero");
      if (a.i == INT64_MIN && b.i == -1) fail("ARG", n.at, "integer overflow");
      r = a.i / b.i;
      if ((a.i % b.i != 0) && ((a.i < 0) != (b.i < 0))) --r;  // floor
    } else if (!checked(r, a.i, b.i, op[0])) {
      fail("ARG", n.at, "integer overflow");
    }
    return CV{CV::K::Int, r, {}, {}, {}};
  }
  const std::string what = "'" + op + "'";
  TV ta = tensor(a, n.at, ("the left operand of " + what).c_str());
  TV tb = tensor(b, n.at, ("the right operand of " + what).c_str());
  using B = ir::BinFn;
  static const std::pair<const char*, B> ops[] = {
      {"+", B::Add}, {"-", B::Sub}, {"*", B::Mul},  {"/", B::Div}, {"//", B::FloorDiv}, {"**", B::Pow}, {">", B::Gt},
      {">=", B::Ge}, {"<", B::Lt},  {"<=", B::Le},  {"==", B::Eq}, {"!=", B::Ne}};
  if (op == "@") return CV{CV::K::Tensor, 0, matmul(ta, tb, n.at), {}, {}};
  for (const auto& [name, f] : ops) {
    if (op == name) {
      const std::string w = n.kind == NodeKind::Compare ? "comparison " + op : what;
      return CV{CV::K::Tensor, 0, binary(f, ta, tb, n.at, w), {}, {}};
    }
  }
  fail("SYNTAX", n.at, "unknown operator '" + op + "'");
}

Compiler::CV Compiler::eval_subscript(const Node& n) {
  CV base = eval(n.kids[0]);
  if (base.k != CV::K::Tensor) fail("ARG", n.at, "only tensors can be indexed");
  const TV& x = base.t;
  const std::size_t r = x.shape.size();
  std::vector<int> items(n.kids.begin() + 1, n.kids.end());
  int ell = -1;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (ast_.nodes[static_cast<std::size_t>(items[i])].kind == NodeKind::Ellipsis) {
      if (ell >= 0) fail("ARG", n.at, "an index can contain at most one '...'");
      ell = static_cast<int>(i);
    }
  }
  const std::size_t used = items.size() - (ell >= 0 ? 1 : 0);
  if (used > r) {
    fail("SHAPE", n.at, "too many indices (" + std::to_string(used) + ") for a tensor of shape " + format_shape(x.shape));
  }
  // Map each index item to its axis.
  std::vector<int> axis_item(r, -1);
  std::size_t ax = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (static_cast<int>(i) == ell) {
      ax += r - used;
      continue;
    }
    axis_item[ax++] = items[i];
  }
  const ir::Dims cs = contiguous_strides(x.shape);
  Shape out;
  ir::Dims st{};
  std::int64_t off = 0;
  for (std::size_t a = 0; a < r; ++a) {
    const std::int64_t size = x.shape[a];
    const int it = axis_item[a];
    if (it < 0) {
      st[out.size()] = cs[a];
      out.push_back(size);
      continue;
    }
    const Node& in = ast_.nodes[static_cast<std::size_t>(it)];
    if (in.kind != NodeKind::Slice) {
      std::int64_t i = need_int(eval(it), in.at, "an index");
      if (i < -size || i >= size) {
        fail("SHAPE", in.at, "index " + std::to_string(i) + " is out of range for axis " + std::to_string(a) +
                                 " of size " + std::to_string(size));
      }
      if (i < 0) i += size;
      off += i * cs[a];
      continue;
    }
    auto part = [&](int k, std::int64_t dflt) {
      return k < 0 ? dflt : need_int(eval(k), ast_.nodes[static_cast<std::size_t>(k)].at, "a slice bound");
    };
    const std::int64_t step = part(in.kids[2], 1);
    if (step < 1) fail("ARG", in.at, "slice step must be at least 1");
    auto clip = [&](std::int64_t v) {
      if (v < 0) v += size;
      return std::clamp<std::int64_t>(v, 0, size);
    };
    const std::int64_t start = in.kids[0] < 0 ? 0 : clip(part(in.kids[0], 0));
    const std::int64_t stop = in.kids[1] < 0 ? size : clip(part(in.kids[1], size));
    const std::int64_t len = stop > start ? (stop - start + step - 1) / step : 0;
    off += start * cs[a];
    st[out.size()] = cs[a] * step;
    out.push_back(len);
  }
  return CV{CV::K::Tensor, 0, gather(x, out, off, st, n.at), {}, {}};
}

}  // namespace sf::fnlang
