// The bad-input corpus tests/data/bad/<code>__<what>.yaml: every document-level file (code D-*) gives its code
// first, with a location; the impl-level files load as documents (their defects are found by later stages).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/step/task.hpp"

using namespace sf;
using namespace sf::step;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpus() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(SF_TEST_DATA_DIR) / "bad"))
    if (e.path().extension() == ".yaml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string code_of(const fs::path& p) {
  std::string stem = p.stem().string();
  return stem.substr(0, stem.find("__"));
}

}  // namespace

TEST(BadCorpus, HasAtLeastFortyWellNamedFiles) {
  auto files = corpus();
  EXPECT_GE(files.size(), 40u);
  for (const auto& p : files) {
    std::string stem = p.stem().string();
    auto sep = stem.find("__");
    ASSERT_NE(sep, std::string::npos) << stem;
    EXPECT_GT(stem.size(), sep + 2) << stem;
    EXPECT_TRUE(code_of(p).size() >= 3 && code_of(p)[1] == '-') << stem;
  }
}

TEST(BadCorpus, DocumentLevelFilesGiveTheirCodeFirstWithALocation) {
  int checked = 0;
  for (const auto& p : corpus()) {
    std::string code = code_of(p);
    Diagnostics d;
    AnyDoc doc = load_any_file(p.string(), d);
    if (code[0] != 'D') {
      // impl- and task-level defects: the document itself is well formed
      EXPECT_TRUE(doc.task) << p.filename() << ": " << (d.empty() ? "" : d[0].code + " " + d[0].message);
      continue;
    }
    ++checked;
    EXPECT_FALSE(doc.task || doc.solution || doc.mutants) << p.filename();
    ASSERT_FALSE(d.empty()) << p.filename();
    sort_and_cap(d);
    EXPECT_EQ(d[0].code, code) << p.filename() << ": " << d[0].message;
    EXPECT_TRUE(d[0].loc.known()) << p.filename();
  }
  EXPECT_GE(checked, 25);
}

TEST(BadCorpus, GeneratedHugeDocumentsAreRejectedBySize) {
  fs::path tmp = fs::temp_directory_path() / "sf_bad_huge.yaml";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << "dialect: step-v1\nimpl: |\n";
    for (int i = 0; i < 100000; ++i) out << "  E" << i + 3 << " = step.Identity().apply(E" << i + 2 << ")\n";
  }
  Diagnostics d;
  AnyDoc doc = load_any_file(tmp.string(), d);
  fs::remove(tmp);
  EXPECT_FALSE(doc.task);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "D-SIZE");
  EXPECT_TRUE(d[0].loc.known());
}
