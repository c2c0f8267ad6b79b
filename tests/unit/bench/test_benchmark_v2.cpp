// The STeP-25 optimisation benchmark (resources/benchmark_v2, resources/solutions_v2): the generated table
// docs/benchmark-v2.md is up to date; the recorded AccelOptStep baselines give their recorded numbers; every
// known-optimised program beats its baseline; and no text agents are shown (the task as `tasks show` prints
// it, a proposer prompt built from it, the v2 manual) contains a baseline or known-optimised program.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/agent/prompt_builder.hpp"
#include "core/bench/benchmark_v2.hpp"
#include "core/verify/benchmark_validation.hpp"

using namespace sf;
namespace fs = std::filesystem;

namespace {

std::string resources() { return std::string(SF_SOURCE_DIR) + "/resources"; }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const bench::Catalogue& v2_catalogue() {
  static const bench::Catalogue cat = [] {
    Diagnostics ds;
    auto c = bench::Catalogue::load_v2(resources(), ds);
    EXPECT_TRUE(ds.empty()) << (ds.empty() ? "" : ds.front().message);
    return c;
  }();
  return cat;
}

const std::vector<bench::V2TaskResult>& rows() {
  static const std::vector<bench::V2TaskResult> r = [] {
    std::vector<std::string> problems;
    auto out = bench::time_benchmark_v2(v2_catalogue(), resources(), nullptr, problems);
    EXPECT_TRUE(problems.empty()) << problems.front();
    return out;
  }();
  return r;
}

const bench::V2TaskResult& row(const std::string& id) {
  for (const auto& r : rows())
    if (r.id == id) return r;
  ADD_FAILURE() << "no row " << id;
  static bench::V2TaskResult none;
  return none;
}

// The program lines (impl body, comments dropped, >= 30 characters) of every solution file of `task`.
std::vector<std::string> solution_lines(const step::TaskDoc& task) {
  std::vector<std::string> out;
  fs::path dir = fs::path(resources()) / "solutions_v2" / task.group;
  std::string stem = task.id.substr(task.id.find('/') + 1);
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name != stem + ".yaml" && name.rfind(stem + ".known_opt_", 0) != 0) continue;
    std::istringstream in(slurp(e.path()));
    std::string line;
    bool in_impl = false;
    while (std::getline(in, line)) {
      if (line.rfind("impl:", 0) == 0) {
        in_impl = true;
        continue;
      }
      if (!in_impl) continue;
      auto a = line.find_first_not_of(' ');
      if (a == std::string::npos || line[a] == '#') continue;
      std::string body = line.substr(a, line.find('#') == std::string::npos ? std::string::npos : line.find('#') - a);
      while (!body.empty() && body.back() == ' ') body.pop_back();
      if (body.size() >= 30) out.push_back(body);
    }
  }
  return out;
}

std::string manual_v2_text() {
  std::string all;
  for (const auto& e : fs::directory_iterator(fs::path(resources()) / "manual_v2"))
    if (e.path().extension() == ".md") all += slurp(e.path());
  return all;
}

}  // namespace

TEST(BenchmarkV2, ThirteenTasksInTheirGroups) {
  const auto& cat = v2_catalogue();
  ASSERT_EQ(cat.tasks().size(), 13u);
  EXPECT_EQ(cat.groups(), (std::vector<std::string>{"activation", "attention", "ffn", "gemm", "mlp", "norm"}));
  for (const auto& t : cat.tasks()) {
    EXPECT_TRUE(t.is_v2()) << t.id;
    EXPECT_EQ(t.chip, "accelopt-step") << t.id;
    EXPECT_FALSE(t.baseline.empty()) << t.id;
    EXPECT_TRUE(t.verify.alt_sizes.has_value()) << t.id;
  }
  for (const char* id : {"activation/softmax", "norm/rmsnorm", "norm/layernorm"})
    EXPECT_EQ(cat.find(id)->verify.input_sets.size(), 2u) << id;
}

TEST(BenchmarkV2, GeneratedTableIsUpToDate) {
  std::string want = bench::benchmark_v2_table(v2_catalogue(), rows());
  std::string have = slurp(fs::path(SF_SOURCE_DIR) / "docs" / "benchmark-v2.md");
  EXPECT_EQ(have, want) << "docs/benchmark-v2.md is out of date: regenerate it with\n"
                           "  stepforge-cli tasks table --dialect step-v2 > docs/benchmark-v2.md";
}

// §11: tasks 1, 6 and 8 use the AccelOptStep baselines; their cycles and bytes are recorded (K1, K4, K6).
TEST(BenchmarkV2, RecordedBaselinesGiveTheirRecordedNumbers) {
  struct Want {
    const char* id;
    std::int64_t cycles, offchip, onchip;
  };
  for (const Want& w : {Want{"gemm/small", 16938, 1310720, 262144}, Want{"gemm/swish_scaling", 9900, 786432, 327680},
                        Want{"attention/sdpa", 2926, 131072, 196608}}) {
    const auto& b = row(w.id).baseline;
    ASSERT_TRUE(b.timed) << w.id << ": " << b.problem;
    EXPECT_EQ(b.perf.cycles, w.cycles) << w.id;
    EXPECT_EQ(b.perf.offchip_read_bytes + b.perf.offchip_write_bytes, w.offchip) << w.id;
    EXPECT_EQ(b.perf.onchip_bytes, w.onchip) << w.id;
    EXPECT_TRUE(b.perf.feasible) << w.id;
  }
}

TEST(BenchmarkV2, EveryKnownOptimisedProgramBeatsItsBaseline) {
  ASSERT_EQ(rows().size(), 13u);
  for (const auto& r : rows()) {
    ASSERT_TRUE(r.baseline.timed && r.baseline.perf.feasible) << r.id << ": " << r.baseline.problem;
    ASSERT_FALSE(r.known.empty()) << r.id;
    for (const auto& k : r.known) {
      ASSERT_TRUE(k.timed) << k.file << ": " << k.problem;
      EXPECT_TRUE(k.perf.feasible) << k.file;
      EXPECT_LE(k.perf.compute_bw_total, 4096) << k.file;
      EXPECT_LT(k.perf.cycles, r.baseline.perf.cycles) << k.file;
      EXPECT_FALSE(k.perf.suspicious) << k.file;
    }
  }
  double median = bench::median_best_speedup(rows());
  EXPECT_GE(median, bench::kMinMedianBestSpeedup);
  for (const auto& r : rows()) EXPECT_LE(r.best_speedup(), bench::kMaxBestSpeedup) << r.id;
}

TEST(BenchmarkV2, NoAgentTextContainsABaselineOrKnownOptimisedProgram) {
  std::string manual = manual_v2_text();
  for (const auto& t : v2_catalogue().tasks()) {
    auto lines = solution_lines(t);
    ASSERT_GE(lines.size(), 4u) << t.id;
    std::string shown = bench::v2_agent_text(t);
    EXPECT_EQ(shown.find("impl:"), std::string::npos) << t.id;
    EXPECT_EQ(shown.find("baseline:"), std::string::npos) << t.id;
    EXPECT_EQ(shown.find("known_opt"), std::string::npos) << t.id;
    agent::PromptInput in;
    in.manual_text = manual;
    in.task_text = shown;
    auto prompt = agent::build_prompt(in);
    std::string all;
    for (const auto& m : prompt.messages) all += m.content + "\n";
    for (const auto& l : lines) {
      EXPECT_EQ(shown.find(l), std::string::npos) << t.id << " shows: " << l;
      EXPECT_EQ(manual.find(l), std::string::npos) << "resources/manual_v2 shows a line of " << t.id << ": " << l;
      EXPECT_EQ(all.find(l), std::string::npos) << "the prompt for " << t.id << " contains: " << l;
    }
  }
}

// A mutant that fails at another stage than annotated is a problem, not a pass. (The whole v2 validation runs
// in `tasks validate`, checked by the e2e test Cli.TasksListShowAndValidate.)
TEST(BenchmarkV2, ValidationReportsAMutantAtTheWrongStage) {
  auto dir = fs::temp_directory_path() / "sf_bench_v2_mutants";
  fs::create_directories(dir);
  std::ofstream(dir / "m.yaml") << "task: gemm/small\nmutants:\n  - name: wrong_stage\n    what: x\n"
                                   "    stage: type\n    code: T2-ARG\n    impl: |\n"
                                   "      a = step.OffChipLoad(tile=[128, 128], stride=[K/128, 1], shape=[M/128, N/128], "
                                   "par_dispatch=4).apply(A)\n"
                                   "      C = step.OffChipStore(par_dispatch=4).apply(a)\n";
  verify::Verifier v;
  auto r = verify::check_rejected_files(v2_catalogue(), {(dir / "m.yaml").string()}, "v2 mutant", v);
  fs::remove_all(dir);
  EXPECT_EQ(r.programs, 1);
  EXPECT_EQ(r.rejected_as_annotated, 0);  // it fails numerically, not at the type stage
  ASSERT_EQ(r.problems.size(), 1u);
}

TEST(BenchmarkV2, CatalogueKeepsDialectsApart) {
  auto dir = fs::temp_directory_path() / "sf_bench_v2_cat";
  fs::remove_all(dir);
  fs::create_directories(dir / "benchmark_v2" / "g");
  fs::create_directories(dir / "benchmark" / "g");
  std::ofstream(dir / "benchmark_v2" / "g" / "one.yaml")
      << "dialect: step-v1\nid: g/one\ngroup: g\ntitle: T\ndescription: d\nsizes: {N: 3}\n"
         "inputs:\n  - {name: E0, dtype: fp32, dims: [N], data_gen: rand}\n"
         "outputs:\n  - {name: S0, dtype: fp32, dims: [N]}\nreference: return E0\n";
  Diagnostics ds;
  auto c = bench::Catalogue::load_v2(dir.string(), ds);
  fs::remove_all(dir);
  EXPECT_TRUE(c.tasks().empty());
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds.front().code, "D-DIALECT");
  Diagnostics none_ds;
  EXPECT_TRUE(bench::Catalogue::load_v2((fs::temp_directory_path() / "sf_no_such_resources").string(), none_ds)
                  .tasks()
                  .empty());
  EXPECT_TRUE(none_ds.empty());
  Diagnostics all_ds;
  auto all = bench::Catalogue::load_all(resources(), all_ds);
  EXPECT_TRUE(all_ds.empty());
  EXPECT_NE(all.find("gemm/small"), nullptr);
  EXPECT_NE(all.find("norm/layernorm_buffer"), nullptr);
}
