// The memory phase of a sage episode (algorithms §4.3, §4.5; docs/learn.md): after `episode_finished`, ATU
// (or uniform) credit and hot access estimates (end_episode), the distiller role's new experiences, UGC with
// the abstractor role. It reads the episode from the state fold, so a resumed run redoes it identically and
// logs only the events that are missing (`skip`).
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "core/agent/distiller.hpp"
#include "core/learn/engine.hpp"
#include "core/memory/memory_store.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

// parse_distill_answer keeps no `pattern`; this reads it from the same answer (the last fenced block or the
// whole text), keyed by the experience's rule text as parse_distill_answer trims it. Never throws.
std::map<std::string, std::string> distill_patterns(const std::string& text) {
  std::map<std::string, std::string> out;
  std::string body = text;
  std::size_t close = text.rfind("```");
  if (close != std::string::npos && close > 0) {
    std::size_t open = text.rfind("```", close - 1);
    if (open != std::string::npos && open != close) {
      std::size_t b = text.find('\n', open);
      if (b != std::string::npos && b < close) body = text.substr(b + 1, close - b - 1);
    }
  }
  if (body.size() > 64 * 1024) return out;
  auto trimmed = [](std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  };
  try {
    YAML::Node doc = YAML::Load(body);
    YAML::Node list;
    if (doc.IsSequence())
      list = doc;
    else if (doc.IsMap() && doc["experiences"] && doc["experiences"].IsSequence())
      list = doc["experiences"];
    if (!list || !list.IsSequence()) return out;
    for (const auto& item : list) {
      if (!item.IsMap() || !item["rule"] || !item["rule"].IsScalar() || !item["pattern"] ||
          !item["pattern"].IsScalar())
        continue;
      std::string p = trimmed(item["pattern"].Scalar());
      if (!p.empty() && p.size() <= 200) out[trimmed(item["rule"].Scalar())] = p;
    }
  } catch (const std::exception&) {
  }
  return out;
}

std::vector<ItemChange> item_changes(const std::vector<memory::StateChange>& v) {
  std::vector<ItemChange> out;
  for (const auto& c : v) out.push_back({c.id, c.value, c.tokens});
  return out;
}

}  // namespace

bool CampaignEngine::sage_memory_phase(int episode, memory::MemoryStore& mem, int skip, std::string& error) {
  if (mem.config().frozen) return true;
  const SageEpisode ep = state_.sage.episodes.at(static_cast<std::size_t>(episode));
  auto out = [&](EventBody b) {
    if (skip > 0) {
      --skip;
      return true;
    }
    return log_event(std::move(b), error);
  };
  // ATU (or uniform) credit over the items retrieved in the episode; hot rules the agent marked adopted or
  // listed in rules_used count as used for their access estimate.
  memory::EpisodeResult res;
  res.episode = episode;
  res.task = ep.task;
  res.score = ep.score;
  std::set<std::string> hot_used;
  for (const auto& rd : ep.rounds) {
    // An adoption state still unresolved after the re-ask gets no credit either way (older logs have no
    // `resolved` field: every record counts, as they were credited then).
    for (const auto& a : rd.adoption)
      if (a.resolved) res.retrieved.push_back({a.item, a.adopted});
    for (const auto* ids : {&rd.adopted_ids, &rd.rules_used})
      for (const auto& id : *ids) {
        const memory::MemoryItem* it = mem.find(id);
        if (it && it->state == memory::ItemState::Hot) hot_used.insert(id);
      }
  }
  res.hot_used.assign(hot_used.begin(), hot_used.end());
  auto up = mem.end_episode(res);
  if (!up.ok()) {
    error = up.error ? up.error->message : "memory update failed";
    return false;
  }
  for (const auto& c : up.value->credits) {
    if (!out(CreditEvent{episode, c.id, c.adopted, c.credit, c.eta, c.utility_before, c.utility_after, c.n_updates}))
      return false;
  }
  for (const auto& a : up.value->hot_access) {
    if (!out(AccessUpdate{episode, a.id, a.used, a.access_before, a.access_after})) return false;
  }
  // The distiller role: new experiences for cold memory.
  const step::TaskDoc* task = find_task(ep.task);
  std::vector<agent::TraceEvent> traces;
  agent::RoleContext ctx = role_context(ep.task, episode, -1, traces);
  agent::Episode de;
  de.task_id = ep.task;
  de.task_text = task ? task->raw_text_without_impl : "";
  for (const auto& rd : ep.rounds) {
    if (!rd.has_verdict) continue;
    de.attempts.push_back({rd.verdict.impl, rd.diagnostics, rd.verdict.pass, rd.verdict.cycles,
                           rd.verdict.feasible.value_or(false)});
    if (rd.verdict.pass) de.final_program = rd.verdict.impl;
  }
  agent::Distiller distiller(*deps_.backend, ctx);
  agent::DistillResult dr = distiller.distill(de);
  std::map<std::string, std::string> patterns;
  for (const auto& t : traces) {
    auto p = distill_patterns(t.response);
    patterns.insert(p.begin(), p.end());
  }
  for (const auto& t : traces)
    if (!out(LlmCall{episode, ep.task, 0, -1, agent::to_json(t)})) return false;
  // Adds one experience and logs it; an experience already there (same rule from the same task) adds nothing.
  auto add = [&](memory::NewExperience ne, const char* kind) {
    ne.source_episode = episode;
    ne.source_task = ep.task;
    auto added = mem.add_experience(ne);
    if (!added.ok()) return true;
    const memory::MemoryItem* it = mem.find(*added.value);
    return out(ExperienceAdded{episode, it->id, it->rule, it->evidence, it->pattern.value_or(""), ep.task,
                               it->tokens, kind ? kind : ""});
  };
  for (const auto& x : dr.experiences) {
    memory::NewExperience ne;
    ne.rule = x.rule;
    ne.evidence = x.evidence;
    if (!x.code_example.empty()) ne.code_example = x.code_example;
    auto pit = patterns.find(x.rule);
    if (!x.pattern.empty())
      ne.pattern = x.pattern;
    else if (pit != patterns.end())
      ne.pattern = pit->second;
    ne.id = x.id;
    if (!add(std::move(ne), nullptr)) return false;
  }
  // The slow→fast experience of an episode whose optimisation rounds found a faster program (no model call).
  if (auto sx = agent::speedup_experience(de)) {
    memory::NewExperience ne;
    ne.rule = sx->rule;
    ne.evidence = sx->evidence;
    ne.code_example = sx->code_example;
    ne.id = sx->id;
    if (!add(std::move(ne), "speedup")) return false;
  }
  // UGC with the abstractor role (none in the full-context ablation: everything is shown anyway).
  if (cfg_.memory.mode == MemoryMode::FullContext) return true;
  traces.clear();
  agent::Abstractor abstractor(*deps_.backend, ctx);
  auto abstract = [&](const memory::MemoryItem& item) -> std::optional<memory::AbstractedRule> {
    agent::Experience x{item.id, item.rule, item.evidence, item.code_example.value_or(""),
                        item.pattern.value_or("")};
    agent::AbstractResult ar = abstractor.abstract(x);
    if (!ar.rule || ar.rule->text.empty()) return std::nullopt;
    memory::AbstractedRule r;
    r.rule = ar.rule->text;
    if (!ar.rule->example.empty()) r.code_example = ar.rule->example;
    return r;
  };
  const memory::MemoryStore before = mem;  // for the consolidation guard
  const std::vector<memory::HotRule> hot_before = mem.hot_context();
  memory::ConsolidationReport rep = mem.consolidate(abstract);
  for (const auto& t : traces)
    if (!out(LlmCall{episode, ep.task, 0, -1, agent::to_json(t)})) return false;
  if (!out(Consolidation{episode, item_changes(rep.validated), item_changes(rep.promoted), item_changes(rep.demoted),
                         rep.abstraction_failed, rep.hot_tokens, mem.config().budget}))
    return false;
  // The guard: the resident context must not shrink by more than half while losing recently adopted items;
  // if it did, the step is undone (the previous resident set is kept) and logged.
  std::vector<std::string> recent;
  for (int e = std::max(0, episode - memory::kGuardEpisodes + 1); e <= episode; ++e)
    for (const auto& rd : state_.sage.episodes.at(static_cast<std::size_t>(e)).rounds)
      for (const auto* ids : {&rd.adopted_ids, &rd.rules_used}) recent.insert(recent.end(), ids->begin(), ids->end());
  const std::vector<memory::HotRule> hot_after = mem.hot_context();
  const std::vector<std::string> lost = memory::consolidation_guard_lost(hot_before, hot_after, recent);
  if (lost.empty()) return true;
  auto tokens = [](const std::vector<memory::HotRule>& v) {
    long long t = 0;
    for (const auto& h : v) t += h.tokens;
    return t;
  };
  mem = before;
  return out(ConsolidationRollback{episode, tokens(hot_before), tokens(hot_after), lost});
}

}  // namespace sf::learn
