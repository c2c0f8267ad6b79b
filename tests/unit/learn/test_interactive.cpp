// Interactive rounds (core/learn/interactive, issue 18) against the loopback OpenAI-compatible server:
// propose, repair (diagnostics in the prompt; a proposal that fails verification), optimise (cost feedback,
// cycles and speedup), an instruction, request errors, the memory of a workspace (retrieval, adoption
// records), the session log (campaign event schema, appended across sessions, a campaign refused), and the
// builtin backend offline.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/agent/prompt_builder.hpp"
#include "core/bench/catalogue.hpp"
#include "core/learn/interactive.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/memory/memory_store.hpp"
#include "core/store/workspace.hpp"
#include "core/synth/provider.hpp"
#include "tests/support/loopback_server.hpp"
#include "tests/support/files.hpp"

// A named namespace: unity builds put this file in one translation unit with other tests.
namespace interactive_tests {

namespace fs = std::filesystem;
using namespace sf;

namespace {

const bench::Catalogue& catalogue() {
  static Diagnostics d;
  static auto cat = bench::Catalogue::load(bench::resource_dir(), d);
  return cat;
}

const step::TaskDoc& task() { return *catalogue().find("extra/exclusive_cumsum"); }

const char* kGood =
    "T1, T2 = step.Copy().apply(E0)\n"
    "T3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
    "T4 = step.Map(fn=fn_minus).apply((T3, T2))\n"
    "return T4\n";
const char* kUndefined = "T3 = step.Scan(fn=fn_add, b=1).apply(E0)\nreturn Z\n";
const char* kWrong = "Y = step.Accum(fn=fn_add, b=1).apply(E0)\nreturn Y\n";

std::string fenced(const std::string& impl, const std::string& extra = "") {
  std::string out = "```yaml\nimpl: |\n";
  std::istringstream ss(impl);
  for (std::string l; std::getline(ss, l);) out += "  " + l + "\n";
  return out + extra + "```\n";
}

std::string manual() {
  std::string err;
  return *agent::load_manual(bench::resource_dir(), agent::ManualMode::Cheatsheet, err);
}

struct Fixture {
  llm::testing::LoopbackServer server;
  std::unique_ptr<llm::ChatBackend> backend;
  llm::BackendConfig cfg;
  Fixture() {
    cfg.kind = llm::BackendKind::OpenAi;
    cfg.base_url = server.base_url();
    cfg.model = "test-model";
    cfg.timeout_s = 10;
    cfg.max_retries = 0;
    auto made = llm::make_backend(cfg);
    backend = std::move(made.backend);
  }
  learn::InteractiveOptions options() const {
    learn::InteractiveOptions o;
    o.model = "test-model";
    o.endpoint = cfg;
    return o;
  }
  std::string last_user_prompt() const {
    auto body = nlohmann::json::parse(server.seen().back().body);
    return body["messages"][1]["content"].get<std::string>();
  }
};

fs::path temp_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_interactive_" + name, false);
}

std::vector<nlohmann::json> events_of(const fs::path& dir) {
  std::vector<nlohmann::json> out;
  std::ifstream in(dir / "events.jsonl");
  for (std::string l; std::getline(in, l);) out.push_back(nlohmann::json::parse(l));
  return out;
}

// The offline backend (the built-in synthesizer).
std::unique_ptr<llm::ChatBackend> builtin_backend() {
  synth::register_builtin_provider();
  llm::BackendConfig cfg;
  cfg.kind = llm::BackendKind::Builtin;
  cfg.model = "builtin";
  return llm::make_backend(cfg).backend;
}

}  // namespace

TEST(Interactive, ProposeVerifiesAndLogsTheCampaignSchema) {
  Fixture f;
  f.server.answer_text = fenced(kGood);
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  const fs::path dir = temp_dir("propose");
  std::string err;
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  std::vector<std::string> live;
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", "use a Copy"}, llm::CancelToken{},
                 [&](const agent::TraceEvent& e) { live.push_back(e.role); });
  EXPECT_TRUE(r.pass) << r.error;
  EXPECT_EQ(r.impl, kGood);
  EXPECT_EQ(r.round, 0);
  ASSERT_TRUE(r.cycles && r.baseline_cycles && r.speedup);
  EXPECT_EQ(*r.cycles, *r.baseline_cycles);  // the reference program itself
  EXPECT_DOUBLE_EQ(*r.speedup, 1.0);
  EXPECT_EQ(live, (std::vector<std::string>{"proposer", "guardian", "verifier"}));
  const std::string prompt = f.last_user_prompt();
  EXPECT_NE(prompt.find("## Instruction"), std::string::npos);
  EXPECT_NE(prompt.find("use a Copy"), std::string::npos);
  EXPECT_EQ(prompt.find("## Previous attempt"), std::string::npos);  // from scratch

  auto ev = events_of(dir);
  std::vector<std::string> types;
  for (const auto& e : ev) types.push_back(e["type"]);
  EXPECT_EQ(types, (std::vector<std::string>{"campaign_started", "episode_started", "llm_call", "llm_call", "llm_call",
                                             "verdict", "interactive_round", "episode_finished"}));
  for (std::size_t i = 0; i < ev.size(); ++i) {
    std::string e2;
    EXPECT_TRUE(learn::event_from_json(ev[i], e2)) << e2;
    EXPECT_EQ(ev[i]["seq"], static_cast<int>(i));
  }
  EXPECT_EQ(ev[5]["pass"], true);
  EXPECT_EQ(ev[5]["cycles"], *r.cycles);
  EXPECT_EQ(ev[6]["action"], "propose");
  EXPECT_EQ(ev[6]["instruction"], "use a Copy");
  ASSERT_TRUE(s.record_decision(r.round, task().id, "accepted", err)) << err;
  EXPECT_EQ(events_of(dir).back()["decision"], "accepted");

  // A second session on the same folder appends and continues the rounds; a campaign folder is refused.
  learn::InteractiveSession s2(*f.backend, nullptr, manual(), f.options());
  ASSERT_TRUE(s2.open_session_log(dir, err)) << err;
  EXPECT_EQ(s2.rounds(), 1);
  auto r2 = s2.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_EQ(r2.round, 1);
  ev = events_of(dir);
  EXPECT_EQ(ev.back()["episode"], 1);
  EXPECT_EQ(ev.back()["seq"], static_cast<int>(ev.size() - 1));
  const fs::path camp = temp_dir("campaign");
  ASSERT_TRUE(store::Workspace::create(camp, {{"mode", "sage"}}, err)) << err;
  learn::InteractiveSession s3(*f.backend, nullptr, manual(), f.options());
  EXPECT_FALSE(s3.open_session_log(camp, err));
  EXPECT_NE(err.find("campaign workspace"), std::string::npos) << err;
  fs::remove_all(dir);
  fs::remove_all(camp);
}

TEST(Interactive, RepairSendsDiagnosticsAndAFailingProposalIsReported) {
  Fixture f;
  f.server.answer_text = fenced(kWrong);
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  auto r = s.run(task(), {learn::InteractiveAction::Repair, kUndefined, ""}, llm::CancelToken{});
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.error_kind.empty()) << r.error;
  ASSERT_TRUE(r.report);
  EXPECT_FALSE(r.report->code.empty());
  EXPECT_EQ(r.impl, kWrong);
  EXPECT_FALSE(r.cycles);
  EXPECT_NE(r.input_feedback.find("N-UNDEF"), std::string::npos) << r.input_feedback;
  const std::string prompt = f.last_user_prompt();
  EXPECT_NE(prompt.find("failed verification"), std::string::npos);
  EXPECT_NE(prompt.find("return Z"), std::string::npos);
  EXPECT_NE(prompt.find("N-UNDEF"), std::string::npos);

  // The guardian's change is part of the result: a reused E0 gets its Copy.
  f.server.answer_text =
      fenced("C = step.Scan(fn=fn_add, b=1).apply(E0)\nY = step.Map(fn=fn_minus).apply((C, E0))\nreturn Y\n");
  r = s.run(task(), {learn::InteractiveAction::Repair, kUndefined, ""}, llm::CancelToken{});
  EXPECT_TRUE(r.pass) << r.error;
  ASSERT_TRUE(r.guard);
  EXPECT_EQ(r.guard->action, "rewrite");
  EXPECT_FALSE(r.guard->diff.empty());
  EXPECT_NE(r.proposal, r.impl);
}

TEST(Interactive, OptimiseSendsCostFeedbackAndRequestErrorsAreClear) {
  Fixture f;
  f.server.answer_text = fenced(kGood);
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  auto r = s.run(task(), {learn::InteractiveAction::Optimise, kGood, ""}, llm::CancelToken{});
  EXPECT_TRUE(r.pass) << r.error;
  EXPECT_NE(r.input_feedback.find("cycles"), std::string::npos) << r.input_feedback;
  const std::string prompt = f.last_user_prompt();
  EXPECT_NE(prompt.find("Make it faster"), std::string::npos);
  EXPECT_NE(prompt.find("Performance:"), std::string::npos);
  const int hits = f.server.hits();

  auto bad = s.run(task(), {learn::InteractiveAction::Optimise, kUndefined, ""}, llm::CancelToken{});
  EXPECT_EQ(bad.error_kind, "request");
  EXPECT_NE(bad.error.find("does not verify"), std::string::npos) << bad.error;
  bad = s.run(task(), {learn::InteractiveAction::Repair, "  \n", ""}, llm::CancelToken{});
  EXPECT_EQ(bad.error_kind, "request");
  bad = s.run(task(), {learn::InteractiveAction::Repair, kGood, ""}, llm::CancelToken{});
  EXPECT_EQ(bad.error_kind, "request");
  EXPECT_NE(bad.error.find("nothing to repair"), std::string::npos);
  EXPECT_EQ(f.server.hits(), hits);  // no model call for a bad request
}

TEST(Interactive, CancelledBeforeTheAnswerLogsNothing) {
  Fixture f;
  f.server.answer_text = fenced(kGood);
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  const fs::path dir = temp_dir("cancel");
  std::string err;
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  llm::CancelToken cancel;
  cancel.cancel();
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, cancel);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(events_of(dir).size(), 1u);  // campaign_started only
  EXPECT_EQ(s.rounds(), 0);
  fs::remove_all(dir);
}

TEST(Interactive, AnEndpointFailureIsReportedNotAVerdict) {
  Fixture f;
  f.cfg.key_env = "SF_INTERACTIVE_TEST_KEY";
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  const fs::path dir = temp_dir("endpoint");
  std::string err;
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  f.server.script({llm::testing::Mode::Unauthorized});
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_EQ(r.error_kind, "endpoint");
  EXPECT_NE(r.error.find("authentication failed (HTTP 401)"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("check SF_INTERACTIVE_TEST_KEY"), std::string::npos) << r.error;
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(events_of(dir).size(), 1u);  // nothing logged: not a round
  EXPECT_EQ(s.rounds(), 0);

  // An answer cut at max_tokens is the model's: a `truncated` verdict, logged, with where it was cut.
  f.server.finish_reason = "length";
  f.server.answer_text = fenced(kGood);
  r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_EQ(r.error_kind, "truncated");
  EXPECT_NE(r.error.find("cut at the token limit (max_tokens = 4096, 30 output tokens)"), std::string::npos)
      << r.error;
  EXPECT_TRUE(r.impl.empty());  // never verified, whatever the fragment parses to
  bool verdict = false;
  for (const auto& e : events_of(dir))
    if (e["type"] == "verdict") {
      verdict = true;
      EXPECT_EQ(e["code"], "truncated");
    }
  EXPECT_TRUE(verdict);
  EXPECT_EQ(s.rounds(), 1);
  fs::remove_all(dir);
}

TEST(Interactive, WorkspaceMemoryIsRetrievedAndAdoptionRecorded) {
  Fixture f;
  memory::MemoryStore mem;
  memory::NewExperience e;
  e.rule = "An exclusive prefix sum along each row is an inclusive Scan minus the input; Copy the input first.";
  e.evidence = "exclusive cumsum solved";
  e.id = "mem-cumsum";
  ASSERT_TRUE(mem.add_experience(e).ok());
  const fs::path ws = temp_dir("memory");
  fs::create_directories(ws);
  std::ofstream(ws / "memory.json") << mem.to_json().dump();
  f.server.answer_text =
      fenced(kGood, "adoption:\n  - id: mem-cumsum\n    adopted: yes\n    rationale: scan minus input\n");
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  std::string err;
  ASSERT_TRUE(s.use_workspace_memory(ws, err)) << err;
  EXPECT_FALSE(s.use_workspace_memory(ws / "nope", err));
  const fs::path dir = temp_dir("memory_session");
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_TRUE(r.pass) << r.error;
  ASSERT_EQ(r.retrieved.size(), 1u);
  EXPECT_EQ(r.retrieved[0].id, "mem-cumsum");
  ASSERT_EQ(r.adoption.count("mem-cumsum"), 1u);
  EXPECT_EQ(r.adoption.at("mem-cumsum").rationale, "scan minus input");
  EXPECT_NE(f.last_user_prompt().find("mem-cumsum"), std::string::npos);
  bool recorded = false;
  for (const auto& ev : events_of(dir))
    if (ev["type"] == "adoption_record") recorded = ev["item"] == "mem-cumsum" && ev["adopted"] == true;
  EXPECT_TRUE(recorded);
  fs::remove_all(dir);
  fs::remove_all(ws);
}

TEST(Interactive, BuiltinBackendOffline) {
  auto backend = builtin_backend();
  ASSERT_TRUE(backend);
  learn::InteractiveOptions o;
  o.model = "builtin";
  learn::InteractiveSession s(*backend, nullptr, manual(), o);
  auto r = s.run(task(), {learn::InteractiveAction::Repair, kUndefined, ""}, llm::CancelToken{});
  EXPECT_TRUE(r.pass) << r.error_kind << ": " << r.error;
  EXPECT_FALSE(r.impl.empty());
}

TEST(Interactive, BuiltinWithoutProgramIsNoProgramNotAParseFailure) {
  // The shared round parts give the built-in synthesizer's "nothing within its budget" its own verdict.
  llm::BuiltinBackend b([](const llm::ChatRequest&, const llm::CancelToken&) {
    llm::ChatResponse resp;
    resp.text = "The built-in synthesizer found no program within its budget.\n";
    resp.finish_reason = llm::kFinishNoProgram;
    return llm::ChatResult::success(resp);
  });
  learn::InteractiveOptions o;
  o.model = "builtin";
  learn::InteractiveSession s(b, nullptr, manual(), o);
  const fs::path dir = temp_dir("no_program");
  std::string err;
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.error_kind, "search");
  nlohmann::json verdict;
  for (const auto& ev : events_of(dir))
    if (ev["type"] == "verdict") verdict = ev;
  EXPECT_EQ(verdict.value("stage", ""), "search");
  EXPECT_EQ(verdict.value("code", ""), "no-program");
  fs::remove_all(dir);

  // A model's answer without a program stays a parse failure.
  Fixture f;
  f.server.answer_text = "Sorry, I cannot.";
  learn::InteractiveSession s2(*f.backend, nullptr, manual(), f.options());
  auto r2 = s2.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{});
  EXPECT_EQ(r2.error_kind, "parse");
  EXPECT_FALSE(r2.pass);
}

TEST(Interactive, StreamedRoundAndACancelledStream) {
  Fixture f;
  f.server.answer_text = fenced(kGood);
  f.server.stream_pieces = 5;
  learn::InteractiveSession s(*f.backend, nullptr, manual(), f.options());
  std::string streamed;
  bool done = false;
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{}, {},
                 [&](const llm::StreamDelta& d) {
                   streamed += d.text;
                   done = done || d.done;
                 });
  EXPECT_TRUE(r.pass) << r.error;
  EXPECT_EQ(streamed, f.server.answer_text);
  EXPECT_TRUE(done);

  // Cancel as soon as the first piece shows: the round ends cancelled, nothing is verified or logged.
  const fs::path dir = temp_dir("stream_cancel");
  std::string err;
  ASSERT_TRUE(s.open_session_log(dir, err)) << err;
  f.server.stream_gap_ms = 5000;
  llm::CancelToken cancel;
  int pieces = 0;
  auto c = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, cancel, {}, [&](const llm::StreamDelta& d) {
    if (!d.text.empty()) ++pieces;
    cancel.cancel();
  });
  EXPECT_TRUE(c.cancelled);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(pieces, 1);
  EXPECT_EQ(events_of(dir).size(), 1u);
  fs::remove_all(dir);
}

TEST(Interactive, BuiltinReportsSearchProgress) {
  auto backend = builtin_backend();
  ASSERT_TRUE(backend);
  learn::InteractiveOptions o;
  o.model = "builtin";
  learn::InteractiveSession s(*backend, nullptr, manual(), o);
  std::vector<std::string> progress;
  auto r = s.run(task(), {learn::InteractiveAction::Propose, "", ""}, llm::CancelToken{}, {},
                 [&](const llm::StreamDelta& d) {
                   if (!d.progress.empty()) progress.push_back(d.progress);
                 });
  EXPECT_TRUE(r.pass) << r.error;
  ASSERT_EQ(progress.size(), 2u);
  EXPECT_NE(progress[0].find("searching programs for extra/exclusive_cumsum"), std::string::npos) << progress[0];
  EXPECT_NE(progress[1].find("found a program"), std::string::npos) << progress[1];
}

}  // namespace interactive_tests
