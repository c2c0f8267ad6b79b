// Golden values of step-dialect §11.3.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "core/sim/datagen.hpp"

namespace sf::sim {
namespace {

TEST(Datagen, HashAndState) {
  EXPECT_EQ(fnv1a64("E0"), 0x08fafa07b595af30ULL);
  EXPECT_EQ(fnv1a64(""), 0xCBF29CE484222325ULL);
  Rng r(42, "E0");
  EXPECT_EQ(r.state(), 0x9943f65377a3a29cULL);
  EXPECT_EQ(r.next(), 0x462712f1384e9a26ULL);
  EXPECT_EQ(r.next(), 0x3e2c22184f280d19ULL);
  EXPECT_EQ(r.next(), 0x52bdb77f917f9fbaULL);
}

TEST(Datagen, Rand) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Rand, 42, "E0", 2, 2, 1.0, 0, 0, v).ok());
  EXPECT_EQ(v, (std::vector<float>{0.27403367f, 0.24286091f, 0.32320732f, 0.63396490f}));
  EXPECT_EQ(v[0], static_cast<float>(0x462712) * 0x1p-24f);  // exact u24 of the first next()
}

TEST(Datagen, RandScaled) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Rand, 42, "E0", 1, 1, 0.5, 0, 0, v).ok());
  EXPECT_EQ(v[0], 0.27403367f * 0.5f);
}

TEST(Datagen, Randn) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Randn, 42, "E0", 4, 1, 1.0, 0, 0, v).ok());
  EXPECT_EQ(v, (std::vector<float>{-0.81262338f, -0.92472750f, -1.43708742f, 1.08895528f}));
  // An odd count discards the spare value: the first three are unchanged.
  ASSERT_TRUE(generate(Gen::Randn, 42, "E0", 3, 1, 1.0, 0, 0, v).ok());
  EXPECT_EQ(v, (std::vector<float>{-0.81262338f, -0.92472750f, -1.43708742f}));
}

TEST(Datagen, BinaryAndOnes) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Binary, 42, "E0", 8, 1, 1.0, 0, 0, v).ok());
  EXPECT_EQ(v, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 0}));
  ASSERT_TRUE(generate(Gen::Ones, 42, "E0", 3, 2, 1.0, 0, 0, v).ok());
  EXPECT_EQ(v, std::vector<float>(6, 1.0f));
}

TEST(Datagen, Multihot) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Multihot, 42, "E1", 4, 3, 1.0, 0, 3, v).ok());
  EXPECT_EQ(v, (std::vector<float>{0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(Datagen, MultihotRespectsMinMax) {
  std::vector<float> v;
  ASSERT_TRUE(generate(Gen::Multihot, 7, "E1", 50, 5, 1.0, 2, 3, v).ok());
  for (int k = 0; k < 50; ++k) {
    int hot = 0;
    for (int j = 0; j < 5; ++j) {
      const float x = v[static_cast<std::size_t>(k * 5 + j)];
      EXPECT_TRUE(x == 0.0f || x == 1.0f);
      hot += x == 1.0f;
    }
    EXPECT_GE(hot, 2);
    EXPECT_LE(hot, 3);
  }
}

TEST(Datagen, DifferentNamesAndSeedsDiffer) {
  std::vector<float> a, b, c;
  ASSERT_TRUE(generate(Gen::Rand, 42, "E0", 4, 1, 1.0, 0, 0, a).ok());
  ASSERT_TRUE(generate(Gen::Rand, 42, "E1", 4, 1, 1.0, 0, 0, b).ok());
  ASSERT_TRUE(generate(Gen::Rand, 43, "E0", 4, 1, 1.0, 0, 0, c).ok());
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
}

TEST(Datagen, Errors) {
  std::vector<float> v;
  EXPECT_EQ(generate(Gen::Multihot, 42, "E1", 4, 3, 1.0, 2, 4, v).code, "X-DATAGEN");
  EXPECT_EQ(generate(Gen::Multihot, 42, "E1", 4, 3, 1.0, 2, 1, v).code, "X-DATAGEN");
  EXPECT_EQ(generate(Gen::Rand, 42, "E0", -1, 1, 1.0, 0, 0, v).code, "X-DATAGEN");
  EXPECT_EQ(generate(Gen::Rand, 42, "E0", std::int64_t{1} << 40, 1 << 20, 1.0, 0, 0, v).code, "X-DATAGEN");
  Gen g{};
  EXPECT_TRUE(parse_gen("randn", g));
  EXPECT_EQ(g, Gen::Randn);
  EXPECT_FALSE(parse_gen("normal", g));
}

}  // namespace
}  // namespace sf::sim

namespace sf::sim {

// Issue 16: under Structure::Varied the structure of selectors and masks varies with the seed (and respects
// min/max in every mode); Structure::Spec (the default) stays exactly §11.2.
TEST(Datagen, SelectorStructureVariesWithTheSeed) {
  std::set<StructureMode> seen;
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    const StructureMode mode = structure_mode(seed, "E1");
    seen.insert(mode);
    std::vector<float> v;
    ASSERT_TRUE(generate(Gen::Multihot, seed, "E1", 60, 3, 1.0, 0, 2, v, Structure::Varied).ok());
    std::array<int, 3> load{};
    std::set<int> counts;
    for (int k = 0; k < 60; ++k) {
      int hot = 0;
      for (int j = 0; j < 3; ++j) {
        const float x = v[static_cast<std::size_t>(k * 3 + j)];
        ASSERT_TRUE(x == 0.0f || x == 1.0f);
        hot += x == 1.0f;
        load[static_cast<std::size_t>(j)] += x == 1.0f;
      }
      ASSERT_LE(hot, 2);
      counts.insert(hot);
    }
    const int lo = *std::min_element(load.begin(), load.end()),
              hi = *std::max_element(load.begin(), load.end());
    if (mode == StructureMode::Sparse) {
      EXPECT_EQ(lo, 0) << "seed " << seed;  // one empty lane
    }
    if (mode == StructureMode::Dense) {
      EXPECT_EQ(counts.count(1), 0u) << "seed " << seed;  // min or max only
    }
    if (mode == StructureMode::Skewed) {
      EXPECT_GT(2 * hi, 3 * lo) << "seed " << seed;  // one favoured lane
    }
  }
  EXPECT_EQ(seen.size(), 4u);
  // Masks: the density follows the mode.
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    std::vector<float> v;
    ASSERT_TRUE(generate(Gen::Binary, seed, "M", 400, 1, 1.0, 0, 0, v, Structure::Varied).ok());
    const double ones = std::count(v.begin(), v.end(), 1.0f) / 400.0;
    switch (structure_mode(seed, "M")) {
      case StructureMode::Uniform:
        EXPECT_NEAR(ones, 0.5, 0.1);
        break;
      case StructureMode::Skewed:
        EXPECT_NEAR(ones, 0.25, 0.1);
        break;
      case StructureMode::Sparse:
        EXPECT_NEAR(ones, 0.125, 0.08);
        break;
      case StructureMode::Dense:
        EXPECT_NEAR(ones, 0.875, 0.08);
        break;
    }
  }
}

TEST(Datagen, VariedUniformModeIsTheSpecAndSpecIgnoresTheStructureStream) {
  // A seed whose structure draw is Uniform gives exactly the §11.2 values; Spec never looks at the draw.
  int uniform_seen = 0, differing = 0;
  for (std::uint64_t seed = 0; seed < 32; ++seed) {
    std::vector<float> spec, varied, spec_default;
    ASSERT_TRUE(generate(Gen::Multihot, seed, "E1", 50, 4, 1.0, 0, 3, spec, Structure::Spec).ok());
    ASSERT_TRUE(generate(Gen::Multihot, seed, "E1", 50, 4, 1.0, 0, 3, spec_default).ok());
    ASSERT_TRUE(generate(Gen::Multihot, seed, "E1", 50, 4, 1.0, 0, 3, varied, Structure::Varied).ok());
    EXPECT_EQ(spec, spec_default);
    if (structure_mode(seed, "E1") == StructureMode::Uniform) {
      ++uniform_seen;
      EXPECT_EQ(spec, varied) << "seed " << seed;
    } else if (spec != varied) {
      ++differing;
    }
  }
  EXPECT_GT(uniform_seen, 0);
  EXPECT_GT(differing, 0);
}

}  // namespace sf::sim
