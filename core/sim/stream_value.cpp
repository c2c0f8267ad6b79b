#include "core/sim/stream_value.hpp"

#include <cstdint>
#include <limits>

namespace sf::sim {

namespace {
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
}

std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) return 0;
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return kMax;
  return r;
}

std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
  std::int64_t p = 1;
  if (to > v.size()) to = v.size();
  for (std::size_t i = from; i < to; ++i) p = sat_mul(p, v[i]);
  return p;
}

std::int64_t shape_size(const Shape& esh) { return product(esh); }

std::int64_t StreamValue::positions() const { return product(dims); }

std::int64_t StreamValue::scalars() const {
  std::int64_t per = 0;
  for (const auto& f : fields) {
    std::int64_t s = shape_size(f.esh);
    if (__builtin_add_overflow(per, s, &per)) return kMax;
  }
  return sat_mul(positions(), per);
}

Status make_status(std::string code, std::string message) { return Status{std::move(code), std::move(message)}; }

Status ElementFn::call_batch(const float* const* in, const std::int64_t* in_strides, std::size_t nin,
                             const float* const* state, const std::int64_t* state_strides, float* const* out,
                             const std::int64_t* out_strides, std::int64_t count) {
  const std::size_t nout = out_esh().size();
  std::vector<const float*> ip(in, in + nin);
  std::vector<const float*> sp;
  if (state) sp.assign(state, state + nout);
  std::vector<float*> op(out, out + nout);
  for (std::int64_t e = 0; e < count; ++e) {
    if (auto st = call(ip.data(), state ? sp.data() : nullptr, op.data()); !st.ok()) return st;
    for (std::size_t i = 0; i < ip.size(); ++i) ip[i] += in_strides[i];
    for (std::size_t j = 0; j < sp.size(); ++j) sp[j] += state_strides[j];
    for (std::size_t j = 0; j < op.size(); ++j) op[j] += out_strides[j];
  }
  return {};
}

const std::vector<float>& ElementFn::init() const {
  static const std::vector<float> empty;
  return empty;
}

Status Budget::reserve(std::int64_t scalars) {
  if (scalars < 0) scalars = kMax;
  if (scalars > max_stream_scalars) {
    return make_status("L-ELEMENTS", "a stream would hold " + std::to_string(scalars) +
                                         " scalars, more than the limit of " + std::to_string(max_stream_scalars) +
                                         " per stream");
  }
  std::int64_t total = 0;
  if (__builtin_add_overflow(used_total, scalars, &total) || total > max_total_scalars) {
    return make_status("L-ELEMENTS", "the run would hold " +
                                         (total < 0 ? std::string("too many") : std::to_string(total)) +
                                         " scalars in all its streams, more than the limit of " +
                                         std::to_string(max_total_scalars));
  }
  used_total = total;
  return {};
}

Status Budget::check_time() {
  if (std::chrono::steady_clock::now() > deadline) {
    return make_status("L-TIME", "the run exceeded its wall-time limit");
  }
  return {};
}

std::string format_ints(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

Status validate(const StreamValue& x, const char* what) {
  if (x.dims.empty()) return make_status("R-INTERNAL", std::string(what) + ": stream without dims");
  if (x.fields.empty()) return make_status("R-INTERNAL", std::string(what) + ": stream without fields");
  for (auto d : x.dims) {
    if (d < 0) return make_status("R-INTERNAL", std::string(what) + ": negative dim");
  }
  const std::int64_t pos = x.positions();
  for (const auto& f : x.fields) {
    for (auto e : f.esh) {
      if (e < 0) return make_status("R-INTERNAL", std::string(what) + ": negative element dim");
    }
    const std::int64_t n = sat_mul(pos, shape_size(f.esh));
    if (n != static_cast<std::int64_t>(f.data.size())) {
      return make_status("R-INTERNAL", std::string(what) + ": field holds " + std::to_string(f.data.size()) +
                                           " scalars, dims " + format_ints(x.dims) + " and element shape " +
                                           format_ints(f.esh) + " need " + std::to_string(n));
    }
  }
  return {};
}

}  // namespace sf::sim
