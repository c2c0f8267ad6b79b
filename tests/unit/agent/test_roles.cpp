// Roles: proposer, guardian (gate, rewrite, LLM corrector with fallback), distiller / abstractor answer
// parsing, trace JSON, and a full round trip against a loopback OpenAI-compatible server.
#include "core/agent/distiller.hpp"
#include "core/agent/guardian.hpp"
#include "core/agent/round_trip.hpp"
#include "core/bench/catalogue.hpp"
#include "core/llm/backend_factory.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/step/task.hpp"
#include "tests/support/loopback_server.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <deque>
#include <mutex>

using namespace sf;
using namespace sf::agent;

namespace {

// A scripted chat backend (test double): answers in order, records requests.
class FakeBackend : public llm::ChatBackend {
 public:
  explicit FakeBackend(std::vector<std::string> answers) : answers_(answers.begin(), answers.end()) {}
  llm::ChatResult chat(const llm::ChatRequest& r, const llm::CancelToken&) override {
    std::lock_guard<std::mutex> lock(mu_);
    requests.push_back(r);
    if (answers_.empty()) return llm::ChatResult::failure("http", "no more answers", 500, 1);
    llm::ChatResponse resp;
    resp.text = answers_.front();
    answers_.pop_front();
    resp.usage = {1000, 200, 0};
    resp.latency_s = 0.25;
    return llm::ChatResult::success(resp);
  }
  std::string identity() const override { return "fake test"; }
  std::vector<llm::ChatRequest> requests;

 private:
  std::mutex mu_;
  std::deque<std::string> answers_;
};

const bench::Catalogue& cat() {
  static Diagnostics ds;
  static bench::Catalogue c = bench::Catalogue::load(bench::resource_dir(), ds);
  return c;
}

const step::TaskDoc& cumsum_task() {
  const auto* t = cat().find("extra/exclusive_cumsum");
  EXPECT_NE(t, nullptr);
  return *t;
}

// exclusive_cumsum with E0 consumed twice (the guardian's job).
const char* kReused =
    "T3 = step.Scan(fn=fn_add, b=1).apply(E0)\n"
    "T4 = step.Map(fn=fn_minus).apply((T3, E0))\n"
    "return T4\n";

// The reference solution (resources/solutions/extra/exclusive_cumsum.yaml).
std::string solution_impl(const std::string& file) {
  Diagnostics ds;
  auto any = step::load_any_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + file, ds);
  EXPECT_TRUE(any.solution) << file;
  return any.solution ? any.solution->impl : "";
}

std::string fenced(const std::string& impl, const std::string& extra = "") {
  return "Here is my program.\n```yaml\nimpl: |\n" + indent_lines(impl, 2) + "\n" + extra + "```\n";
}

}  // namespace

TEST(Guardian, GateLetsAffineProgramsThroughUnchanged) {
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Guardian g(nullptr, ctx);
  std::string impl = solution_impl("extra/exclusive_cumsum.yaml");
  auto r = g.guard(cumsum_task(), impl, GuardianMode::Rewrite);
  EXPECT_FALSE(r.gate_fired);
  EXPECT_EQ(r.action, "none");
  EXPECT_EQ(r.impl, impl);
  EXPECT_EQ(r.diff, "");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].role, "guardian");
  EXPECT_EQ(evs[0].pass, true);
}

TEST(Guardian, RewriteInsertsCopiesAndTheResultVerifies) {
  verify::Verifier v;
  EXPECT_FALSE(v.verify(cumsum_task(), kReused).pass);
  EXPECT_EQ(v.verify(cumsum_task(), kReused).code, "A-MULTI");
  Guardian g(nullptr, RoleContext{});
  auto r = g.guard(cumsum_task(), kReused, GuardianMode::Rewrite);
  EXPECT_TRUE(r.gate_fired);
  EXPECT_EQ(r.action, "rewrite");
  EXPECT_NE(r.impl.find("step.Copy().apply(E0)"), std::string::npos) << r.impl;
  EXPECT_NE(r.diff.find("+ "), std::string::npos);
  EXPECT_NE(r.diff.find("- T3 = step.Scan(fn=fn_add, b=1).apply(E0)"), std::string::npos) << r.diff;
  auto rep = v.verify(cumsum_task(), r.impl);
  EXPECT_TRUE(rep.pass) << r.impl << (rep.diags.empty() ? "" : rep.diags[0].message);
}

// Issue 15: the guardian's final static result goes to the verifier, so a sample is checked once (twice when
// the guardian changed the program: its input and its fix), and a campaign's verifier reuses the static result
// of a program text it has seen.
TEST(Guardian, HandsItsFinalCheckToTheVerifier) {
  verify::Verifier v;
  Guardian g(nullptr, RoleContext{}, &v);
  const std::string clean = solution_impl("extra/exclusive_cumsum.yaml");
  auto a = g.guard(cumsum_task(), clean, GuardianMode::Rewrite);
  ASSERT_TRUE(a.checked);
  EXPECT_EQ(v.static_checks(), 1);
  auto ra = v.verify(cumsum_task(), a.impl, {}, {}, a.checked);
  EXPECT_TRUE(ra.pass);
  EXPECT_EQ(v.static_checks(), 1);

  auto b = g.guard(cumsum_task(), kReused, GuardianMode::Rewrite);
  EXPECT_EQ(b.action, "rewrite");
  EXPECT_EQ(v.static_checks(), 3);  // the input (gate) and the rewritten program
  auto rb = v.verify(cumsum_task(), b.impl, {}, {}, b.checked);
  EXPECT_EQ(v.static_checks(), 3);
  EXPECT_TRUE(rb.pass);
  // The same verdict, key and diagnostics as a verification that checks by itself.
  verify::Verifier plain;
  auto pb = plain.verify(cumsum_task(), b.impl);
  EXPECT_EQ(rb.canonical_key, pb.canonical_key);
  EXPECT_EQ(rb.diags.size(), pb.diags.size());
  EXPECT_EQ(rb.sets.size(), pb.sets.size());
  EXPECT_EQ(v.static_cache_hits(), 0);  // caching is off unless asked (bench verify times everything)
}

TEST(Verifier, CampaignStaticCacheReusesAnIdenticalProgramText) {
  verify::VerifyOptions o;
  o.cache_static = true;
  verify::Verifier v(o);
  auto first = v.verify(cumsum_task(), kReused);
  auto again = v.verify(cumsum_task(), kReused);
  EXPECT_EQ(v.static_checks(), 1);
  EXPECT_EQ(v.static_cache_hits(), 1);
  EXPECT_EQ(first.code, "A-MULTI");
  EXPECT_EQ(again.code, first.code);
  ASSERT_EQ(again.diags.size(), first.diags.size());
  EXPECT_EQ(again.diags[0].loc.line, first.diags[0].loc.line);
  // Another text (one more blank line) is checked afresh: its diagnostics sit one line lower.
  auto moved = v.verify(cumsum_task(), std::string("\n") + kReused);
  EXPECT_EQ(v.static_checks(), 2);
  ASSERT_FALSE(moved.diags.empty());
  EXPECT_EQ(moved.diags[0].loc.line, first.diags[0].loc.line + 1);
  EXPECT_EQ(moved.canonical_key, first.canonical_key);
}

TEST(Guardian, LlmCorrectorGoodFixIsKept) {
  std::string good = "A, B = step.Copy().apply(E0)\nT3 = step.Scan(fn=fn_add, b=1).apply(A)\n"
                     "T4 = step.Map(fn=fn_minus).apply((T3, B))\nreturn T4";
  FakeBackend fb({fenced(good)});
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.model = "fake-model";
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Guardian g(&fb, ctx);
  auto r = g.guard(cumsum_task(), kReused, GuardianMode::Llm);
  EXPECT_EQ(r.action, "llm");
  EXPECT_EQ(r.impl, good + "\n");
  ASSERT_EQ(fb.requests.size(), 1u);
  // the corrector sees only the impl: no task description, no fn bodies
  std::string all;
  for (const auto& m : fb.requests[0].messages) all += m.content;
  EXPECT_NE(all.find("T4 = step.Map(fn=fn_minus).apply((T3, E0))"), std::string::npos);
  EXPECT_EQ(all.find("Exclusive prefix sum"), std::string::npos);
  EXPECT_EQ(all.find("state0 + in0"), std::string::npos);
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].usage.input_tokens, 1000);
  EXPECT_EQ(evs[0].guardian_action, "llm");
  verify::Verifier v;
  EXPECT_TRUE(v.verify(cumsum_task(), r.impl).pass);
}

TEST(Guardian, LlmCorrectorBadFixesFallBackToTheRewrite) {
  // still consumes E0 twice; changes semantics into a type error; garbage
  std::vector<std::string> bad = {
      fenced("T3 = step.Scan(fn=fn_add, b=1).apply(E0)\nT4 = step.Map(fn=fn_minus).apply((T3, E0))\nreturn T4"),
      fenced("A, B = step.Copy().apply(E0)\nT3 = step.Scan(fn=fn_add, b=1).apply(A)\n"
             "T4 = step.Map(fn=fn_add).apply((T3, B))\nreturn T4"),
      "I cannot do that."};
  verify::Verifier v;
  for (const auto& answer : bad) {
    FakeBackend fb({answer});
    Guardian g(&fb, RoleContext{});
    auto r = g.guard(cumsum_task(), kReused, GuardianMode::Llm);
    EXPECT_EQ(r.action, "llm-fallback-rewrite") << answer;
    EXPECT_NE(r.impl.find("step.Copy().apply(E0)"), std::string::npos);
    EXPECT_TRUE(v.verify(cumsum_task(), r.impl).pass) << r.impl;
  }
  // an LLM error also falls back
  FakeBackend none({});
  Guardian g(&none, RoleContext{});
  EXPECT_EQ(g.guard(cumsum_task(), kReused, GuardianMode::Llm).action, "llm-fallback-rewrite");
}

TEST(Guardian, UnparsableProgramIsLeftAlone) {
  Guardian g(nullptr, RoleContext{});
  auto r = g.guard(cumsum_task(), "T3 = step.Scan(fn=fn_add\nreturn", GuardianMode::Rewrite);
  EXPECT_EQ(r.action, "unparsable");
  EXPECT_FALSE(r.gate_fired);
  EXPECT_EQ(r.impl, "T3 = step.Scan(fn=fn_add\nreturn");
}

TEST(LineDiff, MarksRemovedAndAddedLines) {
  EXPECT_EQ(line_diff("a\nb\nc\n", "a\nb\nc\n"), "");
  EXPECT_EQ(line_diff("a\nb\nc", "a\nx\nb\nc"), "+ x\n");
  EXPECT_EQ(line_diff("a\nb\nc", "a\nc"), "- b\n");
  EXPECT_EQ(line_diff("a\nb", "a\nB"), "- b\n+ B\n");
}

TEST(Proposer, ParsesImplAndAdoptionAndRecordsUsageAndCost) {
  std::string impl = solution_impl("extra/exclusive_cumsum.yaml");
  FakeBackend fb({fenced(impl, "adoption:\n  - {id: mem-1, adopted: yes, rationale: copy before reuse}\n")});
  llm::PriceTable prices;
  prices.set("fake-model", {2.0, 10.0});
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.model = "fake-model";
  ctx.prices = &prices;
  ctx.task_id = "extra/exclusive_cumsum";
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Proposer p(fb, ctx);
  PromptInput in;
  in.manual_text = "manual";
  in.task_text = cumsum_task().raw_text_without_impl;
  in.experiences = {{"mem-1", "Copy before reuse", "", ""}};
  auto pr = p.propose(in, 3, 0.7, 99);
  ASSERT_TRUE(pr.ok);
  EXPECT_EQ(pr.impl, impl);
  ASSERT_TRUE(pr.parsed.adoption_complete());
  EXPECT_EQ(pr.parsed.adopted("mem-1"), true);
  ASSERT_EQ(fb.requests.size(), 1u);
  EXPECT_EQ(fb.requests[0].sample_index, 3);
  EXPECT_EQ(fb.requests[0].seed, 99u);
  EXPECT_DOUBLE_EQ(fb.requests[0].temperature, 0.7);
  EXPECT_EQ(fb.requests[0].cache_prefix_hint, fb.requests[0].messages[0].content);
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].role, "proposer");
  EXPECT_EQ(evs[0].task_id, "extra/exclusive_cumsum");
  ASSERT_TRUE(evs[0].cost_usd);
  EXPECT_NEAR(*evs[0].cost_usd, (1000 * 2.0 + 200 * 10.0) / 1e6, 1e-12);  // 0.004 USD
  EXPECT_DOUBLE_EQ(evs[0].latency_s, 0.25);
  auto j = to_json(evs[0]);
  EXPECT_EQ(j["role"], "proposer");
  EXPECT_EQ(j["sample_index"], 3);
  EXPECT_EQ(j["adoption"][0]["id"], "mem-1");
  EXPECT_EQ(j["adoption"][0]["adopted"], true);
  EXPECT_EQ(j["usage"]["input_tokens"], 1000);
  EXPECT_EQ(j["prompt"][0]["role"], "system");
}

TEST(Proposer, AnswerWithoutImplIsAParseFailureNotACrash) {
  FakeBackend fb({"Sorry, I do not know STeP."});
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Proposer p(fb, ctx);
  PromptInput in;
  auto pr = p.propose(in, 0, 0.0);
  EXPECT_FALSE(pr.ok);
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].code, "P-NO-IMPL");
  EXPECT_EQ(evs[0].pass, false);
  EXPECT_FALSE(to_json(evs[0]).contains("error"));
}

TEST(Proposer, BuiltinSearchWithoutProgramIsNoProgramNotAParseFailure) {
  // The built-in synthesizer's "found no program within its budget" answer (finish reason kFinishNoProgram).
  llm::BuiltinBackend b([](const llm::ChatRequest&, const llm::CancelToken&) {
    llm::ChatResponse resp;
    resp.text = "The built-in synthesizer found no program within its budget (12 candidates, depth 3).\n";
    resp.finish_reason = llm::kFinishNoProgram;
    return llm::ChatResult::success(resp);
  });
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Proposer p(b, ctx);
  auto pr = p.propose(PromptInput{}, 0, 0.0);
  EXPECT_FALSE(pr.ok);
  EXPECT_EQ(pr.fail_stage, "search");
  EXPECT_EQ(pr.fail_code, kNoProgramCode);
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].stage, "search");
  EXPECT_EQ(evs[0].code, "no-program");
  // A model's answer without a program stays a parse failure.
  FakeBackend fb({"Sorry."});
  Proposer q(fb, ctx);
  auto qr = q.propose(PromptInput{}, 0, 0.0);
  EXPECT_EQ(qr.fail_stage, "parse");
  EXPECT_EQ(qr.fail_code, "P-NO-IMPL");
}

TEST(DistillerParsing, YamlJsonAndBareLists) {
  auto r = parse_distill_answer(
      "Thoughts...\n```yaml\nexperiences:\n  - rule: \"Copy a stream before using it twice\"\n"
      "    evidence: \"A-MULTI at line 2\"\n    example: |\n      a, b = step.Copy().apply(x)\n"
      "  - rule: Accum reduces the innermost b dims\n```\n",
      "extra/exclusive_cumsum");
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.experiences.size(), 2u);
  EXPECT_EQ(r.experiences[0].rule, "Copy a stream before using it twice");
  EXPECT_EQ(r.experiences[0].evidence, "A-MULTI at line 2");
  EXPECT_EQ(r.experiences[0].code_example, "a, b = step.Copy().apply(x)");
  EXPECT_EQ(r.experiences[0].id.rfind("exp-", 0), 0u);
  EXPECT_EQ(r.experiences[0].id.size(), 14u);
  EXPECT_NE(r.experiences[0].id, r.experiences[1].id);
  // same rule, same task -> same id (deterministic)
  auto again = parse_distill_answer("experiences:\n  - rule: Copy a stream before using it twice\n",
                                    "extra/exclusive_cumsum");
  ASSERT_EQ(again.experiences.size(), 1u);
  EXPECT_EQ(again.experiences[0].id, r.experiences[0].id);

  auto js = parse_distill_answer(R"([{"rule": "r1", "evidence": "e1"}, {"rule": "r2", "code_example": "x"}])", "t");
  ASSERT_EQ(js.experiences.size(), 2u);
  EXPECT_EQ(js.experiences[1].code_example, "x");
}

TEST(DistillerParsing, GarbageGivesDiagnostics) {
  for (const char* g : {"no yaml here: [unclosed", "just prose", "experiences: 42", "- 1\n- 2\n", ""}) {
    auto r = parse_distill_answer(g, "t");
    EXPECT_TRUE(r.experiences.empty()) << g;
    ASSERT_FALSE(r.diagnostics.empty()) << g;
    EXPECT_EQ(r.diagnostics[0].code, "P-DISTILL");
  }
  auto missing = parse_distill_answer("experiences:\n  - evidence: e\n  - rule: ok\n", "t");
  ASSERT_EQ(missing.experiences.size(), 1u);
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_EQ(missing.diagnostics[0].message, "experience 1 has no rule");
  EXPECT_EQ(missing.diagnostics[0].loc.line, 2);
  std::string deep(10000, '[');
  EXPECT_EQ(parse_distill_answer(deep, "t").diagnostics[0].message, "the answer is nested too deeply");
  std::string big(70 * 1024, 'x');
  EXPECT_TRUE(parse_distill_answer(big, "t").experiences.empty());
  std::string many = "experiences:\n";
  for (int i = 0; i < 20; ++i) many += "  - rule: r" + std::to_string(i) + "\n";
  EXPECT_EQ(parse_distill_answer(many, "t").experiences.size(), 8u);
}

TEST(AbstractorParsing, RuleAndExampleOrDiagnostics) {
  auto r = parse_abstract_answer("```yaml\nrule: \"Copy before reuse.\"\nexample: |\n  a, b = step.Copy().apply(x)\n```",
                                 "exp-0123456789");
  ASSERT_TRUE(r.rule);
  EXPECT_EQ(r.rule->id, "rule-exp-0123456789");
  EXPECT_EQ(r.rule->text, "Copy before reuse.");
  EXPECT_EQ(r.rule->example, "a, b = step.Copy().apply(x)");
  for (const char* g : {"rule: [", "- a\n- b", "example: only", "{{{{"}) {
    auto b = parse_abstract_answer(g, "e");
    EXPECT_FALSE(b.rule) << g;
    ASSERT_FALSE(b.diagnostics.empty());
    EXPECT_EQ(b.diagnostics[0].code, "P-ABSTRACT");
  }
}

TEST(DistillerAbstractor, CallTheBackendAndEmitTraceEvents) {
  FakeBackend fb({"experiences:\n  - rule: Copy first\n", "rule: Copy every reused stream.\n"});
  std::vector<TraceEvent> evs;
  RoleContext ctx;
  ctx.sink = [&](const TraceEvent& e) { evs.push_back(e); };
  Distiller d(fb, ctx);
  Episode ep;
  ep.task_id = "extra/exclusive_cumsum";
  ep.task_text = "id: extra/exclusive_cumsum";
  ep.attempts = {{kReused, "2:38: error: stream E0 is consumed twice [A-MULTI]", false}};
  auto dr = d.distill(ep);
  ASSERT_EQ(dr.experiences.size(), 1u);
  EXPECT_NE(fb.requests[0].messages[1].content.find("[A-MULTI]"), std::string::npos);
  Abstractor a(fb, ctx);
  auto ar = a.abstract(dr.experiences[0]);
  ASSERT_TRUE(ar.rule);
  EXPECT_EQ(ar.rule->text, "Copy every reused stream.");
  ASSERT_EQ(evs.size(), 2u);
  EXPECT_EQ(evs[0].role, "distiller");
  EXPECT_EQ(evs[0].task_id, "extra/exclusive_cumsum");
  EXPECT_EQ(evs[1].role, "abstractor");
  // a failed call is an error value
  auto none = d.distill(ep);
  EXPECT_TRUE(none.experiences.empty());
  EXPECT_NE(none.error.find("http"), std::string::npos);
}

namespace {
constexpr const char* kSecret = "sk-agent-SECRET-9876543210fedcba";
}

TEST(RoundTrip, AskAgainstLoopbackServerVerifiesAndLeaksNoKey) {
  llm::testing::LoopbackServer s;
  ::setenv("SF_AGENT_TEST_KEY", kSecret, 1);
  llm::BackendConfig cfg;
  cfg.kind = llm::BackendKind::OpenAi;
  cfg.base_url = s.base_url();
  cfg.model = "gpt-4o-mini";
  cfg.key_env = "SF_AGENT_TEST_KEY";
  cfg.timeout_s = 10;
  cfg.max_retries = 0;
  for (const std::string& program : {solution_impl("gemm_easy/batched_matvec.yaml"), std::string(kReused)}) {
    const std::string task_id = program == kReused ? "extra/exclusive_cumsum" : "gemm_easy/batched_matvec";
    s.answer_text = fenced(program);
    auto made = llm::make_backend(cfg);
    ASSERT_TRUE(made.backend) << made.error;
    std::string all_json;
    RoleContext ctx;
    ctx.model = cfg.model;
    ctx.sink = [&](const TraceEvent& e) { all_json += to_json(e).dump() + "\n"; };
    PromptInput in;
    std::string err;
    in.manual_text = *load_manual(bench::resource_dir(), ManualMode::Cheatsheet, err);
    verify::Verifier v;
    const auto* task = cat().find(task_id);
    ASSERT_NE(task, nullptr);
    auto r = run_round_trip(*made.backend, *task, in, ctx, v);
    EXPECT_TRUE(r.pass) << task_id << ": " << r.error;
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_EQ(r.events[0].role, "proposer");
    EXPECT_EQ(r.events[1].role, "guardian");
    EXPECT_EQ(r.events[2].role, "verifier");
    EXPECT_EQ(r.events[2].pass, true);
    EXPECT_EQ(r.events[0].usage.input_tokens, 120);
    EXPECT_EQ(r.events[1].guardian_action, program == kReused ? "rewrite" : "none");
    // the key went to the server, never into the trace
    auto seen = s.seen();
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back().headers.find("Authorization")->second, std::string("Bearer ") + kSecret);
    EXPECT_NE(seen.back().body.find(task_id), std::string::npos);  // the task text was sent
    EXPECT_EQ(all_json.find(kSecret), std::string::npos);
    EXPECT_EQ(all_json.find("Bearer"), std::string::npos);
    EXPECT_NE(all_json.find("\"role\":\"verifier\""), std::string::npos);
  }
  ::unsetenv("SF_AGENT_TEST_KEY");
}

TEST(RoundTrip, BackendErrorIsReportedNotThrown) {
  FakeBackend fb({});
  verify::Verifier v;
  auto r = run_round_trip(fb, cumsum_task(), PromptInput{}, RoleContext{}, v);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.error.find("no more answers"), std::string::npos);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].error_kind, "http");
}
