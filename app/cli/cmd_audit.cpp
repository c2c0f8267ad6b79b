// audit: the human audit of adoption records, headless (issue 9.1; docs/audit.md).
//   stepforge-cli audit summary DIR [--csv|--md]      counts and percentages per label
//   stepforge-cli audit sample DIR -n N [--seed S]    N records drawn at random (the seed is printed)
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <random>

#include "app/cli/commands.hpp"
#include "core/store/audit.hpp"

namespace sf::cli {

namespace {

bool load(const std::string& dir, store::AuditWorkspace& ws) {
  std::string err;
  if (!std::filesystem::is_directory(dir)) {
    std::cerr << "error: " << dir << ": not a directory\n";
    return false;
  }
  if (!store::load_audit_workspace(dir, ws, err)) {
    std::cerr << "error: " << dir << ": " << err << "\n";
    return false;
  }
  for (const auto& w : ws.log.warnings) std::cerr << "warning: " << dir << "/events.jsonl: " << w << "\n";
  return true;
}

std::string one_line(std::string s, std::size_t max = 60) {
  for (char& c : s)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

}  // namespace

void add_audit_commands(CLI::App& app, int& exit_code) {
  auto* audit = app.add_subcommand("audit", "Human audit of a sage campaign's adoption records");
  audit->require_subcommand(1);

  struct SummaryOpts {
    std::string dir;
    bool csv = false, md = false;
  };
  auto so = std::make_shared<SummaryOpts>();
  auto* summary =
      audit->add_subcommand("summary", "Counts and percentages per audit label (full/partial/unrelated)");
  summary->add_option("DIR", so->dir, "Campaign workspace folder")->required();
  auto* csv = summary->add_flag("--csv", so->csv, "Print CSV (label,count,percent)");
  summary->add_flag("--md", so->md, "Print a Markdown table")->excludes(csv);
  summary->callback([so, &exit_code] {
    store::AuditWorkspace ws;
    if (!load(so->dir, ws)) {
      exit_code = 2;
      return;
    }
    auto s = store::summarize(ws.log.records, ws.labels);
    std::cout << (so->csv  ? store::summary_csv(s)
                  : so->md ? store::summary_markdown(s)
                           : store::summary_text(s));
  });

  struct SampleOpts {
    std::string dir;
    std::size_t n = 50;
    std::optional<std::uint64_t> seed;
    bool json = false;
  };
  auto sa = std::make_shared<SampleOpts>();
  auto* sample = audit->add_subcommand("sample", "Draw N adoption records at random for a blind audit");
  sample->add_option("DIR", sa->dir, "Campaign workspace folder")->required();
  sample->add_option("-n", sa->n, "Number of records (default 50, as in the paper's audit)")
      ->check(CLI::Range(1, 1000000));
  sample->add_option("--seed", sa->seed, "Seed (default: drawn from the clock and printed)");
  sample->add_flag("--json", sa->json, "Print the sample as JSON");
  sample->callback([sa, &exit_code] {
    store::AuditWorkspace ws;
    if (!load(sa->dir, ws)) {
      exit_code = 2;
      return;
    }
    std::uint64_t seed =
        sa->seed ? *sa->seed
                 : static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
                       1000000007ull;
    auto keys = store::sample_records(ws.log.records, sa->n, seed);
    if (sa->json) {
      nlohmann::json arr = nlohmann::json::array();
      for (const auto& k : keys) {
        const auto* r = ws.log.find(k);
        const auto* l = ws.labels.find(k);
        arr.push_back({{"episode", k.episode},
                       {"task", r->task},
                       {"round", k.round},
                       {"item", k.item},
                       {"rank", r->rank},
                       {"label", l ? nlohmann::json(l->label) : nlohmann::json(nullptr)}});
      }
      std::cout
          << nlohmann::json{{"seed", seed}, {"population", ws.log.records.size()}, {"records", arr}}.dump(2)
          << "\n";
      return;
    }
    std::cout << "seed " << seed << ": " << keys.size() << " of " << ws.log.records.size()
              << " adoption records\n";
    std::printf("%4s %7s %5s %-14s %4s %-24s %-9s %s\n", "#", "episode", "round", "item", "rank", "task",
                "label", "rationale");
    int i = 0;
    for (const auto& k : keys) {
      const auto* r = ws.log.find(k);
      const auto* l = ws.labels.find(k);
      std::printf("%4d %7lld %5d %-14s %4d %-24s %-9s %s\n", ++i, static_cast<long long>(k.episode), k.round,
                  k.item.c_str(), r->rank, r->task.c_str(), l ? l->label.c_str() : "-",
                  one_line(r->rationale).c_str());
    }
    std::fflush(stdout);
  });
}

}  // namespace sf::cli
