#include "core/sim/datagen.hpp"

#include <cmath>
#include <numeric>

namespace sf::sim {

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

Rng::Rng(std::uint64_t seed, std::string_view tensor_name) : state_(mix64(seed ^ fnv1a64(tensor_name))) {}

std::uint64_t Rng::next() {
  state_ += 0x9E3779B97F4A7C15ULL;
  return mix64(state_);
}

float Rng::u24() { return static_cast<float>(next() >> 40) * 0x1p-24f; }

double Rng::u53() { return static_cast<double>(next() >> 11) * 0x1p-53; }

std::uint64_t Rng::bounded(std::uint64_t n) { return ((next() >> 32) * n) >> 32; }

bool parse_gen(std::string_view s, Gen& g) {
  if (s == "rand") g = Gen::Rand;
  else if (s == "randn") g = Gen::Randn;
  else if (s == "ones") g = Gen::Ones;
  else if (s == "binary") g = Gen::Binary;
  else if (s == "multihot") g = Gen::Multihot;
  else return false;
  return true;
}

Status generate(Gen g, std::uint64_t seed, std::string_view name, std::int64_t count, std::int64_t elem,
                double scale, int mh_min, int mh_max, std::vector<float>& out) {
  constexpr std::int64_t kMaxScalars = std::int64_t{1} << 27;  // above any configured budget; callers reserve first
  if (count < 0 || elem < 0 || sat_mul(count, elem) > kMaxScalars) {
    return make_status("X-DATAGEN", "input '" + std::string(name) + "': cannot generate " + std::to_string(count) +
                                        " elements of " + std::to_string(elem) + " scalars");
  }
  if (g == Gen::Multihot && !(0 <= mh_min && mh_min <= mh_max && mh_max <= elem)) {
    return make_status("X-DATAGEN", "input '" + std::string(name) + "': multihot needs 0 ≤ min ≤ max ≤ " +
                                        std::to_string(elem) + ", got min " + std::to_string(mh_min) + ", max " +
                                        std::to_string(mh_max));
  }
  const auto total = static_cast<std::size_t>(count * elem);
  out.assign(total, 0.0f);
  Rng rng(seed, name);
  switch (g) {
    case Gen::Ones:
      for (auto& v : out) v = static_cast<float>(1.0 * scale);
      break;
    case Gen::Rand:
      for (auto& v : out) v = static_cast<float>(static_cast<double>(rng.u24()) * scale);
      break;
    case Gen::Binary:
      for (auto& v : out) v = static_cast<float>(((rng.next() >> 63) ? 1.0 : 0.0) * scale);
      break;
    case Gen::Randn:
      for (std::size_t i = 0; i < total; i += 2) {
        double u = 0, v = 0, q = 0;
        do {
          u = 2.0 * rng.u53() - 1.0;
          v = 2.0 * rng.u53() - 1.0;
          q = u * u + v * v;
        } while (!(q > 0.0 && q < 1.0));
        const double f = std::sqrt(-2.0 * std::log(q) / q);
        out[i] = static_cast<float>(u * f * scale);
        if (i + 1 < total) out[i + 1] = static_cast<float>(v * f * scale);
      }
      break;
    case Gen::Multihot: {
      const auto L = static_cast<std::size_t>(elem);
      std::vector<std::size_t> perm(L);
      for (std::int64_t k = 0; k < count; ++k) {
        float* lane = out.data() + static_cast<std::size_t>(k) * L;
        const auto h = static_cast<std::size_t>(
            static_cast<std::uint64_t>(mh_min) + rng.bounded(static_cast<std::uint64_t>(mh_max - mh_min + 1)));
        std::iota(perm.begin(), perm.end(), std::size_t{0});
        for (std::size_t j = 0; j < h; ++j) {
          const std::size_t r = j + static_cast<std::size_t>(rng.bounded(L - j));
          std::swap(perm[j], perm[r]);
          lane[perm[j]] = 1.0f;
        }
      }
      break;
    }
  }
  return {};
}

}  // namespace sf::sim
