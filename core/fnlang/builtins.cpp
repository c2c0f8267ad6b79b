// Compiler: builtin calls (step-dialect §10.5).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "core/fnlang/compiler.hpp"

namespace sf::fnlang {

bool is_builtin_name(const std::string& n);

namespace {

struct Sig {
  std::vector<const char*> params;
  std::size_t required;
};

const std::map<std::string, Sig>& signatures() {
  static const std::map<std::string, Sig> t = [] {
    std::map<std::string, Sig> m;
    for (const char* u : {"abs", "cos", "erf", "exp", "log", "relu", "rsqrt", "sigmoid", "silu", "sin", "sqrt",
                          "square", "tanh", "gelu", "gelu_tanh", "zeros_like", "ones_like"}) {
      m[u] = {{"x"}, 1};
    }
    m["pow"] = {{"a", "b"}, 2};
    m["max"] = m["min"] = m["sum"] = m["mean"] = m["var"] = {{"x", "axis", "keepdim"}, 1};
    m["where"] = {{"c", "a", "b"}, 3};
    m["clamp"] = {{"x", "lo", "hi"}, 3};
    m["cumsum"] = m["softmax"] = m["argmax"] = {{"x", "axis"}, 1};
    m["topk_mask"] = {{"x", "k", "axis"}, 2};
    m["one_hot"] = {{"i", "n"}, 2};
    m["matmul"] = m["outer"] = {{"a", "b"}, 2};
    m["transpose"] = {{"x", "a0", "a1"}, 1};
    m["permute"] = {{"x", "dims"}, 2};
    m["reshape"] = m["broadcast"] = {{"x", "shape"}, 2};
    m["flatten"] = {{"x", "start", "end"}, 1};
    m["unsqueeze"] = m["squeeze"] = {{"x", "axis"}, 2};
    m["concat"] = m["stack"] = {{"xs", "axis"}, 1};
    m["chunk"] = {{"x", "n", "axis"}, 2};
    m["interleave"] = {{"a", "b", "axis"}, 2};
    m["arange"] = {{"start", "stop", "step"}, 1};
    m["zeros"] = m["ones"] = {{"shape"}, 1};
    m["full"] = {{"shape", "v"}, 2};
    return m;
  }();
  return t;
}

const std::map<std::string, ir::UnFn>& unary_fns() {
  using U = ir::UnFn;
  static const std::map<std::string, U> t = {
      {"abs", U::Abs},       {"cos", U::Cos},     {"erf", U::Erf},   {"exp", U::Exp},   {"log", U::Log},
      {"relu", U::Relu},     {"rsqrt", U::Rsqrt}, {"sigmoid", U::Sigmoid}, {"silu", U::Silu}, {"sin", U::Sin},
      {"sqrt", U::Sqrt},     {"square", U::Square}, {"tanh", U::Tanh}, {"gelu", U::Gelu}, {"gelu_tanh", U::GeluTanh}};
  return t;
}

}  // namespace

Compiler::CV Compiler::call(const Node& n) {
  const std::string& f = n.text;
  const BodyLoc at = n.at;
  const std::size_t nkw = n.kwnames.size();
  const std::size_t npos = n.kids.size() - nkw;
  auto T = [](TV t) { return CV{CV::K::Tensor, 0, std::move(t), {}, {}}; };
  if (f == "einsum") {
    if (nkw) fail("ARG", n.kwlocs[0], "einsum takes no keyword arguments");
    if (npos < 2) fail("ARG", at, "einsum needs a spec string and at least one tensor");
    CV spec = eval(n.kids[0]);
    if (spec.k != CV::K::Str) fail("ARG", at, "the first argument of einsum must be a string such as 'ij,jk->ik'");
    std::vector<TV> xs;
    for (std::size_t i = 1; i < npos; ++i) xs.push_back(tensor(eval(n.kids[i]), at, "an einsum operand"));
    return T(einsum(spec.s, xs, at));
  }
  auto sit = signatures().find(f);
  if (sit == signatures().end()) {
    fail("NAME", at, "unknown function '" + f + "'");
  }
  const Sig& sig = sit->second;
  if (npos > sig.params.size()) {
    fail("ARG", at, f + "() takes at most " + std::to_string(sig.params.size()) + " arguments, got " + std::to_string(npos));
  }
  std::vector<CV> a(sig.params.size());
  std::vector<bool> given(sig.params.size(), false);
  std::vector<BodyLoc> locs(sig.params.size(), at);
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    std::size_t slot = i;
    const Node& kid = ast_.nodes[static_cast<std::size_t>(n.kids[i])];
    BodyLoc l = kid.at;
    if (i >= npos) {
      const std::string& kw = n.kwnames[i - npos];
      l = n.kwlocs[i - npos];
      auto it = std::find_if(sig.params.begin(), sig.params.end(), [&](const char* p) { return kw == p; });
      if (it == sig.params.end()) fail("ARG", l, f + "() has no parameter '" + kw + "'");
      slot = static_cast<std::size_t>(it - sig.params.begin());
      if (given[slot]) fail("ARG", l, f + "() got parameter '" + kw + "' twice");
    }
    a[slot] = eval(n.kids[i]);
    given[slot] = true;
    locs[slot] = l;
  }
  for (std::size_t i = 0; i < sig.required; ++i) {
    if (!given[i]) fail("ARG", at, f + "() is missing the argument '" + std::string(sig.params[i]) + "'");
  }
  auto has = [&](std::size_t i) { return given[i] && a[i].k != CV::K::None; };
  auto X = [&](std::size_t i) { return tensor(a[i], locs[i], (f + "() argument '" + sig.params[i] + "'").c_str()); };
  auto I = [&](std::size_t i, std::int64_t dflt) { return has(i) ? need_int(a[i], locs[i], sig.params[i]) : dflt; };

  if (auto u = unary_fns().find(f); u != unary_fns().end()) return T(unary(u->second, X(0), at));
  if (f == "pow") return T(binary(ir::BinFn::Pow, X(0), X(1), at, "pow"));
  if (f == "where") return T(ternary(ir::TerFn::Where, X(0), X(1), X(2), at, "where"));
  if (f == "clamp") return T(ternary(ir::TerFn::Clamp, X(0), X(1), X(2), at, "clamp"));
  if (f == "max" || f == "min") {
    const bool elementwise = npos == 2 && !given[2] && a[1].k == CV::K::Tensor;
    if (elementwise) return T(binary(f == "max" ? ir::BinFn::Max : ir::BinFn::Min, X(0), X(1), at, f));
  }
  if (f == "max" || f == "min" || f == "sum" || f == "mean" || f == "var") {
    static const std::map<std::string, ir::RedFn> red = {{"max", ir::RedFn::Max}, {"min", ir::RedFn::Min},
                                                         {"sum", ir::RedFn::Sum}, {"mean", ir::RedFn::Mean},
                                                         {"var", ir::RedFn::Var}};
    const bool keep = I(2, 0) != 0;
    return T(reduce(red.at(f), X(0), given[1] ? a[1] : CV{}, keep, at));
  }
  if (f == "zeros_like" || f == "ones_like") {
    TV x = X(0);
    return T(constant(x.shape, std::vector<double>(static_cast<std::size_t>(numel(x.shape)), f == "ones_like" ? 1.0 : 0.0), at));
  }
  if (f == "zeros" || f == "ones") {
    Shape s = need_shape(a[0], locs[0], "shape");
    check_shape(s, at);
    return T(constant(s, std::vector<double>(static_cast<std::size_t>(numel(s)), f == "ones" ? 1.0 : 0.0), at));
  }
  if (f == "full") {
    Shape s = need_shape(a[0], locs[0], "shape");
    TV v = X(1);
    if (!v.shape.empty()) fail("ARG", locs[1], "full() needs a scalar value");
    return T(broadcast_to(v, s, at));
  }
  if (f == "arange") {
    std::int64_t start = 0, stop = 0;
    if (has(1)) {
      start = I(0, 0);
      stop = I(1, 0);
    } else {
      stop = I(0, 0);
    }
    const std::int64_t step = I(2, 1);
    if (step == 0) fail("ARG", locs[2], "arange() step must not be 0");
    std::int64_t len = 0;
    const long double q = (static_cast<long double>(stop) - start) / step;
    if (q > 0) len = static_cast<std::int64_t>(std::ceil(q));
    check_shape({len}, at);
    std::vector<double> v(static_cast<std::size_t>(len));
    for (std::int64_t i = 0; i < len; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(start + i * step);
    return T(constant({len}, v, at));
  }
  if (f == "matmul") return T(matmul(X(0), X(1), at));
  if (f == "outer") {
    TV x = X(0), y = X(1);
    if (x.shape.size() != 1 || y.shape.size() != 1) {
      fail("SHAPE", at, "outer() needs two 1-D tensors, got " + format_shape(x.shape) + " and " + format_shape(y.shape));
    }
    return T(binary(ir::BinFn::Mul, reshape(x, {x.shape[0], 1}), reshape(y, {1, y.shape[0]}), at, "outer"));
  }
  if (f == "one_hot") {
    TV x = X(0);
    const std::int64_t depth = I(1, 0);
    if (depth < 1) fail("ARG", locs[1], "one_hot() needs n >= 1");
    Shape out = x.shape;
    out.push_back(depth);
    check_shape(out, at);
    ir::Op op;
    op.kind = ir::OpKind::OneHot;
    op.in[0] = x.slot;
    op.k = depth;
    op.len = numel(x.shape);
    op.out = new_slot(out, at);
    op.n = numel(out);
    op.loc = file_loc(at);
    TV r{op.out, out};
    push(std::move(op));
    return T(r);
  }
  if (f == "cumsum" || f == "softmax" || f == "argmax" || f == "topk_mask") {
    TV x = X(0);
    const std::size_t axis_i = f == "topk_mask" ? 2 : 1;
    if (x.shape.empty()) fail("ARG", at, f + "() needs a tensor of rank >= 1");
    const int ax = norm_axis(I(axis_i, -1), x.shape.size(), locs[axis_i]);
    if (f == "cumsum") return T(axis_op(ir::OpKind::Cumsum, 0, x, ax, x.shape, at));
    if (f == "softmax") return T(axis_op(ir::OpKind::Softmax, 0, x, ax, x.shape, at));
    if (f == "argmax") {
      Shape out = x.shape;
      out.erase(out.begin() + ax);
      return T(axis_op(ir::OpKind::Argmax, 0, x, ax, out, at, 0, "argmax"));
    }
    const std::int64_t k = I(1, 0);
    const std::int64_t len = x.shape[static_cast<std::size_t>(ax)];
    if (k < 0 || k > len) {
      fail("ARG", locs[1], "topk_mask() k = " + std::to_string(k) + " must be between 0 and the axis size " + std::to_string(len));
    }
    return T(axis_op(ir::OpKind::TopK, 0, x, ax, x.shape, at, k, "topk_mask(k=" + std::to_string(k) + ")"));
  }
  if (f == "concat" || f == "stack") {
    if (a[0].k != CV::K::List || a[0].items.empty()) fail("ARG", locs[0], f + "() needs a non-empty list of tensors");
    std::vector<TV> xs;
    for (const auto& it : a[0].items) xs.push_back(tensor(it, locs[0], (f + "() element").c_str()));
    const std::size_t r = xs[0].shape.size();
    if (f == "stack") {
      const int ax = norm_axis(I(1, 0), r, locs[1], true);
      const Shape first = xs[0].shape;
      for (auto& x : xs) {
        if (x.shape != first) {
          fail("SHAPE", at, "stack() needs equal shapes, got " + format_shape(first) + " and " + format_shape(x.shape));
        }
        Shape s = x.shape;
        s.insert(s.begin() + ax, 1);
        check_shape(s, at);
        x = reshape(x, s);
      }
      return T(concat(xs, ax, at));
    }
    if (r == 0) fail("ARG", at, "concat() cannot join rank-0 tensors (use stack)");
    return T(concat(xs, norm_axis(I(1, 0), r, locs[1]), at));
  }
  return call_shape_op(f, a, locs, at);
}

}  // namespace sf::fnlang
