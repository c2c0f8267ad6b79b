// Map, Zip, Accum, Scan (step-dialect §7.1–7.4).
#include <algorithm>

#include "core/sim/kernel_support.hpp"
#include "core/sim/kernels.hpp"
#include "core/step/prim_rules.hpp"

namespace sf::sim {

using detail::kTimeStride;
using step::Prim;
using step::prim_qualified;
namespace rule = step::rule;

Status map(const StreamValue& x, ElementFn& f, Budget& budget, StreamValue& out) {
  if (auto st = validate(x, prim_qualified(Prim::Map)); !st.ok()) return st;
  std::vector<std::int64_t> osz;
  if (auto st = detail::allocate_fn_output(f, x.dims, budget, out, osz); !st.ok()) return st;
  const auto isz = detail::element_sizes(x);
  const std::int64_t n = x.positions();
  std::vector<const float*> in(x.fields.size());
  std::vector<float*> o(osz.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = x.fields[i].data.data();
  for (std::size_t j = 0; j < o.size(); ++j) o[j] = out.fields[j].data.data();
  // Chunks of kTimeStride elements: the deadline is read before each chunk, as before every kTimeStride-th
  // element of an element-by-element loop.
  for (std::int64_t p = 0; p < n; p += kTimeStride) {
    if (auto st = budget.check_time(); !st.ok()) return st;
    const std::int64_t c = std::min(kTimeStride, n - p);
    if (auto st = f.call_batch(in.data(), isz.data(), in.size(), nullptr, nullptr, o.data(), osz.data(), c); !st.ok()) return st;
    for (std::size_t i = 0; i < in.size(); ++i) in[i] += c * isz[i];
    for (std::size_t j = 0; j < o.size(); ++j) o[j] += c * osz[j];
  }
  return {};
}

namespace {
// Zip's checks of its streams, in order: at least two; each valid (not null); the first whose dims differ
// from stream 0's (the rule) is T-ZIP-DIMS.
template <class At>
Status zip_check(std::size_t n, At&& at) {
  const char* zip = prim_qualified(Prim::Zip);
  if (n < 2) return make_status("T-ARG", std::string(zip) + "().apply expects a tuple of at least 2 streams");
  for (std::size_t j = 0; j < n; ++j) {
    const StreamValue* x = at(j);
    if (!x) return make_status("R-INTERNAL", std::string(zip) + ": null stream");
    if (auto st = validate(*x, zip); !st.ok()) return st;
  }
  const auto dims = [&](std::size_t j) -> const std::vector<std::int64_t>& { return at(j)->dims; };
  if (const std::size_t j = rule::zip_mismatch(n, dims); j < n) {
    return make_status("T-ZIP-DIMS", std::string(zip) + " needs streams with equal dims, but stream " +
                                         std::to_string(j) + " (dims " + format_ints(dims(j)) +
                                         ") differs from stream 0 (dims " + format_ints(dims(0)) + ")");
  }
  return {};
}
}  // namespace

Status zip(const std::vector<const StreamValue*>& xs, StreamValue& out) {
  if (auto st = zip_check(xs.size(), [&](std::size_t j) { return xs[j]; }); !st.ok()) return st;
  StreamValue r;
  r.dims = xs[0]->dims;
  for (const auto* x : xs) r.fields.insert(r.fields.end(), x->fields.begin(), x->fields.end());
  out = std::move(r);
  return {};
}

Status zip_move(std::vector<StreamValue>&& xs, StreamValue& out) {
  if (auto st = zip_check(xs.size(), [&](std::size_t j) { return &xs[j]; }); !st.ok()) return st;
  StreamValue r;
  r.dims = xs[0].dims;
  for (auto& x : xs) {
    for (auto& fld : x.fields) r.fields.push_back(std::move(fld));
  }
  out = std::move(r);
  return {};
}

namespace {

// Folding chains in lock step pays off from this many chains (outer positions) on.
constexpr std::int64_t kMinChains = 4;

// Accum/Scan for a fn whose calls cannot fail: step i of every chain (outer position) in one call_batch, so
// each chain sees exactly the calls of the chain-by-chain loop, in the same order. Accum keeps the running
// states of all chains in two ping-pong buffers; Scan's states are its previous outputs.
Status fold_chains(const StreamValue& x, const std::vector<std::int64_t>& isz, std::int64_t inner,
                   std::int64_t outer, ElementFn& f, Budget& budget, StreamValue& out,
                   const std::vector<std::int64_t>& osz, const std::vector<const float*>& init, bool inclusive) {
  const std::size_t nf = osz.size(), nin = x.fields.size();
  // Three allocations for every pointer and stride array, one for the ping-pong states of all fields (Accum:
  // ping of field k, then pong of field k after all pings; pong only from three steps on).
  std::vector<const float*> cptr(nin + nf);
  std::vector<float*> fptr(3 * nf, nullptr);
  std::vector<std::int64_t> strides(nin + 2 * nf, 0);
  const float** in = cptr.data();
  const float** state = in + nin;
  float** target = fptr.data();
  float** ping = target + nf;
  float** pong = ping + nf;
  std::int64_t* istr = strides.data();
  std::int64_t* sstr = istr + nin;
  std::int64_t* ostr = sstr + nf;
  std::vector<float> states;
  if (!inclusive && inner > 1) {
    std::size_t per = 0;
    for (std::size_t k = 0; k < nf; ++k) per += static_cast<std::size_t>(outer * osz[k]);
    states.resize(inner > 2 ? 2 * per : per);
    float* p = states.data();
    for (std::size_t k = 0; k < nf; ++k) {
      ping[k] = p;
      p += outer * osz[k];
    }
    for (std::size_t k = 0; k < nf && inner > 2; ++k) {
      pong[k] = p;
      p += outer * osz[k];
    }
  }
  for (std::size_t k = 0; k < nin; ++k) istr[k] = inner * isz[k];
  for (std::size_t k = 0; k < nf; ++k) state[k] = init[k];  // stride 0: every chain starts from init
  std::int64_t calls = 0, next_check = 0;
  for (std::int64_t i = 0; i < inner; ++i, calls += outer) {
    if (calls >= next_check) {
      if (auto st = budget.check_time(); !st.ok()) return st;
      next_check = calls + kTimeStride;
    }
    for (std::size_t k = 0; k < nin; ++k) in[k] = x.fields[k].data.data() + i * isz[k];
    for (std::size_t k = 0; k < nf; ++k) {
      if (inclusive) {
        target[k] = out.fields[k].data.data() + i * osz[k];
        ostr[k] = inner * osz[k];
      } else {
        target[k] = i == inner - 1 ? out.fields[k].data.data() : (i % 2 == 0 ? ping[k] : pong[k]);
        ostr[k] = osz[k];
      }
    }
    if (auto st = f.call_batch(in, istr, nin, state, sstr, target, ostr, outer); !st.ok()) return st;
    for (std::size_t k = 0; k < nf; ++k) {
      state[k] = target[k];
      sstr[k] = ostr[k];
    }
  }
  return {};
}

// Shared driver of Accum (inclusive=false) and Scan (inclusive=true).
Status fold(const StreamValue& x, int b, ElementFn& f, Budget& budget, StreamValue& out, bool inclusive) {
  const Prim prim = inclusive ? Prim::Scan : Prim::Accum;
  if (auto st = validate(x, prim_qualified(prim)); !st.ok()) return st;
  if (const rule::Check chk = rule::fold_depth(b, x.rank()); !chk.ok()) {
    return make_status(chk.code, detail::rank_message(prim, "b", b, x, "reduces the innermost dimension(s)"));
  }
  const auto ub = static_cast<std::size_t>(b);
  const std::int64_t inner = product(x.dims, 0, ub);
  const std::int64_t outer = product(x.dims, ub);
  std::vector<std::int64_t> odims;
  if (inclusive) {
    rule::scan_dims(x.dims, odims);
  } else {
    rule::accum_dims(x.dims, b, odims);
  }
  std::vector<std::int64_t> osz;
  // Check init before reserving so a malformed fn does not consume budget.
  std::vector<std::vector<float>> init_bufs;
  std::vector<const float*> init_ptrs;
  {
    std::vector<std::int64_t> sizes;
    for (const auto& e : f.out_esh()) sizes.push_back(shape_size(e));
    if (auto st = detail::make_init(f, sizes, init_bufs, init_ptrs, prim); !st.ok()) return st;
  }
  if (auto st = detail::allocate_fn_output(f, std::move(odims), budget, out, osz); !st.ok()) return st;
  const auto isz = detail::element_sizes(x);
  const std::size_t nf = osz.size();
  if (f.infallible() && outer >= kMinChains && inner > 0)
    return fold_chains(x, isz, inner, outer, f, budget, out, osz, init_ptrs, inclusive);
  detail::Scratch a(osz), c(osz);
  std::vector<const float*> in(x.fields.size());
  // Pointer arrays: out_at = the output element being written, prev = Scan's previous output element.
  std::vector<float*> out_at(nf), prev(nf);
  std::int64_t calls = 0;
  for (std::int64_t j = 0; j < outer; ++j) {
    if (inner == 0 && !inclusive) {
      for (std::size_t k = 0; k < nf; ++k) {
        std::copy(init_bufs[k].begin(), init_bufs[k].end(), out.fields[k].data.begin() + j * osz[k]);
      }
      continue;
    }
    const float* const* state = init_ptrs.data();
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = x.fields[k].data.data() + inner * j * isz[k];
    if (!inclusive) {
      for (std::size_t k = 0; k < nf; ++k) out_at[k] = out.fields[k].data.data() + j * osz[k];
    }
    for (std::int64_t i = 0; i < inner; ++i, ++calls) {
      if (calls % kTimeStride == 0) {
        if (auto st = budget.check_time(); !st.ok()) return st;
      }
      float* const* target = nullptr;
      if (inclusive) {
        const std::int64_t p = i + inner * j;
        std::swap(out_at, prev);  // prev keeps the element just written (the state)
        for (std::size_t k = 0; k < nf; ++k) out_at[k] = out.fields[k].data.data() + p * osz[k];
        target = out_at.data();
      } else if (i == inner - 1) {
        target = out_at.data();
      } else {
        target = (i % 2 == 0) ? a.ptrs.data() : c.ptrs.data();
      }
      if (auto st = f.call(in.data(), state, target); !st.ok()) return st;
      for (std::size_t k = 0; k < in.size(); ++k) in[k] += isz[k];
      state = target;
    }
  }
  return {};
}

}  // namespace

Status accum(const StreamValue& x, int b, ElementFn& f, Budget& budget, StreamValue& out) {
  return fold(x, b, f, budget, out, false);
}

Status scan(const StreamValue& x, int b, ElementFn& f, Budget& budget, StreamValue& out) {
  return fold(x, b, f, budget, out, true);
}

}  // namespace sf::sim
