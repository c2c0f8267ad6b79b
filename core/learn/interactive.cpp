#include "core/learn/interactive.hpp"

#include "core/bench/catalogue.hpp"
#include "core/cost/chip.hpp"
#include "core/learn/config.hpp"
#include "core/learn/engine.hpp"
#include "core/learn/round_parts.hpp"
#include "core/store/workspace.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

namespace sf::learn {

std::string_view action_name(InteractiveAction a) {
  switch (a) {
    case InteractiveAction::Propose: return "propose";
    case InteractiveAction::Repair: return "repair";
    case InteractiveAction::Optimise: return "optimise";
  }
  return "propose";
}

std::optional<InteractiveAction> parse_action(std::string_view s) {
  if (s == "propose") return InteractiveAction::Propose;
  if (s == "repair") return InteractiveAction::Repair;
  if (s == "optimise" || s == "optimize") return InteractiveAction::Optimise;
  return std::nullopt;
}

InteractiveSession::InteractiveSession(llm::ChatBackend& backend, const llm::PriceTable* prices,
                                       std::string manual_text, InteractiveOptions opt)
    : backend_(backend), prices_(prices), manual_(std::move(manual_text)), opt_(std::move(opt)), verifier_(opt_.verify) {
  std::string err;
  std::optional<cost::ChipProfile> chip;
  if (opt_.chip.empty() || opt_.chip == "default") chip = cost::default_chip();
  else chip = cost::find_chip(opt_.chip, bench::resource_dir(), err);
  cost_ = std::make_unique<cost::CostModel>(chip ? *chip : cost::default_chip());
  baselines_ = std::make_unique<cost::Baselines>(*cost_, bench::resource_dir() + "/solutions");
}

InteractiveSession::~InteractiveSession() = default;

bool InteractiveSession::use_workspace_memory(const std::filesystem::path& dir, std::string& error) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::is_directory(dir, ec) ? dir / "memory.json" : dir;
  if (!std::filesystem::exists(file, ec)) {
    error = file.string() + ": no such file (a sage campaign writes memory.json after its first episode)";
    return false;
  }
  // The workspace's own memory parameters (k, ranking, ...) when its campaign.json names them.
  memory::MemoryConfig mc;
  std::ifstream cf(file.parent_path() / "campaign.json");
  if (cf) {
    auto j = nlohmann::json::parse(cf, nullptr, false);
    if (j.is_object() && j.contains("config") && j["config"].is_object() && j["config"].contains("memory")) {
      std::string merr;
      if (auto m = sage_memory_from_json(j["config"]["memory"], merr)) mc = m->params;
    }
  }
  auto o = memory::load_memory_file(file.string(), mc);
  if (!o.ok()) {
    error = file.string() + ": " + (o.error ? o.error->message : "cannot load");
    return false;
  }
  set_memory(std::move(*o.value));
  return true;
}

void InteractiveSession::set_memory(memory::MemoryStore mem) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_ = std::make_unique<memory::MemoryStore>(std::move(mem));
}

bool InteractiveSession::open_session_log(const std::filesystem::path& dir, std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  std::unique_ptr<store::Workspace> ws;
  if (std::filesystem::exists(dir / "campaign.json", ec)) {
    ws = store::Workspace::open(dir, error);
    if (!ws) return false;
    if (!ws->config().is_object() || ws->config().value("mode", "") != kInteractiveMode) {
      error = dir.string() + " is a campaign workspace, not an interactive session (use another folder)";
      return false;
    }
    next_seq_ = static_cast<std::int64_t>(ws->loaded_events().size());
    next_round_ = 0;
    for (const auto& e : ws->loaded_events())
      if (e.is_object() && e.value("type", "") == "interactive_round" && e.contains("round") &&
          e["round"].is_number_integer())
        next_round_ = std::max(next_round_, e["round"].get<int>() + 1);
    ws_ = std::move(ws);
    return true;
  }
  nlohmann::json cfg = opt_.session_config.is_object() ? opt_.session_config : nlohmann::json::object();
  cfg["mode"] = kInteractiveMode;
  if (!cfg.contains("model")) cfg["model"] = opt_.model;
  ws = store::Workspace::create(dir, cfg, error);
  if (!ws) return false;
  ws_ = std::move(ws);
  next_seq_ = 0;
  next_round_ = 0;
  return append_event(CampaignStarted{cfg, {}}, error) && ws_->sync(error);
}

std::optional<std::filesystem::path> InteractiveSession::session_dir() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ws_) return std::nullopt;
  return ws_->dir();
}

int InteractiveSession::rounds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_round_;
}

bool InteractiveSession::append_event(EventBody body, std::string& error) {
  if (!ws_) return true;
  Event e;
  e.seq = next_seq_++;
  e.t = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  e.body = std::move(body);
  std::int64_t used = e.seq;  // the log numbers it after any line another writer appended
  if (!ws_->append(to_json(e), error, &used)) return false;
  next_seq_ = std::max(next_seq_, used + 1);
  return true;
}

std::optional<std::int64_t> InteractiveSession::baseline(const step::TaskDoc& task) {
  try {
    return baselines_->cycles(task);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool InteractiveSession::record_decision(int round, const std::string& task, const std::string& decision,
                                         std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ws_) return true;
  return append_event(InteractiveDecision{round, task, decision}, error) &&
         ws_->sync(error);
}

InteractiveResult InteractiveSession::run(const step::TaskDoc& task, const InteractiveRequest& req,
                                          const llm::CancelToken& cancel, agent::TraceSink live,
                                          llm::StreamCallback on_delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto t0 = std::chrono::steady_clock::now();
  InteractiveResult r;
  r.round = next_round_;
  r.action = req.action;
  r.task = task.id;
  r.instruction = req.instruction.substr(0, kMaxInstructionChars);
  r.baseline_cycles = baseline(task);
  auto finish = [&]() -> InteractiveResult {
    r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  auto fail_request = [&](std::string msg) {
    r.error_kind = "request";
    r.error = std::move(msg);
    return finish();
  };

  // What the round starts from.
  agent::PromptInput in;
  in.manual_text = manual_;
  in.task_text = task.raw_text_without_impl;
  if (!r.instruction.empty()) in.instruction = r.instruction;
  if (req.action != InteractiveAction::Propose) {
    if (req.program.find_first_not_of(" \t\r\n") == std::string::npos)
      return fail_request("there is no program to " + std::string(action_name(req.action)));
    verify::Report before = verifier_.verify(task, req.program, {});
    if (req.action == InteractiveAction::Repair) {
      if (before.pass && r.instruction.empty())
        return fail_request("the program verifies: nothing to repair (use Optimise, or Ask with an instruction)");
      in.previous_attempt = req.program;
      r.input_feedback = before.pass ? std::string("(the program verifies)\n") : format_round_diagnostics(before.diags);
      in.previous_diagnostics = r.input_feedback;
    } else {
      if (!before.pass)
        return fail_request("the program does not verify (" +
                            (before.stage ? std::string(stage_name(*before.stage)) : std::string("?")) + " " +
                            before.code + "): repair it first");
      Diagnostics cd;
      std::optional<cost::CostReport> cr;
      try {
        cr = cost_->evaluate(task, req.program, {}, cd);
      } catch (const std::exception& ex) {
        return fail_request(std::string("the cost model cannot time the program: ") + ex.what());
      }
      if (!cr)
        return fail_request("the cost model cannot time the program" +
                            (cd.empty() ? std::string() : ": " + cd.front().message));
      in.previous_attempt = req.program;
      in.baseline_cycles = r.baseline_cycles;
      r.input_feedback = cost::feedback_text(*cr, r.baseline_cycles);
      in.performance_feedback = r.input_feedback;
    }
  }

  // Memory: retrieval by the task and what is fed back; resident rules.
  std::set<std::string> hot_ids;
  if (memory_) {
    r.retrieved = add_memory_context(*memory_, task.title + "\n" + task.description + "\n" + r.input_feedback + "\n" +
                                                   r.instruction,
                                     in, hot_ids);
    r.resident.assign(hot_ids.begin(), hot_ids.end());
  }

  agent::RoleContext ctx;
  ctx.model = opt_.model;
  ctx.max_tokens = opt_.max_tokens;
  ctx.prices = prices_;
  ctx.task_id = task.id;
  ctx.iteration = r.round;
  ctx.round = 0;
  ctx.cancel = cancel;
  ctx.on_delta = std::move(on_delta);
  ctx.sink = [&r, &live](const agent::TraceEvent& e) {
    r.traces.push_back(e);
    if (live) live(e);
  };
  agent::PromptOptions popt;
  popt.max_prompt_tokens = opt_.max_prompt_tokens;
  const std::uint64_t seed = sample_seed(opt_.seed, task.id, r.round, opt_.temperature, 0);
  auto is_cancelled = [&] {
    return cancel.cancelled() ||
           std::any_of(r.traces.begin(), r.traces.end(), [](const auto& t) { return t.error_kind == "cancelled"; });
  };
  AdoptedProposal ap =
      propose_with_adoption(backend_, ctx, popt, in, 0, opt_.temperature, seed, hot_ids, is_cancelled);
  r.response = ap.proposal.response;
  r.adoption = ap.resolved;
  auto interrupted = [&] {
    if (is_cancelled()) {
      r.cancelled = true;
      r.error_kind = "cancelled";
      r.error = "cancelled";
      return true;
    }
    if (auto d = endpoint_failure(opt_.endpoint, r.traces)) {  // not a verdict: the endpoint's, not the model's
      r.error_kind = "endpoint";
      r.error = d->message;
      return true;
    }
    return false;
  };
  if (interrupted()) return finish();
  Verdict v;
  v.iteration = r.round;
  v.task = task.id;
  v.temperature = opt_.temperature;
  v.seed = seed;
  if (ap.impl.empty()) {
    set_no_program_verdict(ap, r.traces, v);
    r.error_kind = ap.answered ? v.stage : v.code;  // "parse", "search", "truncated", or the LLM error kind
    r.error = v.error;
  } else {
    r.proposal = ap.impl;
    try {
      agent::Guardian guardian(&backend_, ctx, &verifier_);
      r.guard = guardian.guard(task, ap.impl, opt_.guardian, 0);
      if (interrupted()) return finish();
      r.impl = r.guard->impl;
      r.report = verifier_.verify(task, r.impl, {}, {}, r.guard->checked);
      r.pass = r.report->pass;
      v.pass = r.pass;
      v.stage = r.report->stage ? std::string(stage_name(*r.report->stage)) : "";
      v.code = r.report->code;
      v.canonical_key = r.report->canonical_key;
      v.program_length = r.report->program_length;
      v.impl = r.impl;
      if (r.pass) {
        Diagnostics cd;
        if (auto cr = cost_->evaluate(task, r.impl, {}, cd)) {
          r.cycles = v.cycles = cr->cycles;
          r.feasible = v.feasible = cr->feasible;
          r.speedup = v.speedup = cost::speedup(*cr, r.baseline_cycles);
        }
      }
      const std::string diags_text = format_round_diagnostics(r.report->diags);
      agent::TraceEvent ve = verifier_event(task.id, r.round, 0, opt_.model, r.impl, *r.report, diags_text);
      r.traces.push_back(ve);
      if (live) live(ve);
    } catch (const std::exception& ex) {
      r.pass = v.pass = false;
      r.error_kind = v.stage = v.code = "internal";
      r.error = v.error = ex.what();
    }
  }
  for (const auto& t : r.traces) add_trace_usage(r.usage, t);
  v.usage = r.usage;
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // The log: the same events as a sage episode of one round, plus the interactive record.
  std::string err;
  bool ok = append_event(EpisodeStarted{r.round, task.id, 1, true, std::string(action_name(req.action))}, err);
  for (const auto& t : r.traces) ok = ok && append_event(LlmCall{r.round, task.id, 0, 0, agent::to_json(t)}, err);
  for (const auto& c : r.retrieved)
    ok = ok && append_event(adoption_record(r.round, task.id, 0, c, ap.resolved, ap.reasked, req.program, r.impl), err);
  ok = ok && append_event(v, err);
  InteractiveRound rec;
  rec.round = r.round;
  rec.task = task.id;
  rec.action = std::string(action_name(req.action));
  rec.instruction = r.instruction;
  rec.program = req.program;
  rec.feedback = r.input_feedback;
  rec.proposal = r.proposal;
  rec.impl = r.impl;
  rec.pass = r.pass;
  rec.error = r.error;
  rec.elapsed_s = r.elapsed_s;
  if (r.guard) {
    rec.guardian_action = r.guard->action;
    rec.guardian_diff = r.guard->diff;
  }
  rec.cycles = r.cycles;
  rec.speedup = r.speedup;
  ok = ok && append_event(std::move(rec), err);
  ok = ok && append_event(EpisodeFinished{r.round, task.id, r.pass ? 1.0 : 0.0, 1, r.pass ? 0 : -1, r.pass}, err);
  if (ws_) ok = ok && ws_->sync(err);
  if (!ok && r.error.empty()) {
    r.error_kind = "io";
    r.error = "session log: " + err;
  }
  ++next_round_;
  return r;
}

}  // namespace sf::learn
