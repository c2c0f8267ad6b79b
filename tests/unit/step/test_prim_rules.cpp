// The primitives' result-type rules (core/step/prim_rules.hpp): the same rule on symbolic dims (the type
// checker's) and on concrete dims (the simulator's) gives the same dims, and the same failure codes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/step/dim.hpp"
#include "core/step/prim_rules.hpp"

namespace sf::step {
namespace {

using Ints = std::vector<std::int64_t>;

// Concrete dims as constant symbolic dims.
Dims sym(const Ints& v) {
  Dims d;
  for (auto x : v) d.push_back(Dim::constant(x));
  return d;
}

std::string code(const rule::Check& c) {
  return c.ok() ? "" : c.code;
}

TEST(PrimRules, OneInputRulesAgreeOnBothRepresentations) {
  const Ints x{2, 3, 4, 5};  // rank 3
  const Dims xs = sym(x);
  Ints o;
  Dims os;

  for (int b = -1; b <= 5; ++b) EXPECT_EQ(rule::fold_depth(b, 3).ok(), b >= 1 && b <= 3) << b;
  rule::accum_dims(x, 2, o);
  rule::accum_dims(xs, 2, os);
  EXPECT_EQ(o, (Ints{4, 5}));
  EXPECT_EQ(os, sym(o));

  EXPECT_EQ(code(rule::bufferize(x, true, 1, &o)), "T-BUF-TUPLE");
  EXPECT_EQ(code(rule::bufferize(x, false, 4, &o)), "T-RANK");
  EXPECT_EQ(code(rule::bufferize(x, false, 0, &o)), "T-RANK");
  ASSERT_TRUE(rule::bufferize(x, false, 2, &o).ok());
  ASSERT_TRUE(rule::bufferize(xs, false, 2, &os).ok());
  EXPECT_EQ(o, (Ints{4, 5}));
  EXPECT_EQ(os, sym(o));
  const auto packed = rule::bufferize_packed(x, 2);
  EXPECT_EQ(Ints(packed.begin(), packed.end()), (Ints{2, 3}));

  const Ints buf{7, 8};
  EXPECT_EQ(code(rule::streamify(x, false, buf, &o)), "T-NOT-BUFFER");
  ASSERT_TRUE(rule::streamify(x, true, buf, &o).ok());
  EXPECT_EQ(o, (Ints{7, 8, 2, 3, 4, 5}));

  EXPECT_EQ(code(rule::promote(x, -1, &o)), "T-PARAM-VALUE");
  EXPECT_EQ(code(rule::promote(x, 5, &o)), "T-PARAM-VALUE");
  ASSERT_TRUE(rule::promote(x, 4, &o).ok());  // rank + 1: a new outermost dim
  ASSERT_TRUE(rule::promote(xs, 4, &os).ok());
  EXPECT_EQ(o, (Ints{2, 3, 4, 5, 1}));
  EXPECT_EQ(os, sym(o));

  rule::repeat_dims(x, std::int64_t{6}, o);
  EXPECT_EQ(o, (Ints{6, 2, 3, 4, 5}));

  EXPECT_EQ(code(rule::flatten_span(0, 1, 3)), "T-PARAM-VALUE");
  EXPECT_EQ(code(rule::flatten_span(2, 1, 3)), "T-PARAM-VALUE");
  EXPECT_EQ(code(rule::flatten_span(1, 4, 3)), "T-PARAM-VALUE");
  ASSERT_TRUE(rule::flatten_span(1, 2, 3).ok());
  rule::flatten_dims(x, 1, 2, o);
  rule::flatten_dims(xs, 1, 2, os);
  EXPECT_EQ(o, (Ints{24, 5}));
  EXPECT_EQ(os, sym(o));

  const std::vector<int> none, dup{1, 1}, out_of_range{4}, L{0, 2};
  EXPECT_EQ(rule::reshape_indices(std::span<const int>(none), 3).why, rule::Why::Empty);
  EXPECT_EQ(rule::reshape_indices(std::span<const int>(dup), 3).why, rule::Why::Duplicate);
  EXPECT_EQ(rule::reshape_indices(std::span<const int>(out_of_range), 3).why, rule::Why::Range);
  ASSERT_TRUE(rule::reshape_indices(std::span<const int>(L), 3).ok());
  const Ints y{4, 3, 8};
  rule::reshape_dims(y, std::span<const int>(L), std::int64_t{2}, o);
  rule::reshape_dims(sym(y), std::span<const int>(L), Dim::constant(2), os);
  EXPECT_EQ(o, (Ints{2, 2, 3, 2, 4}));
  EXPECT_EQ(os, sym(o));
}

TEST(PrimRules, SeveralStreamRules) {
  const std::vector<Ints> zs{{2, 3}, {2, 3}, {3, 2}};
  EXPECT_EQ(rule::zip_mismatch(2, [&](std::size_t j) -> const Ints& { return zs[j]; }), 2u);
  EXPECT_EQ(rule::zip_mismatch(3, [&](std::size_t j) -> const Ints& { return zs[j]; }), 2u);

  Ints o;
  EXPECT_EQ(rule::repeat_ref(Ints{2, 3}, Ints{4, 2}, &o).why, rule::Why::RefRank);
  EXPECT_EQ(rule::repeat_ref(Ints{2, 3}, Ints{4, 2, 4}, &o).why, rule::Why::RefDims);
  ASSERT_TRUE(rule::repeat_ref(Ints{2, 3}, Ints{4, 2, 3}, &o).ok());
  EXPECT_EQ(o, (Ints{4, 2, 3}));

  EXPECT_EQ(code(rule::selector_type(false)), "T-SEL-TYPE");
  EXPECT_EQ(code(rule::selector_lanes(false, 0, 2)), "T-SEL-N");
  EXPECT_EQ(code(rule::selector_lanes(true, 3, 2)), "T-SEL-N");
  EXPECT_TRUE(rule::selector_lanes(true, 2, 2).ok());

  const Ints data{4, 5, 6};  // selector over the outer dims [5, 6] (p = 1)
  EXPECT_EQ(code(rule::partition_selector(data, Ints{6, 5})), "T-SEL-DIMS");
  EXPECT_EQ(code(rule::partition_selector(data, Ints{1, 4, 5, 6})), "T-SEL-DIMS");
  ASSERT_TRUE(rule::partition_selector(data, Ints{5, 6}).ok());
  rule::partition_dims(data, Ints{5, 6}, std::int64_t{7}, o);
  EXPECT_EQ(o, (Ints{4, 7}));

  EXPECT_EQ(code(rule::merge_item(Ints{4, 7}, Ints{4, 9}, false)), "T-MERGE-LIST");
  EXPECT_EQ(code(rule::merge_item(Ints{3, 7}, Ints{4, 9}, true)), "T-MERGE-LIST");
  EXPECT_EQ(code(rule::merge_item(Ints{4, 7, 1}, Ints{4, 9}, true)), "T-MERGE-LIST");
  EXPECT_TRUE(rule::merge_item(Ints{4, 7}, Ints{4, 9}, true).ok());
  rule::merge_dims(Ints{4, 9}, Ints{5, 6}, o);
  EXPECT_EQ(o, (Ints{4, 5, 6}));
}

}  // namespace
}  // namespace sf::step
