// Versioned JSON export/import of the memory (memory.json) and of adoption records.
#include "core/memory/memory_json.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/memory/memory_store.hpp"

namespace sf::memory {

using nlohmann::json;

namespace {

Diagnostic import_error(const std::string& where, const std::string& what) {
  return make_error("M-IMPORT", "memory file: " + where + ": " + what);
}

// Field readers: each checks the type (and range), names the field in the error.
class Reader {
 public:
  Reader(const json& obj, std::string where) : obj_(obj), where_(std::move(where)) {}
  std::optional<Diagnostic> error;

  const json* get(const char* key, bool required) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end() || (it->is_null() && !required)) {
      if (required && !error) error = import_error(field(key), "missing required field");
      return nullptr;
    }
    return &*it;
  }
  void str(const char* key, std::string& out, bool required = false, bool nonempty = false) {
    const json* v = get(key, required);
    if (!v || error) return;
    if (!v->is_string()) return fail(key, "expected a string");
    out = v->get<std::string>();
    if (nonempty && out.empty()) fail(key, "must not be empty");
  }
  void opt_str(const char* key, std::optional<std::string>& out) {
    const json* v = get(key, false);
    if (!v || error) return;
    if (!v->is_string()) return fail(key, "expected a string or null");
    out = v->get<std::string>();
  }
  template <class Int>
  void integer(const char* key, Int& out, long long lo, long long hi, bool required = false) {
    const json* v = get(key, required);
    if (!v || error) return;
    if (!v->is_number_integer()) return fail(key, "expected an integer");
    const auto x = v->get<long long>();
    if (x < lo || x > hi) {
      return fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    }
    out = static_cast<Int>(x);
  }
  void real(const char* key, double& out, double lo, double hi) {
    const json* v = get(key, false);
    if (!v || error) return;
    if (!v->is_number()) return fail(key, "expected a number");
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) return fail(key, "is out of range");
    out = x;
  }
  void boolean(const char* key, bool& out) {
    const json* v = get(key, false);
    if (!v || error) return;
    if (!v->is_boolean()) return fail(key, "expected true or false");
    out = v->get<bool>();
  }
  // Unknown fields are errors (a typo would otherwise silently drop data).
  void no_unknown_fields() {
    if (error) return;
    for (const auto& [k, v] : obj_.items()) {
      if (!seen_.count(k)) {
        error = import_error(field(k.c_str()), "unknown field");
        return;
      }
    }
  }
  void fail(const char* key, const std::string& what) {
    if (!error) error = import_error(field(key), what);
  }
  std::string field(const char* key) const { return where_.empty() ? std::string(key) : where_ + "." + key; }

 private:
  const json& obj_;
  std::string where_;
  std::set<std::string> seen_;
};

constexpr long long kMaxCount = std::numeric_limits<int>::max();
constexpr long long kMaxI64 = std::numeric_limits<long long>::max();

std::optional<Diagnostic> item_from_json(const json& j, const std::string& where, MemoryItem& it) {
  if (!j.is_object()) return import_error(where, "expected an object");
  Reader r(j, where);
  r.str("id", it.id, true, true);
  r.str("rule", it.rule, true, true);
  r.str("evidence", it.evidence);
  r.opt_str("code_example", it.code_example);
  r.opt_str("pattern", it.pattern);
  r.integer("source_episode", it.source_episode, 0, kMaxI64);
  r.str("source_task", it.source_task);
  r.real("utility", it.utility, -1e6, 1e6);
  r.integer("n_updates", it.n_updates, 0, kMaxCount);
  r.integer("retrieval_count", it.retrieval_count, 0, kMaxCount);
  r.integer("adoption_count", it.adoption_count, 0, kMaxCount);
  if (const json* v = r.get("adopting_tasks", false); v && !r.error) {
    if (!v->is_array()) {
      r.fail("adopting_tasks", "expected an array of task ids");
    } else {
      for (const auto& t : *v) {
        if (!t.is_string()) {
          r.fail("adopting_tasks", "expected an array of task ids");
          break;
        }
        it.adopting_tasks.insert(t.get<std::string>());
      }
    }
  }
  r.integer("eligible_episodes", it.eligible_episodes, 0, kMaxCount);
  r.real("access", it.access, 0.0, 1.0);
  it.tokens = -1;
  r.integer("tokens", it.tokens, 0, kMaxCount);
  if (const json* v = r.get("state", false); v && !r.error) {
    auto s = v->is_string() ? parse_state(v->get<std::string>()) : std::nullopt;
    if (!s)
      r.fail("state", "expected \"cold\", \"validated\" or \"hot\"");
    else
      it.state = *s;
  }
  if (const json* v = r.get("history", false); v && !r.error) {
    if (!v->is_array()) {
      r.fail("history", "expected an array of {episode, credit}");
    } else {
      for (std::size_t i = 0; i < v->size() && !r.error; ++i) {
        const json& h = (*v)[i];
        if (!h.is_object()) {
          r.fail("history", "entry " + std::to_string(i) + " is not an object");
          break;
        }
        Reader hr(h, r.field("history") + "[" + std::to_string(i) + "]");
        CreditEntry e;
        hr.integer("episode", e.episode, 0, kMaxI64, true);
        hr.real("credit", e.credit, -1e6, 1e6);
        hr.no_unknown_fields();
        if (hr.error) return hr.error;
        it.history.push_back(e);
      }
    }
  }
  r.opt_str("resident_rule", it.resident_rule);
  r.opt_str("resident_code", it.resident_code);
  it.resident_tokens = -1;
  r.integer("resident_tokens", it.resident_tokens, 0, kMaxCount);
  r.no_unknown_fields();
  if (r.error) return r.error;
  if (it.adoption_count > it.retrieval_count) {
    return import_error(where + ".adoption_count", "is larger than retrieval_count");
  }
  if (it.tokens < 0) it.tokens = estimate_tokens(it.rule + it.code_example.value_or(""));
  if (it.state == ItemState::Hot && (!it.resident_rule || it.resident_rule->empty())) {
    return import_error(where + ".resident_rule", "a hot item needs a non-empty resident rule");
  }
  if (it.resident_rule && it.resident_rule->empty()) it.resident_rule.reset();
  if (it.resident_tokens < 0) {
    it.resident_tokens =
        it.resident_rule ? estimate_tokens(*it.resident_rule + it.resident_code.value_or("")) : 0;
  }
  return std::nullopt;
}

}  // namespace

json item_to_json(const MemoryItem& it) {
  json hist = json::array();
  for (const auto& h : it.history) hist.push_back({{"episode", h.episode}, {"credit", h.credit}});
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  return json{
      {"id", it.id},
      {"rule", it.rule},
      {"evidence", it.evidence},
      {"code_example", opt(it.code_example)},
      {"pattern", opt(it.pattern)},
      {"source_episode", it.source_episode},
      {"source_task", it.source_task},
      {"utility", it.utility},
      {"n_updates", it.n_updates},
      {"retrieval_count", it.retrieval_count},
      {"adoption_count", it.adoption_count},
      {"adopting_tasks", json(std::vector<std::string>(it.adopting_tasks.begin(), it.adopting_tasks.end()))},
      {"eligible_episodes", it.eligible_episodes},
      {"access", it.access},
      {"tokens", it.tokens},
      {"state", state_name(it.state)},
      {"history", hist},
      {"resident_rule", opt(it.resident_rule)},
      {"resident_code", opt(it.resident_code)},
      {"resident_tokens", it.resident_tokens}};
}

json MemoryStore::to_json() const {
  json items = json::array();
  for (const auto& it : items_) items.push_back(item_to_json(it));
  return json{{"format", kMemoryFormat}, {"version", kMemoryVersion},         {"next_id", next_id_},
              {"episodes", episodes_},   {"consolidations", consolidations_}, {"items", items}};
}

Outcome<MemoryStore> MemoryStore::from_json(const json& j, const MemoryConfig& config) {
  Outcome<MemoryStore> out;
  if (!j.is_object()) {
    out.error = make_error("M-IMPORT", "memory file: expected a JSON object at the top level");
    return out;
  }
  Reader r(j, "");
  std::string format;
  r.str("format", format, true);
  if (!r.error && format != kMemoryFormat) {
    r.fail("format", "expected \"" + std::string(kMemoryFormat) + "\", found \"" + format + "\"");
  }
  int version = 0;
  r.integer("version", version, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), true);
  if (!r.error && version != kMemoryVersion) {
    r.fail("version", "unsupported version " + std::to_string(version) + " (this build reads version " +
                          std::to_string(kMemoryVersion) + ")");
  }
  MemoryStore store(config);
  r.integer("next_id", store.next_id_, 1, kMaxI64);
  r.integer("episodes", store.episodes_, 0, kMaxI64);
  r.integer("consolidations", store.consolidations_, 0, kMaxI64);
  const json* items = r.get("items", true);
  if (!r.error && !items->is_array()) r.fail("items", "expected an array");
  r.no_unknown_fields();
  if (r.error) {
    out.error = r.error;
    return out;
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const std::string where = "items[" + std::to_string(i) + "]";
    MemoryItem it;
    if (auto e = item_from_json((*items)[i], where, it)) {
      out.error = e;
      return out;
    }
    if (!ids.insert(it.id).second) {
      out.error = import_error(where + ".id", "duplicate id '" + it.id + "'");
      return out;
    }
    store.items_.push_back(std::move(it));
  }
  out.value = std::move(store);
  return out;
}

json adoption_record_to_json(const AdoptionRecord& r) {
  json j{{"episode", r.episode},
         {"task", r.task},
         {"round", r.round},
         {"item_id", r.item_id},
         {"rank", r.rank},
         {"relevance_rank", r.relevance_rank},
         {"pool_rank", r.pool_rank},
         {"relevance", r.relevance},
         {"score", r.score},
         {"state", adoption_state_name(r.state)},
         {"rationale", r.rationale},
         {"code_before", r.code_before},
         {"code_after", r.code_after},
         {"audit", nullptr}};
  if (r.audit) {
    j["audit"] = json{{"label", audit_grade_name(r.audit->grade)},
                      {"note", r.audit->note},
                      {"auditor", r.audit->auditor},
                      {"time", r.audit->time}};
  }
  return j;
}

std::optional<Diagnostic> adoption_record_from_json(const json& j, AdoptionRecord& out) {
  if (!j.is_object()) return make_error("M-IMPORT", "adoption record: expected an object");
  AdoptionRecord rec;
  Reader r(j, "adoption record");
  r.integer("episode", rec.episode, 0, kMaxI64, true);
  r.str("task", rec.task, true);
  r.integer("round", rec.round, 0, kMaxCount);
  r.str("item_id", rec.item_id, true, true);
  r.integer("rank", rec.rank, 0, kMaxCount);
  r.integer("relevance_rank", rec.relevance_rank, 0, kMaxCount);  // optional: absent in older records
  r.integer("pool_rank", rec.pool_rank, 0, kMaxCount);
  r.real("relevance", rec.relevance, 0.0, 1e12);
  r.real("score", rec.score, -1e12, 1e12);
  if (const json* v = r.get("state", true); v && !r.error) {
    auto s = v->is_string() ? parse_adoption_state(v->get<std::string>()) : std::nullopt;
    if (!s)
      r.fail("state", "expected \"adopted\" or \"not-adopted\"");
    else
      rec.state = *s;
  }
  r.str("rationale", rec.rationale);
  r.str("code_before", rec.code_before);
  r.str("code_after", rec.code_after);
  if (const json* v = r.get("audit", false); v && !r.error) {
    if (!v->is_object()) {
      r.fail("audit", "expected an object or null");
    } else {
      Reader ar(*v, "adoption record.audit");
      AuditLabel label;
      if (const json* g = ar.get("label", true); g && !ar.error) {
        auto grade = g->is_string() ? parse_audit_grade(g->get<std::string>()) : std::nullopt;
        if (!grade)
          ar.fail("label", "expected \"full\", \"partial\" or \"unrelated\"");
        else
          label.grade = *grade;
      }
      ar.str("note", label.note);
      ar.str("auditor", label.auditor);
      ar.str("time", label.time);
      ar.no_unknown_fields();
      if (ar.error) return ar.error;
      rec.audit = label;
    }
  }
  r.no_unknown_fields();
  if (r.error) return r.error;
  out = std::move(rec);
  return std::nullopt;
}

std::optional<Diagnostic> save_memory_file(const MemoryStore& store, const std::string& path) {
  const std::string text = store.to_json().dump(2) + "\n";
  const std::string tmp = path + ".tmp";
  auto io_error = [&](const std::string& what) {
    return make_error("M-IO",
                      "cannot write memory file '" + path + "': " + what + ": " + std::strerror(errno));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("open " + tmp);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      auto e = io_error("write");
      ::close(fd);
      ::unlink(tmp.c_str());
      return e;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    auto e = io_error("fsync");
    ::close(fd);
    ::unlink(tmp.c_str());
    return e;
  }
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    auto e = io_error("rename");
    ::unlink(tmp.c_str());
    return e;
  }
  return std::nullopt;
}

Outcome<MemoryStore> load_memory_file(const std::string& path, const MemoryConfig& config) {
  Outcome<MemoryStore> out;
  constexpr std::streamoff kMaxBytes = 64ll << 20;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.error = make_error("M-IO", "cannot read memory file '" + path + "'");
    return out;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0 || size > kMaxBytes) {
    out.error = make_error("M-IMPORT", "memory file '" + path + "' is larger than 64 MiB");
    return out;
  }
  in.seekg(0);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), size);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    out.error = make_error("M-IMPORT", "memory file '" + path + "' is not valid JSON: " + e.what());
    return out;
  }
  out = MemoryStore::from_json(j, config);
  if (out.error) out.error->message = out.error->message + " (in '" + path + "')";
  return out;
}

}  // namespace sf::memory
