#include "core/store/audit.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/store/event_log.hpp"

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

namespace {

// Typed field readers: false with "NAME: ..." in `error`.
bool get_str(const json& j, const char* name, std::string& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_string()) return error = std::string(name) + ": expected a string", false;
  out = it->get<std::string>();
  return true;
}
bool get_bool(const json& j, const char* name, bool& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_boolean()) return error = std::string(name) + ": expected true or false", false;
  out = it->get<bool>();
  return true;
}
bool get_num(const json& j, const char* name, double& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (!it->is_number()) return error = std::string(name) + ": expected a number", false;
  out = it->get<double>();
  return true;
}
template <class Int>
bool get_int(const json& j, const char* name, Int& out, std::string& error) {
  auto it = j.find(name);
  if (it == j.end()) return error = std::string(name) + ": missing", false;
  if (it->is_number_unsigned()) {
    auto v = it->get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
      return error = std::string(name) + ": out of range", false;
    out = static_cast<Int>(v);
    return true;
  }
  if (!it->is_number_integer()) return error = std::string(name) + ": expected an integer", false;
  auto v = it->get<std::int64_t>();
  if (v < 0 || v > static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
    return error = std::string(name) + ": out of range", false;
  out = static_cast<Int>(v);
  return true;
}

}  // namespace

json to_json(const AuditLabelEntry& l) {
  return {{"episode", l.episode}, {"task", l.task}, {"round", l.round},     {"item", l.item},
          {"label", l.label},     {"note", l.note}, {"auditor", l.auditor}, {"time", l.time}};
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
  // Late-reranking ranks (issue 19); absent in older workspaces.
  if ((j.contains("relevance_rank") && !get_int(j, "relevance_rank", a.relevance_rank, error)) ||
      (j.contains("pool_rank") && !get_int(j, "pool_rank", a.pool_rank, error)))
    return std::nullopt;
  return a;
}

std::optional<ExperienceEntry> experience_entry_from_json(const json& j, std::string& error) {
  if (!j.is_object()) return error = "expected an object", std::nullopt;
  ExperienceEntry e;
  if (!get_int(j, "episode", e.episode, error) || !get_str(j, "item", e.item, error) ||
      !get_str(j, "rule", e.rule, error) || !get_str(j, "evidence", e.evidence, error) ||
      !get_str(j, "pattern", e.pattern, error) || !get_str(j, "source_task", e.source_task, error) ||
      !get_int(j, "tokens", e.tokens, error))
    return std::nullopt;
  return e;
}

const AuditLabelEntry* AuditLabels::find(const AdoptionKey& k) const {
  auto it = by_key_.find(k);
  return it == by_key_.end() ? nullptr : &it->second;
}

std::vector<AuditLabelEntry> AuditLabels::list() const {
  std::vector<AuditLabelEntry> out;
  out.reserve(by_key_.size());
  for (const auto& [k, l] : by_key_) out.push_back(l);
  return out;
}

json audit_file_json(const AuditLabels& labels) {
  json arr = json::array();
  for (const auto& [k, l] : labels.map()) arr.push_back(to_json(l));
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
  auto size = fs::file_size(file, ec);
  if (ec) return error = name + ec.message(), false;
  if (size > kMaxAuditBytes) return error = name + "larger than 64 MiB", false;
  std::ifstream in(file, std::ios::binary);
  if (!in) return error = name + "cannot be read", false;
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) return error = name + "not valid JSON", false;
  std::string e;
  if (!parse_audit_file(j, out, e)) return error = name + e, false;
  return true;
}

bool save_audit_file(const fs::path& file, const AuditLabels& labels, std::string& error) {
  return write_file_atomic(file, audit_file_json(labels).dump(2) + "\n", error);
}

namespace {

// Number of complete lines of `file`, or nullopt when it does not end with a newline (partial tail).
std::optional<std::uint64_t> count_complete_lines(const fs::path& file, std::uint64_t& size) {
  std::ifstream in(file, std::ios::binary);
  size = 0;
  if (!in) return 0;  // missing: empty
  std::uint64_t lines = 0;
  char buf[1 << 16];
  char last = '\n';
  while (in) {
    in.read(buf, sizeof buf);
    auto n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    lines += static_cast<std::uint64_t>(std::count(buf, buf + n, '\n'));
    last = buf[n - 1];
    size += n;
  }
  if (last != '\n') return std::nullopt;
  return lines;
}

}  // namespace

bool append_audit_event(const fs::path& events_file, const AuditLabelEntry& l, double t, std::string& error) {
  std::uint64_t size = 0;
  auto lines = count_complete_lines(events_file, size);
  std::optional<std::uint64_t> truncate_to;
  std::uint64_t seq = 0;
  if (lines) {
    seq = *lines;
  } else {
    // A partial last line: let the log reader decide (a crash leftover is dropped, corruption is an error).
    LoadedLog loaded;
    if (!read_event_log(events_file, loaded, error)) return false;
    seq = loaded.events.size();
    truncate_to = loaded.valid_bytes;
  }
  auto log = EventLog::open(events_file, error, truncate_to);
  if (!log) return false;
  json ev = {{"v", kFormatVersion}, {"seq", seq}, {"t", t}, {"type", "audit_label"}};
  ev.update(to_json(l));
  return log->append(ev, error) && log->sync(error);
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
    auto [it, fresh] = log.index.emplace(a->key(), log.records.size());
    if (fresh)
      log.records.push_back(std::move(*a));
    else
      log.records[it->second] = std::move(*a);
  } else if (type == "experience_added") {
    auto e = experience_entry_from_json(event, err);
    if (!e) return warn();
    std::string id = e->item;
    log.experiences[id] = std::move(*e);
  } else if (type == "audit_label") {
    auto l = audit_label_from_json(event, err);
    if (!l) return warn();
    log.label_events.push_back(std::move(*l));
  }
}

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
  AuditWorkspace ws;
  ws.dir = dir;
  ws.log = build_audit_log(loaded.events);
  if (!load_audit_file(dir / kAuditFileName, ws.labels, error, &ws.had_audit_file)) return false;
  if (!ws.had_audit_file)
    for (const auto& l : ws.log.label_events) ws.labels.set(l);
  out = std::move(ws);
  return true;
}

bool record_audit_label(AuditWorkspace& ws, const AuditLabelEntry& l, double t, std::string& error) {
  if (audit_label_index(l.label) < 0) return error = "label: expected one of full, partial, unrelated", false;
  AuditLabels next = ws.labels;
  next.set(l);
  if (!save_audit_file(ws.dir / kAuditFileName, next, error)) return false;
  ws.labels = std::move(next);
  ws.had_audit_file = true;
  if (!append_audit_event(ws.dir / "events.jsonl", l, t, error)) return false;
  ws.log.label_events.push_back(l);
  return true;
}

namespace {
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// Uniform in [0, bound) by rejection (bound > 0).
std::uint64_t bounded(std::uint64_t& state, std::uint64_t bound) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    std::uint64_t r = splitmix64(state);
    if (r < limit) return r % bound;
  }
}
}  // namespace

std::vector<std::size_t> sample_indices(std::size_t population, std::size_t n, std::uint64_t seed) {
  n = std::min(n, population);
  std::vector<std::size_t> perm(population);
  for (std::size_t i = 0; i < population; ++i) perm[i] = i;
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < n; ++i) {
    auto j = i + static_cast<std::size_t>(bounded(state, population - i));
    std::swap(perm[i], perm[j]);
  }
  perm.resize(n);
  return perm;
}

std::vector<AdoptionKey> sample_records(const std::vector<AdoptionEntry>& records, std::size_t n,
                                        std::uint64_t seed) {
  std::vector<const AdoptionEntry*> sorted;
  sorted.reserve(records.size());
  for (const auto& r : records) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const AdoptionEntry* a, const AdoptionEntry* b) {
    return std::tie(a->episode, a->round, a->rank, a->item) <
           std::tie(b->episode, b->round, b->rank, b->item);
  });
  std::vector<AdoptionKey> out;
  for (auto i : sample_indices(sorted.size(), n, seed)) out.push_back(sorted[i]->key());
  return out;
}

double AuditSummary::percent(std::size_t i) const {
  if (labelled == 0 || i >= counts.size()) return 0.0;
  return 100.0 * static_cast<double>(counts[i]) / static_cast<double>(labelled);
}

AuditSummary summarize(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                       const std::vector<AdoptionKey>* subset) {
  AuditSummary s;
  auto count = [&](const AdoptionKey& k) {
    ++s.records;
    if (const auto* l = labels.find(k)) {
      int i = audit_label_index(l->label);
      if (i >= 0) {
        ++s.labelled;
        ++s.counts[static_cast<std::size_t>(i)];
      }
    }
  };
  if (subset) {
    std::map<AdoptionKey, bool> present;
    for (const auto& r : records) present[r.key()] = true;
    for (const auto& k : *subset)
      if (present.count(k)) count(k);
  } else {
    for (const auto& r : records) count(r.key());
  }
  return s;
}

namespace {
std::string pct(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", p);
  return buf;
}
}  // namespace

std::string summary_text(const AuditSummary& s) {
  std::string out;
  char line[128];
  std::snprintf(line, sizeof line, "%-10s %7s %8s\n", "label", "count", "percent");
  out += line;
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i) {
    std::snprintf(line, sizeof line, "%-10s %7zu %7s%%\n", std::string(kAuditLabels[i]).c_str(), s.counts[i],
                  pct(s.percent(i)).c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%-10s %7zu %7s%%\n", "total", s.labelled, s.labelled ? "100.0" : "0.0");
  out += line;
  out += std::to_string(s.labelled) + " of " + std::to_string(s.records) + " adoption records labelled.\n";
  return out;
}

std::string summary_csv(const AuditSummary& s) {
  std::string out = "label,count,percent\n";
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i)
    out += std::string(kAuditLabels[i]) + "," + std::to_string(s.counts[i]) + "," + pct(s.percent(i)) + "\n";
  out += "total," + std::to_string(s.labelled) + "," + (s.labelled ? "100.0" : "0.0") + "\n";
  return out;
}

std::string summary_markdown(const AuditSummary& s) {
  std::string out = "| label | count | percent |\n|---|---:|---:|\n";
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i)
    out += "| " + std::string(kAuditLabels[i]) + " | " + std::to_string(s.counts[i]) + " | " +
           pct(s.percent(i)) + "% |\n";
  out += "| total | " + std::to_string(s.labelled) + " | " + (s.labelled ? "100.0" : "0.0") + "% |\n\n";
  out += std::to_string(s.labelled) + " of " + std::to_string(s.records) + " adoption records labelled.\n";
  return out;
}

}  // namespace sf::store
