#include <gtest/gtest.h>

#include "core/step/dim.hpp"
#include "core/step/dtype.hpp"

using namespace sf::step;

static Dim D(const char* t) {
  std::string e;
  auto d = parse_dim(t, e);
  EXPECT_TRUE(d) << e;
  return d.value_or(Dim{});
}

TEST(Dim, CanonicalFormAndPrinting) {
  EXPECT_EQ(D("M").str(), "M");
  EXPECT_EQ(D("N*K").str(), "K*N");  // symbols sorted by name
  EXPECT_EQ(D("K*N"), D("N*K"));
  EXPECT_EQ(D("D/4").str(), "D/4");
  EXPECT_EQ(D("3*K/2").str(), "3*K/2");
  EXPECT_EQ(D("D*D").str(), "D*D");
  EXPECT_EQ(D("8/2*D").str(), "4*D");
  EXPECT_EQ(D("D/D").str(), "1");
  EXPECT_EQ(D("1").str(), "1");
  EXPECT_NE(D("16"), D("D"));  // symbolic comparison, even if D = 16
}

TEST(Dim, EvaluatesUnderABinding) {
  SizeBinding b{{"D", 16}, {"K", 9}, {"N", 7}};
  EXPECT_EQ(D("D/4").eval(b).value(), 4);
  EXPECT_EQ(D("N*K").eval(b).value(), 63);
  std::string why;
  EXPECT_FALSE(D("3*K/2").eval(b, &why));
  EXPECT_EQ(why, "it is not an integer");
  EXPECT_FALSE(D("Q").eval(b, &why));
  EXPECT_EQ(why, "size symbol 'Q' is not bound");
}

TEST(Dim, DynamicDimsEqualOnlyThemselves) {
  Dim a = Dim::dynamic("E3", 0), b = Dim::dynamic("E3", 1);
  EXPECT_TRUE(a.is_dynamic());
  EXPECT_NE(a, b);
  EXPECT_EQ(a.str(), "E3#0");
  EXPECT_EQ((a * D("N")).str(), "E3#0*N");
}

TEST(Dim, RejectsBadText) {
  std::string e;
  EXPECT_FALSE(parse_dim("", e));
  EXPECT_FALSE(parse_dim("m", e));
  EXPECT_FALSE(parse_dim("0", e));
  EXPECT_FALSE(parse_dim("D+1", e));
  EXPECT_FALSE(parse_dim("99999999999", e));
}

TEST(DType, ParsesAndPrintsEveryForm) {
  std::string e;
  auto t = parse_dtype("Buffer(fp32, [D, N])", e);
  ASSERT_TRUE(t) << e;
  EXPECT_EQ(t->str(), "Buffer(fp32, [D, N])");
  ASSERT_EQ(t->scalar().esh().size(), 2u);
  EXPECT_EQ(t->scalar().esh()[0].str(), "N");  // esh is outermost-first: (N, D)
  auto mh = parse_dtype("Buffer(Multihot(fp32, M), [E])", e);
  ASSERT_TRUE(mh) << e;
  EXPECT_EQ(dims_str(mh->scalar().esh()), "[E, M]");
  auto tup = parse_dtype("[fp32, Buffer(fp32, [D])]", e);
  ASSERT_TRUE(tup) << e;
  EXPECT_TRUE(tup->is_tuple());
  EXPECT_EQ(tup->str(), "[fp32, Buffer(fp32, [D])]");
  EXPECT_FALSE(parse_dtype("fp16", e));
  EXPECT_FALSE(parse_dtype("Buffer(fp32, [])", e));
  EXPECT_FALSE(parse_dtype("[fp32]", e));
  EXPECT_FALSE(parse_dtype("Multihot(fp64, E)", e));
}
