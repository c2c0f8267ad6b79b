// Compiler helpers: diagnostics, slots, constants and the emission of ops with resolved shapes.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/fnlang/compiler.hpp"

namespace sf::fnlang {

namespace {
constexpr std::int64_t kMaxElems = 4'000'000;     // per tensor (L-ELEMENTS per stream)
constexpr std::int64_t kMaxTotal = 64'000'000;    // per program
}  // namespace

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto d : s) {
    if (d <= 0) return 0;
    if (n > (INT64_MAX / 4) / d) return INT64_MAX / 4;  // saturate; callers reject this size
    n *= d;
  }
  return n;
}

ir::Dims contiguous_strides(const Shape& s) {
  ir::Dims st{};
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (i < st.size()) st[i] = acc;
    acc *= std::max<std::int64_t>(s[i], 1);
  }
  return st;
}

std::string format_shape(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + ")";
}

sf::Location Compiler::file_loc(BodyLoc at) const { return map_body_loc(opt_, at); }

void Compiler::fail(const char* sub, BodyLoc at, const std::string& msg) const {
  throw FnError{sub, true, at, msg};
}

void Compiler::check_shape(const Shape& s, BodyLoc at) {
  if (s.size() > static_cast<std::size_t>(ir::kMaxRank)) {
    fail("SHAPE", at, "a tensor of shape " + format_shape(s) + " has more than 8 axes");
  }
  for (auto d : s) {
    if (d < 0) fail("SHAPE", at, "negative dimension in shape " + format_shape(s));
  }
  if (numel(s) > kMaxElems) {
    fail("LIMIT", at, "a tensor of shape " + format_shape(s) + " has more than " + std::to_string(kMaxElems) +
                          " elements");
  }
}

int Compiler::new_slot(const Shape& shape, BodyLoc at) {
  check_shape(shape, at);
  const std::int64_t n = numel(shape);
  total_elems_ += n;
  if (total_elems_ > kMaxTotal) {
    fail("LIMIT", at, "the body needs more than " + std::to_string(kMaxTotal) + " intermediate values");
  }
  ir::Slot s;
  s.size = n;
  m_.slot_defs.push_back(s);
  written_.push_back(false);
  return static_cast<int>(m_.slot_defs.size()) - 1;
}

Compiler::TV Compiler::constant(const Shape& shape, const std::vector<double>& values, BodyLoc at) {
  int slot = new_slot(shape, at);
  auto& s = m_.slot_defs[static_cast<std::size_t>(slot)];
  s.const_off = static_cast<std::int64_t>(m_.consts.size());
  s.is_const = true;
  written_[static_cast<std::size_t>(slot)] = true;
  m_.consts.insert(m_.consts.end(), values.begin(), values.end());
  return TV{slot, shape};
}

Compiler::TV Compiler::tensor(const CV& v, BodyLoc at, const char* what) {
  switch (v.k) {
    case CV::K::Tensor: return v.t;
    case CV::K::Int: return scalar(static_cast<double>(v.i), at);
    case CV::K::Bool: return scalar(v.i ? 1.0 : 0.0, at);
    case CV::K::List: fail("ARG", at, std::string(what) + " must be a tensor, not a list");
    case CV::K::Tuple: fail("ARG", at, std::string(what) + " must be a tensor, not a tuple (destructure it: a, b = chunk(...))");
    case CV::K::Str: fail("ARG", at, std::string(what) + " must be a tensor, not a string");
    case CV::K::None: break;
  }
  fail("ARG", at, std::string(what) + " must be a tensor, not None");
}

std::int64_t Compiler::need_int(const CV& v, BodyLoc at, const char* what) const {
  if (v.k == CV::K::Int) return v.i;
  if (v.k == CV::K::Bool) return v.i;
  fail("ARG", at, std::string(what) + " must be a static integer (an int literal, a size symbol or + - * // of those)");
}

Shape Compiler::need_shape(const CV& v, BodyLoc at, const char* what) const {
  if (v.k == CV::K::Int) return {v.i};
  if (v.k != CV::K::List) fail("ARG", at, std::string(what) + " must be a list of static integers");
  Shape s;
  for (const auto& it : v.items) s.push_back(need_int(it, at, what));
  return s;
}

int Compiler::norm_axis(std::int64_t axis, std::size_t rank, BodyLoc at, bool inserting) const {
  const auto r = static_cast<std::int64_t>(rank) + (inserting ? 1 : 0);
  const std::int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) {
    fail("ARG", at, "axis " + std::to_string(axis) + " is out of range for a tensor of rank " + std::to_string(rank));
  }
  return static_cast<int>(a);
}

void Compiler::push(ir::Op op) {
  bool all_const = !m_.reference;
  for (int s : op.in) {
    if (s >= 0 && !m_.slot_defs[static_cast<std::size_t>(s)].is_const) all_const = false;
  }
  if (op.kind == ir::OpKind::Einsum) {
    for (int s : m_.plans[static_cast<std::size_t>(op.plan)].operand_slots) {
      if (!m_.slot_defs[static_cast<std::size_t>(s)].is_const) all_const = false;
    }
  }
  if (op.kind == ir::OpKind::OneHot) all_const = false;  // run-time errors are reported by eval
  auto& out = m_.slot_defs[static_cast<std::size_t>(op.out)];
  const bool fresh = !written_[static_cast<std::size_t>(op.out)];
  written_[static_cast<std::size_t>(op.out)] = true;
  if (all_const && (fresh || out.is_const)) {
    out.is_const = true;
    m_.prologue.push_back(std::move(op));
  } else {
    out.is_const = false;
    m_.ops.push_back(std::move(op));
  }
}

namespace {
bool broadcast_shape(const Shape& a, const Shape& b, Shape& out) {
  const std::size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const std::int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

// FLOP weights of the cost-model table (docs/fn-flops.md), per output scalar of an elementwise builtin.
std::int64_t flops_per(ir::UnFn f) {
  switch (f) {
    case ir::UnFn::Neg:
    case ir::UnFn::Abs:
    case ir::UnFn::Relu:
    case ir::UnFn::Square: return 1;
    default: return 8;  // exp log sqrt rsqrt sigmoid silu tanh erf sin cos gelu gelu_tanh
  }
}

std::int64_t flops_per(ir::BinFn f) { return f == ir::BinFn::Pow ? 8 : 1; }  // ** / pow: 8, the rest: 1

// Per input scalar of an axis builtin: reductions, cumsum, argmax, topk_mask 1, softmax 10.
std::int64_t flops_per_input(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Reduce:
    case ir::OpKind::Cumsum:
    case ir::OpKind::Argmax:
    case ir::OpKind::TopK: return 1;
    case ir::OpKind::Softmax: return 10;
    default: return 0;
  }
}

ir::Dims bstrides(const Shape& in, const Shape& out) {
  ir::Dims st{};
  ir::Dims cs = contiguous_strides(in);
  const std::size_t off = out.size() - in.size();
  for (std::size_t i = 0; i < in.size(); ++i) st[i + off] = in[i] == 1 ? 0 : cs[i];
  return st;
}
}  // namespace

Compiler::TV Compiler::unary(ir::UnFn f, const TV& x, BodyLoc at) {
  ir::Op op;
  op.kind = ir::OpKind::Unary;
  op.fn = static_cast<int>(f);
  op.in[0] = x.slot;
  op.n = numel(x.shape);
  op.flops = flops_per(f) * op.n;
  op.out = new_slot(x.shape, at);
  op.loc = file_loc(at);
  TV r{op.out, x.shape};
  push(std::move(op));
  return r;
}

Compiler::TV Compiler::binary(ir::BinFn f, const TV& a, const TV& b, BodyLoc at, const std::string& what) {
  Shape out;
  if (!broadcast_shape(a.shape, b.shape, out)) {
    fail("SHAPE", at, "cannot broadcast shapes " + format_shape(a.shape) + " and " + format_shape(b.shape) + " for " + what);
  }
  ir::Op op;
  op.kind = ir::OpKind::Binary;
  op.fn = static_cast<int>(f);
  op.in = {a.slot, b.slot, -1};
  op.n = numel(out);
  op.flops = flops_per(f) * op.n;  // per output scalar (after broadcasting)
  op.out = new_slot(out, at);
  op.loc = file_loc(at);
  op.what = what;
  const std::int64_t na = numel(a.shape), nb = numel(b.shape);
  if (a.shape == b.shape) {
    op.pat = ir::Pattern::Same;
  } else if (na == 1 && nb == op.n) {
    op.pat = ir::Pattern::ScalarA;
  } else if (nb == 1 && na == op.n) {
    op.pat = ir::Pattern::ScalarB;
  } else if (na == op.n && nb == op.n) {
    op.pat = ir::Pattern::Same;  // equal data layout (only size-1 axes differ)
  } else {
    op.rank = static_cast<int>(out.size());
    std::copy(out.begin(), out.end(), op.shape.begin());
    op.st[0] = bstrides(a.shape, out);
    op.st[1] = bstrides(b.shape, out);
  }
  TV r{op.out, out};
  push(std::move(op));
  return r;
}

Compiler::TV Compiler::ternary(ir::TerFn f, const TV& a, const TV& b, const TV& c, BodyLoc at, const std::string& what) {
  Shape ab, out;
  if (!broadcast_shape(a.shape, b.shape, ab) || !broadcast_shape(ab, c.shape, out)) {
    fail("SHAPE", at, "cannot broadcast shapes " + format_shape(a.shape) + ", " + format_shape(b.shape) + " and " +
                          format_shape(c.shape) + " for " + what);
  }
  ir::Op op;
  op.kind = ir::OpKind::Ternary;
  op.fn = static_cast<int>(f);
  op.in = {a.slot, b.slot, c.slot};
  op.n = numel(out);
  op.flops = op.n;  // where, clamp: 1 per output scalar
  op.out = new_slot(out, at);
  op.loc = file_loc(at);
  op.rank = static_cast<int>(out.size());
  std::copy(out.begin(), out.end(), op.shape.begin());
  op.st[0] = bstrides(a.shape, out);
  op.st[1] = bstrides(b.shape, out);
  op.st[2] = bstrides(c.shape, out);
  TV r{op.out, out};
  push(std::move(op));
  return r;
}

void Compiler::copy_into(int dst, const ir::Dims& dst_st, std::int64_t dst_off, const TV& src, BodyLoc at) {
  ir::Op op;
  op.kind = ir::OpKind::Copy;
  op.in[0] = src.slot;
  op.out = dst;
  op.n = numel(src.shape);
  op.rank = static_cast<int>(src.shape.size());
  std::copy(src.shape.begin(), src.shape.end(), op.shape.begin());
  op.st[0] = contiguous_strides(src.shape);
  op.dst_st = dst_st;
  op.dst_off = dst_off;
  op.contiguous = op.st[0] == dst_st;
  op.loc = file_loc(at);
  push(std::move(op));
}

Compiler::TV Compiler::gather(const TV& src, const Shape& out, std::int64_t off, const ir::Dims& st, BodyLoc at) {
  check_shape(out, at);
  const ir::Dims cs = contiguous_strides(out);
  bool contiguous = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != 1 && st[i] != cs[i]) contiguous = false;
  }
  if (contiguous && off == 0) return TV{src.slot, out};  // a view of the leading elements: alias
  ir::Op op;
  op.kind = ir::OpKind::Copy;
  op.in[0] = src.slot;
  op.out = new_slot(out, at);
  op.n = numel(out);
  op.rank = static_cast<int>(out.size());
  std::copy(out.begin(), out.end(), op.shape.begin());
  op.st[0] = st;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) op.st[0][i] = cs[i];
  }
  op.src_off = off;
  op.dst_st = cs;
  op.contiguous = contiguous;
  op.loc = file_loc(at);
  TV r{op.out, out};
  push(std::move(op));
  return r;
}

Compiler::TV Compiler::permute(const TV& x, const std::vector<int>& perm, BodyLoc at) {
  const ir::Dims cs = contiguous_strides(x.shape);
  Shape out(perm.size());
  ir::Dims st{};
  for (std::size_t i = 0; i < perm.size(); ++i) {
    out[i] = x.shape[static_cast<std::size_t>(perm[i])];
    st[i] = cs[static_cast<std::size_t>(perm[i])];
  }
  return gather(x, out, 0, st, at);
}

Compiler::TV Compiler::broadcast_to(const TV& x, const Shape& to, BodyLoc at) {
  Shape out;
  if (to.size() < x.shape.size() || !broadcast_shape(x.shape, to, out) || out != to) {
    fail("SHAPE", at, "cannot broadcast shape " + format_shape(x.shape) + " to " + format_shape(to));
  }
  check_shape(to, at);
  return gather(x, to, 0, bstrides(x.shape, to), at);
}

Compiler::TV Compiler::axis_op(ir::OpKind kind, int fn, const TV& x, int axis, Shape out, BodyLoc at, std::int64_t k,
                              const std::string& what) {
  ir::Op op;
  op.kind = kind;
  op.fn = fn;
  op.in[0] = x.slot;
  op.k = k;
  op.outer = op.inner = 1;
  for (int i = 0; i < axis; ++i) op.outer *= x.shape[static_cast<std::size_t>(i)];
  op.len = x.shape.empty() ? 1 : x.shape[static_cast<std::size_t>(axis)];
  for (std::size_t i = static_cast<std::size_t>(axis) + 1; i < x.shape.size(); ++i) op.inner *= x.shape[i];
  op.out = new_slot(out, at);
  op.n = numel(out);
  op.flops = flops_per_input(kind) * op.outer * op.len * op.inner;  // per input scalar
  op.loc = file_loc(at);
  op.what = what;
  m_.idx_size = std::max(m_.idx_size, op.len);
  TV r{op.out, std::move(out)};
  push(std::move(op));
  return r;
}

Compiler::TV Compiler::reduce(ir::RedFn f, const TV& x0, const CV& axis, bool keepdim, BodyLoc at) {
  const std::size_t r = x0.shape.size();
  std::vector<bool> red(r, false);
  if (axis.k == CV::K::None) {
    std::fill(red.begin(), red.end(), true);
  } else if (axis.k == CV::K::List) {
    for (const auto& a : axis.items) {
      const int ax = norm_axis(need_int(a, at, "axis"), r, at);
      if (red[static_cast<std::size_t>(ax)]) fail("ARG", at, "axis " + std::to_string(a.i) + " is listed twice");
      red[static_cast<std::size_t>(ax)] = true;
    }
  } else {
    red[static_cast<std::size_t>(norm_axis(need_int(axis, at, "axis"), r, at))] = true;
  }
  // Move the reduced axes to the end (a gather if they are not already last), then reduce one block.
  std::vector<int> perm;
  Shape kept, out;
  std::int64_t len = 1;
  for (std::size_t i = 0; i < r; ++i) {
    if (!red[i]) {
      perm.push_back(static_cast<int>(i));
      kept.push_back(x0.shape[i]);
    }
  }
  for (std::size_t i = 0; i < r; ++i) {
    if (red[i]) {
      perm.push_back(static_cast<int>(i));
      len *= x0.shape[i];
    }
    if (!red[i]) out.push_back(x0.shape[i]);
    else if (keepdim) out.push_back(1);
  }
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int>(i);
  TV x = identity ? x0 : permute(x0, perm, at);
  Shape flat = kept;
  flat.push_back(len);
  TV xf = reshape(x, flat);
  TV res = axis_op(ir::OpKind::Reduce, static_cast<int>(f), xf, static_cast<int>(kept.size()), kept, at);
  return reshape(res, out);
}

}  // namespace sf::fnlang
