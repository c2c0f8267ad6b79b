// audit: the human audit of adoption records, headless (issue 9.1; docs/audit.md).
//   stepforge-cli audit summary DIR [--csv|--md]      per auditor: counts and percentages per label; per pair
//                                                     of auditors: agreement, Cohen's kappa, disagreements
//   stepforge-cli audit sample DIR -n N [--seed S] [--auditor A]   N records drawn at random (seed printed)
//   stepforge-cli audit label DIR --episode E --round R --item I --label L [--note T] [--auditor A]
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <cstdlib>
#include <ctime>
#include <random>
#include <sstream>

#include "app/cli/cli_util.hpp"
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

// The labels a sample shows for record `k`: only `auditor`'s (blind) or every auditor's.
nlohmann::json labels_json(const store::AuditLabels& labels, const store::AdoptionKey& k,
                           const std::optional<std::string>& auditor) {
  nlohmann::json out = nlohmann::json::object();
  if (const auto* by = labels.of(k))
    for (const auto& [a, l] : *by)
      if (!auditor || a == *auditor) out[a] = l.label;
  return out;
}
std::string labels_cell(const store::AuditLabels& labels, const store::AdoptionKey& k,
                        const std::optional<std::string>& auditor) {
  if (auditor) {
    const auto* l = labels.find(k, *auditor);
    return l ? l->label : "-";
  }
  std::string out;
  if (const auto* by = labels.of(k))
    for (const auto& [a, l] : *by) out += (out.empty() ? "" : " ") + store::auditor_display_name(a) + ":" + l.label;
  return out.empty() ? "-" : out;
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
  auto* summary = audit->add_subcommand(
      "summary",
      "Per auditor: counts and percentages per label (full/partial/unrelated); per pair of auditors: records "
      "both labelled, raw agreement, Cohen's kappa with a 95% bootstrap interval, the disagreements");
  summary->add_option("DIR", so->dir, "Campaign workspace folder")->required();
  auto* csv = summary->add_flag("--csv", so->csv,
                                "Print CSV (auditor,label,count,percent; then per pair the disagreements)");
  summary->add_flag("--md", so->md, "Print Markdown tables")->excludes(csv);
  summary->callback([so, &exit_code] {
    store::AuditWorkspace ws;
    if (!load(so->dir, ws)) {
      exit_code = 2;
      return;
    }
    const auto auditors = ws.labels.auditors();
    if (auditors.empty()) {
      // Nobody labelled yet: the empty table.
      auto s = store::summarize(ws.log.records, ws.labels, "");
      std::cout << (so->csv ? store::summary_csv(s) : so->md ? store::summary_markdown(s) : store::summary_text(s));
      return;
    }
    if (so->csv) std::cout << "auditor,label,count,percent\n";
    for (const auto& a : auditors) {
      auto s = store::summarize(ws.log.records, ws.labels, a);
      const std::string name = store::auditor_display_name(a);
      if (so->csv) {
        std::istringstream rows(store::summary_csv(s));
        std::string row;
        std::getline(rows, row);  // the header
        while (std::getline(rows, row)) std::cout << store::audit_csv_field(name) << "," << row << "\n";
      } else if (so->md) {
        std::cout << "### " << name << "\n\n" << store::summary_markdown(s) << "\n";
      } else {
        std::cout << "auditor " << name << ":\n" << store::summary_text(s) << "\n";
      }
    }
    for (std::size_t i = 0; i < auditors.size(); ++i)
      for (std::size_t j = i + 1; j < auditors.size(); ++j) {
        auto ag = store::agreement(ws.log.records, ws.labels, auditors[i], auditors[j]);
        if (so->csv)
          std::cout << "\n" << store::disagreements_csv(ag);
        else if (so->md)
          std::cout << store::agreement_markdown(ag) << "\n";
        else
          std::cout << store::agreement_text(ag) << "\n";
      }
  });

  struct LabelOpts {
    std::string dir, item, label, note, auditor;
    std::int64_t episode = 0;
    int round = 0;
  };
  auto lo = std::make_shared<LabelOpts>();
  auto* label = audit->add_subcommand("label", "Label one adoption record (full, partial or unrelated)");
  label->add_option("DIR", lo->dir, "Campaign workspace folder")->required();
  label->add_option("--episode", lo->episode, "The record's episode")->required()->check(CLI::NonNegativeNumber);
  label->add_option("--round", lo->round, "The record's round")->required()->check(CLI::NonNegativeNumber);
  label->add_option("--item", lo->item, "The record's memory item id")->required();
  label->add_option("--label", lo->label, "full, partial or unrelated")
      ->required()
      ->check(CLI::IsMember({"full", "partial", "unrelated"}));
  label->add_option("--note", lo->note, "A note kept with the label");
  label->add_option("--auditor", lo->auditor, "Your name (default: $USER)");
  label->callback([lo, &exit_code] {
    store::AuditWorkspace ws;
    if (!load(lo->dir, ws)) {
      exit_code = 2;
      return;
    }
    const store::AdoptionKey key{lo->episode, lo->round, lo->item};
    const auto* r = ws.log.find(key);
    if (!r) {
      std::cerr << "error: " << lo->dir << ": no adoption record " << store::to_string(key) << "\n";
      exit_code = 2;
      return;
    }
    std::string auditor = lo->auditor;
    if (auditor.empty())
      if (const char* user = std::getenv("USER")) auditor = user;
    const auto now = std::chrono::system_clock::now();
    const std::string iso = now_iso_utc();
    store::AuditLabelEntry l{key.episode, r->task, key.round, key.item, lo->label, lo->note, auditor, iso};
    std::string err;
    const double t = std::chrono::duration<double>(now.time_since_epoch()).count();
    if (!store::record_audit_label(ws, l, t, err)) {
      std::cerr << "error: " << lo->dir << ": " << err << "\n";
      exit_code = 2;
      return;
    }
    std::cout << store::to_string(key) << ": " << lo->label << " by " << store::auditor_display_name(auditor) << "\n";
  });

  struct SampleOpts {
    std::string dir;
    std::size_t n = 50;
    std::optional<std::uint64_t> seed;
    bool json = false;
    std::optional<std::string> auditor;
  };
  auto sa = std::make_shared<SampleOpts>();
  auto* sample = audit->add_subcommand("sample", "Draw N adoption records at random for a blind audit");
  sample->add_option("DIR", sa->dir, "Campaign workspace folder")->required();
  sample->add_option("-n", sa->n, "Number of records (default 50, as in the paper's audit)")
      ->check(CLI::Range(1, 1000000));
  sample->add_option("--seed", sa->seed, "Seed (default: drawn from the clock and printed)");
  sample->add_flag("--json", sa->json, "Print the sample as JSON");
  sample->add_option("--auditor", sa->auditor,
                     "Blind: show only this auditor's labels (default: every auditor's, as NAME:label)");
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
        arr.push_back({{"episode", k.episode},
                       {"task", r->task},
                       {"round", k.round},
                       {"item", k.item},
                       {"rank", r->rank},
                       {"labels", labels_json(ws.labels, k, sa->auditor)}});
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
      std::printf("%4d %7lld %5d %-14s %4d %-24s %-9s %s\n", ++i, static_cast<long long>(k.episode), k.round,
                  k.item.c_str(), r->rank, r->task.c_str(), labels_cell(ws.labels, k, sa->auditor).c_str(),
                  one_line(r->rationale).c_str());
    }
    std::fflush(stdout);
  });
}

}  // namespace sf::cli
