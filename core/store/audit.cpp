#include "core/store/audit.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>


#include "core/common/hash.hpp"
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

namespace {
// Uniform in [0, bound) by rejection (bound > 0).
std::uint64_t bounded(SplitMix64& rng, std::uint64_t bound) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    std::uint64_t r = rng.next();
    if (r < limit) return r % bound;
  }
}
}  // namespace

std::vector<std::size_t> sample_indices(std::size_t population, std::size_t n, std::uint64_t seed) {
  n = std::min(n, population);
  std::vector<std::size_t> perm(population);
  for (std::size_t i = 0; i < population; ++i) perm[i] = i;
  SplitMix64 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    auto j = i + static_cast<std::size_t>(bounded(rng, population - i));
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

namespace {

// Calls `fn(key, record)` for every record of `records`, or for the keys of `subset` that are records.
template <class Fn>
void for_each_audit_record(const std::vector<AdoptionEntry>& records, const std::vector<AdoptionKey>* subset,
                     Fn&& fn) {
  if (!subset) {
    for (const auto& r : records) fn(r);
    return;
  }
  std::map<AdoptionKey, const AdoptionEntry*> present;
  for (const auto& r : records) present[r.key()] = &r;
  for (const auto& k : *subset)
    if (auto it = present.find(k); it != present.end()) fn(*it->second);
}

}  // namespace

AuditSummary summarize(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                       std::string_view auditor, const std::vector<AdoptionKey>* subset) {
  AuditSummary s;
  for_each_audit_record(records, subset, [&](const AdoptionEntry& r) {
    ++s.records;
    if (const auto* l = labels.find(r.key(), auditor)) {
      int i = audit_label_index(l->label);
      if (i >= 0) {
        ++s.labelled;
        ++s.counts[static_cast<std::size_t>(i)];
      }
    }
  });
  return s;
}

std::optional<double> cohen_kappa(const std::array<std::array<std::size_t, 3>, 3>& c) {
  double n = 0, agree = 0;
  std::array<double, 3> row{}, col{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      const double v = static_cast<double>(c[i][j]);
      n += v;
      row[i] += v;
      col[j] += v;
      if (i == j) agree += v;
    }
  if (n == 0) return std::nullopt;
  const double po = agree / n;
  double pe = 0;
  for (std::size_t i = 0; i < 3; ++i) pe += (row[i] / n) * (col[i] / n);
  if (pe >= 1.0 - 1e-12) return std::nullopt;
  return (po - pe) / (1.0 - pe);
}

namespace {

// Percentile of sorted values, linear interpolation between closest ranks (type 7).
double audit_quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

AuditAgreement agreement(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                         const std::string& auditor_a, const std::string& auditor_b,
                         const std::vector<AdoptionKey>* subset, std::uint64_t seed) {
  AuditAgreement out;
  out.auditor_a = auditor_a;
  out.auditor_b = auditor_b;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (label of a, label of b) per common record
  for_each_audit_record(records, subset, [&](const AdoptionEntry& r) {
    const auto* la = labels.find(r.key(), auditor_a);
    const auto* lb = labels.find(r.key(), auditor_b);
    if (!la || !lb) return;
    const int ia = audit_label_index(la->label), ib = audit_label_index(lb->label);
    if (ia < 0 || ib < 0) return;
    pairs.emplace_back(static_cast<std::size_t>(ia), static_cast<std::size_t>(ib));
    ++out.confusion[pairs.back().first][pairs.back().second];
    if (ia == ib)
      ++out.agree;
    else
      out.disagreements.push_back({r.key(), r.task, la->label, lb->label, la->note, lb->note});
  });
  std::sort(out.disagreements.begin(), out.disagreements.end(),
            [](const AuditDisagreement& x, const AuditDisagreement& y) { return x.key < y.key; });
  out.both = pairs.size();
  if (out.both == 0) return out;
  out.raw = static_cast<double>(out.agree) / static_cast<double>(out.both);
  out.kappa = cohen_kappa(out.confusion);
  std::vector<double> boot;
  boot.reserve(kBootstrapReplicates);
  SplitMix64 rng(seed);
  for (std::size_t b = 0; b < kBootstrapReplicates; ++b) {
    std::array<std::array<std::size_t, 3>, 3> c{};
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto& p = pairs[static_cast<std::size_t>(bounded(rng, pairs.size()))];
      ++c[p.first][p.second];
    }
    if (auto k = cohen_kappa(c)) boot.push_back(*k);
  }
  out.replicates = boot.size();
  if (boot.size() * 2 >= kBootstrapReplicates) {
    std::sort(boot.begin(), boot.end());
    out.ci_low = audit_quantile(boot, 0.025);
    out.ci_high = audit_quantile(boot, 0.975);
  }
  return out;
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

namespace sf::store {

std::string auditor_display_name(std::string_view auditor) {
  return auditor.empty() ? std::string("(unnamed)") : std::string(auditor);
}

namespace {

std::string audit_fixed3(std::optional<double> v) {
  if (!v) return "undefined";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *v);
  return buf;
}

std::string audit_kappa_phrase(const AuditAgreement& a) {
  std::string out = "Cohen's kappa " + audit_fixed3(a.kappa);
  if (a.ci_low && a.ci_high)
    out += " (95% bootstrap CI " + audit_fixed3(a.ci_low) + " to " + audit_fixed3(a.ci_high) + ", " +
           std::to_string(a.replicates) + " resamples)";
  else if (a.both > 0)
    out += " (no bootstrap interval: kappa is undefined in most resamples)";
  return out;
}

std::string audit_one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

}  // namespace

std::string audit_csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string agreement_text(const AuditAgreement& a) {
  const std::string na = auditor_display_name(a.auditor_a), nb = auditor_display_name(a.auditor_b);
  std::string out = "agreement " + na + " vs " + nb + ": " + std::to_string(a.both) + " records both labelled";
  if (a.both == 0) return out + ".\n";
  out += ", " + std::to_string(a.agree) + " agree (raw agreement " + pct(100.0 * a.raw) + "%), " +
         audit_kappa_phrase(a) + ".\n";
  if (a.disagreements.empty()) return out + "no disagreements.\n";
  out += std::to_string(a.disagreements.size()) + " disagreement" + (a.disagreements.size() == 1 ? "" : "s") +
         ":\n";
  for (const auto& d : a.disagreements) {
    out += "  " + to_string(d.key) + " " + d.task + ": " + na + " " + d.label_a + ", " + nb + " " + d.label_b;
    if (!d.note_a.empty() || !d.note_b.empty())
      out += " (notes: \"" + audit_one_line(d.note_a) + "\" / \"" + audit_one_line(d.note_b) + "\")";
    out += "\n";
  }
  return out;
}

std::string agreement_markdown(const AuditAgreement& a) {
  const std::string na = auditor_display_name(a.auditor_a), nb = auditor_display_name(a.auditor_b);
  std::string out = "**" + na + " vs " + nb + "**: " + std::to_string(a.both) + " records both labelled";
  if (a.both == 0) return out + ".\n";
  out += ", raw agreement " + pct(100.0 * a.raw) + "%, " + audit_kappa_phrase(a) + ".\n";
  if (a.disagreements.empty()) return out;
  out += "\n| record | task | " + na + " | " + nb + " |\n|---|---|---|---|\n";
  for (const auto& d : a.disagreements)
    out += "| " + to_string(d.key) + " | " + d.task + " | " + d.label_a + " | " + d.label_b + " |\n";
  return out;
}

std::string disagreements_csv(const AuditAgreement& a) {
  std::string out = "episode,round,item,task," + audit_csv_field(auditor_display_name(a.auditor_a)) + "," +
                    audit_csv_field(auditor_display_name(a.auditor_b)) + "\n";
  for (const auto& d : a.disagreements)
    out += std::to_string(d.key.episode) + "," + std::to_string(d.key.round) + "," + audit_csv_field(d.key.item) + "," +
           audit_csv_field(d.task) + "," + d.label_a + "," + d.label_b + "\n";
  return out;
}

}  // namespace sf::store
