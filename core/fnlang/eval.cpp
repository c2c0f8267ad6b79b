// Evaluation of a compiled Program: typed kernels over preallocated workspace slots.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/fnlang/fnlang.hpp"

namespace sf::fnlang {

namespace {

using ir::Op;

constexpr std::size_t kMaxFragile = 256;

void record(EvalReport* rep, const Op& op, double a, double b, double gap) {
  if (!rep || rep->fragile.size() >= kMaxFragile) return;
  if (!std::isfinite(a) || !std::isfinite(b)) return;
  const double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
  if (gap < 1e-5 * scale) rep->fragile.push_back(FragileGap{gap, scale, op.loc, op.what});
}

template <class S>
S sigmoid(S x) {
  if (x >= 0) return S(1) / (S(1) + std::exp(-x));
  const S e = std::exp(x);
  return e / (S(1) + e);
}

template <class S, class F>
void map1(const S* a, S* o, std::int64_t n, F f) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
}

template <class S>
void unary(const Op& op, const S* a, S* o, std::int64_t n) {
  using U = ir::UnFn;
  switch (static_cast<U>(op.fn)) {
    case U::Neg: map1(a, o, n, [](S x) { return -x; }); break;
    case U::Abs: map1(a, o, n, [](S x) { return std::fabs(x); }); break;
    case U::Cos: map1(a, o, n, [](S x) { return std::cos(x); }); break;
    case U::Erf: map1(a, o, n, [](S x) { return std::erf(x); }); break;
    case U::Exp: map1(a, o, n, [](S x) { return std::exp(x); }); break;
    case U::Log: map1(a, o, n, [](S x) { return std::log(x); }); break;
    case U::Relu: map1(a, o, n, [](S x) { return x > S(0) ? x : (x != x ? x : S(0)); }); break;
    case U::Rsqrt: map1(a, o, n, [](S x) { return S(1) / std::sqrt(x); }); break;
    case U::Sigmoid: map1(a, o, n, [](S x) { return sigmoid(x); }); break;
    case U::Silu: map1(a, o, n, [](S x) { return x * sigmoid(x); }); break;
    case U::Sin: map1(a, o, n, [](S x) { return std::sin(x); }); break;
    case U::Sqrt: map1(a, o, n, [](S x) { return std::sqrt(x); }); break;
    case U::Square: map1(a, o, n, [](S x) { return x * x; }); break;
    case U::Tanh: map1(a, o, n, [](S x) { return std::tanh(x); }); break;
    case U::Gelu:
      map1(a, o, n, [](S x) { return S(0.5) * x * (S(1) + std::erf(x * S(0.70710678118654752440))); });
      break;
    case U::GeluTanh:
      map1(a, o, n, [](S x) {
        const S c = S(0.79788456080286535588);  // sqrt(2/pi)
        return S(0.5) * x * (S(1) + std::tanh(c * (x + S(0.044715) * x * x * x)));
      });
      break;
  }
}

// Several evaluations of one op in a row (batched evaluation): row e reads its operands at a + e * sa,
// b + e * sb and writes o + e * so. One row is the op of eval() itself.
struct Rows {
  std::int64_t count = 1, sa = 0, sb = 0, so = 0;
};

// pat and n are op.pat and op.n, or (batched evaluation) a pattern over a chunk of scalar elements. Every row
// sees the loop of a single evaluation, rows in order: the same operations as one call per row.
template <class S, class F>
void bin(const Op& op, ir::Pattern pat, std::int64_t n, const S* a, const S* b, S* o, F f, const Rows& rows) {
  switch (pat) {
    case ir::Pattern::Same:
      for (std::int64_t e = 0; e < rows.count; ++e, a += rows.sa, b += rows.sb, o += rows.so)
        for (std::int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
      return;
    case ir::Pattern::ScalarA:
      for (std::int64_t e = 0; e < rows.count; ++e, a += rows.sa, b += rows.sb, o += rows.so) {
        const S av = a[0];
        for (std::int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
      }
      return;
    case ir::Pattern::ScalarB:
      for (std::int64_t e = 0; e < rows.count; ++e, a += rows.sa, b += rows.sb, o += rows.so) {
        const S bv = b[0];
        for (std::int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
      }
      return;
    case ir::Pattern::General: break;
  }
  const int r = op.rank;
  for (std::int64_t e = 0; e < rows.count; ++e, a += rows.sa, b += rows.sb, o += rows.so) {
    ir::Dims idx{};
    std::int64_t oa = 0, ob = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      o[i] = f(a[oa], b[ob]);
      for (int d = r - 1; d >= 0; --d) {
        oa += op.st[0][d];
        ob += op.st[1][d];
        if (++idx[d] < op.shape[d]) break;
        oa -= op.st[0][d] * op.shape[d];
        ob -= op.st[1][d] * op.shape[d];
        idx[d] = 0;
      }
    }
  }
}

template <class S>
void binary(const Op& op, ir::Pattern pat, std::int64_t n, const S* a, const S* b, S* o, EvalReport* frag,
            const Rows& rows = {}) {
  using B = ir::BinFn;
  auto cmp = [&](auto pred) {
    if (frag) {
      bin(op, pat, n, a, b, o, [&](S x, S y) {
        if (x != y) record(frag, op, x, y, std::fabs(double(x) - double(y)));
        return pred(x, y) ? S(1) : S(0);
      }, rows);
    } else {
      bin(op, pat, n, a, b, o, [&](S x, S y) { return pred(x, y) ? S(1) : S(0); }, rows);
    }
  };
  switch (static_cast<B>(op.fn)) {
    case B::Add: bin(op, pat, n, a, b, o, [](S x, S y) { return x + y; }, rows); break;
    case B::Sub: bin(op, pat, n, a, b, o, [](S x, S y) { return x - y; }, rows); break;
    case B::Mul: bin(op, pat, n, a, b, o, [](S x, S y) { return x * y; }, rows); break;
    case B::Div: bin(op, pat, n, a, b, o, [](S x, S y) { return x / y; }, rows); break;
    case B::Pow: bin(op, pat, n, a, b, o, [](S x, S y) { return std::pow(x, y); }, rows); break;
    case B::FloorDiv: bin(op, pat, n, a, b, o, [](S x, S y) { return std::floor(x / y); }, rows); break;
    case B::Max: bin(op, pat, n, a, b, o, [](S x, S y) { return (x > y || x != x) ? x : y; }, rows); break;
    case B::Min: bin(op, pat, n, a, b, o, [](S x, S y) { return (x < y || x != x) ? x : y; }, rows); break;
    case B::Gt: cmp([](S x, S y) { return x > y; }); break;
    case B::Ge: cmp([](S x, S y) { return x >= y; }); break;
    case B::Lt: cmp([](S x, S y) { return x < y; }); break;
    case B::Le: cmp([](S x, S y) { return x <= y; }); break;
    case B::Eq: cmp([](S x, S y) { return x == y; }); break;
    case B::Ne: cmp([](S x, S y) { return x != y; }); break;
  }
}

template <class S>
inline S ternary1(bool where, S x, S y, S z) {
  if (where) return x != S(0) ? y : z;
  S v = (x < y) ? y : x;  // max(x, lo); NaN x stays NaN
  if (x != x) v = x;
  return (v > z) ? z : v;
}

template <class S>
void ternary(const Op& op, const S* a, const S* b, const S* c, S* o) {
  ir::Dims idx{};
  std::int64_t off[3] = {0, 0, 0};
  const int r = op.rank;
  const bool where = static_cast<ir::TerFn>(op.fn) == ir::TerFn::Where;
  for (std::int64_t i = 0; i < op.n; ++i) {
    o[i] = ternary1(where, a[off[0]], b[off[1]], c[off[2]]);
    for (int d = r - 1; d >= 0; --d) {
      for (int k = 0; k < 3; ++k) off[k] += op.st[static_cast<std::size_t>(k)][d];
      if (++idx[d] < op.shape[d]) break;
      for (int k = 0; k < 3; ++k) off[k] -= op.st[static_cast<std::size_t>(k)][d] * op.shape[d];
      idx[d] = 0;
    }
  }
}

template <class S>
void copy(const Op& op, const S* src, S* dst) {
  src += op.src_off;
  dst += op.dst_off;
  if (op.contiguous) {
    std::copy_n(src, op.n, dst);
    return;
  }
  ir::Dims idx{};
  std::int64_t os = 0, od = 0;
  const int r = op.rank;
  for (std::int64_t i = 0; i < op.n; ++i) {
    dst[od] = src[os];
    for (int d = r - 1; d >= 0; --d) {
      os += op.st[0][d];
      od += op.dst_st[d];
      if (++idx[d] < op.shape[d]) break;
      os -= op.st[0][d] * op.shape[d];
      od -= op.dst_st[d] * op.shape[d];
      idx[d] = 0;
    }
  }
}

template <class S>
void reduce(const Op& op, const S* x, S* o) {
  const auto f = static_cast<ir::RedFn>(op.fn);
  const std::int64_t L = op.len, I = op.inner;
  for (std::int64_t ou = 0; ou < op.outer; ++ou) {
    for (std::int64_t in = 0; in < I; ++in) {
      const S* p = x + ou * L * I + in;
      double r = 0;
      if (f == ir::RedFn::Max || f == ir::RedFn::Min) {
        S m = f == ir::RedFn::Max ? -std::numeric_limits<S>::infinity() : std::numeric_limits<S>::infinity();
        for (std::int64_t l = 0; l < L; ++l) {
          const S v = p[l * I];
          if (v != v) {
            m = v;
            break;
          }
          if (f == ir::RedFn::Max ? v > m : v < m) m = v;
        }
        o[ou * I + in] = m;
        continue;
      }
      for (std::int64_t l = 0; l < L; ++l) r += double(p[l * I]);
      if (f == ir::RedFn::Mean) r /= double(L);
      if (f == ir::RedFn::Var) {
        const double mu = r / double(L);
        double q = 0;
        for (std::int64_t l = 0; l < L; ++l) {
          const double d = double(p[l * I]) - mu;
          q += d * d;
        }
        r = q / double(L);
      }
      o[ou * I + in] = S(r);
    }
  }
}

template <class S>
void scan_like(const Op& op, const S* x, S* o) {
  const std::int64_t L = op.len, I = op.inner;
  for (std::int64_t ou = 0; ou < op.outer; ++ou) {
    for (std::int64_t in = 0; in < I; ++in) {
      const S* p = x + ou * L * I + in;
      S* q = o + ou * L * I + in;
      if (op.kind == ir::OpKind::Cumsum) {
        double acc = 0;
        for (std::int64_t l = 0; l < L; ++l) q[l * I] = S(acc += double(p[l * I]));
        continue;
      }
      S m = -std::numeric_limits<S>::infinity();
      for (std::int64_t l = 0; l < L; ++l) m = std::max(m, p[l * I]);
      double sum = 0;
      for (std::int64_t l = 0; l < L; ++l) sum += double(q[l * I] = std::exp(p[l * I] - m));
      for (std::int64_t l = 0; l < L; ++l) q[l * I] = S(double(q[l * I]) / sum);
    }
  }
}

// "a ranks before b": NaN largest, then larger value, then lower index.
template <class S>
bool ranks_before(S a, std::int64_t i, S b, std::int64_t j) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return na && nb ? i < j : na;
  return a > b || (a == b && i < j);
}

template <class S>
void select(const Op& op, const S* x, S* o, std::int64_t* idx, EvalReport* frag) {
  const std::int64_t L = op.len, I = op.inner;
  for (std::int64_t ou = 0; ou < op.outer; ++ou) {
    for (std::int64_t in = 0; in < I; ++in) {
      const S* p = x + ou * L * I + in;
      if (op.kind == ir::OpKind::Argmax) {
        std::int64_t best = 0, second = -1;
        for (std::int64_t l = 1; l < L; ++l) {
          if (ranks_before(p[l * I], l, p[best * I], best)) {
            second = best;
            best = l;
          } else if (second < 0 || ranks_before(p[l * I], l, p[second * I], second)) {
            second = l;
          }
        }
        o[ou * I + in] = S(best);
        if (frag && second >= 0) {
          record(frag, op, p[best * I], p[second * I], double(p[best * I]) - double(p[second * I]));
        }
        continue;
      }
      S* q = o + ou * L * I + in;
      for (std::int64_t l = 0; l < L; ++l) {
        idx[l] = l;
        q[l * I] = S(0);
      }
      const std::int64_t k = op.k;
      const std::int64_t m = std::min(k + 1, L);
      std::partial_sort(idx, idx + m, idx + L,
                        [&](std::int64_t a, std::int64_t b) { return ranks_before(p[a * I], a, p[b * I], b); });
      for (std::int64_t t = 0; t < k; ++t) q[idx[t] * I] = S(1);
      if (frag && k > 0 && k < L) {
        const double a = p[idx[k - 1] * I], b = p[idx[k] * I];
        record(frag, op, a, b, a - b);
      }
    }
  }
}

template <class S>
void matmul(const Op& op, const S* a, const S* b, S* o, double* acc) {
  const std::int64_t m = op.mm_m, kk = op.mm_k, n = op.mm_n;
  for (std::size_t t = 0; t < op.a_off.size(); ++t) {
    const S* A = a + op.a_off[t];
    const S* B = b + op.b_off[t];
    S* O = o + static_cast<std::int64_t>(t) * m * n;
    for (std::int64_t i = 0; i < m; ++i) {
      std::fill_n(acc, n, 0.0);
      for (std::int64_t k = 0; k < kk; ++k) {
        const double av = A[i * kk + k];
        const S* row = B + k * n;
        for (std::int64_t j = 0; j < n; ++j) acc[j] += av * double(row[j]);
      }
      for (std::int64_t j = 0; j < n; ++j) O[i * n + j] = S(acc[j]);
    }
  }
}

template <class S>
void einsum(const ir::EinsumPlan& pl, const std::vector<const S*>& rd, S* o, std::int64_t nout_elems) {
  const std::size_t L = pl.sizes.size();
  std::int64_t inner = 1;
  for (std::size_t i = static_cast<std::size_t>(pl.nout); i < L; ++i) inner *= pl.sizes[i];
  std::int64_t idx[26] = {};
  std::int64_t off[8] = {};
  const S* src[8];
  for (int k = 0; k < pl.nops; ++k) src[k] = rd[static_cast<std::size_t>(pl.operand_slots[static_cast<std::size_t>(k)])];
  for (std::int64_t e = 0; e < nout_elems; ++e) {
    double acc = 0;
    for (std::int64_t s = 0; s < inner; ++s) {
      double prod = 1;
      for (int k = 0; k < pl.nops; ++k) prod *= double(src[k][off[k]]);
      acc += prod;
      for (std::size_t d = L; d-- > 0;) {
        for (int k = 0; k < pl.nops; ++k) off[k] += pl.strides[static_cast<std::size_t>(k)][d];
        if (++idx[d] < pl.sizes[d]) break;
        for (int k = 0; k < pl.nops; ++k) off[k] -= pl.strides[static_cast<std::size_t>(k)][d] * pl.sizes[d];
        idx[d] = 0;
      }
    }
    o[e] = S(acc);
  }
}

}  // namespace

template <class S>
Workspace<S>::Workspace(const Program& p) : prog_(&p) {
  const auto& m = p.m_;
  std::int64_t total = 0;
  for (const auto& s : m.slot_defs) {
    if (s.arg < 0) total += s.size;
  }
  buf_.assign(static_cast<std::size_t>(total), S(0));
  rd_.assign(m.slot_defs.size(), nullptr);
  wr_.assign(m.slot_defs.size(), nullptr);
  std::int64_t off = 0;
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i) {
    const auto& s = m.slot_defs[i];
    if (s.arg >= 0) continue;
    S* base = buf_.data() + off;
    rd_[i] = base;
    wr_[i] = base;
    if (s.const_off >= 0) {
      for (std::int64_t j = 0; j < s.size; ++j) base[j] = S(m.consts[static_cast<std::size_t>(s.const_off + j)]);
    }
    off += s.size;
  }
  dacc_.assign(static_cast<std::size_t>(std::max<std::int64_t>(m.dacc_size, 1)), 0.0);
  idx_.assign(static_cast<std::size_t>(std::max<std::int64_t>(m.idx_size, 1)), 0);
  p.run(m.prologue, *this, nullptr);
}

namespace {

// One op on explicit operand pointers (in order op.in[0..2]) and output o. False on a run-time error.
template <class S>
bool exec(const Op& op, const S* a, const S* b, const S* c, S* o, const ir::Module& m, const std::vector<const S*>& rd,
          double* dacc, std::int64_t* idx, EvalReport* frag, EvalReport* report) {
  switch (op.kind) {
    case ir::OpKind::Unary: unary(op, a, o, op.n); break;
    case ir::OpKind::Binary: binary(op, op.pat, op.n, a, b, o, frag); break;
    case ir::OpKind::Ternary: ternary(op, a, b, c, o); break;
    case ir::OpKind::Copy: copy(op, a, o); break;
    case ir::OpKind::Reduce: reduce(op, a, o); break;
    case ir::OpKind::Cumsum:
    case ir::OpKind::Softmax: scan_like(op, a, o); break;
    case ir::OpKind::TopK:
    case ir::OpKind::Argmax: select(op, a, o, idx, frag); break;
    case ir::OpKind::Matmul: matmul(op, a, b, o, dacc); break;
    case ir::OpKind::Einsum: einsum(m.plans[static_cast<std::size_t>(op.plan)], rd, o, op.n); break;
    case ir::OpKind::OneHot: {
      std::fill_n(o, op.n, S(0));
      for (std::int64_t j = 0; j < op.len; ++j) {
        const S v = a[j];
        if (!(v >= S(0) && v < S(op.k) && std::floor(v) == v)) {
          if (report) {
            report->error = make_error("R-ONEHOT", "one_hot: entry " + std::to_string(double(v)) + " at position " +
                                                       std::to_string(j) + " is not an integer in [0, " +
                                                       std::to_string(op.k) + ")",
                                       op.loc);
          }
          return false;
        }
        o[j * op.k + static_cast<std::int64_t>(v)] = S(1);
      }
      break;
    }
  }
  return true;
}

}  // namespace

template <class S>
bool Program::run(const std::vector<ir::Op>& ops, Workspace<S>& ws, EvalReport* report) const {
  EvalReport* frag = m_.reference ? report : nullptr;
  auto R = [&](int slot) { return slot < 0 ? nullptr : ws.rd_[static_cast<std::size_t>(slot)]; };
  for (const Op& op : ops) {
    S* o = ws.wr_[static_cast<std::size_t>(op.out)];
    if (!exec(op, R(op.in[0]), R(op.in[1]), R(op.in[2]), o, m_, ws.rd_, ws.dacc_.data(), ws.idx_.data(), frag,
              report))
      return false;
  }
  return true;
}

bool Program::batchable() const {
  for (const Op& op : m_.ops)
    if (op.kind == ir::OpKind::OneHot || op.kind == ir::OpKind::Einsum) return false;
  return true;
}

template <class S>
void Workspace<S>::reserve_batch(std::int64_t cap) {
  if (cap <= batch_cap_) return;
  const auto& m = prog_->m_;
  std::int64_t total = 0;
  std::vector<std::int64_t> off(m.slot_defs.size(), -1);
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i) {
    if (m.slot_defs[i].arg >= 0) continue;
    off[i] = total;
    total += m.slot_defs[i].size * cap;
  }
  batch_buf_.assign(static_cast<std::size_t>(total), S(0));
  batch_wr_.assign(m.slot_defs.size(), nullptr);
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i)
    if (off[i] >= 0) batch_wr_[i] = batch_buf_.data() + off[i];
  batch_rd_.assign(m.slot_defs.size(), nullptr);
  batch_st_.assign(m.slot_defs.size(), 0);
  batch_cap_ = cap;
}

// Evaluates `count` elements op by op over chunks: a slot whose value differs per element ("varying": it
// depends on an argument with a non-zero stride) lives in a chunk buffer (element e at e * slot size);
// the others are computed once per chunk in the ordinary workspace. Every element sees exactly the
// arithmetic of eval() (same kernels, same order of operations per element), so results are bit-identical.
template <class S>
bool Program::eval_batch(const S* const* args, const std::int64_t* arg_strides, S* const* outs,
                         const std::int64_t* out_strides, std::int64_t count, Workspace<S>& ws,
                         EvalReport* report) const {
  if (ws.prog_ != this) {
    if (report) report->error = make_error("X-EVAL", "fnlang: the workspace was created for another program");
    return false;
  }
  const std::size_t nargs = m_.arg_slots.size(), nouts = m_.out_slots.size();
  if (count <= 0) return true;
  if (!batchable() || count == 1) {
    ws.batch_args_.resize(nargs);
    ws.batch_outs_.resize(nouts);
    for (std::int64_t e = 0; e < count; ++e) {
      for (std::size_t i = 0; i < nargs; ++i) ws.batch_args_[i] = args[i] + e * arg_strides[i];
      for (std::size_t j = 0; j < nouts; ++j) ws.batch_outs_[j] = outs[j] + e * out_strides[j];
      if (!eval(ws.batch_args_.data(), ws.batch_outs_.data(), ws, report)) return false;
    }
    return true;
  }
  EvalReport* frag = m_.reference ? report : nullptr;
  std::int64_t per = 0;
  for (const auto& s : m_.slot_defs)
    if (s.arg < 0) per += s.size;
  const std::int64_t cap = std::max<std::int64_t>(1, std::min<std::int64_t>(256, (1 << 16) / std::max<std::int64_t>(per, 1)));
  ws.reserve_batch(cap);
  // Which slots vary per element: arguments with a non-zero stride, and every slot written by an op that
  // reads a varying slot (a slot written by several ops, e.g. a concatenation, varies if any writer does).
  auto& vary = ws.batch_vary_;
  bool same_mask = ws.batch_mask_.size() == nargs;
  for (std::size_t i = 0; same_mask && i < nargs; ++i) same_mask = ws.batch_mask_[i] == (arg_strides[i] != 0);
  if (!same_mask) {
    ws.batch_mask_.resize(nargs);
    for (std::size_t i = 0; i < nargs; ++i) ws.batch_mask_[i] = arg_strides[i] != 0;
    vary.assign(m_.slot_defs.size(), 0);
    for (std::size_t i = 0; i < nargs; ++i) vary[static_cast<std::size_t>(m_.arg_slots[i])] = arg_strides[i] != 0;
  }
  for (bool changed = !same_mask; changed;) {
    changed = false;
    for (const Op& op : m_.ops) {
      const auto out = static_cast<std::size_t>(op.out);
      if (vary[out]) continue;
      for (int in : op.in) {
        if (in >= 0 && vary[static_cast<std::size_t>(in)]) {
          vary[out] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  auto& st = ws.batch_st_;
  auto& vrd = ws.batch_rd_;
  for (std::size_t i = 0; i < m_.slot_defs.size(); ++i) {
    st[i] = vary[i] && m_.slot_defs[i].arg < 0 ? m_.slot_defs[i].size : 0;
    vrd[i] = ws.batch_wr_[i];
  }
  for (std::int64_t e0 = 0; e0 < count; e0 += cap) {
    const std::int64_t c = std::min(cap, count - e0);
    for (std::size_t i = 0; i < nargs; ++i) {
      const auto slot = static_cast<std::size_t>(m_.arg_slots[i]);
      if (arg_strides[i] == 0) {
        ws.rd_[slot] = args[i];
      } else {
        st[slot] = arg_strides[i];
        vrd[slot] = args[i] + e0 * arg_strides[i];
      }
    }
    for (const Op& op : m_.ops) {
      const auto out = static_cast<std::size_t>(op.out);
      std::int64_t sa[3] = {0, 0, 0};
      const S* pa[3] = {nullptr, nullptr, nullptr};
      for (int k = 0; k < 3; ++k) {
        const int in = op.in[static_cast<std::size_t>(k)];
        if (in < 0) continue;
        const auto u = static_cast<std::size_t>(in);
        sa[k] = st[u];
        pa[k] = st[u] ? vrd[u] : ws.rd_[u];
      }
      if (!vary[out]) {
        if (!exec(op, pa[0], pa[1], pa[2], ws.wr_[out], m_, ws.rd_, ws.dacc_.data(), ws.idx_.data(), frag, report))
          return false;
        continue;
      }
      const std::int64_t osz = m_.slot_defs[out].size;
      S* o = ws.batch_wr_[out];
      const bool scalar = op.n == 1 && osz == 1 && sa[0] <= 1 && sa[1] <= 1 && sa[2] <= 1;
      if (op.kind == ir::OpKind::Unary && sa[0] == op.n && osz == op.n) {
        unary(op, pa[0], o, op.n * c);
      } else if (op.kind == ir::OpKind::Binary && scalar && (sa[0] | sa[1]) != 0) {
        const ir::Pattern pat = sa[0] == 0 ? ir::Pattern::ScalarA : sa[1] == 0 ? ir::Pattern::ScalarB : ir::Pattern::Same;
        binary(op, pat, c, pa[0], pa[1], o, frag);
      } else if (op.kind == ir::OpKind::Binary && op.pat == ir::Pattern::Same && sa[0] == op.n && sa[1] == op.n &&
                 osz == op.n) {
        binary(op, ir::Pattern::Same, op.n * c, pa[0], pa[1], o, frag);
      } else if (op.kind == ir::OpKind::Ternary && scalar) {
        const bool where = static_cast<ir::TerFn>(op.fn) == ir::TerFn::Where;
        for (std::int64_t e = 0; e < c; ++e) o[e] = ternary1(where, pa[0][e * sa[0]], pa[1][e * sa[1]], pa[2][e * sa[2]]);
      } else if (op.kind == ir::OpKind::Copy && op.contiguous && scalar) {
        if (sa[0] == 0) {
          std::fill_n(o, c, pa[0][op.src_off]);
        } else {
          std::copy_n(pa[0] + op.src_off, c, o);
        }
      } else if (op.kind == ir::OpKind::Binary) {
        // Any other binary op (e.g. a vector state times a per-element scalar): one call for the chunk, the
        // kernel walks the rows (exec would run it row by row through the same loop).
        binary(op, op.pat, op.n, pa[0], pa[1], o, frag, Rows{c, sa[0], sa[1], osz});
      } else {
        for (std::int64_t e = 0; e < c; ++e) {
          if (!exec(op, pa[0] ? pa[0] + e * sa[0] : nullptr, pa[1] ? pa[1] + e * sa[1] : nullptr,
                    pa[2] ? pa[2] + e * sa[2] : nullptr, o + e * osz, m_, ws.rd_, ws.dacc_.data(), ws.idx_.data(),
                    frag, report))
            return false;
        }
      }
    }
    for (std::size_t j = 0; j < nouts; ++j) {
      const auto slot = static_cast<std::size_t>(m_.out_slots[j]);
      std::int64_t n = 1;
      for (auto d : m_.out_shapes[j]) n *= d;
      S* dst = outs[j] + e0 * out_strides[j];
      if (st[slot] == 0) {
        for (std::int64_t e = 0; e < c; ++e) std::copy_n(ws.rd_[slot], n, dst + e * out_strides[j]);
      } else if (st[slot] == n && out_strides[j] == n) {
        std::copy_n(vrd[slot], n * c, dst);
      } else {
        for (std::int64_t e = 0; e < c; ++e) std::copy_n(vrd[slot] + e * st[slot], n, dst + e * out_strides[j]);
      }
    }
  }
  return true;
}

template <class S>
bool Program::eval(const S* const* args, S* const* outs, Workspace<S>& ws, EvalReport* report) const {
  if (ws.prog_ != this) {
    if (report) report->error = make_error("X-EVAL", "fnlang: the workspace was created for another program");
    return false;
  }
  for (std::size_t i = 0; i < m_.arg_slots.size(); ++i) ws.rd_[static_cast<std::size_t>(m_.arg_slots[i])] = args[i];
  if (!run(m_.ops, ws, report)) return false;
  for (std::size_t j = 0; j < m_.out_slots.size(); ++j) {
    const S* src = ws.rd_[static_cast<std::size_t>(m_.out_slots[j])];
    std::int64_t n = 1;
    for (auto d : m_.out_shapes[j]) n *= d;
    std::copy_n(src, n, outs[j]);
  }
  return true;
}

template class Workspace<float>;
template class Workspace<double>;
template bool Program::eval<float>(const float* const*, float* const*, Workspace<float>&, EvalReport*) const;
template bool Program::eval<double>(const double* const*, double* const*, Workspace<double>&, EvalReport*) const;
template bool Program::eval_batch<float>(const float* const*, const std::int64_t*, float* const*, const std::int64_t*,
                                         std::int64_t, Workspace<float>&, EvalReport*) const;
template bool Program::eval_batch<double>(const double* const*, const std::int64_t*, double* const*,
                                          const std::int64_t*, std::int64_t, Workspace<double>&, EvalReport*) const;

}  // namespace sf::fnlang
