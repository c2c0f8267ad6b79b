// Portable, bit-exact input data generators (step-dialect §11).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/sim/stream_value.hpp"

namespace sf::sim {

std::uint64_t mix64(std::uint64_t z);
std::uint64_t fnv1a64(std::string_view s);

// SplitMix64 stream of one tensor: state = mix64(seed ^ fnv1a64(tensor_name)).
class Rng {
 public:
  Rng(std::uint64_t seed, std::string_view tensor_name);
  std::uint64_t next();
  float u24();                          // (next() >> 40) * 2^-24, exact in float32
  double u53();                         // (next() >> 11) * 2^-53
  std::uint64_t bounded(std::uint64_t n);  // ((next() >> 32) * n) >> 32, n < 2^32
  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

enum class Gen { Rand, Randn, Ones, Binary, Multihot };

// Fills `count` elements of `elem` scalars each (elem = L for multihot) in row-major order into out
// (resized to count*elem). scale multiplies every value in double before rounding to float32, except
// for multihot (entries stay exactly 0/1). mh_min/mh_max: hot lanes per multihot element.
// Errors: X-DATAGEN for negative sizes, count*elem above 2^27 scalars, or 0 ≤ min ≤ max ≤ L violated.
Status generate(Gen g, std::uint64_t seed, std::string_view name, std::int64_t count, std::int64_t elem,
                double scale, int mh_min, int mh_max, std::vector<float>& out);

// "rand", "randn", "ones", "binary", "multihot" -> Gen; false for anything else.
bool parse_gen(std::string_view s, Gen& g);

}  // namespace sf::sim
