#include "core/agent/round_trip.hpp"

namespace sf::agent {

RoundTripResult run_round_trip(llm::ChatBackend& backend, const step::TaskDoc& task, PromptInput input,
                               RoleContext ctx, verify::Verifier& verifier, const RoundTripOptions& opt) {
  RoundTripResult res;
  if (input.task_text.empty()) input.task_text = task.raw_text_without_impl;
  if (ctx.task_id.empty()) ctx.task_id = task.id;
  TraceSink outer = ctx.sink;
  ctx.sink = [&res, outer](const TraceEvent& e) {
    res.events.push_back(e);
    if (outer) outer(e);
  };

  Proposer proposer(backend, ctx, opt.prompt);
  res.proposal = proposer.propose(input, opt.sample_index, opt.temperature, opt.seed);
  if (!res.proposal.ok) {
    res.error = !res.proposal.error.empty()        ? res.proposal.error
                : !res.proposal.fail_message.empty() ? res.proposal.fail_message  // e.g. cut at max_tokens
                                                     : "the answer contains no impl";
    return res;
  }
  std::string impl = res.proposal.impl;
  if (opt.use_guardian) {
    Guardian guardian(&backend, ctx, &verifier);
    res.guard = guardian.guard(task, impl, opt.guardian, opt.sample_index);
    impl = res.guard->impl;
  }
  res.report = verifier.verify(task, impl, {}, {}, res.guard ? res.guard->checked : nullptr);
  res.pass = res.report->pass;

  TraceEvent ev;
  ev.role = "verifier";
  ev.task_id = ctx.task_id;
  ev.iteration = ctx.iteration;
  ev.round = ctx.round;
  ev.sample_index = opt.sample_index;
  ev.impl = impl;
  ev.pass = res.report->pass;
  ev.diagnostics = res.report->diags;
  ev.stage = res.report->stage ? std::string(stage_name(*res.report->stage)) : "";
  ev.code = res.report->code;
  ev.latency_s = res.report->seconds;
  ctx.sink(ev);
  return res;
}

}  // namespace sf::agent
