#include "core/sim/datagen.hpp"

#include <cmath>
#include <numeric>
#include <string>

namespace sf::sim {

Rng::Rng(std::uint64_t seed, std::string_view tensor_name) : stream_(mix64(seed ^ fnv1a64(tensor_name))) {}

std::uint64_t Rng::next() { return stream_.next(); }

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

StructureMode structure_mode(std::uint64_t seed, std::string_view name) {
  Rng r(seed, std::string(name) + "#structure");
  return static_cast<StructureMode>(r.bounded(4));
}

Status generate(Gen g, std::uint64_t seed, std::string_view name, std::int64_t count, std::int64_t elem,
                double scale, int mh_min, int mh_max, std::vector<float>& out, Structure structure) {
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
    case Gen::Binary: {
      // Structure::Varied draws the structure from the tensor's structure stream: P(1) = 1/2 (uniform,
      // bit-exact §11.2: 1 iff the top bit is set), 1/4 (skewed), 1/8 (sparse: long all-zero runs) or 7/8
      // (dense).
      const StructureMode mode =
          structure == Structure::Varied ? structure_mode(seed, name) : StructureMode::Uniform;
      const std::uint64_t at_least = mode == StructureMode::Skewed   ? 0xC000000000000000ULL
                                     : mode == StructureMode::Sparse ? 0xE000000000000000ULL
                                     : mode == StructureMode::Dense  ? 0x2000000000000000ULL
                                                                     : 0x8000000000000000ULL;
      for (auto& v : out) v = static_cast<float>((rng.next() >= at_least ? 1.0 : 0.0) * scale);
      break;
    }
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
      // Structure::Varied draws the structure from the tensor's structure stream: uniform (§11.2); skewed
      // (one favoured lane takes a hot slot first 3 times in 4); an empty lane (one lane never selected, when
      // max < L); extreme counts (every position has min or max hot lanes: all-zero rows when min = 0, full
      // rows when max = L). Every mode keeps min ≤ hot lanes ≤ max.
      const auto L = static_cast<std::size_t>(elem);
      StructureMode mode =
          structure == Structure::Varied ? structure_mode(seed, name) : StructureMode::Uniform;
      Rng srng(seed, std::string(name) + "#lanes");
      const std::size_t special = L > 0 ? static_cast<std::size_t>(srng.bounded(L)) : 0;
      if (mode == StructureMode::Sparse && static_cast<std::size_t>(mh_max) >= L)
        mode = StructureMode::Uniform;
      std::vector<std::size_t> perm(L);
      for (std::int64_t k = 0; k < count; ++k) {
        float* lane = out.data() + static_cast<std::size_t>(k) * L;
        std::uint64_t span = static_cast<std::uint64_t>(mh_max - mh_min + 1);
        std::size_t h = static_cast<std::size_t>(static_cast<std::uint64_t>(mh_min) + rng.bounded(span));
        if (mode == StructureMode::Dense)
          h = (h - static_cast<std::size_t>(mh_min)) * 2 < span ? static_cast<std::size_t>(mh_min)
                                                                : static_cast<std::size_t>(mh_max);
        std::iota(perm.begin(), perm.end(), std::size_t{0});
        std::size_t first = 0, pool = L;
        if (mode == StructureMode::Sparse) {  // the special lane is never chosen: move it out of the pool
          std::swap(perm[special], perm[L - 1]);
          pool = L - 1;
        } else if (mode == StructureMode::Skewed && h > 0 && rng.bounded(4) != 0) {
          std::swap(perm[0], perm[special]);
          lane[perm[0]] = 1.0f;
          first = 1;
        }
        for (std::size_t j = first; j < h; ++j) {
          const std::size_t r = j + static_cast<std::size_t>(rng.bounded(pool - j));
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
