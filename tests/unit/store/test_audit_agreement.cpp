// Two auditors (issue 20 item 3): labels per auditor, old single-auditor files, Cohen's κ on a hand-computed
// example with its bootstrap interval, the disagreements, and two processes labelling one workspace at once.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <set>

#include "core/store/audit.hpp"
#include "core/store/event_log.hpp"
#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace sf::store;

namespace {

fs::path agreement_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_audit_agree_" + name);
}

// `n` adoption records e0/r0/mem-i (task "t/i") as event envelopes.
std::vector<json> records_events(int n) {
  std::vector<json> out;
  for (int i = 0; i < n; ++i)
    out.push_back({{"v", 1},       {"seq", i},           {"t", 1.0},        {"type", "adoption_record"},
                   {"episode", 0}, {"task", "t/" + std::to_string(i)},      {"round", 0},
                   {"item", "mem-" + std::to_string(i)}, {"rank", 1},       {"relevance", 1.0},
                   {"score", 1.0}, {"utility", 0.0},     {"adopted", true}, {"rationale", "r"},
                   {"reasked", false},                   {"before", ""},    {"after", "x\n"}});
  return out;
}

AuditLabelEntry label_by(const std::string& auditor, int i, const std::string& grade, const std::string& note = "") {
  return {0, "t/" + std::to_string(i), 0, "mem-" + std::to_string(i), grade, note, auditor, "2026-12-01T00:00:00Z"};
}

void write_events_file(const fs::path& dir, const std::vector<json>& events) {
  std::ofstream out(dir / "events.jsonl", std::ios::binary);
  for (const auto& e : events) out << e.dump() << "\n";
}

}  // namespace

TEST(AuditAgreement, KappaOnAHandComputedTable) {
  // ann \ bob   full partial unrelated
  // full          4     1       0
  // partial       1     2       0
  // unrelated     0     0       2
  // n = 10, po = 8/10 = 0.8; marginals 5,3,2 for both: pe = .25 + .09 + .04 = .38;
  // κ = (0.8 − 0.38) / (1 − 0.38) = 0.42 / 0.62 = 0.677419...
  const std::array<std::array<std::size_t, 3>, 3> table = {{{4, 1, 0}, {1, 2, 0}, {0, 0, 2}}};
  ASSERT_TRUE(cohen_kappa(table).has_value());
  EXPECT_NEAR(*cohen_kappa(table), 0.42 / 0.62, 1e-12);
  // Chance-level: po = pe = 0.5 → κ = 0.
  EXPECT_NEAR(*cohen_kappa({{{1, 1, 0}, {1, 1, 0}, {0, 0, 0}}}), 0.0, 1e-12);
  // Undefined: nothing, or both auditors always said "full" (pe = 1).
  EXPECT_FALSE(cohen_kappa({}).has_value());
  EXPECT_FALSE(cohen_kappa({{{5, 0, 0}, {0, 0, 0}, {0, 0, 0}}}).has_value());

  // The same table through labels on records.
  AuditLog log = build_audit_log(records_events(12));
  const char* ann[10] = {"full", "full", "full", "full", "full", "partial", "partial", "partial", "unrelated",
                         "unrelated"};
  const char* bob[10] = {"full", "full", "full", "full", "partial", "full", "partial", "partial", "unrelated",
                         "unrelated"};
  AuditLabels labels;
  for (int i = 0; i < 10; ++i) {
    labels.set(label_by("ann", i, ann[i], i == 4 ? "uses the rule" : ""));
    labels.set(label_by("bob", i, bob[i]));
  }
  labels.set(label_by("ann", 10, "full"));  // only one auditor: not a common record
  labels.set(label_by("bob", 99, "full"));  // no such record: not counted
  EXPECT_EQ(labels.auditors(), (std::vector<std::string>{"ann", "bob"}));
  EXPECT_EQ(labels.size(), 22u);
  EXPECT_EQ(summarize(log.records, labels, "ann").labelled, 11u);
  EXPECT_EQ(summarize(log.records, labels, "bob").labelled, 10u);
  EXPECT_EQ(summarize(log.records, labels, "bob").counts, (std::array<std::size_t, 3>{5, 3, 2}));

  AuditAgreement a = agreement(log.records, labels, "ann", "bob");
  EXPECT_EQ(a.both, 10u);
  EXPECT_EQ(a.agree, 8u);
  EXPECT_DOUBLE_EQ(a.raw, 0.8);
  ASSERT_TRUE(a.kappa);
  EXPECT_NEAR(*a.kappa, 0.677419354838709, 1e-12);
  EXPECT_EQ(a.confusion, table);
  ASSERT_EQ(a.disagreements.size(), 2u);
  EXPECT_EQ(a.disagreements[0].key, (AdoptionKey{0, 0, "mem-4"}));
  EXPECT_EQ(a.disagreements[0].label_a, "full");
  EXPECT_EQ(a.disagreements[0].label_b, "partial");
  EXPECT_EQ(a.disagreements[0].note_a, "uses the rule");
  EXPECT_EQ(a.disagreements[1].key, (AdoptionKey{0, 0, "mem-5"}));
  // The bootstrap interval contains κ, stays within [-1, 1], and is reproducible from its seed.
  ASSERT_TRUE(a.ci_low && a.ci_high);
  EXPECT_LE(*a.ci_low, *a.kappa);
  EXPECT_GE(*a.ci_high, *a.kappa);
  EXPECT_GE(*a.ci_low, -1.0);
  EXPECT_LE(*a.ci_high, 1.0);
  EXPECT_LT(*a.ci_low, *a.ci_high);
  EXPECT_GT(a.replicates, kBootstrapReplicates / 2);
  AuditAgreement again = agreement(log.records, labels, "ann", "bob");
  EXPECT_EQ(*again.ci_low, *a.ci_low);
  EXPECT_EQ(*again.ci_high, *a.ci_high);

  const std::string text = agreement_text(a);
  EXPECT_NE(text.find("agreement ann vs bob: 10 records both labelled, 8 agree (raw agreement 80.0%), "
                      "Cohen's kappa 0.677 (95% bootstrap CI "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2 disagreements:\n  e0/r0/mem-4 t/4: ann full, bob partial (notes: \"uses the rule\" / \"\")\n"
                      "  e0/r0/mem-5 t/5: ann partial, bob full\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(disagreements_csv(a), "episode,round,item,task,ann,bob\n0,0,mem-4,t/4,full,partial\n0,0,mem-5,t/5,partial,full\n");
  EXPECT_NE(agreement_markdown(a).find("| e0/r0/mem-5 | t/5 | partial | full |"), std::string::npos);

  // A subset (a sample) of three records, one disagreement.
  std::vector<AdoptionKey> subset = {{0, 0, "mem-0"}, {0, 0, "mem-4"}, {0, 0, "mem-9"}};
  AuditAgreement sub = agreement(log.records, labels, "ann", "bob", &subset);
  EXPECT_EQ(sub.both, 3u);
  EXPECT_EQ(sub.agree, 2u);

  // Perfect agreement over varied labels: κ = 1 and the interval is [1, 1].
  AuditLabels same;
  for (int i = 0; i < 10; ++i) {
    same.set(label_by("ann", i, ann[i]));
    same.set(label_by("bob", i, ann[i]));
  }
  AuditAgreement p = agreement(log.records, same, "ann", "bob");
  EXPECT_DOUBLE_EQ(*p.kappa, 1.0);
  EXPECT_DOUBLE_EQ(*p.ci_low, 1.0);
  EXPECT_DOUBLE_EQ(*p.ci_high, 1.0);
  EXPECT_NE(agreement_text(p).find("no disagreements."), std::string::npos);
  // No common record.
  EXPECT_EQ(agreement_text(agreement(log.records, same, "ann", "carl")),
            "agreement ann vs carl: 0 records both labelled.\n");
}

TEST(AuditAgreement, VersionOneFilesStillLoadAndBlindViewKeepsOneAuditor) {
  auto d = agreement_dir("v1");
  write_events_file(d, records_events(3));
  // Written by the single-labeller build: version 1, one label per record, one with no auditor name.
  std::ofstream(d / "audit.json")
      << R"({"format":"stepforge-audit","version":1,"labels":[)"
         R"({"episode":0,"task":"t/0","round":0,"item":"mem-0","label":"full","note":"","auditor":"","time":"x"},)"
         R"({"episode":0,"task":"t/1","round":0,"item":"mem-1","label":"partial","note":"n","auditor":"ann","time":"y"}]})";
  AuditWorkspace ws;
  std::string err;
  ASSERT_TRUE(load_audit_workspace(d, ws, err)) << err;
  EXPECT_EQ(ws.labels.size(), 2u);
  ASSERT_NE(ws.labels.find({0, 0, "mem-0"}, ""), nullptr);
  EXPECT_EQ(ws.labels.find({0, 0, "mem-0"}, "")->label, "full");
  EXPECT_EQ(ws.labels.auditors(), (std::vector<std::string>{"", "ann"}));
  EXPECT_EQ(auditor_display_name(""), "(unnamed)");
  // A second auditor labels the same record: both labels are kept (file version 2).
  ASSERT_TRUE(record_audit_label(ws, label_by("bob", 1, "full"), 5.0, err)) << err;
  AuditWorkspace again;
  ASSERT_TRUE(load_audit_workspace(d, again, err)) << err;
  ASSERT_NE(again.labels.of({0, 0, "mem-1"}), nullptr);
  EXPECT_EQ(again.labels.of({0, 0, "mem-1"})->size(), 2u);
  EXPECT_EQ(again.labels.find({0, 0, "mem-1"}, "ann")->label, "partial");
  EXPECT_EQ(again.labels.find({0, 0, "mem-1"}, "bob")->label, "full");
  // Blind: only bob's labels.
  AuditLabels blind = again.labels.only("bob");
  EXPECT_EQ(blind.size(), 1u);
  EXPECT_EQ(blind.find({0, 0, "mem-1"}, "ann"), nullptr);
  fs::remove_all(d);
}

TEST(AuditAgreement, TwoProcessesLabellingAtOnceLoseAndDuplicateNothing) {
  auto d = agreement_dir("concurrent");
  constexpr int kRecords = 25;
  write_events_file(d, records_events(kRecords));
  std::string err;
  // Both writers load the workspace before either writes: each one's snapshot is stale at once.
  AuditWorkspace ws;
  ASSERT_TRUE(load_audit_workspace(d, ws, err)) << err;
  auto writer = [&](const std::string& auditor, const char* grade) -> int {
    AuditWorkspace mine = ws;
    std::string e;
    for (int i = 0; i < kRecords; ++i)
      if (!record_audit_label(mine, label_by(auditor, i, grade), 1.0, e)) return 1;
    // Relabelling by the same auditor replaces, never duplicates.
    if (!record_audit_label(mine, label_by(auditor, 0, "unrelated"), 1.0, e)) return 1;
    return 0;
  };
  std::vector<pid_t> kids;
  for (auto [name, grade] : {std::pair{"ann", "full"}, std::pair{"bob", "partial"}}) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) ::_exit(writer(name, grade));
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  AuditWorkspace after;
  ASSERT_TRUE(load_audit_workspace(d, after, err)) << err;
  EXPECT_EQ(after.labels.size(), 2u * kRecords);
  for (int i = 0; i < kRecords; ++i) {
    const std::string want_ann = i == 0 ? "unrelated" : "full", want_bob = i == 0 ? "unrelated" : "partial";
    ASSERT_NE(after.labels.find({0, 0, "mem-" + std::to_string(i)}, "ann"), nullptr) << i;
    ASSERT_NE(after.labels.find({0, 0, "mem-" + std::to_string(i)}, "bob"), nullptr) << i;
    EXPECT_EQ(after.labels.find({0, 0, "mem-" + std::to_string(i)}, "ann")->label, want_ann);
    EXPECT_EQ(after.labels.find({0, 0, "mem-" + std::to_string(i)}, "bob")->label, want_bob);
  }
  // Every label event is in the log once, with distinct consecutive seq numbers.
  EXPECT_EQ(after.log.label_events.size(), 2u * (kRecords + 1));
  LoadedLog loaded;
  ASSERT_TRUE(read_event_log(d / "events.jsonl", loaded, err)) << err;
  ASSERT_EQ(loaded.events.size(), kRecords + 2u * (kRecords + 1));
  for (std::size_t i = 0; i < loaded.events.size(); ++i) EXPECT_EQ(loaded.events[i]["seq"], i);
  fs::remove_all(d);
}
