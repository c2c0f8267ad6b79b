#include "core/learn/round_parts.hpp"

#include "core/agent/response_parser.hpp"

#include <algorithm>

namespace sf::learn {

std::string format_round_diagnostics(const Diagnostics& ds) {
  std::string out;
  std::size_t n = 0;
  for (const auto& d : ds) {
    if (n++ >= kMaxDiagnosticsShown) {
      out += "(" + std::to_string(ds.size() - kMaxDiagnosticsShown) + " more diagnostics)\n";
      break;
    }
    out += format_diagnostic(d, "impl") + "\n";
  }
  return out;
}

std::vector<memory::Candidate> add_memory_context(const memory::MemoryStore& mem, const std::string& query,
                                                  agent::PromptInput& in, std::set<std::string>& hot_ids) {
  std::vector<memory::Candidate> cands = mem.retrieve(query);
  for (const auto& h : mem.hot_context()) {
    const memory::MemoryItem* it = mem.find(h.id);
    agent::ResidentRule rr;
    rr.id = h.id;
    rr.text = h.rule;
    // The pattern travels in the rule text as a `  pattern: A>B>C` line, the same line retrieved
    // experiences carry, so the builtin synthesizer reads both the same way.
    if (it && it->pattern && !it->pattern->empty()) rr.text += "\n  pattern: " + *it->pattern;
    rr.example = h.code_example.value_or("");
    in.rules.push_back(std::move(rr));
    hot_ids.insert(h.id);
  }
  add_experiences(mem, cands, in);
  return cands;
}

void add_experiences(const memory::MemoryStore& mem, const std::vector<memory::Candidate>& cands,
                     agent::PromptInput& in) {
  for (const auto& c : cands) {
    const memory::MemoryItem* it = mem.find(c.id);
    if (!it) continue;
    in.experiences.push_back({c.id, it->rule, it->evidence, it->code_example.value_or(""), it->pattern.value_or("")});
  }
}

AdoptedProposal propose_with_adoption(llm::ChatBackend& backend, const agent::RoleContext& ctx,
                                      const agent::PromptOptions& popt, const agent::PromptInput& in, int round,
                                      double temperature, std::uint64_t seed, const std::set<std::string>& hot_ids,
                                      const std::function<bool()>& cancelled) {
  AdoptedProposal out;
  const std::vector<std::string> ids = in.experience_ids();
  agent::Proposer proposer(backend, ctx, popt);
  out.proposal = proposer.propose(in, round, temperature, seed);
  if (cancelled && cancelled()) return out;
  auto take = [&](const agent::ParsedResponse& pr) {
    for (const auto& a : pr.adoption)
      if (a.adopted && std::find(ids.begin(), ids.end(), a.id) != ids.end() && !out.resolved.count(a.id))
        out.resolved[a.id] = a;
  };
  const agent::Proposal& p = out.proposal;
  out.answered = p.error.empty();
  if (!out.answered) return out;
  // Cut at max_tokens: no program (p.fail_* says where it was cut), no adoption states, no re-ask.
  if (agent::answer_truncated(p.finish_reason)) return out;
  take(p.parsed);
  std::vector<std::string> missing, unknown;
  for (const auto& id : ids)
    if (!out.resolved.count(id)) missing.push_back(id);
  for (const auto& id : p.parsed.unknown_ids)
    if (!hot_ids.count(id)) unknown.push_back(id);
  out.impl = p.impl;
  if (missing.empty() && unknown.empty()) return out;
  // The adoption protocol: exactly one re-ask; evaluation waits for it.
  std::string ask = "Your answer did not resolve every retrieved experience.";
  if (!missing.empty()) {
    ask += " Missing or unreadable adoption state for:";
    for (const auto& id : missing) ask += " " + id;
    ask += ".";
  }
  if (!unknown.empty()) {
    ask += " Unknown ids (not retrieved):";
    for (const auto& id : unknown) ask += " " + id;
    ask += ".";
  }
  ask +=
      " Answer again in the same format: the complete ```yaml block with `impl: |` and an `adoption:` "
      "list "
      "with exactly one entry per retrieved id (";
  for (std::size_t i = 0; i < ids.size(); ++i) ask += (i ? ", " : "") + ids[i];
  ask += "), each `adopted: yes` or `no` with a one-line rationale.";
  auto msgs = p.prompt.messages;
  msgs.push_back({"assistant", p.response});
  msgs.push_back({"user", ask});
  // call_role does not emit; the completed event goes to ctx.sink below.
  agent::TraceEvent ev;
  auto rr = agent::call_role(backend, ctx, "proposer", msgs, p.prompt.cache_prefix, temperature, seed, round, ev,
                             p.prompt.cache_user_prefix);
  if (rr.ok() && !agent::answer_truncated(rr.response->finish_reason)) {  // a cut re-ask answer adds nothing
    agent::ParsedResponse pr = agent::parse_response(rr.response->text, ids);
    if (pr.impl) {
      out.impl = *pr.impl;
      ev.impl = out.impl;
    }
    ev.adoption = pr.adoption;
    if (pr.has_rules_used) ev.rules_used = pr.rules_used;
    ev.diagnostics = pr.diagnostics;
    std::map<std::string, agent::AdoptionEntry> before = out.resolved;
    out.resolved.clear();
    take(pr);  // the re-ask answer is the agent's last word; earlier resolutions fill its gaps
    for (auto& [id, a] : before) out.resolved.emplace(id, a);
  }
  if (ctx.sink) ctx.sink(ev);
  for (const auto& id : missing) out.reasked.insert(id);
  return out;
}

void set_no_program_verdict(const AdoptedProposal& ap, const std::vector<agent::TraceEvent>& traces, Verdict& v) {
  const agent::Proposal& p = ap.proposal;
  if (!ap.answered) {
    const agent::TraceEvent* pe = traces.empty() ? nullptr : &traces.front();
    v.stage = "llm";
    v.code = pe && !pe->error_kind.empty() ? pe->error_kind : "llm";
    v.error = p.error;
  } else {  // ap.impl is the first answer's program unless the re-ask gave one, so fail_* is set
    v.stage = p.fail_stage;
    v.code = p.fail_code;
    v.error = p.fail_message;
  }
}

std::optional<llm::FailureDiagnosis> endpoint_failure(const llm::BackendConfig& backend,
                                                      const std::vector<agent::TraceEvent>& traces) {
  for (const auto& t : traces) {
    if (t.error_kind.empty() || t.error_kind == "cancelled") continue;
    llm::LlmError e{t.error_kind, t.error_http_status, t.error_message, t.error_attempts};
    llm::FailureDiagnosis d = llm::diagnose_failure(backend, t.model, e);
    if (d.infrastructure) return d;
  }
  return std::nullopt;
}

agent::TraceEvent verifier_event(const std::string& task, int iteration, int round, const std::string& model,
                                 const std::string& impl, const verify::Report& rep, const std::string& diags_text) {
  agent::TraceEvent ve;
  ve.role = "verifier";
  ve.task_id = task;
  ve.iteration = iteration;
  ve.round = round;
  ve.sample_index = round;
  ve.model = model;
  ve.impl = impl;
  ve.response = diags_text;
  ve.diagnostics = rep.diags.size() > kMaxDiagnosticsShown
                       ? Diagnostics(rep.diags.begin(), rep.diags.begin() + kMaxDiagnosticsShown)
                       : rep.diags;
  ve.pass = rep.pass;
  ve.stage = rep.stage ? std::string(stage_name(*rep.stage)) : "";
  ve.code = rep.code;
  return ve;
}

store::AdoptionEntry adoption_record(int episode, const std::string& task, int round, const memory::Candidate& c,
                                     const std::map<std::string, agent::AdoptionEntry>& resolved,
                                     const std::set<std::string>& reasked, const std::string& before,
                                     const std::string& after) {
  auto it = resolved.find(c.id);
  const bool is_resolved = it != resolved.end();
  const bool adopted = is_resolved && it->second.adopted && *it->second.adopted;
  const std::string rationale = is_resolved ? it->second.rationale : "unresolved";
  store::AdoptionEntry a;
  a.episode = episode;
  a.task = task;
  a.round = round;
  a.item = c.id;
  a.rank = c.rank;
  a.relevance_rank = c.relevance_rank;
  a.pool_rank = c.pool_rank;
  a.relevance = c.relevance;
  a.score = c.score;
  a.utility = c.utility;
  a.adopted = adopted;
  a.rationale = rationale;
  a.reasked = reasked.count(c.id) > 0;
  a.resolved = is_resolved;
  a.before = before;
  a.after = after;
  return a;
}

}  // namespace sf::learn
