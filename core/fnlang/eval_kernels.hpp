// Internal to core/fnlang's evaluator (eval.cpp): the typed kernels of each op kind over raw operand pointers
// (element-wise, broadcast, reductions, scans, top-k, matmul, einsum) and exec(), one op on explicit operands.
// Templates instantiated in eval.cpp only; not included elsewhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/fnlang/fnlang.hpp"

namespace sf::fnlang::kernels {

using ir::Op;

constexpr std::size_t kMaxFragile = 256;

inline void record(EvalReport* rep, const Op& op, double a, double b, double gap) {
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

}  // namespace sf::fnlang::kernels
