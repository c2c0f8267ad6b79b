// The static pipeline and the verifier on bundled tasks: stages, codes, list lengths from sizes, numeric reports.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/bench/catalogue.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/verifier.hpp"
#include "tests/support/catalogue.hpp"

using namespace sf;

namespace {

const bench::Catalogue& cat() { return test_support::catalogue(); }

std::vector<std::string> codes(const Diagnostics& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds)
    if (d.is_error()) out.push_back(d.code);
  return out;
}

}  // namespace

TEST(Checker, PartitionWithSymbolicNChecksEveryListElement) {
  const auto* t = cat().find("moe_expert/residual_given_route");
  ASSERT_NE(t, nullptr);
  auto r = verify::check_program(*t,
                                 "A = step.Bufferize(a=1).apply(E0)\n"
                                 "P = step.Partition(N=E).apply((A, E1))\n"
                                 "return P[0]\n",
                                 {});
  EXPECT_EQ(codes(r.diags), (std::vector<std::string>{"A-DEAD", "O-DIMS"}));
  EXPECT_EQ(r.diags[0].message.find("line 2: stream 'P[1]' is never used"), 0u) << r.diags[0].message;
}

TEST(Checker, AffineTypeAndOutputErrorsAreReportedTogetherAndTheStageIsTheEarliest) {
  const auto* t = cat().find("attention/online_softmax_fused");
  ASSERT_NE(t, nullptr);
  auto r = verify::check_program(*t,
                                 "E2 = step.Zip().apply((E0, E1))\n"
                                 "E3 = step.Accum(fn=fn_maxsum, b=2).apply(E2)\n"
                                 "return E2\n",
                                 {});
  // Sorted by line: A-DEAD (E3 unused) and T-RANK on line 2, O-DTYPE and A-MULTI for the returned E2 on line 3.
  auto c = codes(r.diags);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(std::count(c.begin(), c.end(), "T-RANK"), 1);
  EXPECT_EQ(std::count(c.begin(), c.end(), "A-DEAD"), 1);
  EXPECT_EQ(std::count(c.begin(), c.end(), "A-MULTI"), 1);
  EXPECT_EQ(std::count(c.begin(), c.end(), "O-DTYPE"), 1);
  for (std::size_t i = 1; i < r.diags.size(); ++i) EXPECT_LE(r.diags[i - 1].loc.line, r.diags[i].loc.line);
  EXPECT_EQ(verify::failing_stage(r.diags), Stage::Affine);
  EXPECT_FALSE(r.ok());
}

TEST(Verifier, NumericFailureCarriesErrorsAndFirstBadIndex) {
  const auto* t = cat().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  verify::Verifier v;
  // Inclusive instead of exclusive prefix sum: type-correct, numerically wrong.
  auto rep = v.verify(*t,
                      "A, B = step.Copy().apply(E0)\n"
                      "C = step.Scan(fn=fn_add, b=1).apply(A)\n"
                      "D = step.Map(fn=fn_minus).apply((C, B))\n"
                      "E = step.Map(fn=fn_minus).apply((D, D2))\n"
                      "return E\n");
  EXPECT_FALSE(rep.pass);  // D2 undefined
  EXPECT_EQ(rep.stage, Stage::Name);
  auto wrong = v.verify(*t, "C = step.Scan(fn=fn_add, b=1).apply(E0)\nreturn C\n");
  ASSERT_FALSE(wrong.pass);
  EXPECT_EQ(wrong.stage, Stage::Numeric);
  EXPECT_EQ(wrong.code, "V-MISMATCH");
  ASSERT_FALSE(wrong.sets.empty());
  const auto& st = wrong.sets.back().outputs.at(0).stats;
  EXPECT_GT(st.bad, 0);
  EXPECT_EQ(st.first_bad, 0);  // every value is off by x itself, starting with the first
  EXPECT_GT(wrong.max_abs_error, 0.0);
  bool has_msg = false;
  for (const auto& d : wrong.diags)
    if (d.code == "V-MISMATCH" && d.message.find("values differ") != std::string::npos) has_msg = true;
  EXPECT_TRUE(has_msg);
}

TEST(Verifier, HandWrittenProgramPassesAndAHardCodedSizeIsRejected) {
  const auto* t = cat().find("extra/row_softmax_stable");
  ASSERT_NE(t, nullptr);
  verify::Verifier v;
  auto good = v.verify(*t,
                       "A, B = step.Copy().apply(E0)\n"
                       "Mx = step.Accum(fn=fn_max, b=1).apply(A)\n"
                       "R = step.Repeat(n=N).apply(Mx)\n"
                       "X = step.Map(fn=fn_sub_exp).apply((B, R))\n"
                       "X0, X1 = step.Copy().apply(X)\n"
                       "S = step.Accum(fn=fn_add, b=1).apply(X0)\n"
                       "T = step.Repeat(n=N).apply(S)\n"
                       "Y = step.Map(fn=fn_div).apply((X1, T))\n"
                       "return Y\n");
  EXPECT_TRUE(good.pass) << (good.diags.empty() ? "" : good.diags[0].message);
  EXPECT_EQ(good.sets.size(), 4u);
  // n=7 instead of n=N: 7 and N are different dims even though N = 7, so Zip's dims differ.
  auto hard = v.verify(*t,
                       "A, B = step.Copy().apply(E0)\n"
                       "Mx = step.Accum(fn=fn_max, b=1).apply(A)\n"
                       "R = step.Repeat(n=7).apply(Mx)\n"
                       "X = step.Map(fn=fn_sub_exp).apply((B, R))\n"
                       "X0, X1 = step.Copy().apply(X)\n"
                       "S = step.Accum(fn=fn_add, b=1).apply(X0)\n"
                       "T = step.Repeat(n=N).apply(S)\n"
                       "Y = step.Map(fn=fn_div).apply((X1, T))\n"
                       "return Y\n");
  EXPECT_FALSE(hard.pass);
  EXPECT_EQ(hard.code, "T-ZIP-DIMS");
}

namespace {

// A toy task whose impl is fine; `body` and `reference` are the parts under test.
std::optional<step::TaskDoc> toy_task(const std::string& body, const std::string& reference,
                                      const std::string& extra = "") {
  std::string text =
      "dialect: step-v1\nid: toy/doc\ngroup: toy\ntitle: t\ndescription: d\nsizes: {N: 4, D: 6}\n" + extra +
      "inputs:\n  - {name: E0, dtype: \"Buffer(fp32, [D])\", dims: [N], data_gen: randn}\n"
      "fns:\n  - func_name: fn_f\n    name: F\n    input_dtype: \"Buffer(fp32, [D])\"\n"
      "    output_dtype: \"Buffer(fp32, [D])\"\n    body: |\n      " + body +
      "\noutputs:\n  - {name: S0, dtype: \"Buffer(fp32, [D])\", dims: [N]}\nreference: |\n  " + reference +
      "\nimpl: |\n  A = step.Map(fn=fn_f).apply(E0)\n  return A\n";
  Diagnostics d;
  auto t = step::load_task_text(text, "toy.yaml", d);
  EXPECT_TRUE(t.has_value()) << (d.empty() ? "" : d.front().code + " " + d.front().message);
  return t;
}

}  // namespace

TEST(CheckDocument, ReportsFnAndReferenceErrorsThatCheckProgramMisses) {
  // Line 15 of the file is the fn body, line 19 the reference.
  auto bad_fn = toy_task("return in0 +", "return E0");
  ASSERT_TRUE(bad_fn);
  EXPECT_TRUE(verify::check_program(*bad_fn, *bad_fn->impl, bad_fn->impl_line_starts).ok());
  auto r = verify::check_document(*bad_fn, *bad_fn->impl, bad_fn->impl_line_starts);
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(codes(r.diags).empty());
  EXPECT_EQ(r.diags[0].code.rfind("X-FN-", 0), 0u) << r.diags[0].code;
  EXPECT_EQ(r.diags[0].loc.line, 15) << r.diags[0].message;

  auto bad_ref = toy_task("return in0 * 2.0", "return E0 * nope");
  ASSERT_TRUE(bad_ref);
  auto rr = verify::check_document(*bad_ref, *bad_ref->impl, bad_ref->impl_line_starts);
  EXPECT_FALSE(rr.ok());
  ASSERT_EQ(codes(rr.diags).size(), 1u);
  EXPECT_EQ(rr.diags[0].code.rfind("X-REF-", 0), 0u) << rr.diags[0].code;
  EXPECT_EQ(rr.diags[0].loc.line, 19);

  auto good = toy_task("return in0 * 2.0", "return E0 * 2.0");
  ASSERT_TRUE(good);
  EXPECT_TRUE(verify::check_document(*good, *good->impl, good->impl_line_starts).ok());
}

TEST(CheckDocument, AShapeErrorUnderOneBindingNamesIt) {
  // in0[0:6] has shape (6) only when D = 6: under perf_sizes (D = 8) the fn returns the wrong shape.
  auto t = toy_task("return in0[0:6] * 2.0", "return E0 * 2.0", "perf_sizes: {D: 8}\n");
  ASSERT_TRUE(t);
  auto r = verify::check_document(*t, *t->impl, t->impl_line_starts);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(codes(r.diags).size(), 1u) << r.diags[0].message;
  EXPECT_EQ(r.diags[0].code, "X-FN-SHAPE");
  EXPECT_NE(r.diags[0].message.find("(under perf_sizes: D=8, N=4)"), std::string::npos) << r.diags[0].message;
}
