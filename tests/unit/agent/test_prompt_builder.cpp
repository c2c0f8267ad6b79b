// Prompt builder: contents, section order, truncation of demonstrations, manual loading.
#include "core/agent/prompt_builder.hpp"
#include "core/bench/catalogue.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace sf::agent;

namespace {

PromptInput sample_input() {
  PromptInput in;
  in.manual_text = "MANUAL-TEXT: streams are affine.";
  in.demos = {{"demo/one", "id: demo/one\ndescription: first", "A = step.Map(fn=f).apply(E0)\nreturn A"},
              {"demo/two", "id: demo/two\ndescription: second", "return E0"},
              {"demo/three", "id: demo/three\ndescription: third", "B = step.Copy().apply(E0)\nreturn B"}};
  in.rules = {{"rule-7", "Reduce with Accum after Bufferize.", "E1 = step.Accum(fn=fn_add, b=1).apply(E0)"}};
  in.experiences = {{"mem-12", "Copy a stream before using it twice.", "A-MULTI at line 3", ""},
                    {"mem-40", "Partition needs a Multihot selector.", "T-SELECTOR", "P = step.Partition(N=2)"}};
  in.task_text = "id: gemm_easy/x\ndescription: the task";
  return in;
}

std::size_t pos(const std::string& s, const std::string& what) {
  auto p = s.find(what);
  EXPECT_NE(p, std::string::npos) << "missing: " << what;
  return p;
}

}  // namespace

TEST(PromptBuilder, SystemIsTheStaticManualPrefixAndUserHoldsTheRestInOrder) {
  auto in = sample_input();
  in.previous_attempt = "X = step.Map(fn=fn_bad).apply(E0)\nreturn X";
  in.previous_diagnostics = "1:14: error: unknown fn fn_bad [T-FN-UNKNOWN]";
  auto p = build_prompt(in);
  ASSERT_EQ(p.messages.size(), 2u);
  EXPECT_EQ(p.messages[0].role, "system");
  EXPECT_EQ(p.messages[1].role, "user");
  EXPECT_EQ(p.cache_prefix, p.messages[0].content);
  EXPECT_NE(p.messages[0].content.find("MANUAL-TEXT: streams are affine."), std::string::npos);
  // nothing request-specific in the cacheable prefix
  EXPECT_EQ(p.messages[0].content.find("gemm_easy/x"), std::string::npos);
  EXPECT_EQ(p.messages[0].content.find("mem-12"), std::string::npos);

  const std::string& u = p.messages[1].content;
  std::size_t demos = pos(u, "## Demonstrations"), d1 = pos(u, "demo/one"), d3 = pos(u, "demo/three"),
              rules = pos(u, "## Resident rules"), exps = pos(u, "## Retrieved experiences"),
              task = pos(u, "## Task"), prev = pos(u, "## Previous attempt"), fmt = pos(u, "## Answer format");
  EXPECT_LT(demos, d1);
  EXPECT_LT(d1, d3);
  EXPECT_LT(d3, rules);
  EXPECT_LT(rules, exps);
  EXPECT_LT(exps, task);
  EXPECT_LT(task, prev);
  EXPECT_LT(prev, fmt);
  // demonstration impl is under `impl: |`, indented by two spaces
  EXPECT_NE(u.find("impl: |\n  A = step.Map(fn=f).apply(E0)\n  return A\n"), std::string::npos);
  EXPECT_NE(u.find("[rule-7] Reduce with Accum after Bufferize."), std::string::npos);
  EXPECT_NE(u.find("- id: mem-12\n  rule: Copy a stream before using it twice.\n  evidence: A-MULTI at line 3"),
            std::string::npos);
  EXPECT_NE(u.find("T-FN-UNKNOWN"), std::string::npos);
  EXPECT_NE(u.find("fn_bad"), std::string::npos);
  EXPECT_NE(u.find("id: gemm_easy/x\ndescription: the task"), std::string::npos);
  // the answer format names every retrieved id, and asks which resident rules the program follows
  EXPECT_NE(u.find("(mem-12, mem-40)"), std::string::npos);
  EXPECT_NE(u.find("add a `rules_used:` list"), std::string::npos);
  EXPECT_NE(u.find("\nrules_used: [rule-7]\n```"), std::string::npos);
  EXPECT_EQ(p.demos_used, 3);
  EXPECT_EQ(p.demos_omitted, 0);
  EXPECT_EQ(u.find("omitted"), std::string::npos);
  // The prompt-cache breakpoints: the whole system prompt, and the user message up to the demonstrations' end.
  EXPECT_EQ(p.cache_prefix, p.messages[0].content);
  ASSERT_FALSE(p.cache_user_prefix.empty());
  EXPECT_TRUE(u.starts_with(p.cache_user_prefix));
  EXPECT_NE(p.cache_user_prefix.find("### Demonstration 3"), std::string::npos);
  EXPECT_EQ(p.cache_user_prefix.find("## Resident rules"), std::string::npos);
  EXPECT_TRUE(u.substr(p.cache_user_prefix.size()).starts_with("\n## Resident rules"));
}

TEST(PromptBuilder, NoExperiencesNoAdoptionRequestNoEmptySections) {
  PromptInput in;
  in.manual_text = "M";
  in.task_text = "id: t/x";
  auto u = build_prompt(in).messages[1].content;
  EXPECT_EQ(u.find("adoption"), std::string::npos);
  EXPECT_EQ(u.find("rules_used"), std::string::npos);  // no resident rules: no list asked for
  EXPECT_EQ(u.find("## Demonstrations"), std::string::npos);
  EXPECT_TRUE(build_prompt(in).cache_user_prefix.empty());  // no demonstrations: no second breakpoint
  EXPECT_EQ(u.find("## Resident rules"), std::string::npos);
  EXPECT_EQ(u.find("## Previous attempt"), std::string::npos);
  EXPECT_NE(u.find("impl: |"), std::string::npos);
}

TEST(PromptBuilder, TruncatesDemonstrationsFromTheEndAndSaysSo) {
  auto in = sample_input();
  auto full = build_prompt(in);
  // a budget that fits everything but about one demonstration
  std::int64_t budget = full.estimated_tokens - 5;
  PromptOptions opt;
  opt.max_prompt_tokens = budget;
  auto p = build_prompt(in, opt);
  EXPECT_EQ(p.demos_used, 2);
  EXPECT_EQ(p.demos_omitted, 1);
  EXPECT_LE(p.estimated_tokens, budget);
  EXPECT_FALSE(p.over_budget);
  const auto& u = p.messages[1].content;
  EXPECT_NE(u.find("(1 of 3 demonstrations were omitted to fit the token budget.)"), std::string::npos);
  EXPECT_NE(u.find("demo/two"), std::string::npos);
  EXPECT_EQ(u.find("demo/three"), std::string::npos);
  // deterministic
  EXPECT_EQ(build_prompt(in, opt).messages, p.messages);
  // nothing else is dropped, even when nothing fits
  opt.max_prompt_tokens = 10;
  auto tiny = build_prompt(in, opt);
  EXPECT_EQ(tiny.demos_used, 0);
  EXPECT_TRUE(tiny.over_budget);
  EXPECT_NE(tiny.messages[1].content.find("(3 of 3 demonstrations were omitted"), std::string::npos);
  EXPECT_NE(tiny.messages[1].content.find("mem-40"), std::string::npos);
  EXPECT_NE(tiny.messages[1].content.find("id: gemm_easy/x"), std::string::npos);
}

TEST(ManualLoader, FullManualFollowsIndexOrder) {
  std::string err;
  auto m = load_manual(sf::bench::resource_dir(), ManualMode::Full, err);
  ASSERT_TRUE(m) << err;
  // first lines of the pages, in index.md order: overview, map, zip, ..., patterns
  std::ifstream ov(sf::bench::resource_dir() + "/manual/00-overview.md");
  std::string first_line;
  std::getline(ov, first_line);
  EXPECT_EQ(m->rfind(first_line, 0), 0u);
  std::ifstream mp(sf::bench::resource_dir() + "/manual/map.md"), pt(sf::bench::resource_dir() + "/manual/patterns.md"),
      zp(sf::bench::resource_dir() + "/manual/zip.md");
  std::string map_line, pat_line, zip_line;
  std::getline(mp, map_line);
  std::getline(pt, pat_line);
  std::getline(zp, zip_line);
  auto pm = m->find(map_line), pz = m->find(zip_line), pp = m->find(pat_line);
  ASSERT_NE(pm, std::string::npos);
  ASSERT_NE(pp, std::string::npos);
  EXPECT_LT(pm, pz);
  EXPECT_LT(pz, pp);
  EXPECT_GT(m->size(), 40000u);  // the whole manual (~57 k characters)
  // The performance page comes last.
  std::ifstream pf(sf::bench::resource_dir() + "/manual/performance.md");
  std::string perf_line;
  std::getline(pf, perf_line);
  EXPECT_LT(pp, m->find(perf_line));
}

TEST(ManualLoader, CheatsheetModeAndAutoWithSmallBudget) {
  std::string err;
  auto c = load_manual(sf::bench::resource_dir(), ManualMode::Cheatsheet, err);
  ASSERT_TRUE(c) << err;
  EXPECT_LT(c->size(), 5000u);
  auto a = load_manual(sf::bench::resource_dir(), ManualMode::Auto, err, 2000);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *c);
  auto big = load_manual(sf::bench::resource_dir(), ManualMode::Auto, err, 25000);
  ASSERT_TRUE(big);
  EXPECT_GT(big->size(), c->size());
}

TEST(ManualLoader, MissingFilesAreErrorsNotCrashes) {
  auto dir = std::filesystem::temp_directory_path() / "sf_agent_manual_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "manual");
  std::string err;
  EXPECT_FALSE(load_manual(dir.string(), ManualMode::Full, err));
  EXPECT_NE(err.find("index.md"), std::string::npos);
  std::ofstream(dir / "manual" / "index.md") << "1. `a.md` - A\n2. `missing.md` - B\n";
  std::ofstream(dir / "manual" / "a.md") << "page A\n";
  err.clear();
  EXPECT_FALSE(load_manual(dir.string(), ManualMode::Full, err));
  EXPECT_NE(err.find("missing.md"), std::string::npos);
  std::ofstream(dir / "manual" / "missing.md") << "page B\n";
  auto m = load_manual(dir.string(), ManualMode::Full, err);
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, "page A\n\npage B\n");
  std::filesystem::remove_all(dir);
}
