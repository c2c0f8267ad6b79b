// Steady-state cost of one verification per program file, for callgrind:
//   valgrind --tool=callgrind --callgrind-out-file=cg.out build/tests/perf/bench_verify FILE... [--reps N]
// Each file is verified once to warm the verifier's cache, then the statistics are zeroed, N verifications
// run and the statistics are dumped under the file's name (one callgrind part per file): divide the part's
// total by N for the instructions per verification. Without valgrind it prints the wall-clock median.
#include <valgrind/callgrind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/bench/catalogue.hpp"
#include "core/verify/program_file.hpp"
#include "core/verify/verifier.hpp"

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      files.emplace_back(argv[i]);
    }
  }
  sf::Diagnostics ignored;
  auto cat = sf::bench::Catalogue::load(sf::bench::resource_dir(), ignored);
  sf::verify::Verifier v;
  int failures = 0;
  for (const auto& f : files) {
    sf::Diagnostics ds;
    auto pf = sf::verify::load_program_file(f, &cat, ds);
    if (!pf) {
      std::fprintf(stderr, "%s: cannot load\n", f.c_str());
      ++failures;
      continue;
    }
    auto first = v.verify(pf->task, pf->impl, pf->impl_line_starts);
    if (!first.pass) std::fprintf(stderr, "note: %s does not pass (%s)\n", f.c_str(), first.code.c_str());
    std::vector<double> t;
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < reps; ++i) {
      auto a = std::chrono::steady_clock::now();
      auto r = v.verify(pf->task, pf->impl, pf->impl_line_starts);
      auto b = std::chrono::steady_clock::now();
      if (r.pass != first.pass) ++failures;
      t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    }
    CALLGRIND_DUMP_STATS_AT(f.c_str());
    std::sort(t.begin(), t.end());
    std::printf("%-60s %10.1f us\n", f.c_str(), t[t.size() / 2]);
  }
  return failures == 0 ? 0 : 1;
}
