// Human audit of adoption records (issue 9.1, algorithms §4.1 "later the human audit label"): the records
// come from the campaign's `adoption_record` events, the experiences they refer to from `experience_added`
// events; labels (full / partial / unrelated + note, auditor, time) live in audit.json at the workspace root
// (written atomically) and are mirrored as `audit_label` events in events.jsonl. Reproducible sampling of N
// records from a seed (blind audit) and a summary (counts and percentages per label) as text, CSV and
// Markdown. Qt-free so the CLI (`stepforge-cli audit`) and the GUI audit pane share it. See docs/audit.md.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::store {

inline constexpr const char* kAuditFormat = "stepforge-audit";
inline constexpr int kAuditVersion = 2;
inline constexpr const char* kAuditLockName = "audit.lock";
inline constexpr const char* kAuditFileName = "audit.json";
inline constexpr std::uintmax_t kMaxAuditBytes = 64u << 20;

// The three audit grades, in this order everywhere (summary rows, keys 1/2/3 in the GUI).
inline constexpr std::array<std::string_view, 3> kAuditLabels = {"full", "partial", "unrelated"};
// 0, 1, 2 for "full", "partial", "unrelated"; -1 otherwise.
int audit_label_index(std::string_view label);

// The unique key of an adoption record (sage_events contract): (episode, round, item).
struct AdoptionKey {
  std::int64_t episode = 0;
  int round = 0;
  std::string item;
  auto operator<=>(const AdoptionKey&) const = default;
  bool operator==(const AdoptionKey&) const = default;
};
std::string to_string(const AdoptionKey& k);  // "e3/r1/mem-000002"

// One `adoption_record` event.
struct AdoptionEntry {
  std::int64_t episode = 0;
  std::string task;
  int round = 0;
  std::string item;
  int rank = 0;            // shown rank (position in the prompt)
  int relevance_rank = 0;  // rank by relevance in the retrieval pool (0: not logged, older workspaces)
  int pool_rank = 0;       // rank in the pool after reranking (0: not logged)
  double relevance = 0.0, score = 0.0, utility = 0.0;
  bool adopted = false;
  std::string rationale;
  bool reasked = false;
  bool resolved = true;       // false: the answer's adoption state stayed unresolved after the re-ask
  std::string before, after;  // code revision: previous round's program → this round's
  AdoptionKey key() const { return {episode, round, item}; }
};

// One `experience_added` event (what an item said when it was created).
struct ExperienceEntry {
  std::int64_t episode = 0;
  std::string item, rule, evidence, pattern, source_task;
  int tokens = 0;
  std::string kind;  // "" (distilled), "speedup" (the slow→fast experience of an optimised episode)
};

// One audit label (audit.json entry and `audit_label` event).
struct AuditLabelEntry {
  std::int64_t episode = 0;
  std::string task;
  int round = 0;
  std::string item;
  std::string label;  // "full" | "partial" | "unrelated"
  std::string note, auditor;
  std::string time;  // ISO 8601 UTC, supplied by the caller
  AdoptionKey key() const { return {episode, round, item}; }
  bool operator==(const AuditLabelEntry&) const = default;
};

// The contract's field sets (no envelope); the decoders below are the one reader of each event kind.
nlohmann::json to_json(const AuditLabelEntry& l);
nlohmann::json to_json(const AdoptionEntry& a);
nlohmann::json to_json(const ExperienceEntry& e);
// Strict: every field present with its type, label one of kAuditLabels. Error "FIELD: ..." on failure.
std::optional<AuditLabelEntry> audit_label_from_json(const nlohmann::json& j, std::string& error);
std::optional<AdoptionEntry> adoption_entry_from_json(const nlohmann::json& j, std::string& error);
std::optional<ExperienceEntry> experience_entry_from_json(const nlohmann::json& j, std::string& error);

// Labels keyed by (record, auditor): each auditor has at most one label per record; setting a label for
// the same record and auditor replaces the previous one. Labels written before auditors were tracked
// (auditor "") are one more auditor, the unnamed one.
class AuditLabels {
 public:
  using ByAuditor = std::map<std::string, AuditLabelEntry>;
  void set(const AuditLabelEntry& l) { by_key_[l.key()][l.auditor] = l; }
  const AuditLabelEntry* find(const AdoptionKey& k, std::string_view auditor) const;
  // Every auditor's label of record `k` (nullptr when nobody labelled it).
  const ByAuditor* of(const AdoptionKey& k) const;
  std::size_t size() const;  // number of labels (all auditors)
  bool empty() const { return by_key_.empty(); }
  std::vector<AuditLabelEntry> list() const;  // in (key, auditor) order
  std::vector<std::string> auditors() const;  // distinct auditor names, sorted
  // Only `auditor`'s labels (a blind view).
  AuditLabels only(std::string_view auditor) const;
  const std::map<AdoptionKey, ByAuditor>& map() const { return by_key_; }

 private:
  std::map<AdoptionKey, ByAuditor> by_key_;
};

// audit.json = {"format":"stepforge-audit","version":2,"labels":[...]} (labels in (key, auditor) order).
// Version 1 files (one labeller) read unchanged; version 2 only adds that one record may carry one label per
// auditor.
nlohmann::json audit_file_json(const AuditLabels& labels);
// Strict parse; errors name the field ("labels[2].label: expected one of full, partial, unrelated").
// A later entry with the same key and auditor replaces an earlier one.
bool parse_audit_file(const nlohmann::json& j, AuditLabels& out, std::string& error);
// Reads `file` (a missing file is no labels, `exists` = false); errors are prefixed "audit.json: ".
bool load_audit_file(const std::filesystem::path& file, AuditLabels& out, std::string& error,
                     bool* exists = nullptr);
// Writes atomically (temp file + fsync + rename).
bool save_audit_file(const std::filesystem::path& file, const AuditLabels& labels, std::string& error);

// Appends one `audit_label` event ({v, seq, t, type, ...fields}) to an events.jsonl; seq = the seq of the
// file's last line + 1, taken under the lock every writer of the log holds while appending (EventLog::append),
// so it never collides with a running campaign's events. A partial last line (a crash mid-write) is cut off
// first, as Workspace::open does. `t` = seconds since the epoch (caller's clock).
bool append_audit_event(const std::filesystem::path& events_file, const AuditLabelEntry& l, double t,
                        std::string& error);

// Everything the audit needs from a campaign log.
struct AuditLog {
  std::vector<AdoptionEntry> records;                  // log order; a repeated key keeps the last one
  std::map<std::string, ExperienceEntry> experiences;  // by item id
  std::vector<AuditLabelEntry> label_events;           // `audit_label` events, in log order
  std::vector<std::string> warnings;                   // skipped malformed events ("event 12: ...")
  std::map<AdoptionKey, std::size_t> index;            // key -> position in `records`
  const AdoptionEntry* find(const AdoptionKey& k) const;
};
// Folds event JSON objects (envelopes) into an AuditLog; malformed sage events are skipped with a warning
// (at most 20 listed), other event types are ignored.
void fold_audit_event(AuditLog& log, const nlohmann::json& event);
// The fold's rule per decoded event (the typed campaign events use them too): the latest record of a key
// replaces the earlier one, an experience is kept by id, label events in log order.
void fold_audit_record(AuditLog& log, AdoptionEntry a);
void fold_audit_experience(AuditLog& log, ExperienceEntry e);
void fold_audit_label(AuditLog& log, AuditLabelEntry l);
AuditLog build_audit_log(const std::vector<nlohmann::json>& events);

// A workspace's audit: its log and labels. Labels come from audit.json when it exists, else from the
// `audit_label` events (audit.json is the primary copy, the events a mirror).
struct AuditWorkspace {
  std::filesystem::path dir;
  AuditLog log;
  AuditLabels labels;
  bool had_audit_file = false;
};
bool load_audit_workspace(const std::filesystem::path& dir, AuditWorkspace& out, std::string& error);
// The same with the log already folded (from events read elsewhere): reads audit.json only.
bool load_audit_workspace(const std::filesystem::path& dir, AuditLog log, AuditWorkspace& out, std::string& error);
// Labels one record, safe against other processes labelling the same workspace: under an exclusive lock
// on `audit.lock` (flock) it re-reads audit.json, sets the label, saves audit.json atomically and appends
// the `audit_label` event; `ws.labels` then holds the file's labels (including other writers'). Two
// processes labelling at once never lose or duplicate a label. On failure nothing is kept in memory.
bool record_audit_label(AuditWorkspace& ws, const AuditLabelEntry& l, double t, std::string& error);

// Reproducible sample of min(n, population) distinct indices in [0, population): a partial Fisher–Yates
// shuffle driven by SplitMix64(seed) with rejection sampling for unbiased bounds. Returned in draw order.
std::vector<std::size_t> sample_indices(std::size_t population, std::size_t n, std::uint64_t seed);
// Samples records: the population is the records sorted by (episode, round, rank, item), so the sample
// depends only on the set of records and the seed. Returns keys in draw order.
std::vector<AdoptionKey> sample_records(const std::vector<AdoptionEntry>& records, std::size_t n,
                                        std::uint64_t seed);

struct AuditSummary {
  std::size_t records = 0;              // adoption records considered
  std::size_t labelled = 0;             // of which labelled
  std::array<std::size_t, 3> counts{};  // per kAuditLabels
  double percent(std::size_t i) const;  // counts[i] / labelled * 100 (0 when nothing is labelled)
};
// `auditor`'s labels over `records` (or only the keys in `subset`, e.g. a sample, when given): labels
// without a record are not counted.
AuditSummary summarize(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                       std::string_view auditor, const std::vector<AdoptionKey>* subset = nullptr);

// Agreement of two auditors over the records both labelled (three categories, kAuditLabels).
struct AuditDisagreement {
  AdoptionKey key;
  std::string task, label_a, label_b, note_a, note_b;
};
struct AuditAgreement {
  std::string auditor_a, auditor_b;
  std::size_t both = 0;    // records both labelled
  std::size_t agree = 0;   // of which with the same label
  double raw = 0.0;        // agree / both (0 when both = 0)
  // Cohen's κ = (po − pe) / (1 − pe); nullopt when undefined (no common record, or pe = 1: both auditors
  // used one and the same label for everything).
  std::optional<double> kappa;
  // 95% percentile bootstrap interval of κ: kBootstrapReplicates resamples of the common records with
  // replacement (SplitMix64 from `seed`), replicates with an undefined κ are left out; nullopt when fewer
  // than half of the replicates are defined.
  std::optional<double> ci_low, ci_high;
  std::size_t replicates = 0;  // defined bootstrap replicates
  std::array<std::array<std::size_t, 3>, 3> confusion{};  // [label of a][label of b]
  std::vector<AuditDisagreement> disagreements;            // in key order
};
inline constexpr std::size_t kBootstrapReplicates = 2000;
inline constexpr std::uint64_t kBootstrapSeed = 20261201;
// Cohen's κ of a 3×3 confusion table (nullopt when undefined, see above).
std::optional<double> cohen_kappa(const std::array<std::array<std::size_t, 3>, 3>& confusion);
// Over `records` (or the keys in `subset`); labels without a record are not counted.
AuditAgreement agreement(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                         const std::string& auditor_a, const std::string& auditor_b,
                         const std::vector<AdoptionKey>* subset = nullptr,
                         std::uint64_t seed = kBootstrapSeed);

std::string summary_text(const AuditSummary& s);      // aligned table for a terminal
std::string summary_csv(const AuditSummary& s);       // label,count,percent (+ total row)
std::string summary_markdown(const AuditSummary& s);  // a table + "N of M adoption records labelled."
std::string auditor_display_name(std::string_view auditor);  // "" -> "(unnamed)"
// Two auditors: "records both labelled", raw agreement, κ with its interval, then the disagreements.
std::string agreement_text(const AuditAgreement& a);
std::string agreement_markdown(const AuditAgreement& a);
// One CSV cell: quoted (with doubled quotes) when it holds a comma, a quote or a line break.
std::string audit_csv_field(const std::string& s);
// CSV rows of the disagreements: episode,round,item,task,label_a,label_b (RFC 4180 quoting).
std::string disagreements_csv(const AuditAgreement& a);

}  // namespace sf::store
