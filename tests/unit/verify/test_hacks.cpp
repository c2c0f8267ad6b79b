// The reward-hack corpus (tests/data/hacks): every program gets exactly the verdict it is annotated with, and
// none passes. The task-quality audit rejects degenerate tasks.
#include <gtest/gtest.h>

#include "core/bench/catalogue.hpp"
#include "core/verify/benchmark_validation.hpp"
#include "core/verify/task_audit.hpp"
#include "core/sim/simulator.hpp"
#include "core/verify/verifier.hpp"

using namespace sf;

TEST(RewardHacks, EveryHackGetsItsAnnotatedVerdict) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(bench::resource_dir(), d);
  ASSERT_FALSE(cat.tasks().empty());
  verify::Verifier v;
  auto r = verify::check_rejected_dir(cat, std::string(SF_TEST_DATA_DIR) + "/hacks", "hack", v);
  EXPECT_GE(r.programs, 25);
  EXPECT_EQ(r.rejected_as_annotated, r.programs);
  for (const auto& p : r.problems) ADD_FAILURE() << p;
}

namespace {

std::optional<step::TaskDoc> audit_toy(const std::string& reference, const std::string& extra_input = "") {
  std::string text =
      "dialect: step-v1\nid: t/a\ngroup: t\ntitle: t\ndescription: t\nsizes: {N: 4, D: 6}\ninputs:\n"
      "  - {name: E0, dtype: fp32, dims: [D, N], data_gen: rand}\n" +
      extra_input + "outputs:\n  - {name: S0, dtype: fp32, dims: [D, N]}\nreference: |\n  " + reference + "\n";
  Diagnostics d;
  auto t = step::load_task_text(text, "a.yaml", d);
  EXPECT_TRUE(t) << (d.empty() ? "" : d[0].message);
  return t;
}

std::vector<std::string> audit_codes(const step::TaskDoc& t) {
  verify::Verifier v;
  Diagnostics d;
  verify::audit_task(v, t, d);
  std::vector<std::string> out;
  for (const auto& x : d)
    if (x.is_error()) out.push_back(x.code);
  return out;
}

}  // namespace

TEST(TaskAudit, RejectsDegenerateReferences) {
  auto good = audit_toy("return E0 * 2.0");
  ASSERT_TRUE(good);
  EXPECT_TRUE(audit_codes(*good).empty());
  auto constant = audit_toy("return E0 * 0.0 + 1.0");
  ASSERT_TRUE(constant);
  EXPECT_EQ(audit_codes(*constant), std::vector<std::string>{"X-AUDIT-CONSTANT"});
  auto zeros = audit_toy("return E0 * (E0 > 0.9)");
  ASSERT_TRUE(zeros);
  EXPECT_EQ(audit_codes(*zeros), std::vector<std::string>{"X-AUDIT-ZEROS"});
  auto ignored = audit_toy("return E0 * 2.0", "  - {name: E1, dtype: fp32, dims: [D, N], data_gen: rand}\n");
  ASSERT_TRUE(ignored);
  EXPECT_EQ(audit_codes(*ignored), std::vector<std::string>{"X-AUDIT-INPUT"});
  // An input without seed dependence (data_gen ones) cannot change, so it is not held against the task.
  auto ones = audit_toy("return E0 * E1", "  - {name: E1, dtype: fp32, dims: [D, N], data_gen: ones}\n");
  ASSERT_TRUE(ones);
  EXPECT_TRUE(audit_codes(*ones).empty());
}

TEST(ExtraSeeds, DerivedReproduciblyAndAvoidingTheTaskSeeds) {
  auto a = verify::derive_extra_seeds(42, "bmm/row_wise", 3, 4, {42, 43});
  EXPECT_EQ(a, verify::derive_extra_seeds(42, "bmm/row_wise", 3, 4, {42, 43}));
  ASSERT_EQ(a.size(), 4u);
  EXPECT_NE(a, verify::derive_extra_seeds(42, "bmm/row_wise", 4, 4, {42, 43}));
  EXPECT_NE(a, verify::derive_extra_seeds(7, "bmm/row_wise", 3, 4, {42, 43}));
  for (auto s : a) EXPECT_TRUE(s != 42 && s != 43);
}

TEST(TasksValidate, ReferenceSolutionsRunOn16SeedsAndEveryBinding) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(bench::resource_dir(), d);
  const step::TaskDoc* t = cat.find("extra/exclusive_cumsum");
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->verify.general_sizes);
  verify::VerifyOptions o;
  o.use_general_sizes = true;
  verify::Verifier v(o);
  const std::string impl =
      "T1, T2 = step.Copy().apply(E0)\nT3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
      "T4 = step.Map(fn=fn_minus).apply((T3, T2))\nreturn T4\n";
  auto extra = verify::validation_extra_seeds(*t);
  EXPECT_EQ(extra.size() + t->verify.seeds.size(), 16u);
  auto r = v.verify(*t, impl, {}, extra);
  EXPECT_TRUE(r.pass) << (r.diags.empty() ? "" : r.diags[0].message);
  EXPECT_EQ(r.sets.size(), 48u);  // 16 seeds x {sizes, alt_sizes, general_sizes}
  EXPECT_EQ(r.sets.back().binding, "verify.general_sizes");
  // The plain verifier stays at the task's seeds on sizes and alt_sizes.
  verify::Verifier plain;
  EXPECT_EQ(plain.verify(*t, impl).sets.size(), 4u);
}

TEST(ExtraSeeds, DrawSelectorsWithVariedStructureAndTheFixedSeedsStaySpecExact) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(bench::resource_dir(), d);
  const step::TaskDoc* t = cat.find("moe_expert/residual_given_route");
  ASSERT_TRUE(t);
  verify::Verifier v;
  // The task's own seeds: exactly §11.2 (what `run --seed` and any other implementation generate).
  Diagnostics pd;
  auto fixed = v.prepare(*t, t->sizes, t->verify.seeds.front(), pd);
  auto spec = sim::make_input_set(*t, t->sizes, t->verify.seeds.front(), pd);
  ASSERT_TRUE(fixed && spec);
  EXPECT_EQ(fixed->inputs.inputs.at("E1").fields[0].data, spec->inputs.at("E1").fields[0].data);
  // The seeds tasks validate adds: some selector differs from its §11.2 draw (structure from the seed).
  int differing = 0;
  for (auto seed : verify::validation_extra_seeds(*t)) {
    auto varied = v.prepare(*t, t->sizes, seed, pd, false, sim::Structure::Varied);
    auto plain = sim::make_input_set(*t, t->sizes, seed, pd);
    ASSERT_TRUE(varied && plain);
    differing += varied->inputs.inputs.at("E1").fields[0].data != plain->inputs.at("E1").fields[0].data;
  }
  EXPECT_GT(differing, 0);
  EXPECT_TRUE(pd.empty());
}
