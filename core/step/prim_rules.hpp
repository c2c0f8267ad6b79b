// Each primitive's result-type rule (step-dialect §8), written once: which output dims a primitive's
// application has, given its input dims and parameters, and when it has none (a failed condition: the
// diagnostic code and which part failed). The rules are written over the dims' representation `V` (a vector
// of dims, innermost-first): the type checker (typecheck_prims.cpp) applies them to symbolic dims
// (step::Dims), the simulator's kernels (core/sim/kernels_*.cpp) to the concrete dims of run-time values
// (std::vector<std::int64_t>), the synthesizer (core/synth/op.cpp) to its candidate steps' types. Each caller
// writes its own message from a failure (the type checker's are the spec's T-* texts at their locations, the
// kernels' shortened forms of them, the synthesizer drops the candidate), so a rule carries no text.
//
// The element side of a rule (a tuple or a Buffer element, Multihot lanes) is given to a rule as plain facts
// (is it a tuple, does it carry buffers, the buffer's dims); each representation keeps its own element type
// (step::DType, or the simulator's fields and element shapes) and builds it from what the rule says moves
// between the stream's dims and the element (Bufferize's packed dims, Streamify's buffer dims).
//
// Plain inline functions: no allocation beyond the output dims, nothing on the heap for a failure.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>

#include "core/step/dim.hpp"

namespace sf::step::rule {

// Which condition of a rule failed.
enum class Why : unsigned char {
  Ok,
  Rank,       // T-RANK: a parameter counts more innermost dims than the stream has (or fewer than one)
  Tuple,      // T-BUF-TUPLE: Bufferize of tuple elements
  NotBuffer,  // T-NOT-BUFFER: Streamify of elements that are not buffers
  Range,      // T-PARAM-VALUE: a dimension index or position outside the stream's rank
  Empty,      // T-PARAM-VALUE: Reshape's L is empty
  Duplicate,  // T-PARAM-VALUE: Reshape's L repeats an index
  Dims,       // T-ZIP-DIMS / T-SEL-DIMS / T-MERGE-LIST: dims that must agree do not
  RefRank,    // T-REF: the reference's rank is not the data's + 1
  RefDims,    // T-REF: the reference's outer dims are not the data's dims
  SelType,    // T-SEL-TYPE: the selector does not carry Multihot elements
  SelLanes,   // T-SEL-N: the selector's lanes are not the count it routes over
};

// A rule's verdict: ok, or the diagnostic code of the failed condition and which one.
struct Check {
  const char* code = nullptr;  // null: the rule holds
  Why why = Why::Ok;
  bool ok() const { return code == nullptr; }
};

inline constexpr Check kOk{};
inline constexpr Check fail(const char* code, Why why) {
  return Check{code, why};
}

// The rank of a stream with these dims (dims s0..sr: rank r = size − 1).
template <class V>
int rank_of(const V& dims) {
  return static_cast<int>(dims.size()) - 1;
}

// ---- dims arithmetic of the two representations -------------------------------------------------------
inline Dim unit(const Dim&) {
  return Dim::constant(1);
}
inline std::int64_t unit(std::int64_t) {
  return 1;
}
inline Dim times(const Dim& a, const Dim& b) {
  return a * b;
}
// Concrete dims multiply saturating (they are non-negative), as the simulator's products do.
inline std::int64_t times(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
inline Dim quotient(const Dim& a, const Dim& b) {
  return a / b;
}
inline std::int64_t quotient(std::int64_t a, std::int64_t b) {
  return a / b;
}

// ---- one-input primitives -------------------------------------------------------------------------------

// Accum(b) and Scan(b) fold the b innermost dims: 1 ≤ b ≤ rank.
inline Check fold_depth(int b, int r) {
  return b < 1 || b > r ? fail("T-RANK", Why::Rank) : kOk;
}

// Accum(b): dims s → s[b:] (b checked by fold_depth).
template <class V>
void accum_dims(const V& x, int b, V& out) {
  out.assign(x.begin() + b, x.end());
}
// Scan(b): dims s → s (b checked by fold_depth).
template <class V>
void scan_dims(const V& x, V& out) {
  out = x;
}

// Bufferize(a): no tuple elements; 1 ≤ a ≤ rank; dims s → s[a:], and the element becomes a Buffer of
// bufferize_packed(s, a) (outside an existing buffer's dims, which stay inner).
template <class V>
Check bufferize(const V& x, bool tuple_elements, int a, V* out) {
  if (tuple_elements) return fail("T-BUF-TUPLE", Why::Tuple);
  if (a < 1 || a > rank_of(x)) return fail("T-RANK", Why::Rank);
  if (out) out->assign(x.begin() + a, x.end());
  return kOk;
}
// The dims Bufferize(a) packs into the element: s[:a], innermost-first (a checked by bufferize).
template <class V>
std::span<const typename V::value_type> bufferize_packed(const V& x, int a) {
  return std::span<const typename V::value_type>(x.data(), static_cast<std::size_t>(a));
}

// Streamify: the elements must be buffers (one field, a buffer whose dims, innermost-first, are the range
// `buffer`); dims s → buffer ++ s, and the element loses its buffer.
template <class V, class Range>
Check streamify(const V& x, bool buffer_elements, const Range& buffer, V* out) {
  if (!buffer_elements) return fail("T-NOT-BUFFER", Why::NotBuffer);
  if (out) {
    out->clear();
    out->reserve(static_cast<std::size_t>(std::distance(std::begin(buffer), std::end(buffer))) + x.size());
    out->insert(out->end(), std::begin(buffer), std::end(buffer));
    out->insert(out->end(), x.begin(), x.end());
  }
  return kOk;
}

// Promote(b): 0 ≤ b ≤ rank + 1; a size-1 dim is inserted before s_b.
template <class V>
Check promote(const V& x, int b, V* out) {
  if (b < 0 || b > rank_of(x) + 1) return fail("T-PARAM-VALUE", Why::Range);
  if (out) {
    *out = x;
    out->insert(out->begin() + b, unit(typename V::value_type{}));
  }
  return kOk;
}

// Repeat(n): dims s → [n] ++ s (a new innermost dim).
template <class V>
void repeat_dims(const V& x, const typename V::value_type& n, V& out) {
  out.clear();
  out.reserve(x.size() + 1);
  out.push_back(n);
  out.insert(out.end(), x.begin(), x.end());
}

// Flatten(L=[lo..hi]): 1 ≤ lo ≤ hi ≤ rank (L's entries consecutive: the caller's reading of L).
inline Check flatten_span(std::int64_t lo, std::int64_t hi, int r) {
  return lo < 1 || hi < lo || hi > r ? fail("T-PARAM-VALUE", Why::Range) : kOk;
}
// Flatten: dims l−1..h become one dim, their product (span checked by flatten_span).
template <class V>
void flatten_dims(const V& x, int lo, int hi, V& out) {
  auto prod = x[static_cast<std::size_t>(lo - 1)];
  for (int j = lo; j <= hi; ++j) prod = times(prod, x[static_cast<std::size_t>(j)]);
  out.assign(x.begin(), x.begin() + (lo - 1));
  out.push_back(std::move(prod));
  out.insert(out.end(), x.begin() + hi + 1, x.end());
}

// Reshape(L, S): L, sorted, non-empty, distinct, every index between 0 and the rank.
template <class Int>
Check reshape_indices(std::span<const Int> sorted_L, int r) {
  if (sorted_L.empty()) return fail("T-PARAM-VALUE", Why::Empty);
  if (std::adjacent_find(sorted_L.begin(), sorted_L.end()) != sorted_L.end())
    return fail("T-PARAM-VALUE", Why::Duplicate);
  if (sorted_L.front() < 0 || sorted_L.back() > r) return fail("T-PARAM-VALUE", Why::Range);
  return kOk;
}
// Reshape: every dim s_j with j in L becomes [c, s_j / c] (indices checked by reshape_indices; that the
// value of s_j is a multiple of c is T-RESHAPE-DIV, checked by the caller on values: under every size
// binding in the type checker, on the run-time dims in the simulator).
template <class V, class Int>
void reshape_dims(const V& x, std::span<const Int> sorted_L, const typename V::value_type& c, V& out) {
  out.clear();
  out.reserve(x.size() + sorted_L.size());
  std::size_t k = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (k < sorted_L.size() && static_cast<std::size_t>(sorted_L[k]) == j) {
      ++k;
      out.push_back(c);
      out.push_back(quotient(x[j], c));
    } else {
      out.push_back(x[j]);
    }
  }
}

// ---- several streams ------------------------------------------------------------------------------------

// Zip (and Map's auto-zip): every stream's dims equal the first's; the result has those dims. `dims_of(j)`
// gives stream j's dims. Returns the first stream whose dims differ, or n when they all agree.
template <class DimsOf>
std::size_t zip_mismatch(std::size_t n, DimsOf&& dims_of) {
  for (std::size_t j = 1; j < n; ++j)
    if (!(dims_of(j) == dims_of(0))) return j;
  return n;
}

// RepeatRef: the reference has rank r+1 and dims [v] ++ the data's dims; dims s → [v] ++ s.
template <class V>
Check repeat_ref(const V& data, const V& ref, V* out) {
  const int r = rank_of(data);
  if (rank_of(ref) != r + 1) return fail("T-REF", Why::RefRank);
  if (!std::equal(data.begin(), data.end(), ref.begin() + 1)) return fail("T-REF", Why::RefDims);
  if (out) repeat_dims(data, ref[0], *out);
  return kOk;
}

// A selector (Partition, Merge) carries Multihot elements (one field, not a buffer, Multihot).
inline Check selector_type(bool multihot_elements) {
  return multihot_elements ? kOk : fail("T-SEL-TYPE", Why::SelType);
}
// ... with as many lanes as it routes over (Partition's N, Merge's list length); lanes unknown: a failure.
inline Check selector_lanes(bool lanes_known, std::int64_t lanes, std::int64_t n) {
  return lanes_known && lanes == n ? kOk : fail("T-SEL-N", Why::SelLanes);
}

// Partition: the selector's dims are the data's outer dims s[p:] (p = data rank − selector rank ≥ 0).
template <class V>
Check partition_selector(const V& data, const V& sel) {
  const int r = rank_of(data), rc = rank_of(sel);
  if (rc > r || !std::equal(sel.begin(), sel.end(), data.begin() + (r - rc)))
    return fail("T-SEL-DIMS", Why::Dims);
  return kOk;
}
// Partition: each of the N outputs has dims s[:p] ++ [its own chunk count] (selector checked).
template <class V>
void partition_dims(const V& data, const V& sel, const typename V::value_type& count, V& out) {
  const auto p = data.size() - sel.size();
  out.assign(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(p));
  out.push_back(count);
}

// Merge: stream e of the list has the first's rank and all its dims but the outermost (its chunk count)
// (the element types must agree too: `same_elements`).
template <class V>
Check merge_item(const V& item, const V& first, bool same_elements) {
  if (!same_elements || item.size() != first.size() ||
      !std::equal(item.begin(), item.end() - 1, first.begin()))
    return fail("T-MERGE-LIST", Why::Dims);
  return kOk;
}
// Merge: dims common ++ q, with common the list's dims but the outermost and q the selector's dims.
template <class V>
void merge_dims(const V& first, const V& sel, V& out) {
  out.assign(first.begin(), first.end() - 1);
  out.insert(out.end(), sel.begin(), sel.end());
}

}  // namespace sf::step::rule
