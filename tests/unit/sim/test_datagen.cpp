// Golden values of step-dialect §11.3.
#include <gtest/gtest.h>

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
