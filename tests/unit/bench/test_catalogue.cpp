// The task catalogue: loads <dir>/benchmark/**/*.yaml, skips and reports bad files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/bench/catalogue.hpp"
#include "tests/support/files.hpp"

using namespace sf;
namespace fs = std::filesystem;

namespace {

std::string task_text(const std::string& group, const std::string& name) {
  return "dialect: step-v1\nid: " + group + "/" + name + "\ngroup: " + group + "\ntitle: T\ndescription: d\n" +
         "sizes: {N: 3}\ninputs:\n  - {name: E0, dtype: fp32, dims: [N], data_gen: rand}\n"
         "outputs:\n  - {name: S0, dtype: fp32, dims: [N]}\nreference: return E0\n";
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = sf::test_support::scratch_dir("sf_bench_test");
    fs::create_directories(path / "benchmark");
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

}  // namespace

TEST(Catalogue, LoadsTasksFromATempDir) {
  TempDir dir;
  dir.write("benchmark/beta/two.yaml", task_text("beta", "two"));
  dir.write("benchmark/alpha/one.yaml", task_text("alpha", "one"));
  dir.write("benchmark/alpha/zero.yaml", task_text("alpha", "zero"));
  dir.write("benchmark/alpha/notes.txt", "not a task");
  Diagnostics d;
  auto c = bench::Catalogue::load(dir.path.string(), d);
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d[0].message);
  ASSERT_EQ(c.tasks().size(), 3u);
  EXPECT_EQ(c.tasks()[0].id, "alpha/one");
  EXPECT_EQ(c.tasks()[1].id, "alpha/zero");
  EXPECT_EQ(c.tasks()[2].id, "beta/two");
  EXPECT_EQ(c.groups(), (std::vector<std::string>{"alpha", "beta"}));
  ASSERT_NE(c.find("beta/two"), nullptr);
  EXPECT_EQ(c.find("beta/two")->group, "beta");
  EXPECT_EQ(c.find("beta/three"), nullptr);
}

TEST(Catalogue, ReportsAndSkipsBadFiles) {
  TempDir dir;
  dir.write("benchmark/alpha/one.yaml", task_text("alpha", "one"));
  dir.write("benchmark/alpha/broken.yaml", "dialect: step-v1\nidd: x\n");
  dir.write("benchmark/alpha/moved.yaml", task_text("alpha", "elsewhere"));
  Diagnostics d;
  auto c = bench::Catalogue::load(dir.path.string(), d);
  ASSERT_EQ(c.tasks().size(), 1u);
  EXPECT_EQ(c.tasks()[0].id, "alpha/one");
  bool key = false, moved = false;
  for (const auto& x : d) {
    if (x.code == "D-KEY" && x.message.rfind("benchmark/alpha/broken.yaml: ", 0) == 0 && x.loc == Location{2, 1})
      key = true;
    if (x.code == "D-VALUE" && x.message.find("alpha/elsewhere") != std::string::npos) moved = true;
  }
  EXPECT_TRUE(key);
  EXPECT_TRUE(moved);
}

TEST(Catalogue, MissingDirectoryIsAnIoError) {
  Diagnostics d;
  auto c = bench::Catalogue::load("/nonexistent/stepforge", d);
  EXPECT_TRUE(c.tasks().empty());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "IO-READ");
}

TEST(Catalogue, ResourceDirHonoursTheEnvironment) {
  ::setenv("STEPFORGE_RESOURCES", "/some/where", 1);
  EXPECT_EQ(bench::resource_dir(), "/some/where");
  ::unsetenv("STEPFORGE_RESOURCES");
  EXPECT_TRUE(fs::is_directory(fs::path(bench::resource_dir()) / "benchmark"));
}

TEST(Catalogue, BundledBenchmarkLoads) {
  Diagnostics d;
  auto c = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  EXPECT_TRUE(d.empty()) << (d.empty() ? "" : d[0].code + " " + d[0].message);
  EXPECT_GE(c.tasks().size(), 26u);
  EXPECT_NE(c.find("attention/online_softmax_fused"), nullptr);
}
