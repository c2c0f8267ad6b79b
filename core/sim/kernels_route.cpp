// Partition and Merge (step-dialect §7.13, §7.14).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/sim/kernel_support.hpp"
#include "core/sim/kernels.hpp"
#include "core/step/prim_rules.hpp"

namespace sf::sim {

using detail::kTimeStride;
using step::Prim;
using step::prim_qualified;
namespace rule = step::rule;

namespace {

// The selector must be one Multihot field of n lanes whose entries are exactly 0 or 1 (a selector that is a
// task input is not checked by any fn, so an entry such as 0.5 would otherwise route silently as 0). A
// Multihot element is one field of element shape (lanes).
Status check_selector(const StreamValue& sel, std::int64_t n, Prim p) {
  const char* prim = prim_qualified(p);
  if (auto st = validate(sel, prim); !st.ok()) return st;
  if (const rule::Check chk = rule::selector_type(sel.fields.size() == 1 && sel.fields[0].esh.size() == 1);
      !chk.ok()) {
    return make_status(chk.code, std::string(prim) + ": the selector (dims " + format_ints(sel.dims) +
                                     ") must carry Multihot elements");
  }
  if (const rule::Check chk = rule::selector_lanes(true, sel.fields[0].esh[0], n); !chk.ok()) {
    return make_status(chk.code, std::string(prim) + ": the selector has " +
                                     std::to_string(sel.fields[0].esh[0]) + " lanes but " +
                                     std::to_string(n) + " are needed");
  }
  const auto& d = sel.fields[0].data;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == 0.0f || d[i] == 1.0f) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(d[i]));
    const auto lanes = static_cast<std::size_t>(std::max<std::int64_t>(n, 1));
    return make_status("R-MULTIHOT", std::string(prim) + ": the selector has entry " + buf + " at position " +
                                         std::to_string(i / lanes) + ", lane " + std::to_string(i % lanes) +
                                         " (entries must be exactly 0 or 1)");
  }
  return {};
}

// Number of selector positions that set each lane (a lane is set iff its value is exactly 1.0).
std::vector<std::int64_t> lane_counts(const StreamValue& sel, std::int64_t n) {
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(n), 0);
  const float* s = sel.fields[0].data.data();
  const std::int64_t q = sel.positions();
  for (std::int64_t u = 0; u < q; ++u, s += n) {
    for (std::int64_t e = 0; e < n; ++e) cnt[static_cast<std::size_t>(e)] += (s[e] == 1.0f) ? 1 : 0;
  }
  return cnt;
}

}  // namespace

Status partition(const StreamValue& x, const StreamValue& sel, int n, Budget& budget, std::vector<StreamValue>& out) {
  const char* prim = prim_qualified(Prim::Partition);
  if (auto st = validate(x, prim); !st.ok()) return st;
  if (n < 1)
    return make_status("T-PARAM-VALUE", std::string(prim) + ": N=" + std::to_string(n) + " is invalid");
  if (auto st = check_selector(sel, n, Prim::Partition); !st.ok()) return st;
  if (const rule::Check chk = rule::partition_selector(x.dims, sel.dims); !chk.ok()) {
    return make_status(chk.code, std::string(prim) + ": the selector dims " + format_ints(sel.dims) +
                                     " must equal the " + std::to_string(sel.rank() + 1) +
                                     " outermost dims of the data (dims " + format_ints(x.dims) + ")");
  }
  const auto up = x.dims.size() - sel.dims.size();    // p = data rank − selector rank
  const std::int64_t chunk = product(x.dims, 0, up);  // positions per chunk
  const auto cnt = lane_counts(sel, n);
  const auto esz = detail::element_sizes(x);
  std::int64_t per = 0;
  for (auto e : esz) per += e;
  for (auto c : cnt) {
    if (auto st = budget.reserve(sat_mul(sat_mul(c, chunk), per)); !st.ok()) return st;
  }
  if (auto st = budget.check_time(); !st.ok()) return st;
  std::vector<StreamValue> res(static_cast<std::size_t>(n));
  for (std::size_t e = 0; e < res.size(); ++e) {
    rule::partition_dims(x.dims, sel.dims, cnt[e], res[e].dims);
    res[e].fields.resize(x.fields.size());
    for (std::size_t i = 0; i < x.fields.size(); ++i) {
      res[e].fields[i].esh = x.fields[i].esh;
      res[e].fields[i].data.reserve(static_cast<std::size_t>(cnt[e] * chunk * esz[i]));
    }
  }
  const float* s = sel.fields[0].data.data();
  const std::int64_t q = sel.positions();
  for (std::int64_t u = 0; u < q; ++u, s += n) {
    for (std::int64_t e = 0; e < n; ++e) {
      if (s[e] != 1.0f) continue;
      for (std::size_t i = 0; i < x.fields.size(); ++i) {
        const std::int64_t len = chunk * esz[i];
        const float* src = x.fields[i].data.data() + u * len;
        auto& dst = res[static_cast<std::size_t>(e)].fields[i].data;
        dst.insert(dst.end(), src, src + len);
      }
    }
  }
  out = std::move(res);
  return {};
}

Status merge(const std::vector<const StreamValue*>& ins, const StreamValue& sel, ElementFn& f,
             std::string_view list_name, Budget& budget, StreamValue& out) {
  const char* prim = prim_qualified(Prim::Merge);
  if (ins.empty()) return make_status("T-ARG", std::string(prim) + " needs a list of at least one stream");
  const auto n = static_cast<std::int64_t>(ins.size());
  for (const auto* in : ins) {
    if (!in) return make_status("R-INTERNAL", std::string(prim) + ": null stream");
    if (auto st = validate(*in, prim); !st.ok()) return st;
  }
  const StreamValue& x0 = *ins[0];
  const std::size_t a = x0.dims.size() - 1;  // rank of the inputs
  for (std::size_t e = 0; e < ins.size(); ++e) {
    const StreamValue& xe = *ins[e];
    bool same_elements = xe.fields.size() == x0.fields.size();
    for (std::size_t i = 0; same_elements && i < xe.fields.size(); ++i)
      same_elements = xe.fields[i].esh == x0.fields[i].esh;
    if (const rule::Check chk = rule::merge_item(xe.dims, x0.dims, same_elements); !chk.ok()) {
      return make_status(chk.code, std::string(prim) + ": the streams of " + std::string(list_name) +
                                       " must share dtype and all dims but the outermost; stream " +
                                       std::to_string(e) + " has dims " + format_ints(xe.dims));
    }
  }
  if (auto st = check_selector(sel, n, Prim::Merge); !st.ok()) return st;
  const auto cnt = lane_counts(sel, n);
  for (std::size_t e = 0; e < ins.size(); ++e) {
    const std::int64_t m = ins[e]->dims[a];
    if (cnt[e] != m) {
      return make_status("R-MERGE-COUNT", std::string(prim) + ": stream " + std::to_string(e) + " of " +
                                              std::string(list_name) + " has " + std::to_string(m) +
                                              " chunks but the selector selects it " +
                                              std::to_string(cnt[e]) + " times");
    }
  }
  std::vector<std::int64_t> osz;
  std::vector<std::vector<float>> init_bufs;
  std::vector<const float*> init_ptrs;
  {
    std::vector<std::int64_t> sizes;
    for (const auto& e : f.out_esh()) sizes.push_back(shape_size(e));
    if (auto st = detail::make_init(f, sizes, init_bufs, init_ptrs, Prim::Merge); !st.ok()) return st;
  }
  std::vector<std::int64_t> odims;
  rule::merge_dims(x0.dims, sel.dims, odims);
  if (auto st = detail::allocate_fn_output(f, std::move(odims), budget, out, osz); !st.ok()) return st;

  const std::int64_t P = product(x0.dims, 0, a);  // positions of the common dims
  const std::int64_t Q = sel.positions();
  const auto isz = detail::element_sizes(x0);
  const std::size_t nf = osz.size();
  detail::Scratch ping(osz), pong(osz);
  std::vector<std::int64_t> cur(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> lanes;
  lanes.reserve(static_cast<std::size_t>(n));
  std::vector<const float*> in(x0.fields.size());
  std::vector<const float*> state(nf);
  std::vector<float*> target(nf);
  const float* s = sel.fields[0].data.data();
  std::int64_t calls = 0;
  for (std::int64_t u = 0; u < Q; ++u, s += n) {
    lanes.clear();
    for (std::int64_t e = 0; e < n; ++e) {
      if (s[e] == 1.0f) lanes.push_back(e);
    }
    for (std::int64_t w = 0; w < P; ++w) {
      const std::int64_t y = w + P * u;
      if (lanes.empty()) {
        for (std::size_t k = 0; k < nf; ++k) {
          std::copy(init_bufs[k].begin(), init_bufs[k].end(), out.fields[k].data.begin() + y * osz[k]);
        }
        continue;
      }
      state = init_ptrs;
      for (std::size_t li = 0; li < lanes.size(); ++li, ++calls) {
        if (calls % kTimeStride == 0) {
          if (auto st = budget.check_time(); !st.ok()) return st;
        }
        const auto e = static_cast<std::size_t>(lanes[li]);
        const std::int64_t p = w + P * cur[e];
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = ins[e]->fields[i].data.data() + p * isz[i];
        if (li + 1 == lanes.size()) {
          for (std::size_t k = 0; k < nf; ++k) target[k] = out.fields[k].data.data() + y * osz[k];
        } else {
          target = (li % 2 == 0) ? ping.ptrs : pong.ptrs;
        }
        if (auto st = f.call(in.data(), state.data(), target.data()); !st.ok()) return st;
        for (std::size_t k = 0; k < nf; ++k) state[k] = target[k];
      }
    }
    for (auto e : lanes) ++cur[static_cast<std::size_t>(e)];
  }
  return {};
}

}  // namespace sf::sim
