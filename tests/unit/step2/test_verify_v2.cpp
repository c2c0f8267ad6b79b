// step-v2 programs through the verification seam (core/verify): the GEMM baseline of the benchmark's task 1
// verifies against A @ B on both seeds and alt_sizes; a wrong stride fails with V-MISMATCH at the store; the
// verdict is the same twice.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/verify/dialect_v2.hpp"
#include "core/verify/program_file.hpp"
#include "core/verify/verifier.hpp"

using namespace sf;

namespace {
std::string data(const std::string& f) { return std::string(SF_TEST_DATA_DIR) + "/step25/" + f; }
}  // namespace

TEST(Step2Verify, GemmBaselineVerifiesOnEverySeedAndBinding) {
  Diagnostics d;
  auto pf = verify::load_program_file(data("fe_gemm.yaml"), nullptr, d);
  ASSERT_TRUE(pf) << (d.empty() ? "" : d[0].message);
  verify::Verifier v;
  auto r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
  ASSERT_TRUE(r.pass) << (r.diags.empty() ? "" : r.diags[0].message);
  ASSERT_EQ(r.sets.size(), 4u);  // 2 seeds x {sizes, alt_sizes}
  EXPECT_TRUE(r.sets[3].alt);
  EXPECT_EQ(r.sets[3].sizes.at("M"), 512);
  EXPECT_EQ(r.sets[0].outputs.at(0).stats.total, 256 * 256);
  EXPECT_EQ(r.program_length, 4);
  EXPECT_EQ(r.canonical_key.size(), 64u);
  auto again = v.verify(pf->task, pf->impl, pf->impl_line_starts);
  EXPECT_TRUE(again.pass);
  EXPECT_EQ(again.max_abs_error, r.max_abs_error);
  auto extra = v.verify(pf->task, pf->impl, pf->impl_line_starts, {7, 8});
  EXPECT_TRUE(extra.pass);
  EXPECT_EQ(extra.sets.size(), 8u);  // (2 + 2 seeds) x 2 bindings
  auto cr = verify::check_document(pf->task, pf->impl, pf->impl_line_starts);
  EXPECT_TRUE(cr.ok());
  EXPECT_EQ(cr.statements(), 4);
}

TEST(Step2Verify, AWrongStrideFailsAtTheStore) {
  Diagnostics d;
  auto pf = verify::load_program_file(data("fe_gemm.yaml"), nullptr, d);
  ASSERT_TRUE(pf);
  std::string impl = pf->impl;
  impl.replace(impl.find("stride=[0, 1, N/128]"), 20, "stride=[0, N/128, 1]");
  verify::Verifier v;
  auto r = v.verify(pf->task, impl, pf->impl_line_starts);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.code, "V-MISMATCH");
  ASSERT_FALSE(r.diags.empty());
  EXPECT_EQ(r.diags[0].loc.line, 22);
}

TEST(Step2Verify, RunAndGraphViews) {
  Diagnostics d;
  auto pf = verify::load_program_file(data("fe_gemm.yaml"), nullptr, d);
  ASSERT_TRUE(pf);
  std::string out;
  verify::v2::RunRequest req;
  req.show = "c";
  EXPECT_EQ(verify::v2::run(*pf, req, out, d), 0) << out;
  EXPECT_NE(out.find("stream c: Stream[Tile[128, 128], [1, 2, 2]]"), std::string::npos) << out;
  EXPECT_NE(out.find(", 2) D"), std::string::npos) << out;
  auto dot = verify::v2::graph(*pf, true, d);
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("BinaryMapAccum matmul"), std::string::npos);
}

TEST(Step2Verify, TaskSelfCheckAndBadInputsAreLocated) {
  Diagnostics d;
  auto pf = verify::load_program_file(data("fe_gemm.yaml"), nullptr, d);
  ASSERT_TRUE(pf);
  verify::Verifier v;
  Diagnostics vd;
  EXPECT_TRUE(verify::validate_task(v, pf->task, vd)) << (vd.empty() ? "" : vd[0].message);
  for (const auto& e : std::filesystem::directory_iterator(data("bad"))) {
    Diagnostics bd;
    auto bad = verify::load_program_file(e.path().string(), nullptr, bd);
    std::string code = e.path().stem().string().substr(0, e.path().stem().string().find("__"));
    if (!bad) {
      ASSERT_FALSE(bd.empty()) << e.path();
      sort_and_cap(bd);
      EXPECT_EQ(bd[0].code, code) << e.path() << ": " << bd[0].message;
      EXPECT_TRUE(bd[0].loc.known()) << e.path();
      continue;
    }
    auto r = v.verify(bad->task, bad->impl, bad->impl_line_starts);
    EXPECT_FALSE(r.pass) << e.path();
    ASSERT_FALSE(r.diags.empty()) << e.path();
    EXPECT_EQ(r.code, code) << e.path() << ": " << r.diags[0].message;
    EXPECT_TRUE(r.diags[0].loc.known()) << e.path() << ": " << r.diags[0].message;
  }
}
