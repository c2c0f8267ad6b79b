// Typing rules of the synthesizer's ops (step-dialect §7), hand-worked from the spec examples.
#include <gtest/gtest.h>

#include "core/synth/op.hpp"

namespace sf::synth {
namespace {

using step::Dim;
using step::DType;
using step::Prim;
using step::StreamType;

StreamType fp32(std::vector<Dim> dims) {
  return StreamType{DType::fp32(), std::move(dims)};
}
Dim S(const char* s) {
  return Dim::symbol(s);
}

TEST(SynthOp, BufferizeThenStreamifyRoundTrips) {
  StreamType x = fp32({S("D"), S("M")});
  Op buf{Prim::Bufferize, nullptr, 1, {}, {}};
  auto y = apply_type(buf, {&x});
  ASSERT_TRUE(y);
  EXPECT_EQ(y->dtype.str(), "Buffer(fp32, [D])");
  EXPECT_EQ(step::dims_str(y->dims), "[M]");
  auto z = apply_type(Op{Prim::Streamify, nullptr, 0, {}, {}}, {&*y});
  ASSERT_TRUE(z);
  EXPECT_EQ(*z, x);
  // a = 2 would consume the outermost dim of a rank-1 stream
  EXPECT_FALSE(apply_type(Op{Prim::Bufferize, nullptr, 2, {}, {}}, {&x}));
}

TEST(SynthOp, PromoteRepeatFlattenReshape) {
  StreamType x = fp32({Dim::constant(3), Dim::constant(2)});
  auto p = apply_type(Op{Prim::Promote, nullptr, 2, {}, {}}, {&x});
  ASSERT_TRUE(p);
  EXPECT_EQ(step::dims_str(p->dims), "[3, 2, 1]");
  EXPECT_FALSE(apply_type(Op{Prim::Promote, nullptr, 3, {}, {}}, {&x}));
  auto r = apply_type(Op{Prim::Repeat, nullptr, 0, S("N"), {}}, {&x});
  ASSERT_TRUE(r);
  EXPECT_EQ(step::dims_str(r->dims), "[N, 3, 2]");
  auto f = apply_type(Op{Prim::Flatten, nullptr, 0, {}, {1}}, {&x});
  ASSERT_TRUE(f);
  EXPECT_EQ(step::dims_str(f->dims), "[6]");
  EXPECT_FALSE(apply_type(Op{Prim::Flatten, nullptr, 0, {}, {2}}, {&x}));
  StreamType y = fp32({S("D"), S("N")});
  auto rs = apply_type(Op{Prim::Reshape, nullptr, 0, Dim::constant(4), {0}}, {&y});
  ASSERT_TRUE(rs);
  EXPECT_EQ(step::dims_str(rs->dims), "[4, D/4, N]");
}

TEST(SynthOp, FnOpsCheckKindInputAndRank) {
  step::FnDecl mul;
  mul.func_name = "fn_mul";
  mul.input = step::concat(DType::fp32(), DType::fp32());
  mul.output = DType::fp32();
  step::FnDecl sum;
  sum.func_name = "fn_sum";
  sum.input = DType::fp32();
  sum.output = DType::fp32();
  sum.init = std::vector<double>{0.0};
  StreamType a = fp32({S("K"), S("M")});
  StreamType b = fp32({S("K"), S("M")});
  StreamType c = fp32({S("M"), S("K")});
  auto m = apply_type(Op{Prim::Map, &mul, 0, {}, {}}, {&a, &b});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->dtype, DType::fp32());
  EXPECT_FALSE(apply_type(Op{Prim::Map, &mul, 0, {}, {}}, {&a, &c}));  // dims differ
  EXPECT_FALSE(apply_type(Op{Prim::Map, &mul, 0, {}, {}}, {&a}));      // fp32 is not [fp32, fp32]
  EXPECT_FALSE(apply_type(Op{Prim::Map, &sum, 0, {}, {}}, {&a}));      // stateful fn in Map
  auto acc = apply_type(Op{Prim::Accum, &sum, 1, {}, {}}, {&a});
  ASSERT_TRUE(acc);
  EXPECT_EQ(step::dims_str(acc->dims), "[M]");
  EXPECT_FALSE(apply_type(Op{Prim::Accum, &sum, 2, {}, {}}, {&a}));  // the outermost dim
  auto sc = apply_type(Op{Prim::Scan, &sum, 1, {}, {}}, {&a});
  ASSERT_TRUE(sc);
  EXPECT_EQ(sc->dims, a.dims);
  EXPECT_EQ(Op({Prim::Accum, &sum, 1, {}, {}}).key(), "Accum(fn=fn_sum, b=1)");
}

}  // namespace
}  // namespace sf::synth
