// Bufferize, Streamify, Promote, Flatten, Reshape (FT unchanged) and Repeat (step-dialect §7.5–7.11).
#include <algorithm>
#include <cstring>

#include "core/sim/kernel_support.hpp"
#include "core/sim/kernels.hpp"
#include "core/step/prim_rules.hpp"

namespace sf::sim {

using step::Prim;
using step::prim_qualified;
namespace rule = step::rule;

namespace {

// New dims and the new esh of every field; the data stays as is.
struct Relabel {
  std::vector<std::int64_t> dims;
  std::vector<Shape> esh;
};

Relabel keep_esh(const StreamValue& x, std::vector<std::int64_t> dims) {
  Relabel r{std::move(dims), {}};
  for (const auto& f : x.fields) r.esh.push_back(f.esh);
  return r;
}

// An element shape lists the buffer's dims outermost-first, then the scalar's (Multihot lanes).
Status bufferize_shape(const StreamValue& x, int a, Relabel& r) {
  const char* prim = prim_qualified(Prim::Bufferize);
  if (auto st = validate(x, prim); !st.ok()) return st;
  const rule::Check chk = rule::bufferize(x.dims, x.fields.size() != 1, a, &r.dims);
  if (chk.why == rule::Why::Tuple) {
    return make_status(chk.code, std::string(prim) + " cannot buffer tuple elements (dims " +
                                     format_ints(x.dims) + "): Map them to a single field first");
  }
  if (!chk.ok()) {
    return make_status(chk.code, detail::rank_message(Prim::Bufferize, "a", a, x,
                                                      "packs the innermost dimension(s) into a buffer"));
  }
  const auto packed = rule::bufferize_packed(x.dims, a);
  Shape esh(packed.rbegin(), packed.rend());  // (s(a-1), ..., s0)
  esh.insert(esh.end(), x.fields[0].esh.begin(), x.fields[0].esh.end());
  r.esh = {std::move(esh)};
  return {};
}

Status streamify_shape(const StreamValue& x, int q, Relabel& r) {
  const char* prim = prim_qualified(Prim::Streamify);
  if (auto st = validate(x, prim); !st.ok()) return st;
  const bool buffers =
      x.fields.size() == 1 && q >= 1 && static_cast<std::size_t>(q) <= x.fields[0].esh.size();
  // The buffer's dims innermost-first: the element shape's first q entries, reversed.
  const auto buffer = buffers
                          ? std::span<const std::int64_t>(x.fields[0].esh.data(), static_cast<std::size_t>(q))
                          : std::span<const std::int64_t>();
  // (A reversed copy, not std::views::reverse: clang's libFuzzer build cannot use libstdc++ 12's ranges.)
  const std::vector<std::int64_t> buffer_dims(buffer.rbegin(), buffer.rend());
  if (const rule::Check chk = rule::streamify(x.dims, buffers, buffer_dims, &r.dims);
      !chk.ok()) {
    return make_status(chk.code,
                       std::string(prim) + " needs a stream of Buffer elements, but the stream (dims " +
                           format_ints(x.dims) + ") does not carry buffers of rank " + std::to_string(q));
  }
  const Shape& e = x.fields[0].esh;
  r.esh = {Shape(e.begin() + q, e.end())};
  return {};
}

Status promote_shape(const StreamValue& x, int b, Relabel& r) {
  const char* prim = prim_qualified(Prim::Promote);
  if (auto st = validate(x, prim); !st.ok()) return st;
  const int rk = x.rank();
  std::vector<std::int64_t> d;
  if (const rule::Check chk = rule::promote(x.dims, b, &d); !chk.ok()) {
    return make_status(chk.code, std::string(prim) + "(b=" + std::to_string(b) +
                                     "): b is where the new size-1 dimension goes, from 0 (new innermost) "
                                     "to rank+1 = " +
                                     std::to_string(rk + 1) + " (new outermost), for the stream (dims " +
                                     format_ints(x.dims) + ", rank " + std::to_string(rk) + ")");
  }
  r = keep_esh(x, std::move(d));
  return {};
}

Status flatten_shape(const StreamValue& x, int lo, int hi, Relabel& r) {
  const char* prim = prim_qualified(Prim::Flatten);
  if (auto st = validate(x, prim); !st.ok()) return st;
  if (const rule::Check chk = rule::flatten_span(lo, hi, x.rank()); !chk.ok()) {
    return make_status(chk.code, std::string(prim) + "(L=[" + std::to_string(lo) + ".." + std::to_string(hi) +
                                     "]): L must list consecutive dimensions l…h with 1 ≤ l and h ≤ rank "
                                     "of the stream (dims " +
                                     format_ints(x.dims) + ", rank " + std::to_string(x.rank()) +
                                     "); dimension l−1 absorbs dimensions l…h");
  }
  std::vector<std::int64_t> d;
  rule::flatten_dims(x.dims, lo, hi, d);
  r = keep_esh(x, std::move(d));
  return {};
}

std::string list_text(const std::vector<int>& L) {
  std::string s = "[";
  for (std::size_t i = 0; i < L.size(); ++i) s += (i ? ", " : "") + std::to_string(L[i]);
  return s + "]";
}

Status reshape_shape(const StreamValue& x, std::vector<int> L, std::int64_t c, Relabel& r) {
  const char* prim = prim_qualified(Prim::Reshape);
  if (auto st = validate(x, prim); !st.ok()) return st;
  std::sort(L.begin(), L.end());
  const std::span<const int> sorted(L);
  if (const rule::Check chk = rule::reshape_indices(sorted, x.rank()); !chk.ok()) {
    return make_status(chk.code, std::string(prim) + ": L=" + list_text(L) +
                                     " is invalid: it must list distinct dimensions between 0 and the rank " +
                                     std::to_string(x.rank()));
  }
  if (c < 1) {  // a value check: S evaluated under the run's sizes
    return make_status("T-PARAM-VALUE",
                       std::string(prim) + ": S=" + std::to_string(c) + " is invalid: it must be positive");
  }
  for (const int j : sorted) {  // T-RESHAPE-DIV on the run-time dims
    const std::int64_t s = x.dims[static_cast<std::size_t>(j)];
    if (s % c != 0) {
      return make_status("T-RESHAPE-DIV", std::string(prim) + "(L=" + list_text(L) +
                                              ", S=" + std::to_string(c) + "): dimension " +
                                              std::to_string(j) + " of the stream (dims " +
                                              format_ints(x.dims) + ") has size " + std::to_string(s) +
                                              ", which is not a multiple of " + std::to_string(c));
    }
  }
  std::vector<std::int64_t> d;
  rule::reshape_dims(x.dims, sorted, c, d);
  r = keep_esh(x, std::move(d));
  return {};
}

Status apply_copy(const StreamValue& x, Relabel&& r, StreamValue& out) {
  StreamValue y;
  y.dims = std::move(r.dims);
  y.fields.resize(x.fields.size());
  for (std::size_t i = 0; i < x.fields.size(); ++i) {
    y.fields[i].esh = std::move(r.esh[i]);
    y.fields[i].data = x.fields[i].data;
  }
  out = std::move(y);
  return {};
}

Status apply_move(StreamValue&& x, Relabel&& r, StreamValue& out) {
  x.dims = std::move(r.dims);
  for (std::size_t i = 0; i < x.fields.size(); ++i) x.fields[i].esh = std::move(r.esh[i]);
  out = std::move(x);
  return {};
}

template <class ShapeFn>
Status relabel_copy(const StreamValue& x, StreamValue& out, ShapeFn shape) {
  Relabel r;
  if (auto st = shape(x, r); !st.ok()) return st;
  return apply_copy(x, std::move(r), out);
}

template <class ShapeFn>
Status relabel_move(StreamValue&& x, StreamValue& out, ShapeFn shape) {
  Relabel r;
  if (auto st = shape(x, r); !st.ok()) return st;
  return apply_move(std::move(x), std::move(r), out);
}

}  // namespace

Status bufferize(const StreamValue& x, int a, StreamValue& out) {
  return relabel_copy(x, out, [&](const StreamValue& v, Relabel& r) { return bufferize_shape(v, a, r); });
}
Status bufferize(StreamValue&& x, int a, StreamValue& out) {
  return relabel_move(std::move(x), out, [&](const StreamValue& v, Relabel& r) { return bufferize_shape(v, a, r); });
}
Status streamify(const StreamValue& x, int q, StreamValue& out) {
  return relabel_copy(x, out, [&](const StreamValue& v, Relabel& r) { return streamify_shape(v, q, r); });
}
Status streamify(StreamValue&& x, int q, StreamValue& out) {
  return relabel_move(std::move(x), out, [&](const StreamValue& v, Relabel& r) { return streamify_shape(v, q, r); });
}
Status promote(const StreamValue& x, int b, StreamValue& out) {
  return relabel_copy(x, out, [&](const StreamValue& v, Relabel& r) { return promote_shape(v, b, r); });
}
Status promote(StreamValue&& x, int b, StreamValue& out) {
  return relabel_move(std::move(x), out, [&](const StreamValue& v, Relabel& r) { return promote_shape(v, b, r); });
}
Status flatten(const StreamValue& x, int lo, int hi, StreamValue& out) {
  return relabel_copy(x, out, [&](const StreamValue& v, Relabel& r) { return flatten_shape(v, lo, hi, r); });
}
Status flatten(StreamValue&& x, int lo, int hi, StreamValue& out) {
  return relabel_move(std::move(x), out,
                      [&](const StreamValue& v, Relabel& r) { return flatten_shape(v, lo, hi, r); });
}
Status reshape(const StreamValue& x, std::vector<int> L, std::int64_t c, StreamValue& out) {
  return relabel_copy(x, out, [&](const StreamValue& v, Relabel& r) { return reshape_shape(v, std::move(L), c, r); });
}
Status reshape(StreamValue&& x, std::vector<int> L, std::int64_t c, StreamValue& out) {
  return relabel_move(std::move(x), out,
                      [&](const StreamValue& v, Relabel& r) { return reshape_shape(v, std::move(L), c, r); });
}

Status repeat(const StreamValue& x, std::int64_t n, Budget& budget, StreamValue& out) {
  const char* prim = prim_qualified(Prim::Repeat);
  if (auto st = validate(x, prim); !st.ok()) return st;
  if (n < 1) {  // a value check: n evaluated under the run's sizes
    return make_status("T-PARAM-VALUE",
                       std::string(prim) + ": n=" + std::to_string(n) + " is invalid: it must be positive");
  }
  if (auto st = budget.reserve(sat_mul(x.scalars(), n)); !st.ok()) return st;
  if (auto st = budget.check_time(); !st.ok()) return st;
  StreamValue y;
  rule::repeat_dims(x.dims, n, y.dims);
  const std::int64_t pos = x.positions();
  y.fields.resize(x.fields.size());
  for (std::size_t i = 0; i < x.fields.size(); ++i) {
    const auto& src = x.fields[i];
    auto& dst = y.fields[i];
    dst.esh = src.esh;
    const std::int64_t e = shape_size(src.esh);
    dst.data.resize(static_cast<std::size_t>(pos * n * e));
    float* w = dst.data.data();
    const float* s = src.data.data();
    for (std::int64_t p = 0; p < pos; ++p, s += e) {
      if (e == 1) {
        std::fill_n(w, n, *s);
        w += n;
      } else {
        for (std::int64_t c = 0; c < n; ++c, w += e) std::memcpy(w, s, static_cast<std::size_t>(e) * sizeof(float));
      }
    }
  }
  out = std::move(y);
  return {};
}

}  // namespace sf::sim
