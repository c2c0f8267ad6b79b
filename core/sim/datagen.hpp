// Portable, bit-exact input data generators (step-dialect §11).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/common/hash.hpp"
#include "core/sim/stream_value.hpp"

namespace sf::sim {

// SplitMix64 stream of one tensor: state = mix64(seed ^ fnv1a64(tensor_name)).
class Rng {
 public:
  Rng(std::uint64_t seed, std::string_view tensor_name);
  std::uint64_t next();
  float u24();                          // (next() >> 40) * 2^-24, exact in float32
  double u53();                         // (next() >> 11) * 2^-53
  std::uint64_t bounded(std::uint64_t n);  // ((next() >> 32) * n) >> 32, n < 2^32
  std::uint64_t state() const { return stream_.state(); }

 private:
  SplitMix64 stream_;
};

enum class Gen { Rand, Randn, Ones, Binary, Multihot };

// How binary and multihot tensors are drawn. Spec: exactly §11.2 (the task's own seeds, `run --seed`, the
// golden vectors of §11.3). Varied: the structure is drawn per seed and tensor too, so selectors and masks
// vary in structure, not only in values (campaigns' verify.extra_seeds and the seeds `tasks validate` adds).
enum class Structure { Spec, Varied };

// The structure of a binary or multihot tensor under Structure::Varied, drawn from the stream
// "<name>#structure" (one bounded(4) draw): binary P(1) = 1/2, 1/4, 1/8 (long all-zero runs), 7/8; multihot
// uniform (§11.2), one favoured lane (skewed lane loads), one empty lane (an empty selection), min-or-max hot
// lanes per position (all-zero rows when min = 0, full rows when max = L). Uniform is exactly §11.2.
enum class StructureMode { Uniform, Skewed, Sparse, Dense };
StructureMode structure_mode(std::uint64_t seed, std::string_view name);

// Fills `count` elements of `elem` scalars each (elem = L for multihot) in row-major order into out
// (resized to count*elem). scale multiplies every value in double before rounding to float32, except
// for multihot (entries stay exactly 0/1). mh_min/mh_max: hot lanes per multihot element.
// Errors: X-DATAGEN for negative sizes, count*elem above 2^27 scalars, or 0 ≤ min ≤ max ≤ L violated.
Status generate(Gen g, std::uint64_t seed, std::string_view name, std::int64_t count, std::int64_t elem,
                double scale, int mh_min, int mh_max, std::vector<float>& out,
                Structure structure = Structure::Spec);

// "rand", "randn", "ones", "binary", "multihot" -> Gen; false for anything else.
bool parse_gen(std::string_view s, Gen& g);

}  // namespace sf::sim
