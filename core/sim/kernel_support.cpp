#include "core/sim/kernel_support.hpp"

namespace sf::sim::detail {

std::vector<std::int64_t> element_sizes(const StreamValue& x) {
  std::vector<std::int64_t> s;
  s.reserve(x.fields.size());
  for (const auto& f : x.fields) s.push_back(shape_size(f.esh));
  return s;
}

Status allocate_fn_output(const ElementFn& f, std::vector<std::int64_t> dims, Budget& budget, StreamValue& out,
                          std::vector<std::int64_t>& sizes) {
  const auto& oesh = f.out_esh();
  if (oesh.empty()) return make_status("R-INTERNAL", "fn declares no output field");
  sizes.clear();
  std::int64_t per = 0;
  for (const auto& e : oesh) {
    sizes.push_back(shape_size(e));
    per = (per > INT64_MAX - sizes.back()) ? INT64_MAX : per + sizes.back();
  }
  const std::int64_t pos = product(dims);
  if (auto st = budget.reserve(sat_mul(pos, per)); !st.ok()) return st;
  out.dims = std::move(dims);
  out.fields.clear();
  out.fields.resize(oesh.size());
  for (std::size_t j = 0; j < oesh.size(); ++j) {
    out.fields[j].esh = oesh[j];
    out.fields[j].data.assign(static_cast<std::size_t>(pos * sizes[j]), 0.0f);
  }
  return {};
}

Status make_init(const ElementFn& f, const std::vector<std::int64_t>& sizes,
                 std::vector<std::vector<float>>& bufs, std::vector<const float*>& ptrs, step::Prim prim) {
  const auto& init = f.init();
  if (init.size() != sizes.size()) {
    return make_status("R-INTERNAL", std::string(step::prim_qualified(prim)) +
                                         " needs a stateful fn with one init value per " + "output field (" +
                                         std::to_string(sizes.size()) + "), got " +
                                         std::to_string(init.size()));
  }
  bufs.assign(sizes.size(), {});
  ptrs.assign(sizes.size(), nullptr);
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    bufs[j].assign(static_cast<std::size_t>(sizes[j]), init[j]);
    ptrs[j] = bufs[j].data();
  }
  return {};
}

Scratch::Scratch(const std::vector<std::int64_t>& sizes) : bufs(sizes.size()), ptrs(sizes.size()) {
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    bufs[j].assign(static_cast<std::size_t>(sizes[j]), 0.0f);
    ptrs[j] = bufs[j].data();
  }
}

std::string rank_message(step::Prim prim, const char* param, int k, const StreamValue& x, const char* what) {
  return std::string(step::prim_qualified(prim)) + "(" + param + "=" + std::to_string(k) + ") " + what +
         ", so " + param + " must be between 1 and the rank of the stream (dims " + format_ints(x.dims) +
         ", rank " + std::to_string(x.rank()) + ")";
}

}  // namespace sf::sim::detail
