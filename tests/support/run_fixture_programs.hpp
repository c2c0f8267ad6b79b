// The programs of the run comparison fixtures (core and widget tests): reference solutions of two bundled
// tasks, one with its streams renamed, and one that runs but does not match the reference.
#pragma once

#include <string>

#include "core/learn/run_comparison.hpp"
#include "tests/support/run_fixture.hpp"
#include "tests/support/catalogue.hpp"

namespace sf::learn::testing {

inline const std::string kCmpA = "rope/gptj_interleaved", kCmpB = "rope/neox_halves", kCmpC = "rope/identity_fixture";

// gptj_interleaved's reference with P and Z renamed (the same canonical program).
inline const std::string kGptjRenamed =
    "Pos = step.Scan(fn=fn_sum, b=1).apply(E0)\n"
    "Zipped = step.Zip().apply((Pos, E1))\n"
    "Y = step.Map(fn=fn_gptjrope).apply(Zipped)\n"
    "return Y\n";
// neox_halves without the position scan: runs, but 479 of 560 values of S0 differ (first at [0, 0]).
inline const std::string kNeoxWrong =
    "Zipped = step.Zip().apply((E0, E1))\n"
    "Y = step.Map(fn=fn_neoxrope).apply(Zipped)\n"
    "return Y\n";

// Two runs of three tasks (n = 2). base: A solved at its 2nd sample (1.2x), B solved in iteration 1 (1.1x),
// C solved at once. cand: A solved at once with renamed streams (1.5x), B never solved, C as in base.
inline void write_comparison_fixture(const std::filesystem::path& base, const std::filesystem::path& cand) {
  const std::string gptj = test_support::solution_impl(kCmpA), neox = test_support::solution_impl(kCmpB);
  const std::string ident = "return E0\n";
  write_fixture_run(base, "base", 2,
                    {{kCmpA, {{{false, ""}, {true, gptj, 100, 1.2}}}},
                     {kCmpB, {{{false, kNeoxWrong}, {false, kNeoxWrong}}, {{true, neox, 90, 1.1}, {true, neox, 90, 1.1}}}},
                     {kCmpC, {{{true, ident}, {true, ident}}}}});
  write_fixture_run(cand, "cand", 2,
                    {{kCmpA, {{{true, kGptjRenamed, 80, 1.5}, {true, kGptjRenamed, 80, 1.5}}}},
                     {kCmpB, {{{false, kNeoxWrong}, {false, kNeoxWrong}}, {{false, kNeoxWrong}, {false, kNeoxWrong}}}},
                     {kCmpC, {{{true, ident}, {true, ident}}}}});
}

// Writes the pair below `root` (base, cand) and loads both runs (a failed load fails the test and is left out).
inline std::vector<RunRecord> load_comparison_pair(const std::filesystem::path& root) {
  write_comparison_fixture(root / "base", root / "cand");
  std::vector<RunRecord> runs;
  for (const char* name : {"base", "cand"}) {
    std::string err;
    auto r = load_run(root / name, err);
    EXPECT_TRUE(r) << err;
    if (r) runs.push_back(std::move(*r));
  }
  return runs;
}

}  // namespace sf::learn::testing
