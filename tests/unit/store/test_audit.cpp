// Audit labels, sampling and summaries (core/store/audit.hpp) on hand-written sage events
// (/work/notes/s2/sage_events.md contract).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/store/audit.hpp"
#include "core/store/event_log.hpp"
#include "tests/support/files.hpp"
#include "tests/support/events.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace sf::store;
using sf::test_support::read_text;
using sf::test_support::write_text;

namespace {
fs::path audit_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_audit_test_" + name);
}

using sf::test_support::envelope;

json adoption(int seq, int episode, const std::string& task, int round, const std::string& item, int rank,
              bool adopted, const std::string& before = "", const std::string& after = "") {
  return envelope(seq, "adoption_record",
                  {{"episode", episode},
                   {"task", task},
                   {"round", round},
                   {"item", item},
                   {"rank", rank},
                   {"relevance", 2.5},
                   {"score", 1.1},
                   {"utility", 0.1},
                   {"adopted", adopted},
                   {"rationale", adopted ? "used the rule" : "not applicable"},
                   {"reasked", false},
                   {"before", before},
                   {"after", after}});
}

// Six records over two episodes, one experience, written as events.jsonl in `dir`.
std::vector<json> fixture_events() {
  return {
      envelope(0, "episode_started", {{"episode", 0}, {"task", "elementwise/add"}, {"max_rounds", 3}}),
      adoption(1, 0, "elementwise/add", 0, "mem-000001", 1, true, "", "step a\n"),
      adoption(2, 0, "elementwise/add", 0, "mem-000002", 2, false, "", "step a\n"),
      adoption(3, 0, "elementwise/add", 1, "mem-000001", 1, true, "step a\n", "step b\n"),
      envelope(4, "experience_added",
               {{"episode", 0},
                {"item", "mem-000003"},
                {"rule", "Use Zip for pairs"},
                {"evidence", "T-RANK at 3:5"},
                {"pattern", ""},
                {"source_task", "elementwise/add"},
                {"tokens", 6}}),
      adoption(5, 1, "norm/rmsnorm", 0, "mem-000001", 2, false),
      adoption(6, 1, "norm/rmsnorm", 0, "mem-000003", 1, true, "", "x\n"),
      adoption(7, 1, "norm/rmsnorm", 1, "mem-000003", 1, true, "x\n", "y\n"),
  };
}
void write_events(const fs::path& dir, const std::vector<json>& events) {
  std::string s;
  for (const auto& e : events) s += e.dump() + "\n";
  write_text(dir / "events.jsonl", s);
}
AuditLabelEntry label(int episode, const std::string& task, int round, const std::string& item,
                      const std::string& grade, const std::string& note = "") {
  return {episode, task, round, item, grade, note, "tester", "2026-11-29T19:00:00Z"};
}
}  // namespace

TEST(Audit, BuildsRecordsAndExperiencesFromEvents) {
  AuditLog log = build_audit_log(fixture_events());
  ASSERT_EQ(log.records.size(), 6u);
  EXPECT_TRUE(log.warnings.empty());
  const auto* r = log.find({0, 1, "mem-000001"});
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->before, "step a\n");
  EXPECT_EQ(r->after, "step b\n");
  EXPECT_TRUE(r->adopted);
  EXPECT_EQ(r->rationale, "used the rule");
  ASSERT_EQ(log.experiences.count("mem-000003"), 1u);
  EXPECT_EQ(log.experiences.at("mem-000003").evidence, "T-RANK at 3:5");
  EXPECT_EQ(log.experiences.at("mem-000003").tokens, 6);
}

TEST(Audit, MalformedRecordSkippedWithWarningAndRepeatedKeyKeepsLast) {
  auto events = fixture_events();
  json bad = adoption(8, 2, "t", 0, "mem-000009", 1, true);
  bad["adopted"] = "yes";
  events.push_back(bad);
  json again = adoption(9, 0, "elementwise/add", 0, "mem-000002", 2, true);  // same key as seq 2
  events.push_back(again);
  AuditLog log = build_audit_log(events);
  EXPECT_EQ(log.records.size(), 6u);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0], "event 8 (adoption_record): adopted: expected true or false");
  EXPECT_TRUE(log.find({0, 0, "mem-000002"})->adopted);
}

TEST(Audit, LabelsSurviveReopeningTheWorkspace) {
  auto d = audit_dir("reopen");
  write_events(d, fixture_events());
  std::string err;
  {
    AuditWorkspace ws;
    ASSERT_TRUE(load_audit_workspace(d, ws, err)) << err;
    EXPECT_FALSE(ws.had_audit_file);
    EXPECT_TRUE(ws.labels.empty());
    ASSERT_TRUE(
        record_audit_label(ws, label(0, "elementwise/add", 0, "mem-000001", "full", "exact"), 2.0e9, err))
        << err;
    ASSERT_TRUE(record_audit_label(ws, label(1, "norm/rmsnorm", 0, "mem-000003", "partial"), 2.0e9, err))
        << err;
    // Relabelling replaces.
    ASSERT_TRUE(
        record_audit_label(ws, label(0, "elementwise/add", 0, "mem-000001", "unrelated", "no"), 2.0e9, err));
    EXPECT_FALSE(record_audit_label(ws, label(0, "elementwise/add", 0, "mem-000001", "maybe"), 2.0e9, err));
    EXPECT_EQ(err, "label: expected one of full, partial, unrelated");
  }
  AuditWorkspace ws;
  ASSERT_TRUE(load_audit_workspace(d, ws, err)) << err;
  EXPECT_TRUE(ws.had_audit_file);
  ASSERT_EQ(ws.labels.size(), 2u);
  EXPECT_EQ(ws.labels.find({0, 0, "mem-000001"}, "tester")->label, "unrelated");
  EXPECT_EQ(ws.labels.find({0, 0, "mem-000001"}, "tester")->note, "no");
  EXPECT_EQ(ws.labels.find({1, 0, "mem-000003"}, "tester")->label, "partial");
  // Three audit_label events were appended, with consecutive seq after the 8 fixture events.
  ASSERT_EQ(ws.log.label_events.size(), 3u);
  LoadedLog loaded;
  ASSERT_TRUE(read_event_log(d / "events.jsonl", loaded, err)) << err;
  ASSERT_EQ(loaded.events.size(), 11u);
  EXPECT_EQ(loaded.events[8]["type"], "audit_label");
  EXPECT_EQ(loaded.events[8]["seq"], 8);
  EXPECT_EQ(loaded.events[10]["seq"], 10);
  EXPECT_EQ(loaded.events[10]["label"], "unrelated");
  EXPECT_EQ(loaded.events[10]["auditor"], "tester");
  // audit.json follows the contract.
  json f = json::parse(read_text(d / "audit.json"));
  EXPECT_EQ(f["format"], "stepforge-audit");
  EXPECT_EQ(f["version"], 2);
  ASSERT_EQ(f["labels"].size(), 2u);
  EXPECT_EQ(f["labels"][0], json({{"episode", 0},
                                  {"task", "elementwise/add"},
                                  {"round", 0},
                                  {"item", "mem-000001"},
                                  {"label", "unrelated"},
                                  {"note", "no"},
                                  {"auditor", "tester"},
                                  {"time", "2026-11-29T19:00:00Z"}}));
}

TEST(Audit, LabelsRebuiltFromEventsWhenAuditJsonIsMissing) {
  auto d = audit_dir("mirror");
  write_events(d, fixture_events());
  std::string err;
  AuditWorkspace ws;
  ASSERT_TRUE(load_audit_workspace(d, ws, err)) << err;
  ASSERT_TRUE(record_audit_label(ws, label(1, "norm/rmsnorm", 1, "mem-000003", "full"), 2.0e9, err)) << err;
  fs::remove(d / "audit.json");
  AuditWorkspace again;
  ASSERT_TRUE(load_audit_workspace(d, again, err)) << err;
  ASSERT_EQ(again.labels.size(), 1u);
  EXPECT_EQ(again.labels.find({1, 1, "mem-000003"}, "tester")->label, "full");
}

TEST(Audit, AppendCutsAPartialLastLine) {
  auto d = audit_dir("partial");
  write_events(d, fixture_events());
  { std::ofstream(d / "events.jsonl", std::ios::app | std::ios::binary) << "{\"v\":1,\"seq\":8,\"ty"; }
  std::string err;
  ASSERT_TRUE(append_audit_event(d / "events.jsonl", label(0, "elementwise/add", 0, "mem-000002", "partial"),
                                 3.0, err))
      << err;
  LoadedLog loaded;
  ASSERT_TRUE(read_event_log(d / "events.jsonl", loaded, err)) << err;
  EXPECT_FALSE(loaded.truncated_tail);
  ASSERT_EQ(loaded.events.size(), 9u);
  EXPECT_EQ(loaded.events[8]["seq"], 8);
  EXPECT_EQ(loaded.events[8]["t"], 3.0);
}

// A label added while a campaign is still writing the log (decision 3 of docs/audit.md): the campaign's log
// numbers its next event after the label's, so the seq numbers of the file stay strictly increasing and no
// engine event shares its seq with the label (a fold that skips seen seq numbers would drop it).
TEST(Audit, ALabelDuringALiveCampaignSharesNoSeqWithItsEvents) {
  auto d = audit_dir("live");
  write_events(d, fixture_events());  // seq 0..7
  std::string err;
  auto engine = EventLog::open(d / "events.jsonl", err);  // the running campaign's writer
  ASSERT_TRUE(engine) << err;
  int next = 8;  // the engine's own counter
  ASSERT_TRUE(engine->append(envelope(next++, "warning", {{"kind", "x"}}), err)) << err;
  ASSERT_TRUE(append_audit_event(d / "events.jsonl", label(0, "elementwise/add", 0, "mem-000002", "partial"),
                                 3.0, err))
      << err;
  ASSERT_TRUE(engine->append(envelope(next++, "warning", {{"kind", "y"}}), err)) << err;
  ASSERT_TRUE(append_audit_event(d / "events.jsonl", label(0, "elementwise/add", 0, "mem-000001", "full"),
                                 4.0, err))
      << err;
  ASSERT_TRUE(engine->append(envelope(next++, "warning", {{"kind", "z"}}), err)) << err;
  LoadedLog loaded;
  ASSERT_TRUE(read_event_log(d / "events.jsonl", loaded, err)) << err;
  ASSERT_EQ(loaded.events.size(), 13u);
  for (std::size_t i = 0; i < loaded.events.size(); ++i)
    EXPECT_EQ(loaded.events[i]["seq"], static_cast<std::int64_t>(i)) << loaded.events[i].dump();
  EXPECT_EQ(loaded.events[9]["type"], "audit_label");
  EXPECT_EQ(loaded.events[10]["kind"], "y");
  EXPECT_EQ(loaded.events[11]["type"], "audit_label");
  EXPECT_EQ(loaded.events[12]["kind"], "z");
}

// The other writer's last line spans several of the 64 KiB chunks the log reads backwards: its seq is still
// found, and the next engine event is numbered after it.
TEST(Audit, TheLogNumbersAfterALongLastLineOfAnotherWriter) {
  auto d = audit_dir("long_line");
  write_events(d, fixture_events());  // seq 0..7
  std::string err;
  auto engine = EventLog::open(d / "events.jsonl", err);
  ASSERT_TRUE(engine) << err;
  ASSERT_TRUE(engine->append(envelope(8, "warning", {{"kind", "x"}}), err)) << err;
  {
    auto other = EventLog::open(d / "events.jsonl", err);
    ASSERT_TRUE(other) << err;
    ASSERT_TRUE(other->append(envelope(40, "warning", {{"kind", std::string(200000, 'k')}}), err)) << err;
  }
  std::int64_t used = -1;
  ASSERT_TRUE(engine->append(envelope(9, "warning", {{"kind", "y"}}), err, &used)) << err;
  EXPECT_EQ(used, 41);
  LoadedLog loaded;
  ASSERT_TRUE(read_event_log(d / "events.jsonl", loaded, err)) << err;
  ASSERT_EQ(loaded.events.size(), 11u);
  EXPECT_EQ(loaded.events.back()["seq"], 41);
  EXPECT_EQ(loaded.events.back()["kind"], "y");
}

TEST(Audit, BadAuditFileIsAClearError) {
  auto d = audit_dir("bad");
  write_events(d, fixture_events());
  std::string err;
  AuditWorkspace ws;
  write_text(d / "audit.json",
        "{\"format\":\"stepforge-audit\",\"version\":1,\"labels\":[{\"episode\":0,\"task\":\"t\","
        "\"round\":0,\"item\":\"m\",\"label\":\"fine\",\"note\":\"\",\"auditor\":\"\",\"time\":\"\"}]}");
  EXPECT_FALSE(load_audit_workspace(d, ws, err));
  EXPECT_EQ(err, "audit.json: labels[0].label: expected one of full, partial, unrelated");
  write_text(d / "audit.json", "{\"format\":\"stepforge-audit\",\"version\":3,\"labels\":[]}");
  EXPECT_FALSE(load_audit_workspace(d, ws, err));
  EXPECT_EQ(err, "audit.json: version 3 is not supported (this build reads 2)");
  write_text(d / "audit.json", "{\"format\":\"stepforge-audit\",\"version\":1,\"labels\":[{\"episode\":-1}]}");
  EXPECT_FALSE(load_audit_workspace(d, ws, err));
  EXPECT_EQ(err, "audit.json: labels[0].episode: out of range");
  write_text(d / "audit.json", "{not json");
  EXPECT_FALSE(load_audit_workspace(d, ws, err));
  EXPECT_EQ(err, "audit.json: not valid JSON");
}

TEST(Audit, SamplingIsReproducibleFromItsSeed) {
  // SplitMix64 from state 0: first output 0xE220A8397B1DCDAF = 16294208416658607535 → mod 10 = 5.
  EXPECT_EQ(sample_indices(10, 1, 0), std::vector<std::size_t>({5}));
  auto a = sample_indices(100, 50, 42);
  EXPECT_EQ(a, sample_indices(100, 50, 42));
  EXPECT_NE(a, sample_indices(100, 50, 43));
  EXPECT_EQ(std::set<std::size_t>(a.begin(), a.end()).size(), 50u);
  for (auto i : a) EXPECT_LT(i, 100u);
  EXPECT_EQ(sample_indices(3, 10, 7).size(), 3u);  // capped at the population
  EXPECT_TRUE(sample_indices(0, 5, 7).empty());

  // Records: the sample does not depend on the log order.
  AuditLog log = build_audit_log(fixture_events());
  auto s1 = sample_records(log.records, 4, 2026);
  auto shuffled = log.records;
  std::reverse(shuffled.begin(), shuffled.end());
  EXPECT_EQ(sample_records(shuffled, 4, 2026), s1);
  EXPECT_EQ(s1.size(), 4u);
  // Seed 0, 6 records sorted (e0r0 mem1, e0r0 mem2, e0r1 mem1, e1r0 mem3 (rank 1), e1r0 mem1 (rank 2), e1r1
  // mem3): first draw 16294208416658607535 mod 6 = 1 → e0r0 mem-000002.
  EXPECT_EQ(sample_records(log.records, 1, 0).front(), (AdoptionKey{0, 0, "mem-000002"}));
}

TEST(Audit, SummaryCountsPercentagesCsvAndMarkdown) {
  AuditLog log = build_audit_log(fixture_events());
  AuditLabels labels;
  labels.set(label(0, "elementwise/add", 0, "mem-000001", "full"));
  labels.set(label(0, "elementwise/add", 0, "mem-000002", "full"));
  labels.set(label(0, "elementwise/add", 1, "mem-000001", "full"));
  labels.set(label(1, "norm/rmsnorm", 0, "mem-000001", "partial"));
  labels.set(label(1, "norm/rmsnorm", 0, "mem-000003", "unrelated"));
  labels.set(label(7, "gone", 0, "mem-000009", "full"));  // no such record: not counted
  AuditSummary s = summarize(log.records, labels, "tester");
  EXPECT_EQ(s.records, 6u);
  EXPECT_EQ(s.labelled, 5u);
  EXPECT_EQ(s.counts, (std::array<std::size_t, 3>{3, 1, 1}));
  EXPECT_DOUBLE_EQ(s.percent(0), 60.0);
  EXPECT_EQ(summary_csv(s),
            "label,count,percent\nfull,3,60.0\npartial,1,20.0\nunrelated,1,20.0\ntotal,5,100.0\n");
  EXPECT_EQ(summary_markdown(s),
            "| label | count | percent |\n|---|---:|---:|\n| full | 3 | 60.0% |\n| partial | 1 | 20.0% |\n"
            "| unrelated | 1 | 20.0% |\n| total | 5 | 100.0% |\n\n5 of 6 adoption records labelled.\n");
  // Over a subset (a sample): 2 records, 1 labelled "partial".
  std::vector<AdoptionKey> subset = {{1, 0, "mem-000001"}, {1, 1, "mem-000003"}, {9, 9, "none"}};
  AuditSummary sub = summarize(log.records, labels, "tester", &subset);
  EXPECT_EQ(sub.records, 2u);
  EXPECT_EQ(sub.labelled, 1u);
  EXPECT_EQ(sub.counts, (std::array<std::size_t, 3>{0, 1, 0}));
  EXPECT_EQ(summary_csv(AuditSummary{}),
            "label,count,percent\nfull,0,0.0\npartial,0,0.0\nunrelated,0,0.0\ntotal,0,0.0\n");
  // Thirds round to one decimal.
  AuditSummary t;
  t.records = t.labelled = 3;
  t.counts = {1, 1, 1};
  EXPECT_NE(summary_text(t).find("full             1    33.3%"), std::string::npos) << summary_text(t);
}
