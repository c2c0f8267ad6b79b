#include "core/learn/config.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/bench/catalogue.hpp"
#include "core/cost/chip.hpp"
#include "core/sim/datagen.hpp"

namespace sf::learn {

std::string_view mode_name(Mode m) {
  switch (m) {
    case Mode::Single: return "single";
    case Mode::Agent: return "agent";
    case Mode::Adaptive: return "adaptive";
    case Mode::Sage: return "sage";
  }
  return "adaptive";
}

std::optional<Mode> parse_mode(std::string_view s) {
  for (Mode m : {Mode::Single, Mode::Agent, Mode::Adaptive, Mode::Sage})
    if (mode_name(m) == s) return m;
  return std::nullopt;
}

std::string_view objective_name(Objective o) {
  return o == Objective::Performance ? "performance" : "correctness";
}

std::optional<Objective> parse_objective(std::string_view s) {
  for (Objective o : {Objective::Correctness, Objective::Performance})
    if (objective_name(o) == s) return o;
  return std::nullopt;
}

std::string_view task_order_name(TaskOrder o) {
  switch (o) {
    case TaskOrder::Given: return "given";
    case TaskOrder::Shuffled: return "shuffled";
    case TaskOrder::EasyToHard: return "easy-to-hard";
    case TaskOrder::HardOnly: return "hard-only";
  }
  return "given";
}

std::optional<TaskOrder> parse_task_order(std::string_view s) {
  for (TaskOrder o : {TaskOrder::Given, TaskOrder::Shuffled, TaskOrder::EasyToHard, TaskOrder::HardOnly})
    if (task_order_name(o) == s) return o;
  return std::nullopt;
}

namespace {

const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> keys = {
      "version", "name",   "mode",   "backend",  "max_tokens", "n",         "temperature0",   "temperatures",
      "m",       "selection", "random_k", "tasks", "order",      "seed",      "in_flight",      "verify_threads",
      "budget",  "guardian",  "manual", "max_prompt_tokens", "memory", "chip", "objective", "verify",
      "demos",   "note",      "novelty", "fast_tolerance", "dialect", "sweep"};
  return keys;
}

std::string known_list() {
  std::string s;
  for (const auto& k : known_keys()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

struct Reader {
  const nlohmann::json& j;
  std::string& error;
  std::string prefix;

  const nlohmann::json* find(const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  }
  bool fail(const std::string& key, const std::string& what) {
    error = "config key '" + prefix + key + "': " + what;
    return false;
  }
  bool integer(const char* key, std::int64_t& out) {
    const auto* v = find(key);
    if (!v) return true;
    if (!v->is_number_integer()) return fail(key, "expected an integer, got " + v->dump());
    out = v->is_number_unsigned() ? static_cast<std::int64_t>(std::min<std::uint64_t>(v->get<std::uint64_t>(), INT64_MAX))
                                  : v->get<std::int64_t>();
    return true;
  }
  bool integer(const char* key, int& out) {
    std::int64_t x = out;
    if (!integer(key, x)) return false;
    if (x < INT32_MIN || x > INT32_MAX) return fail(key, "out of range");
    out = static_cast<int>(x);
    return true;
  }
  bool number(const char* key, double& out) {
    const auto* v = find(key);
    if (!v) return true;
    if (!v->is_number()) return fail(key, "expected a number, got " + v->dump());
    out = v->get<double>();
    if (!std::isfinite(out)) return fail(key, "expected a finite number");
    return true;
  }
  bool string(const char* key, std::string& out) {
    const auto* v = find(key);
    if (!v) return true;
    if (!v->is_string()) return fail(key, "expected a string, got " + v->dump());
    out = v->get<std::string>();
    return true;
  }
};

}  // namespace

// `sweep`: {"seeds": "1-5", "variants": [{"name": "...", "set": ["key=value", ...]}]} (1 to 64 variants with
// distinct folder-safe names).
static bool sweep_plan_ok(const nlohmann::json& sw, std::string& error) {
  auto bad = [&](const std::string& what) {
    error = "config key 'sweep" + what;
    return false;
  };
  if (!sw.is_object()) return bad("': expected an object {seeds, variants}");
  for (const auto& [k, v] : sw.items())
    if (k != "seeds" && k != "variants") return bad("." + k + "': unknown key (known: seeds, variants)");
  if (auto it = sw.find("seeds"); it != sw.end() && (!it->is_string() || it->get_ref<const std::string&>().size() > 256))
    return bad(".seeds': expected a seed list like \"1-5\"");
  auto vs = sw.find("variants");
  if (vs == sw.end() || !vs->is_array() || vs->empty() || vs->size() > 64)
    return bad(".variants': expected a list of 1 to 64 {name, set}");
  std::vector<std::string> names;
  for (const auto& v : *vs) {
    if (!v.is_object()) return bad(".variants': every entry is an object {name, set}");
    for (const auto& [k, x] : v.items())
      if (k != "name" && k != "set") return bad(".variants." + k + "': unknown key (known: name, set)");
    auto n = v.find("name");
    if (n == v.end() || !n->is_string()) return bad(".variants.name': expected a string");
    const std::string name = n->get<std::string>();
    if (name.empty() || name.size() > 64 || name.find_first_of("/\\ ") != std::string::npos || name.find("..") != std::string::npos)
      return bad(".variants.name': '" + name + "' is not a folder name");
    if (std::find(names.begin(), names.end(), name) != names.end()) return bad(".variants.name': '" + name + "' twice");
    names.push_back(name);
    if (auto st = v.find("set"); st != v.end()) {
      if (!st->is_array() || st->size() > 64) return bad(".variants.set': expected a list of key=value strings");
      for (const auto& o : *st)
        if (!o.is_string() || o.get_ref<const std::string&>().find('=') == std::string::npos)
          return bad(".variants.set': expected key=value strings, got " + o.dump());
    }
  }
  return true;
}

std::optional<CampaignConfig> config_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "campaign config: expected a JSON object";
    return std::nullopt;
  }
  for (const auto& [k, v] : j.items()) {
    if (std::find(known_keys().begin(), known_keys().end(), k) == known_keys().end()) {
      error = "unknown config key '" + k + "' (known: " + known_list() + ")";
      return std::nullopt;
    }
  }
  CampaignConfig c;
  Reader r{j, error, ""};
  std::string s;
  if (!r.integer("version", c.version)) return std::nullopt;
  if (c.version > kConfigVersion) {
    error = "the campaign config has version " + std::to_string(c.version) +
            ", newer than this StepForge understands (" + std::to_string(kConfigVersion) + ")";
    return std::nullopt;
  }
  if (!r.string("name", c.name) || !r.string("note", c.note)) return std::nullopt;
  s = std::string(mode_name(c.mode));
  if (!r.string("mode", s)) return std::nullopt;
  if (auto m = parse_mode(s)) c.mode = *m;
  else {
    r.fail("mode", "unknown mode '" + s + "' (single, agent, adaptive, sage)");
    return std::nullopt;
  }
  if (const auto* b = r.find("backend")) {
    std::string berr;
    auto bc = llm::backend_config_from_json(*b, berr);
    if (!bc) {
      error = "config key 'backend': " + berr;
      return std::nullopt;
    }
    c.backend = *bc;
  }
  if (!r.integer("max_tokens", c.max_tokens) || !r.integer("n", c.n) || !r.number("temperature0", c.temperature0) ||
      !r.integer("m", c.m) || !r.integer("random_k", c.random_k) || !r.integer("in_flight", c.in_flight) ||
      !r.integer("verify_threads", c.verify_threads) || !r.integer("max_prompt_tokens", c.max_prompt_tokens))
    return std::nullopt;
  if (const auto* t = r.find("temperatures")) {
    if (!t->is_array()) {
      r.fail("temperatures", "expected a list of numbers, got " + t->dump());
      return std::nullopt;
    }
    c.temperatures.clear();
    for (const auto& x : *t) {
      if (!x.is_number()) {
        r.fail("temperatures", "expected a list of numbers, got " + t->dump());
        return std::nullopt;
      }
      c.temperatures.push_back(x.get<double>());
    }
  }
  s = std::string(selection_name(c.selection));
  if (!r.string("selection", s)) return std::nullopt;
  if (auto sel = parse_selection(s)) c.selection = *sel;
  else {
    r.fail("selection", "unknown selection '" + s + "' (hard-only, mixed, all, random-k)");
    return std::nullopt;
  }
  if (const auto* t = r.find("tasks")) {
    if (!t->is_array() || !std::all_of(t->begin(), t->end(), [](const auto& x) { return x.is_string(); })) {
      r.fail("tasks", "expected a list of task ids or group names, got " + t->dump());
      return std::nullopt;
    }
    for (const auto& x : *t) c.tasks.push_back(x.get<std::string>());
  }
  s = std::string(task_order_name(c.order));
  if (!r.string("order", s)) return std::nullopt;
  if (auto o = parse_task_order(s)) c.order = *o;
  else {
    r.fail("order", "unknown order '" + s + "' (given, shuffled, easy-to-hard, hard-only)");
    return std::nullopt;
  }
  if (const auto* v = r.find("seed")) {
    if (!v->is_number_integer() || (v->is_number_integer() && !v->is_number_unsigned() && v->get<std::int64_t>() < 0)) {
      r.fail("seed", "expected a non-negative integer, got " + v->dump());
      return std::nullopt;
    }
    c.seed = v->get<std::uint64_t>();
  }
  if (const auto* b = r.find("budget")) {
    if (!b->is_object()) {
      r.fail("budget", "expected an object {tokens, cost_usd, wall_s}");
      return std::nullopt;
    }
    for (const auto& [k, v] : b->items()) {
      if (k != "tokens" && k != "cost_usd" && k != "wall_s") {
        error = "unknown config key 'budget." + k + "' (known: tokens, cost_usd, wall_s)";
        return std::nullopt;
      }
    }
    Reader br{*b, error, "budget."};
    if (!br.integer("tokens", c.budget.tokens) || !br.number("cost_usd", c.budget.cost_usd) ||
        !br.number("wall_s", c.budget.wall_s))
      return std::nullopt;
  }
  s = c.guardian == agent::GuardianMode::Llm ? "llm" : "rewrite";
  if (!r.string("guardian", s)) return std::nullopt;
  if (auto g = agent::parse_guardian_mode(s)) c.guardian = *g;
  else {
    r.fail("guardian", "unknown guardian mode '" + s + "' (rewrite, llm)");
    return std::nullopt;
  }
  s = "auto";
  if (!r.string("manual", s)) return std::nullopt;
  if (s == "auto") c.manual = agent::ManualMode::Auto;
  else if (s == "full") c.manual = agent::ManualMode::Full;
  else if (s == "cheatsheet") c.manual = agent::ManualMode::Cheatsheet;
  else {
    r.fail("manual", "unknown manual mode '" + s + "' (auto, full, cheatsheet)");
    return std::nullopt;
  }
  if (const auto* vo = r.find("verify")) {
    if (!vo->is_object()) {
      r.fail("verify", "expected an object {extra_seeds}");
      return std::nullopt;
    }
    for (const auto& [k, v] : vo->items()) {
      if (k != "extra_seeds") {
        error = "unknown config key 'verify." + k + "' (known: extra_seeds)";
        return std::nullopt;
      }
    }
    Reader vr{*vo, error, "verify."};
    if (!vr.integer("extra_seeds", c.extra_seeds)) return std::nullopt;
  }
  if (const auto* nv = r.find("novelty")) {
    if (nv->is_boolean()) {
      c.novelty = nv->get<bool>() ? kDefaultNovelty : 0;
    } else if (!r.integer("novelty", c.novelty)) {
      return std::nullopt;
    }
  }
  if (const auto* d = r.find("demos")) {
    if (!d->is_object()) {
      r.fail("demos", "expected an object {golden, max}");
      return std::nullopt;
    }
    for (const auto& [k, v] : d->items()) {
      if (k != "golden" && k != "max") {
        error = "unknown config key 'demos." + k + "' (known: golden, max)";
        return std::nullopt;
      }
    }
    Reader dr{*d, error, "demos."};
    if (!dr.string("golden", c.demos.golden) || !dr.integer("max", c.demos.max)) return std::nullopt;
  }
  if (!r.string("dialect", c.dialect)) return std::nullopt;
  if (c.dialect != "step-v1" && c.dialect != "step-v2") {
    r.fail("dialect", "unknown dialect '" + c.dialect + "' (step-v1, step-v2)");
    return std::nullopt;
  }
  if (const auto* m = r.find("memory")) {
    auto mc = sage_memory_from_json(*m, error);
    if (!mc) return std::nullopt;
    c.memory = *mc;
    // STeP-25 optimisation: 3 retrieval slots unless the config says otherwise.
    if (c.is_v2() && m->is_object() && !m->contains("k")) c.memory.params.k = 3;
  } else if (c.is_v2()) {
    c.memory.params.k = 3;
  }
  if (const auto* sw = r.find("sweep")) {
    if (!sweep_plan_ok(*sw, error)) return std::nullopt;
    c.sweep = *sw;
  }
  if (!r.string("chip", c.chip) || !r.number("fast_tolerance", c.fast_tolerance)) return std::nullopt;
  c.objective = r.find("chip") ? Objective::Performance : Objective::Correctness;
  s = std::string(objective_name(c.objective));
  if (!r.string("objective", s)) return std::nullopt;
  if (auto o = parse_objective(s)) c.objective = *o;
  else {
    r.fail("objective", "unknown objective '" + s + "' (correctness, performance)");
    return std::nullopt;
  }
  error = validate(c);
  if (!error.empty()) return std::nullopt;
  if (c.chip != "default") {  // the default profile is built in: parsing needs no resources for it
    std::string cerr;
    if (!cost::find_chip(c.chip, bench::resource_dir(), cerr)) {
      error = "config key 'chip': " + cerr;
      return std::nullopt;
    }
  }
  return c;
}

std::string_view memory_mode_name(MemoryMode m) {
  return m == MemoryMode::FullContext ? "full-context" : "retrieval";
}

std::optional<MemoryMode> parse_memory_mode(std::string_view s) {
  for (MemoryMode m : {MemoryMode::Retrieval, MemoryMode::FullContext})
    if (memory_mode_name(m) == s) return m;
  return std::nullopt;
}

nlohmann::json sage_memory_to_json(const SageMemoryConfig& m) {
  nlohmann::json j = memory::config_to_json(m.params);
  j["enabled"] = m.enabled;
  j["mode"] = memory_mode_name(m.mode);
  j["episodes"] = m.episodes;
  j["import"] = m.import;
  if (!m.transfer_from.empty()) j["transfer_from"] = m.transfer_from;  // absent when unset: old configs unchanged
  return j;
}

std::optional<SageMemoryConfig> sage_memory_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "config key 'memory': expected an object";
    return std::nullopt;
  }
  SageMemoryConfig m;
  nlohmann::json rest = j;
  if (auto it = rest.find("enabled"); it != rest.end()) {
    if (!it->is_boolean()) {
      error = "config key 'memory.enabled': expected true or false, got " + it->dump();
      return std::nullopt;
    }
    m.enabled = it->get<bool>();
    rest.erase(it);
  }
  if (auto it = rest.find("episodes"); it != rest.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 10000) {
      error = "config key 'memory.episodes': expected an integer in [1, 10000], got " + it->dump();
      return std::nullopt;
    }
    m.episodes = it->get<int>();
    rest.erase(it);
  }
  if (auto it = rest.find("mode"); it != rest.end()) {
    auto mm = it->is_string() ? parse_memory_mode(it->get<std::string>()) : std::nullopt;
    if (!mm) {
      error = "config key 'memory.mode': expected \"retrieval\" or \"full-context\", got " + it->dump();
      return std::nullopt;
    }
    m.mode = *mm;
    rest.erase(it);
  }
  if (auto it = rest.find("import"); it != rest.end()) {
    if (!it->is_string()) {
      error = "config key 'memory.import': expected a file name (string), got " + it->dump();
      return std::nullopt;
    }
    m.import = it->get<std::string>();
    rest.erase(it);
  }
  if (auto it = rest.find("transfer_from"); it != rest.end()) {
    if (!it->is_string() || (*it != "" && *it != "odd" && *it != "even")) {
      error = "config key 'memory.transfer_from': expected \"odd\", \"even\" or \"\", got " + it->dump();
      return std::nullopt;
    }
    m.transfer_from = it->get<std::string>();
    rest.erase(it);
  }
  if (auto d = memory::config_from_json(rest, m.params)) {
    error = "config key 'memory': " + d->message + " (known: enabled, mode, episodes, import, transfer_from, k, rounds, delta, beta, "
            "eta_min, gamma, k_ado, k_op, mu, budget, credit, ranking, ugc, frozen, seed)";
    return std::nullopt;
  }
  if (m.params.rounds < 1 || m.params.rounds > 10000) {
    error = "config key 'memory.rounds': must be in [1, 10000]";
    return std::nullopt;
  }
  return m;
}

nlohmann::json config_to_json(const CampaignConfig& c) {
  nlohmann::json backend = llm::backend_config_to_json(c.backend);
  backend["in_flight"] = c.in_flight;  // one authority: the campaign's in_flight
  nlohmann::json j{
      {"version", c.version},
      {"name", c.name},
      {"mode", mode_name(c.mode)},
      {"backend", backend},
      {"max_tokens", c.max_tokens},
      {"n", c.n},
      {"temperature0", c.temperature0},
      {"temperatures", c.temperatures},
      {"m", c.m},
      {"selection", selection_name(c.selection)},
      {"random_k", c.random_k},
      {"tasks", c.tasks},
      {"order", task_order_name(c.order)},
      {"seed", c.seed},
      {"in_flight", c.in_flight},
      {"verify_threads", c.verify_threads},
      {"budget", {{"tokens", c.budget.tokens}, {"cost_usd", c.budget.cost_usd}, {"wall_s", c.budget.wall_s}}},
      {"guardian", c.guardian == agent::GuardianMode::Llm ? "llm" : "rewrite"},
      {"manual", c.manual == agent::ManualMode::Full         ? "full"
                 : c.manual == agent::ManualMode::Cheatsheet ? "cheatsheet"
                                                             : "auto"},
      {"max_prompt_tokens", c.max_prompt_tokens},
      {"memory", sage_memory_to_json(c.memory)},
      {"chip", c.chip},
      {"objective", objective_name(c.objective)}};
  if (c.extra_seeds != 0) j["verify"] = {{"extra_seeds", c.extra_seeds}};  // absent when off: old configs unchanged
  if (!c.demos.golden.empty()) j["demos"] = {{"golden", c.demos.golden}, {"max", c.demos.max}};
  if (!c.note.empty()) j["note"] = c.note;
  if (c.novelty != 0) j["novelty"] = c.novelty;  // absent when off: old configs unchanged
  if (c.fast_tolerance != kDefaultFastTolerance) j["fast_tolerance"] = c.fast_tolerance;  // absent at the default
  if (c.is_v2()) j["dialect"] = c.dialect;  // absent for step-v1: old configs unchanged
  if (!c.sweep.is_null()) j["sweep"] = c.sweep;
  return j;
}

double fast_tolerance_of(const nlohmann::json& config) {
  if (!config.is_object()) return kDefaultFastTolerance;
  auto it = config.find("fast_tolerance");
  if (it == config.end() || !it->is_number()) return kDefaultFastTolerance;
  const double t = it->get<double>();
  return t >= 0.0 && t <= kMaxFastTolerance ? t : kDefaultFastTolerance;
}

std::string validate(const CampaignConfig& c) {
  auto bad_temp = [](double t) { return !(t >= 0.0 && t <= 2.0); };
  if (c.note.size() > 4096) return "config key 'note': at most 4096 characters";
  if (c.n < 1 || c.n > 10000) return "config key 'n': must be in [1, 10000]";
  if (c.max_tokens < 1 || c.max_tokens > 1000000) return "config key 'max_tokens': must be in [1, 1000000]";
  if (c.demos.max < 0 || c.demos.max > 64) return "config key 'demos.max': must be in [0, 64]";
  if (bad_temp(c.temperature0)) return "config key 'temperature0': must be in [0, 2]";
  if (c.temperatures.empty() || c.temperatures.size() > 16) return "config key 'temperatures': needs 1 to 16 values";
  for (double t : c.temperatures)
    if (bad_temp(t)) return "config key 'temperatures': every value must be in [0, 2]";
  if (c.m < 1 || c.m > 100) return "config key 'm': must be in [1, 100]";
  if (c.random_k < 0 || c.random_k > 10000) return "config key 'random_k': must be in [0, 10000]";
  if (c.in_flight < 1 || c.in_flight > 256) return "config key 'in_flight': must be in [1, 256]";
  if (c.verify_threads < 1 || c.verify_threads > 256) return "config key 'verify_threads': must be in [1, 256]";
  if (c.budget.tokens < 0) return "config key 'budget.tokens': must be >= 0 (0 = unlimited)";
  if (c.budget.cost_usd < 0) return "config key 'budget.cost_usd': must be >= 0 (0 = unlimited)";
  if (c.budget.wall_s < 0) return "config key 'budget.wall_s': must be >= 0 (0 = unlimited)";
  if (c.max_prompt_tokens < 0) return "config key 'max_prompt_tokens': must be >= 0 (0 = unlimited)";
  if (c.extra_seeds < 0 || c.extra_seeds > 64) return "config key 'verify.extra_seeds': must be in [0, 64]";
  if (c.novelty < 0 || c.novelty > 16) return "config key 'novelty': must be true, false or in [0, 16]";
  if (!(c.fast_tolerance >= 0.0 && c.fast_tolerance <= kMaxFastTolerance))
    return "config key 'fast_tolerance': must be in [0, 0.5] (0.01 = a program must be 1% faster to count)";
  if (c.chip.empty()) return "config key 'chip': a chip profile name or path is required";
  if (c.is_v2() && (c.mode != Mode::Sage || c.objective != Objective::Performance))
    return "config key 'dialect': a step-v2 campaign optimises: it needs \"mode\": \"sage\" and \"objective\": "
           "\"performance\"";
  if (!c.is_v2() && !c.memory.transfer_from.empty())
    return "config key 'memory.transfer_from': only for \"dialect\": \"step-v2\" campaigns";
  if (c.backend.model.empty()) return "config key 'backend.model': the model name is required";
  if (auto b = llm::validate(c.backend); !b.empty()) return "config key 'backend': " + b;
  return "";
}

bool apply_override(nlohmann::json& config, std::string_view assignment, std::string& error) {
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    error = "override '" + std::string(assignment) + "' is not of the form key=value";
    return false;
  }
  std::string key(assignment.substr(0, eq));
  std::string value(assignment.substr(eq + 1));
  std::vector<std::string> path;
  for (std::size_t pos = 0;;) {
    auto dot = key.find('.', pos);
    path.push_back(key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
    if (path.back().empty()) {
      error = "override '" + std::string(assignment) + "': empty key component";
      return false;
    }
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  if (std::find(known_keys().begin(), known_keys().end(), path[0]) == known_keys().end()) {
    error = "unknown config key '" + path[0] + "' (known: " + known_list() + ")";
    return false;
  }
  if (!config.is_object()) config = nlohmann::json::object();
  nlohmann::json* node = &config;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    nlohmann::json& next = (*node)[path[i]];
    if (next.is_null()) next = nlohmann::json::object();
    if (!next.is_object()) {
      error = "override '" + key + "': '" + path[i] + "' is not an object";
      return false;
    }
    node = &next;
  }
  static const std::set<std::string> list_keys = {"temperatures", "tasks"};
  nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
  bool is_list_key = path.size() == 1 && list_keys.count(path[0]);
  if (is_list_key && !parsed.is_array()) {
    nlohmann::json arr = nlohmann::json::array();
    std::size_t pos = 0;
    while (pos <= value.size() && !value.empty()) {
      auto comma = value.find(',', pos);
      std::string item = value.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      nlohmann::json x = nlohmann::json::parse(item, nullptr, false);
      if (path[0] == "tasks" || x.is_discarded()) arr.push_back(item);
      else arr.push_back(x);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    parsed = arr;
  } else if (parsed.is_discarded()) {
    parsed = value;  // a bare string (mode=agent, backend.model=gpt-4o)
  }
  (*node)[path.back()] = parsed;
  return true;
}

std::string difficulty_tag(const step::TaskDoc& t) {
  if (!t.meta.present || t.meta.copies < 0 || t.meta.attr.empty()) return "untagged";
  return std::string(t.meta.copies > 0 ? "Reuse" : "Once") + "-" + t.meta.attr;
}

std::optional<std::vector<const step::TaskDoc*>> resolve_tasks(const CampaignConfig& c,
                                                                const std::vector<step::TaskDoc>& catalogue,
                                                                std::string& error) {
  std::vector<const step::TaskDoc*> out;
  std::set<std::string> seen;
  auto add = [&](const step::TaskDoc& t) {
    if (seen.insert(t.id).second) out.push_back(&t);
  };
  if (c.tasks.empty()) {
    for (const auto& t : catalogue)
      if (t.group != "extra") add(t);
  }
  for (const auto& name : c.tasks) {
    bool found = false;
    for (const auto& t : catalogue) {
      if (t.id == name || (name.find('/') == std::string::npos && t.group == name)) {
        add(t);
        found = true;
      }
    }
    if (!found) {
      error = "config key 'tasks': unknown task or group '" + name + "'";
      return std::nullopt;
    }
  }
  if (out.empty()) {
    error = "config key 'tasks': no task selected";
    return std::nullopt;
  }
  if (c.order == TaskOrder::HardOnly) {
    std::vector<const step::TaskDoc*> hard;
    for (const auto* t : out) {
      std::string tag = difficulty_tag(*t);
      if (tag == "Reuse-C" || tag == "Reuse-CS") hard.push_back(t);
    }
    if (hard.empty()) {
      error = "config key 'order': hard-only selects no task (no Reuse-C or Reuse-CS task among the selected ones)";
      return std::nullopt;
    }
    out = hard;
  } else if (c.order == TaskOrder::Shuffled) {
    sim::Rng rng(c.seed, "task-order");
    for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.bounded(i)]);
  } else if (c.order == TaskOrder::EasyToHard) {
    static const std::map<std::string, int> rank = {{"Once-C", 0}, {"Once-CS", 1}, {"Reuse-C", 2}, {"Reuse-CS", 3}};
    auto r = [](const step::TaskDoc* t) {
      auto it = rank.find(difficulty_tag(*t));
      return it == rank.end() ? 4 : it->second;
    };
    std::stable_sort(out.begin(), out.end(), [&](const auto* a, const auto* b) {
      return r(a) != r(b) ? r(a) < r(b) : a->id < b->id;
    });
  }
  return out;
}

}  // namespace sf::learn
