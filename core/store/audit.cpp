// The audit's records and labels (audit.hpp): their JSON forms, the audit file, the fold of the events log
// and the audit workspace. The sample, summary and agreement statistics are in audit_stats.cpp.
#include "core/store/audit.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "core/store/event_log.hpp"
#include "core/store/json_fields.hpp"

namespace sf::store {

namespace fs = std::filesystem;
using nlohmann::json;

int audit_label_index(std::string_view label) {
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i)
    if (kAuditLabels[i] == label) return static_cast<int>(i);
  return -1;
}

std::string to_string(const AdoptionKey& k) {
  return "e" + std::to_string(k.episode) + "/r" + std::to_string(k.round) + "/" + k.item;
}

using json_fields::get_bool;
using json_fields::get_int;
using json_fields::get_num;
using json_fields::get_str;

json to_json(const AuditLabelEntry& l) {
  return {{"episode", l.episode}, {"task", l.task}, {"round", l.round},     {"item", l.item},
          {"label", l.label},     {"note", l.note}, {"auditor", l.auditor}, {"time", l.time}};
}

json to_json(const AdoptionEntry& a) {
  return {{"episode", a.episode},
          {"task", a.task},
          {"round", a.round},
          {"item", a.item},
          {"rank", a.rank},
          {"relevance_rank", a.relevance_rank},
          {"pool_rank", a.pool_rank},
          {"relevance", a.relevance},
          {"score", a.score},
          {"utility", a.utility},
          {"adopted", a.adopted},
          {"rationale", a.rationale},
          {"reasked", a.reasked},
          {"resolved", a.resolved},
          {"before", a.before},
          {"after", a.after}};
}

json to_json(const ExperienceEntry& e) {
  json j = {{"episode", e.episode}, {"item", e.item},   {"rule", e.rule},     {"evidence", e.evidence},
            {"pattern", e.pattern}, {"source_task", e.source_task}, {"tokens", e.tokens}};
  if (!e.kind.empty()) j["kind"] = e.kind;
  return j;
}

std::optional<AuditLabelEntry> audit_label_from_json(const json& j, std::string& error) {
  if (!j.is_object()) return error = "expected an object", std::nullopt;
  AuditLabelEntry l;
  if (!get_int(j, "episode", l.episode, error) || !get_str(j, "task", l.task, error) ||
      !get_int(j, "round", l.round, error) || !get_str(j, "item", l.item, error) ||
      !get_str(j, "label", l.label, error) || !get_str(j, "note", l.note, error) ||
      !get_str(j, "auditor", l.auditor, error) || !get_str(j, "time", l.time, error))
    return std::nullopt;
  if (audit_label_index(l.label) < 0)
    return error = "label: expected one of full, partial, unrelated", std::nullopt;
  if (l.item.empty()) return error = "item: empty", std::nullopt;
  return l;
}

std::optional<AdoptionEntry> adoption_entry_from_json(const json& j, std::string& error) {
  if (!j.is_object()) return error = "expected an object", std::nullopt;
  AdoptionEntry a;
  if (!get_int(j, "episode", a.episode, error) || !get_str(j, "task", a.task, error) ||
      !get_int(j, "round", a.round, error) || !get_str(j, "item", a.item, error) ||
      !get_int(j, "rank", a.rank, error) || !get_num(j, "relevance", a.relevance, error) ||
      !get_num(j, "score", a.score, error) || !get_num(j, "utility", a.utility, error) ||
      !get_bool(j, "adopted", a.adopted, error) || !get_str(j, "rationale", a.rationale, error) ||
      !get_bool(j, "reasked", a.reasked, error) || !get_str(j, "before", a.before, error) ||
      !get_str(j, "after", a.after, error))
    return std::nullopt;
  // Late-reranking ranks and the resolved flag (issue 19); absent in older workspaces.
  if (!json_fields::opt(get_int<int>, j, "relevance_rank", a.relevance_rank, error) ||
      !json_fields::opt(get_int<int>, j, "pool_rank", a.pool_rank, error) ||
      !json_fields::opt(get_bool, j, "resolved", a.resolved, error))
    return std::nullopt;
  return a;
}

std::optional<ExperienceEntry> experience_entry_from_json(const json& j, std::string& error) {
  if (!j.is_object()) return error = "expected an object", std::nullopt;
  ExperienceEntry e;
  if (!get_int(j, "episode", e.episode, error) || !get_str(j, "item", e.item, error) ||
      !get_str(j, "rule", e.rule, error) || !get_str(j, "evidence", e.evidence, error) ||
      !get_str(j, "pattern", e.pattern, error) || !get_str(j, "source_task", e.source_task, error) ||
      !get_int(j, "tokens", e.tokens, error) || !json_fields::opt(get_str, j, "kind", e.kind, error))
    return std::nullopt;
  return e;
}

const AuditLabelEntry* AuditLabels::find(const AdoptionKey& k, std::string_view auditor) const {
  auto it = by_key_.find(k);
  if (it == by_key_.end()) return nullptr;
  auto a = it->second.find(std::string(auditor));
  return a == it->second.end() ? nullptr : &a->second;
}

const AuditLabels::ByAuditor* AuditLabels::of(const AdoptionKey& k) const {
  auto it = by_key_.find(k);
  return it == by_key_.end() ? nullptr : &it->second;
}

std::size_t AuditLabels::size() const {
  std::size_t n = 0;
  for (const auto& [k, by] : by_key_) n += by.size();
  return n;
}

std::vector<AuditLabelEntry> AuditLabels::list() const {
  std::vector<AuditLabelEntry> out;
  for (const auto& [k, by] : by_key_)
    for (const auto& [a, l] : by) out.push_back(l);
  return out;
}

std::vector<std::string> AuditLabels::auditors() const {
  std::set<std::string> names;
  for (const auto& [k, by] : by_key_)
    for (const auto& [a, l] : by) names.insert(a);
  return {names.begin(), names.end()};
}

AuditLabels AuditLabels::only(std::string_view auditor) const {
  AuditLabels out;
  for (const auto& [k, by] : by_key_)
    if (auto it = by.find(std::string(auditor)); it != by.end()) out.set(it->second);
  return out;
}

json audit_file_json(const AuditLabels& labels) {
  json arr = json::array();
  for (const auto& l : labels.list()) arr.push_back(to_json(l));
  return {{"format", kAuditFormat}, {"version", kAuditVersion}, {"labels", std::move(arr)}};
}

bool parse_audit_file(const json& j, AuditLabels& out, std::string& error) {
  if (!j.is_object()) return error = "expected a JSON object", false;
  auto f = j.find("format");
  if (f == j.end() || !f->is_string() || f->get<std::string>() != kAuditFormat)
    return error = std::string("format: expected \"") + kAuditFormat + "\"", false;
  auto v = j.find("version");
  if (v == j.end() || !v->is_number_integer()) return error = "version: expected an integer", false;
  if (v->get<std::int64_t>() > kAuditVersion || v->get<std::int64_t>() < 1)
    return error = "version " + std::to_string(v->get<std::int64_t>()) +
                   " is not supported (this build reads " + std::to_string(kAuditVersion) + ")",
           false;
  auto ls = j.find("labels");
  if (ls == j.end() || !ls->is_array()) return error = "labels: expected an array", false;
  AuditLabels result;
  for (std::size_t i = 0; i < ls->size(); ++i) {
    std::string e;
    auto l = audit_label_from_json((*ls)[i], e);
    if (!l) return error = "labels[" + std::to_string(i) + "]." + e, false;
    result.set(*l);
  }
  out = std::move(result);
  return true;
}

bool load_audit_file(const fs::path& file, AuditLabels& out, std::string& error, bool* exists) {
  if (exists) *exists = false;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    out = AuditLabels{};
    return true;
  }
  if (exists) *exists = true;
  const std::string name = file.filename().string() + ": ";
  json j;
  if (!json_fields::read_json_file(file, kMaxAuditBytes, j, error)) return false;
  std::string e;
  if (!parse_audit_file(j, out, e)) return error = name + e, false;
  return true;
}

bool save_audit_file(const fs::path& file, const AuditLabels& labels, std::string& error) {
  return write_file_atomic(file, audit_file_json(labels).dump(2) + "\n", error);
}

bool append_audit_event(const fs::path& events_file, const AuditLabelEntry& l, double t, std::string& error) {
  auto log = EventLog::open(events_file, error);
  if (!log) return false;
  // The seq is the log's: EventLog::append numbers it after the file's last line, under the lock every writer
  // of the log (a running campaign too) takes, so a label never shares its seq with an engine event.
  json ev = {{"v", kFormatVersion}, {"seq", 0}, {"t", t}, {"type", "audit_label"}};
  ev.update(to_json(l));
  // A partial last line (a crash mid-write): the log reader decides (a crash leftover is cut off, corruption
  // is an error), as Workspace::open does.
  auto partial_tail = [&](std::string& err) -> std::optional<std::uint64_t> {
    LoadedLog loaded;
    if (!read_event_log(events_file, loaded, err)) return std::nullopt;
    return loaded.valid_bytes;
  };
  return log->append(ev, error, nullptr, partial_tail) && log->sync(error);
}

void fold_audit_event(AuditLog& log, const json& event) {
  if (!event.is_object()) return;
  auto ty = event.find("type");
  if (ty == event.end() || !ty->is_string()) return;
  const std::string& type = ty->get_ref<const std::string&>();
  std::string err;
  auto warn = [&] {
    if (log.warnings.size() < 20) {
      std::string where = "event";
      auto s = event.find("seq");
      if (s != event.end() && s->is_number_integer()) where += " " + std::to_string(s->get<std::int64_t>());
      log.warnings.push_back(where + " (" + type + "): " + err);
    }
  };
  if (type == "adoption_record") {
    auto a = adoption_entry_from_json(event, err);
    if (!a) return warn();
    fold_audit_record(log, std::move(*a));
  } else if (type == "experience_added") {
    auto e = experience_entry_from_json(event, err);
    if (!e) return warn();
    fold_audit_experience(log, std::move(*e));
  } else if (type == "audit_label") {
    auto l = audit_label_from_json(event, err);
    if (!l) return warn();
    fold_audit_label(log, std::move(*l));
  }
}

void fold_audit_record(AuditLog& log, AdoptionEntry a) {
  auto [it, fresh] = log.index.emplace(a.key(), log.records.size());
  if (fresh)
    log.records.push_back(std::move(a));
  else
    log.records[it->second] = std::move(a);
}

void fold_audit_experience(AuditLog& log, ExperienceEntry e) {
  std::string id = e.item;
  log.experiences[id] = std::move(e);
}

void fold_audit_label(AuditLog& log, AuditLabelEntry l) { log.label_events.push_back(std::move(l)); }

const AdoptionEntry* AuditLog::find(const AdoptionKey& k) const {
  auto it = index.find(k);
  return it == index.end() ? nullptr : &records[it->second];
}

AuditLog build_audit_log(const std::vector<json>& events) {
  AuditLog log;
  for (const auto& e : events) fold_audit_event(log, e);
  return log;
}

bool load_audit_workspace(const fs::path& dir, AuditWorkspace& out, std::string& error) {
  LoadedLog loaded;
  if (!read_event_log(dir / "events.jsonl", loaded, error)) return false;
  return load_audit_workspace(dir, build_audit_log(loaded.events), out, error);
}

bool load_audit_workspace(const fs::path& dir, AuditLog log, AuditWorkspace& out, std::string& error) {
  AuditWorkspace ws;
  ws.dir = dir;
  ws.log = std::move(log);
  if (!load_audit_file(dir / kAuditFileName, ws.labels, error, &ws.had_audit_file)) return false;
  if (!ws.had_audit_file)
    for (const auto& l : ws.log.label_events) ws.labels.set(l);
  out = std::move(ws);
  return true;
}

bool record_audit_label(AuditWorkspace& ws, const AuditLabelEntry& l, double t, std::string& error) {
  if (audit_label_index(l.label) < 0) return error = "label: expected one of full, partial, unrelated", false;
  FileLock lock(ws.dir / kAuditLockName, error);
  if (!lock.locked()) return false;
  // Re-read under the lock: another process may have labelled since this workspace was loaded.
  AuditLabels next;
  bool exists = false;
  if (!load_audit_file(ws.dir / kAuditFileName, next, error, &exists)) return false;
  if (!exists) next = ws.labels;  // labels rebuilt from the events (no audit.json yet)
  next.set(l);
  if (!save_audit_file(ws.dir / kAuditFileName, next, error)) return false;
  ws.labels = std::move(next);
  ws.had_audit_file = true;
  if (!append_audit_event(ws.dir / "events.jsonl", l, t, error)) return false;
  ws.log.label_events.push_back(l);
  return true;
}

}  // namespace sf::store
