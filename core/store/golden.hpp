// Golden demonstrations (issue 20 item 2): a curated, versioned set of verified programs, each with where it
// came from (campaign, task, iteration, sample, model). The file is JSON, written atomically under a lock
// (several GUIs / CLIs may promote into one set); every change bumps its `revision`. Campaigns use it as
// demonstrations (`demos.golden: FILE`, core/learn/golden_demos.hpp, which also verifies before promoting).
// Qt-free; see docs/golden.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sf::store {

inline constexpr const char* kGoldenFormat = "stepforge-golden";
inline constexpr int kGoldenVersion = 1;
inline constexpr const char* kGoldenFileName = "golden.json";  // default name in a campaign workspace
inline constexpr std::uintmax_t kMaxGoldenBytes = 64u << 20;

// Where a golden program came from. iteration / sample are -1 when unknown (e.g. promoted from the editor).
struct GoldenProvenance {
  std::string campaign;  // the campaign's name (config.name) or "" (editor)
  std::string workspace;  // the campaign workspace folder it was promoted from, "" when none
  std::string task;       // the task the program was written for
  std::int64_t iteration = -1;  // campaign iteration (sage: episode)
  std::int64_t sample = -1;     // sample index (sage: round)
  std::string model;            // backend.model of the campaign, "" when unknown
  std::string source;           // "trace", "comparison", "editor", "cli"
  bool operator==(const GoldenProvenance&) const = default;
};

struct GoldenEntry {
  std::string id;    // "g-000001", unique in the set
  std::string task;  // task id
  std::string task_text;  // the task document without its impl (what a prompt shows), so the set is portable
  std::string impl;  // the program (the impl block's text)
  std::string canonical_key;  // the verifier's canonical key (duplicates are detected by task + key)
  GoldenProvenance provenance;
  std::string promoted_at, promoted_by;  // ISO 8601 UTC, the user
  std::optional<std::int64_t> cycles;    // cost model cycles when known
  std::optional<double> speedup;
  bool operator==(const GoldenEntry&) const = default;
};

struct GoldenSet {
  std::int64_t revision = 0;  // bumped by every change that is saved
  std::vector<GoldenEntry> entries;  // in promotion order
  const GoldenEntry* find(const std::string& task, const std::string& canonical_key) const;
  const GoldenEntry* find_id(const std::string& id) const;
  std::string next_id() const;  // "g-" + 6 digits, one past the largest numeric id
};

nlohmann::json to_json(const GoldenEntry& e);
nlohmann::json golden_file_json(const GoldenSet& set);
// Strict: errors name the field ("entries[1].provenance.iteration: expected an integer").
bool parse_golden_file(const nlohmann::json& j, GoldenSet& out, std::string& error);
// A missing file is an empty set (`exists` = false). Errors are prefixed with the file name.
bool load_golden_file(const std::filesystem::path& file, GoldenSet& out, std::string& error, bool* exists = nullptr);
bool save_golden_file(const std::filesystem::path& file, const GoldenSet& set, std::string& error);

// Adds `entry` (id assigned, revision bumped) under a lock on FILE.lock: re-reads the file first, so
// concurrent promotions are all kept. When the set already holds the task with the same canonical key
// nothing changes and `added` is false; `out` is the entry in the set either way.
bool add_golden_entry(const std::filesystem::path& file, GoldenEntry entry, GoldenEntry& out, bool& added,
                      std::string& error);
// Writes the entries of `file` (all, or only those of `tasks` when non-empty) to `dest` as a golden file of
// their own (same ids and provenance). Returns the number written.
std::optional<std::size_t> export_golden(const std::filesystem::path& file, const std::filesystem::path& dest,
                                         const std::vector<std::string>& tasks, std::string& error);
// Merges the entries of `src` into `file` (under the lock): an entry whose task + canonical key is already
// there is skipped; a clashing id gets the next free one; provenance is kept as is. Returns the number added.
std::optional<std::size_t> import_golden(const std::filesystem::path& file, const std::filesystem::path& src,
                                         std::string& error);

}  // namespace sf::store
