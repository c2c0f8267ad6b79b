// ask: one proposer -> guardian -> verifier round trip against a chat backend; prints the trace and the verdict.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.hpp"
#include "app/cli/cmd_ask_v2.hpp"
#include "app/cli/commands.hpp"
#include "core/agent/round_trip.hpp"
#include "core/common/speedup.hpp"
#include "core/common/text_diff.hpp"
#include "core/learn/interactive.hpp"
#include "core/verify/program_file.hpp"
#include "core/bench/catalogue.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/price_table.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"

namespace sf::cli {

namespace {

struct AskOpts {
  std::string backend = "openai";
  std::string model;
  std::string base_url;
  std::string key_env;
  std::string task;
  std::string cache;
  std::string guardian = "rewrite";
  std::string manual = "auto";
  double timeout = 120.0;
  double temperature = 0.0;
  int max_tokens = 4096;
  int max_prompt_tokens = 0;
  std::int64_t seed = -1;
  bool json = false;
  // Interactive rounds (core/learn/interactive): the program in FILE, repaired / optimised / with an instruction.
  std::string from;
  bool repair = false, optimise = false;
  std::string instruction;
  std::string workspace;  // memory of a campaign workspace (read-only)
  std::string session;    // session workspace the round's events are appended to
  std::string chip = "default";
  bool stream = false;
  std::string replay_kind = "openai";  // replay: the backend that recorded the cache
  bool interactive() const {
    return !from.empty() || repair || optimise || !instruction.empty() || !workspace.empty() || !session.empty() ||
           stream;
  }
};

void print_event(const agent::TraceEvent& e) {
  std::cout << "== " << e.role;
  if (!e.prompt.empty()) {
    std::size_t chars = agent::prompt_chars(e.prompt);
    std::cout << "  prompt: " << e.prompt.size() << " messages, " << chars << " chars (~"
              << agent::estimate_tokens(chars) << " tokens)";
  }
  std::cout << "\n";
  if (!e.error_kind.empty()) std::cout << "  error: " << e.error_kind << ": " << e.error_message << "\n";
  if (!e.response.empty()) std::cout << "  response:\n" << indented_head(e.response, 40);
  if (e.impl && e.role == "proposer") std::cout << "  impl:\n" << indented_head(*e.impl, 60);
  for (const auto& a : e.adoption)
    std::cout << "  adoption: " << a.id << " " << (a.adopted ? (*a.adopted ? "yes" : "no") : "?") << "  "
              << a.rationale << "\n";
  if (!e.guardian_action.empty()) std::cout << "  guardian: " << e.guardian_action << "\n";
  if (!e.guardian_diff.empty()) std::cout << "  diff:\n" << indented_head(e.guardian_diff, 60);
  if (!e.prompt.empty() && e.error_kind.empty()) {
    std::cout << "  usage: " << e.usage.input_tokens << " in (" << e.usage.cached_input_tokens << " cached), "
              << e.usage.output_tokens << " out";
    if (e.cost_usd) std::cout << ", cost $" << *e.cost_usd;
    else std::cout << ", cost unknown";
    std::cout << ", latency " << e.latency_s << " s" << (e.from_cache ? " (cache)" : "") << "\n";
  }
  for (const auto& d : e.diagnostics) std::cout << "  " << format_diagnostic(d, "impl") << " [" << d.code << "]\n";
}

// True when both impl texts parse to the same statements (names, keywords and order as written): the texts
// differ only in comments and layout. A diff of such a pair says nothing about the program.
bool same_statements(std::string_view a, std::string_view b) {
  Diagnostics ignored;
  auto pa = step::parse_impl(a, {}, ignored);
  auto pb = pa ? step::parse_impl(b, {}, ignored) : std::nullopt;
  return pa && pb && step::print_program(*pa) == step::print_program(*pb);
}

// The program of --from FILE: the impl of a task document or solution file (a top-level `impl:` key), else
// the whole file as a bare program. Empty with `error` when it cannot be read or belongs to another task.
std::optional<std::string> program_from(const std::string& path, const bench::Catalogue& cat,
                                        const step::TaskDoc& task, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read the file";
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  if (text.size() > 1024 * 1024) {
    error = path + ": the file is larger than 1 MiB";
    return std::nullopt;
  }
  const bool document = text.starts_with("impl:") || text.find("\nimpl:") != std::string::npos;
  if (!document) return text;
  Diagnostics ds;
  auto pf = verify::load_program_file(path, &cat, ds);
  if (!pf) {
    error = ds.empty() ? path + ": cannot load" : format_diagnostic(ds.front(), path);
    return std::nullopt;
  }
  if (pf->task.id != task.id) {
    error = path + " is a program for task '" + pf->task.id + "', not '" + task.id + "'";
    return std::nullopt;
  }
  return pf->impl;
}

// The speedup of a verified program over the reference as a sentence: faster only by the tie tolerance
// (sf::faster_than), else "no faster program" with the ratio.
std::string speedup_words(double speedup) {
  switch (classify_speedup(speedup)) {
    case SpeedupClass::Faster: return "speedup " + speedup_number(speedup, 2, true);
    case SpeedupClass::Tie:
      return "no faster program (a tie with the reference: " + speedup_number(speedup, 2, true) + ")";
    case SpeedupClass::Slower:
      return "no faster program (" + speedup_number(speedup, 2, true) + " the reference's speed)";
    case SpeedupClass::None: break;
  }
  return {};
}

// The output tokens of the last proposer call among `traces` (0 when none).
std::int64_t proposer_output_tokens(const std::vector<agent::TraceEvent>& traces) {
  for (auto it = traces.rbegin(); it != traces.rend(); ++it)
    if (it->role == "proposer") return it->usage.output_tokens;
  return 0;
}

int cmd_ask_interactive(const AskOpts& o, const llm::BackendConfig& cfg, llm::ChatBackend& backend,
                        const bench::Catalogue& cat, const step::TaskDoc& task, const std::string& manual,
                        const llm::PriceTable* prices, agent::GuardianMode gmode, const nlohmann::json& session_cfg) {
  if (o.repair && o.optimise) {
    std::cerr << "error: --repair and --optimise exclude each other\n";
    return 2;
  }
  learn::InteractiveRequest req;
  req.action = o.repair     ? learn::InteractiveAction::Repair
               : o.optimise ? learn::InteractiveAction::Optimise
                            : learn::InteractiveAction::Propose;
  req.instruction = o.instruction;
  if (!o.from.empty()) {
    std::string err;
    auto prog = program_from(o.from, cat, task, err);
    if (!prog) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
    req.program = *prog;
  } else if (req.action != learn::InteractiveAction::Propose) {
    std::cerr << "error: --repair and --optimise need --from FILE (the program)\n";
    return 2;
  }
  learn::InteractiveOptions io;
  io.model = o.model;
  io.endpoint = cfg;
  io.max_tokens = o.max_tokens;
  io.max_prompt_tokens = o.max_prompt_tokens;
  io.temperature = o.temperature;
  if (o.seed >= 0) io.seed = static_cast<std::uint64_t>(o.seed);
  io.guardian = gmode;
  io.chip = o.chip;
  io.session_config = session_cfg;
  learn::InteractiveSession session(backend, prices, manual, io);
  std::string err;
  if (!o.workspace.empty() && !session.use_workspace_memory(o.workspace, err)) {
    std::cerr << "error: --workspace: " << err << "\n";
    return 2;
  }
  if (!o.session.empty() && !session.open_session_log(o.session, err)) {
    std::cerr << "error: --session: " << err << "\n";
    return 2;
  }
  agent::TraceSink live;
  if (o.json) live = [](const agent::TraceEvent& e) { std::cout << agent::to_json(e).dump() << "\n" << std::flush; };
  else if (o.stream)
    live = [](agent::TraceEvent e) {  // the answer was already shown as it arrived
      e.response.clear();
      print_event(e);
    };
  else live = print_event;
  llm::StreamCallback on_delta;
  if (o.stream) on_delta = stream_printer(o.json);
  llm::CancelToken cancel;
  learn::InteractiveResult r = session.run(task, req, cancel, live, on_delta);
  if (r.error_kind == "request") {
    std::cerr << "error: " << r.error << "\n";
    return 2;
  }
  if (r.error_kind == "endpoint") {  // no verdict: the endpoint failed, not the model
    std::cerr << "error: " << r.error << "\n";
    return 3;
  }
  // An answer cut at max_tokens: say so, with the limit and the option that raises it (not "no impl").
  const bool truncated = r.error_kind == "truncated";
  const std::string error = truncated ? agent::truncation_notice(o.max_tokens, proposer_output_tokens(r.traces),
                                                                 "--max-tokens")
                                      : r.error;
  if (o.json) {
    nlohmann::json v = {{"type", "verdict"},   {"task", task.id},     {"action", learn::action_name(r.action)},
                        {"round", r.round},    {"pass", r.pass},      {"error", error},
                        {"impl", r.impl},      {"proposal", r.proposal}};
    if (truncated) {
      v["truncated"] = true;
      v["max_tokens"] = o.max_tokens;
    }
    if (r.report) v["report"] = report_json(*r.report);
    if (r.cycles) v["cycles"] = *r.cycles;
    if (r.speedup) {
      v["speedup"] = *r.speedup;
      v["faster"] = faster_than(*r.speedup);  // by the tie tolerance
    }
    std::cout << v.dump() << "\n";
    return r.pass ? 0 : 1;
  }
  std::cout << "verdict: " << task.id << ": ";
  if (r.pass) std::cout << "pass (reward 1)";
  else if (r.report)
    std::cout << "fail (reward 0) at " << (r.report->stage ? std::string(stage_name(*r.report->stage)) : "?") << " ["
              << r.report->code << "]";
  else std::cout << "fail (reward 0): " << (truncated ? "truncated: " : "") << error;
  if (r.cycles) std::cout << ", " << *r.cycles << " cycles";
  if (r.speedup) std::cout << ", " << speedup_words(*r.speedup);
  std::cout << "\n";
  if (!r.impl.empty()) {
    if (!req.program.empty()) {
      const std::string d = text::unified_diff(req.program, r.impl, "program", "proposal");
      std::cout << "== diff against " << o.from << "\n"
                << (d.empty()                               ? std::string("(identical)\n")
                    : same_statements(req.program, r.impl) ? std::string("(the same statements: only comments and "
                                                                          "layout differ)\n")
                                                            : d);
    }
    std::cout << "== proposal (" << (r.pass ? "verified" : "does NOT verify") << ")\n" << r.impl;
    if (r.impl.back() != '\n') std::cout << "\n";
  }
  if (auto dir = session.session_dir()) std::cout << "session: " << dir->string() << " (round " << r.round << ")\n";
  return r.pass ? 0 : 1;
}

// A STeP-25 task: only an optimisation round of a correct program (cmd_ask_v2.hpp).
int cmd_ask_step2(const AskOpts& o, const llm::BackendConfig& cfg, llm::ChatBackend& backend,
                  const bench::Catalogue& cat, const step::TaskDoc& task, const std::string& res) {
  if (!o.optimise || o.from.empty() || o.repair || !o.instruction.empty() || !o.workspace.empty() ||
      !o.session.empty()) {
    std::cerr << "error: " << task.id << " is a STeP-25 task: ask works on it with --optimise --from FILE only "
              << "(a correct program to make faster; no --repair, --instruction, --workspace or --session)\n";
    return 2;
  }
  AskV2Options v;
  v.from = o.from;
  std::string err;
  auto prog = program_from(o.from, cat, task, err);
  if (!prog) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  v.program = *prog;
  v.chip = o.chip;
  v.temperature = o.temperature;
  v.max_tokens = o.max_tokens;
  if (o.seed >= 0) v.seed = static_cast<std::uint64_t>(o.seed);
  v.json = o.json;
  v.stream = o.stream;
  return cmd_ask_v2(v, cfg, backend, task, res);
}

int cmd_ask(const AskOpts& o) {
  auto kind = llm::parse_backend_kind(o.backend);
  if (!kind) {
    std::cerr << "error: unknown backend '" << o.backend << "' (openai, anthropic, builtin, replay)\n";
    return 2;
  }
  auto gmode = agent::parse_guardian_mode(o.guardian);
  if (!gmode) {
    std::cerr << "error: --guardian must be rewrite or llm\n";
    return 2;
  }
  agent::ManualMode mmode = o.manual == "full"         ? agent::ManualMode::Full
                            : o.manual == "cheatsheet" ? agent::ManualMode::Cheatsheet
                                                       : agent::ManualMode::Auto;
  if (o.model.empty() && *kind != llm::BackendKind::Builtin) {
    std::cerr << "error: --model is required for the " << o.backend << " backend\n";
    return 2;
  }
  llm::BackendConfig cfg;
  cfg.kind = *kind;
  if (cfg.kind == llm::BackendKind::Replay) {
    auto rk = llm::parse_backend_kind(o.replay_kind);
    if (!rk || *rk == llm::BackendKind::Replay) {
      std::cerr << "error: --replay-kind must be openai, anthropic or builtin\n";
      return 2;
    }
    cfg.replay_kind = *rk;
  }
  cfg.base_url = llm::default_base_url(cfg.kind == llm::BackendKind::Replay ? cfg.replay_kind : cfg.kind);
  if (!o.base_url.empty()) cfg.base_url = o.base_url;
  cfg.model = o.model.empty() ? std::string("builtin") : o.model;
  cfg.key_env = o.key_env;
  cfg.timeout_s = o.timeout;
  cfg.cache_dir = o.cache;
  if (cfg.kind == llm::BackendKind::Replay && o.cache.empty()) {
    std::cerr << "error: --backend replay needs --cache DIR (the recorded responses)\n";
    return 2;
  }
  if (cfg.kind == llm::BackendKind::Builtin && !llm::has_builtin_provider(cfg.builtin_provider)) {
    std::cerr << "error: the builtin backend has no provider '" << cfg.builtin_provider
              << "' registered (the offline synthesizer is not available in this build)\n";
    return 2;
  }
  if (auto problem = llm::validate(cfg); !problem.empty()) {
    std::cerr << "error: " << problem << "\n";
    return 2;
  }
  auto made = llm::make_backend(cfg);
  if (!made.backend) {
    std::cerr << "error: " << made.error << "\n";
    return 2;
  }

  Diagnostics cat_diags;
  std::string res = resources_dir();
  auto cat = bench::Catalogue::load_all(res, cat_diags);  // step-v1 and step-v2 tasks
  const step::TaskDoc* task = cat.find(o.task);
  if (!task) {
    std::cerr << "error: unknown task '" << o.task << "' (see stepforge-cli tasks list)\n";
    return 2;
  }
  if (task->is_v2()) return cmd_ask_step2(o, cfg, *made.backend, cat, *task, res);
  std::string merr;
  auto manual = agent::load_manual(res, mmode, merr);
  if (!manual) {
    std::cerr << "error: " << merr << "\n";
    return 2;
  }
  std::string perr;
  auto prices = llm::PriceTable::load(res + "/configs/prices.json", perr);
  if (o.interactive()) {
    nlohmann::json session_cfg = {{"backend", llm::backend_config_to_json(cfg)}, {"model", o.model}};
    return cmd_ask_interactive(o, cfg, *made.backend, cat, *task, *manual, prices ? &*prices : nullptr, *gmode,
                               session_cfg);
  }

  agent::RoleContext ctx;
  ctx.model = o.model;
  ctx.max_tokens = o.max_tokens;
  ctx.prices = prices ? &*prices : nullptr;
  ctx.task_id = task->id;
  if (o.json)
    ctx.sink = [](const agent::TraceEvent& e) { std::cout << agent::to_json(e).dump() << "\n" << std::flush; };
  else
    ctx.sink = print_event;

  agent::PromptInput in;
  in.manual_text = *manual;
  agent::RoundTripOptions opt;
  opt.temperature = o.temperature;
  if (o.seed >= 0) opt.seed = static_cast<std::uint64_t>(o.seed);
  opt.guardian = *gmode;
  opt.prompt.max_prompt_tokens = o.max_prompt_tokens;
  verify::Verifier verifier;
  auto r = agent::run_round_trip(*made.backend, *task, in, ctx, verifier, opt);

  // An answer cut at max_tokens: say so, with the limit and the option that raises it (not "no impl").
  const bool truncated = !r.pass && r.proposal.fail_stage == "truncated";
  if (truncated) r.error = agent::truncation_notice(o.max_tokens, r.proposal.usage.output_tokens, "--max-tokens");
  if (o.json) {
    nlohmann::json v = {{"type", "verdict"}, {"task", task->id}, {"pass", r.pass}, {"error", r.error}};
    if (truncated) {
      v["truncated"] = true;
      v["max_tokens"] = o.max_tokens;
    }
    if (r.report) v["report"] = report_json(*r.report);
    std::cout << v.dump() << "\n";
  } else {
    std::cout << "verdict: " << task->id << ": ";
    if (r.pass) std::cout << "pass (reward 1)\n";
    else if (r.report) std::cout << "fail (reward 0) at " << (r.report->stage ? std::string(stage_name(*r.report->stage)) : "?")
                                 << " [" << r.report->code << "]\n";
    else std::cout << "fail (reward 0): " << (truncated ? "truncated: " : "") << r.error << "\n";
  }
  return r.pass ? 0 : 1;
}

}  // namespace

void add_ask_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AskOpts>();
  auto* c = app.add_subcommand("ask", "one proposer + guardian + verifier round on a task; with --from: propose, repair (--repair) or optimise (--optimise) that program, printing the verified proposal (a STeP-25 task: --optimise only, judged before and after)");
  c->add_option("--backend", o->backend, "openai | anthropic | builtin | replay")->capture_default_str();
  c->add_option("--model", o->model, "model name (any name for builtin)");
  c->add_option("--base-url", o->base_url, "endpoint (default: the provider's)");
  c->add_option("--key-env", o->key_env, "name of the environment variable holding the API key (empty: no key)");
  c->add_option("--task", o->task, "task id, e.g. gemm_easy/batched_matvec")->required();
  c->add_option("--timeout", o->timeout, "seconds per HTTP attempt")->capture_default_str();
  c->add_option("--temperature", o->temperature, "sampling temperature")->capture_default_str();
  c->add_option("--max-tokens", o->max_tokens, "answer token limit")->capture_default_str();
  c->add_option("--max-prompt-tokens", o->max_prompt_tokens, "prompt budget (0 = unlimited)")->capture_default_str();
  c->add_option("--seed", o->seed, "sampling seed (sent when >= 0)");
  c->add_option("--guardian", o->guardian, "rewrite | llm")->capture_default_str();
  c->add_option("--manual", o->manual, "full | cheatsheet | auto")->capture_default_str();
  c->add_option("--cache", o->cache, "response cache directory (replay: the recorded cache)");
  c->add_flag("--json", o->json, "print the trace as JSON lines");
  c->add_option("--from", o->from, "the program to work on: a bare impl, a task document or a solution file");
  c->add_flag("--repair", o->repair, "repair the program of --from (sent with its verifier diagnostics)");
  c->add_flag("--optimise,--optimize", o->optimise, "make the correct program of --from faster (cost-model feedback)");
  c->add_option("--instruction", o->instruction, "a free-text instruction added to the round");
  c->add_option("--workspace", o->workspace, "use this campaign workspace's memory (retrieval, resident rules)");
  c->add_option("--session", o->session, "append the round's events to this session workspace (created if new)");
  c->add_flag("--stream", o->stream, "show the answer as it arrives (server-sent events; builtin: search progress)");
  c->add_option("--chip", o->chip, "cost-model chip profile for cycles and speedup (STeP-25: default = the task's chip)")->capture_default_str();
  c->add_option("--replay-kind", o->replay_kind, "replay: the backend that recorded the cache (openai | anthropic | builtin)")->capture_default_str();
  c->callback([o, &exit_code] { exit_code = cmd_ask(*o); });
}

}  // namespace sf::cli
