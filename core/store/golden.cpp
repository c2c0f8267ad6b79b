#include "core/store/golden.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/store/event_log.hpp"
#include "core/store/json_fields.hpp"

namespace sf::store {

namespace fs = std::filesystem;
using nlohmann::json;

const GoldenEntry* GoldenSet::find(const std::string& task, const std::string& canonical_key) const {
  for (const auto& e : entries)
    if (e.task == task && e.canonical_key == canonical_key) return &e;
  return nullptr;
}

const GoldenEntry* GoldenSet::find_id(const std::string& id) const {
  for (const auto& e : entries)
    if (e.id == id) return &e;
  return nullptr;
}

std::string GoldenSet::next_id() const {
  long long max = 0;
  for (const auto& e : entries) {
    long long v = 0;
    if (e.id.size() > 2 && e.id.compare(0, 2, "g-") == 0 &&
        std::all_of(e.id.begin() + 2, e.id.end(), [](char c) { return c >= '0' && c <= '9'; }) && e.id.size() < 17)
      v = std::stoll(e.id.substr(2));
    max = std::max(max, v);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "g-%06lld", max + 1);
  return buf;
}

json to_json(const GoldenEntry& e) {
  const auto& p = e.provenance;
  json j = {{"id", e.id},
            {"task", e.task},
            {"task_text", e.task_text},
            {"impl", e.impl},
            {"canonical_key", e.canonical_key},
            {"provenance",
             {{"campaign", p.campaign},
              {"workspace", p.workspace},
              {"task", p.task},
              {"iteration", p.iteration},
              {"sample", p.sample},
              {"model", p.model},
              {"source", p.source}}},
            {"promoted_at", e.promoted_at},
            {"promoted_by", e.promoted_by}};
  if (e.cycles) j["cycles"] = *e.cycles;
  if (e.speedup) j["speedup"] = *e.speedup;
  return j;
}

json golden_file_json(const GoldenSet& set) {
  json arr = json::array();
  for (const auto& e : set.entries) arr.push_back(to_json(e));
  return {{"format", kGoldenFormat}, {"version", kGoldenVersion}, {"revision", set.revision}, {"entries", arr}};
}

namespace {

// An integer >= -1 (-1 = unknown).
bool golden_get_index(const json& j, const char* name, std::int64_t& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_number_integer()) return error = std::string(name) + ": expected an integer", false;
  if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    return error = std::string(name) + ": out of range", false;
  out = it->get<std::int64_t>();
  if (out < -1) return error = std::string(name) + ": out of range", false;
  return true;
}

std::optional<GoldenEntry> golden_entry_from_json(const json& j, std::string& error) {
  using json_fields::get_str;
  if (!j.is_object()) return error = "expected an object", std::nullopt;
  GoldenEntry e;
  if (!get_str(j, "id", e.id, error) || !get_str(j, "task", e.task, error) || !get_str(j, "task_text", e.task_text, error) || !get_str(j, "impl", e.impl, error) ||
      !get_str(j, "canonical_key", e.canonical_key, error) || !get_str(j, "promoted_at", e.promoted_at, error) ||
      !get_str(j, "promoted_by", e.promoted_by, error))
    return std::nullopt;
  if (e.id.empty()) return error = "id: empty", std::nullopt;
  if (e.task.empty()) return error = "task: empty", std::nullopt;
  auto p = j.find("provenance");
  if (p == j.end() || !p->is_object()) return error = "provenance: expected an object", std::nullopt;
  std::string pe;
  auto& pr = e.provenance;
  if (!get_str(*p, "campaign", pr.campaign, pe) || !get_str(*p, "workspace", pr.workspace, pe) ||
      !get_str(*p, "task", pr.task, pe) || !golden_get_index(*p, "iteration", pr.iteration, pe) ||
      !golden_get_index(*p, "sample", pr.sample, pe) || !get_str(*p, "model", pr.model, pe) ||
      !get_str(*p, "source", pr.source, pe))
    return error = "provenance." + pe, std::nullopt;
  if (auto c = j.find("cycles"); c != j.end()) {
    if (!c->is_number_integer()) return error = "cycles: expected an integer", std::nullopt;
    e.cycles = c->get<std::int64_t>();
  }
  if (auto s = j.find("speedup"); s != j.end()) {
    if (!s->is_number()) return error = "speedup: expected a number", std::nullopt;
    e.speedup = s->get<double>();
  }
  return e;
}

}  // namespace

bool parse_golden_file(const json& j, GoldenSet& out, std::string& error) {
  if (!j.is_object()) return error = "expected a JSON object", false;
  auto f = j.find("format");
  if (f == j.end() || !f->is_string() || f->get<std::string>() != kGoldenFormat)
    return error = std::string("format: expected \"") + kGoldenFormat + "\"", false;
  auto v = j.find("version");
  if (v == j.end() || !v->is_number_integer()) return error = "version: expected an integer", false;
  if (v->get<std::int64_t>() > kGoldenVersion || v->get<std::int64_t>() < 1)
    return error = "version " + std::to_string(v->get<std::int64_t>()) + " is not supported (this build reads " +
                   std::to_string(kGoldenVersion) + ")",
           false;
  GoldenSet set;
  if (!json_fields::get_int(j, "revision", set.revision, error)) return false;
  auto es = j.find("entries");
  if (es == j.end() || !es->is_array()) return error = "entries: expected an array", false;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < es->size(); ++i) {
    std::string e;
    auto entry = golden_entry_from_json((*es)[i], e);
    if (!entry) return error = "entries[" + std::to_string(i) + "]." + e, false;
    if (!ids.insert(entry->id).second)
      return error = "entries[" + std::to_string(i) + "].id: \"" + entry->id + "\" is used twice", false;
    set.entries.push_back(std::move(*entry));
  }
  out = std::move(set);
  return true;
}

bool load_golden_file(const fs::path& file, GoldenSet& out, std::string& error, bool* exists) {
  if (exists) *exists = false;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    out = GoldenSet{};
    return true;
  }
  if (exists) *exists = true;
  json j;
  if (!json_fields::read_json_file(file, kMaxGoldenBytes, j, error)) return false;
  std::string e;
  if (!parse_golden_file(j, out, e)) return error = file.filename().string() + ": " + e, false;
  return true;
}

bool save_golden_file(const fs::path& file, const GoldenSet& set, std::string& error) {
  return write_file_atomic(file, golden_file_json(set).dump(2) + "\n", error);
}

namespace {

fs::path golden_lock_path(const fs::path& file) {
  fs::path p = file;
  p += ".lock";
  return p;
}

}  // namespace

bool add_golden_entry(const fs::path& file, GoldenEntry entry, GoldenEntry& out, bool& added, std::string& error) {
  added = false;
  FileLock lock(golden_lock_path(file), error);
  if (!lock.locked()) return false;
  GoldenSet set;
  if (!load_golden_file(file, set, error)) return false;
  if (const auto* have = set.find(entry.task, entry.canonical_key)) {
    out = *have;
    return true;
  }
  entry.id = set.next_id();
  set.entries.push_back(entry);
  ++set.revision;
  if (!save_golden_file(file, set, error)) return false;
  out = std::move(entry);
  added = true;
  return true;
}

std::optional<std::size_t> export_golden(const fs::path& file, const fs::path& dest,
                                         const std::vector<std::string>& tasks, std::string& error) {
  GoldenSet set;
  bool exists = false;
  if (!load_golden_file(file, set, error, &exists)) return std::nullopt;
  if (!exists) return error = file.filename().string() + ": no such file", std::nullopt;
  if (!tasks.empty()) {
    const std::set<std::string> keep(tasks.begin(), tasks.end());
    std::erase_if(set.entries, [&](const GoldenEntry& e) { return !keep.count(e.task); });
  }
  if (!save_golden_file(dest, set, error)) return std::nullopt;
  return set.entries.size();
}

std::optional<std::size_t> import_golden(const fs::path& file, const fs::path& src, std::string& error) {
  GoldenSet incoming;
  bool exists = false;
  if (!load_golden_file(src, incoming, error, &exists)) return std::nullopt;
  if (!exists) return error = src.filename().string() + ": no such file", std::nullopt;
  FileLock lock(golden_lock_path(file), error);
  if (!lock.locked()) return std::nullopt;
  GoldenSet set;
  if (!load_golden_file(file, set, error)) return std::nullopt;
  std::size_t added = 0;
  for (auto e : incoming.entries) {
    if (set.find(e.task, e.canonical_key)) continue;
    if (set.find_id(e.id)) e.id = set.next_id();
    set.entries.push_back(std::move(e));
    ++added;
  }
  if (added == 0) return 0;
  ++set.revision;
  if (!save_golden_file(file, set, error)) return std::nullopt;
  return added;
}

}  // namespace sf::store
