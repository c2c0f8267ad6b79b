// `stepforge-cli ask` end to end against a loopback OpenAI-compatible server: verdict, exit codes, no key leak.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/e2e/cli_test_util.hpp"
#include "tests/support/loopback_server.hpp"

namespace {

using AskRun = sf::e2e::CliRun;

AskRun run(const std::string& cmd) { return sf::e2e::run_command(cmd, true, 60); }

}  // namespace

TEST(CliAsk, RoundTripThroughGuardianPassesAndNeverPrintsTheKey) {
  sf::llm::testing::LoopbackServer server;
  // A correct exclusive cumsum that uses E0 twice: the guardian must insert the Copy.
  server.answer_text =
      "Here is my program.\n```yaml\nimpl: |\n"
      "  C = step.Scan(fn=fn_add, b=1).apply(E0)\n"
      "  Y = step.Map(fn=fn_minus).apply((C, E0))\n"
      "  return Y\n```\n";
  const std::string key = "sk-test-SECRET-4242";
  AskRun r = run("env SF_E2E_KEY=" + key + " " + std::string(SF_CLI) + " ask --backend openai --base-url " +
                 server.base_url() + " --model test-model --key-env SF_E2E_KEY --task extra/exclusive_cumsum --json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"verdict\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(key), std::string::npos) << "the API key leaked into the output";
  EXPECT_GE(server.hits(), 1);
  bool authorised = false;
  for (const auto& s : server.seen())
    for (const auto& [k, v] : s.headers)
      if (k == "Authorization" && v == "Bearer " + key) authorised = true;
  EXPECT_TRUE(authorised);
}

TEST(CliAsk, WrongProgramFailsWithExitOneAndMissingKeyIsAConfigError) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text = "```yaml\nimpl: |\n  Y = step.Accum(fn=fn_add, b=1).apply(E0)\n  return Y\n```\n";
  AskRun bad = run("env SF_E2E_KEY=k " + std::string(SF_CLI) + " ask --backend openai --base-url " + server.base_url() +
                   " --model m --key-env SF_E2E_KEY --task extra/exclusive_cumsum");
  EXPECT_EQ(bad.code, 1) << bad.out;
  AskRun nokey = run("env -u SF_E2E_MISSING " + std::string(SF_CLI) + " ask --backend openai --base-url " +
                     server.base_url() + " --model m --key-env SF_E2E_MISSING --task extra/exclusive_cumsum");
  EXPECT_EQ(nokey.code, 2) << nokey.out;
  EXPECT_NE(nokey.out.find("SF_E2E_MISSING"), std::string::npos) << nokey.out;
}

TEST(CliAsk, RepairFromAFilePrintsTheVerifiedProposalAndLogsTheSession) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text =
      "```yaml\nimpl: |\n"
      "  C = step.Scan(fn=fn_add, b=1).apply(E0)\n"
      "  Y = step.Map(fn=fn_minus).apply((C, E0))\n"
      "  return Y\n```\n";
  const std::string dir = ::testing::TempDir() + "sf_cli_ask_repair_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  { std::ofstream(dir + "/bad.step") << "C = step.Scan(fn=fn_add, b=1).apply(E0)\nreturn Z\n"; }
  const std::string base = std::string(SF_CLI) + " ask --backend openai --base-url " + server.base_url() +
                           " --model m --task extra/exclusive_cumsum --from " + dir + "/bad.step";
  AskRun r = run(base + " --repair --instruction 'keep the Scan' --session " + dir + "/session");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("== proposal (verified)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("+++ proposal"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("guardian: rewrite"), std::string::npos) << r.out;
  const std::string sent = server.seen().back().body;
  EXPECT_NE(sent.find("N-UNDEF"), std::string::npos);
  EXPECT_NE(sent.find("keep the Scan"), std::string::npos);
  std::ifstream log(dir + "/session/events.jsonl");
  std::string all((std::istreambuf_iterator<char>(log)), {});
  EXPECT_NE(all.find("\"interactive_round\""), std::string::npos);

  // A proposal that fails verification: exit 1; optimising a failing program: a usage error (2).
  server.answer_text = "```yaml\nimpl: |\n  Y = step.Accum(fn=fn_add, b=1).apply(E0)\n  return Y\n```\n";
  AskRun fail = run(base + " --repair");
  EXPECT_EQ(fail.code, 1) << fail.out;
  EXPECT_NE(fail.out.find("does NOT verify"), std::string::npos) << fail.out;
  AskRun opt = run(base + " --optimise");
  EXPECT_EQ(opt.code, 2) << opt.out;
  EXPECT_NE(opt.out.find("repair it first"), std::string::npos) << opt.out;
  AskRun both = run(base + " --optimise --repair");
  EXPECT_EQ(both.code, 2) << both.out;
  std::filesystem::remove_all(dir);
}

// A proposal that differs from --from only in comments and layout: no diff, a plain "same statements" line.
TEST(CliAsk, OptimiseSaysWhenOnlyCommentsDiffer) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text =
      "```yaml\nimpl: |\n"
      "  T1, T2 = step.Copy().apply(E0)\n"
      "  T3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
      "  T4 = step.Map(fn=fn_minus).apply((T3, T2))\n"
      "  return T4\n```\n";
  // The same program, with comments.
  const std::string from = std::string(SF_SOURCE_DIR) + "/resources/solutions/extra/exclusive_cumsum.yaml";
  const std::string base = std::string(SF_CLI) + " ask --backend openai --base-url " + server.base_url() +
                           " --model m --task extra/exclusive_cumsum --from " + from;
  AskRun same = run(base + " --optimise");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("(the same statements: only comments and layout differ)"), std::string::npos) << same.out;
  EXPECT_EQ(same.out.find("+++ proposal"), std::string::npos) << same.out;
  // Another statement order is a change: the diff is shown.
  server.answer_text =
      "```yaml\nimpl: |\n"
      "  T2, T1 = step.Copy().apply(E0)\n"
      "  T3 = step.Scan(fn=fn_add, b=1).apply(T1)\n"
      "  T4 = step.Map(fn=fn_minus).apply((T3, T2))\n"
      "  return T4\n```\n";
  AskRun changed = run(base + " --optimise");
  EXPECT_NE(changed.out.find("+++ proposal"), std::string::npos) << changed.out;
}

TEST(CliAsk, StreamShowsTheAnswerAsItArrivesThenTheVerdict) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text =
      "```yaml\nimpl: |\n"
      "  C = step.Scan(fn=fn_add, b=1).apply(E0)\n"
      "  Y = step.Map(fn=fn_minus).apply((C, E0))\n"
      "  return Y\n```\n";
  server.stream_pieces = 4;
  const std::string base = std::string(SF_CLI) + " ask --backend openai --base-url " + server.base_url() +
                           " --model m --task extra/exclusive_cumsum --stream";
  AskRun r = run(base);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(server.seen().back().body.find("\"stream\":true"), std::string::npos);
  // The answer once (streamed; the round's event does not repeat it), then the end line and the verdict.
  const auto answer = r.out.find("Y = step.Map(fn=fn_minus)");
  ASSERT_NE(answer, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("```yaml", r.out.find("```yaml") + 1), std::string::npos) << r.out;
  const auto end = r.out.find("-- end of answer (30 tokens out)");
  ASSERT_NE(end, std::string::npos) << r.out;
  EXPECT_LT(answer, end);
  EXPECT_NE(r.out.find("== proposal (verified)", end), std::string::npos) << r.out;

  AskRun j = run(base + " --json");
  EXPECT_EQ(j.code, 0) << j.out;
  EXPECT_NE(j.out.find("{\"done\":false,\"output_tokens\":"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"done\":true"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"type\":\"delta\""), std::string::npos) << j.out;
}

TEST(CliAsk, StreamWithTheBuiltinBackendShowsSearchProgress) {
  AskRun r = run(std::string(SF_CLI) + " ask --backend builtin --task extra/exclusive_cumsum --stream");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("[synth: searching programs for extra/exclusive_cumsum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[synth: found a program after "), std::string::npos) << r.out;
}

// An answer cut at the token limit (OpenAI: finish_reason "length"; Anthropic: stop_reason "max_tokens") is
// not "no impl": `ask` says it was cut, names the limit and the option that raises it, for a plain round trip
// and an interactive round, in text and JSON.
TEST(CliAsk, ATruncatedAnswerNamesTheTokenLimitAndTheSettingToRaise) {
  sf::llm::testing::LoopbackServer server;
  server.finish_reason = "length";
  server.answer_text = "```yaml\nimpl: |\n  C = step.Scan(fn=fn_add, b=1).apply(E0)\n  Y = step.Map(fn=fn_mi";
  struct Backend {
    std::string name, url;
  };
  for (const Backend& b : {Backend{"openai", server.base_url()}, Backend{"anthropic", server.anthropic_base_url()}}) {
    SCOPED_TRACE(b.name);
    const std::string base = "env SF_E2E_KEY=k " + std::string(SF_CLI) + " ask --backend " + b.name + " --base-url " +
                             b.url + " --model m --key-env SF_E2E_KEY --task extra/exclusive_cumsum --max-tokens 300";
    for (const std::string& extra : {std::string(), std::string(" --instruction 'keep it short'")}) {
      SCOPED_TRACE(extra.empty() ? "round trip" : "interactive");
      AskRun text = run(base + extra);
      EXPECT_EQ(text.code, 1) << text.out;
      EXPECT_NE(text.out.find("fail (reward 0): truncated: the answer was cut at the token limit (max_tokens = 300"),
                std::string::npos)
          << text.out;
      EXPECT_NE(text.out.find("raise --max-tokens (e.g. --max-tokens 600)"), std::string::npos) << text.out;
      EXPECT_EQ(text.out.find("contains no impl"), std::string::npos) << text.out;
      AskRun js = run(base + extra + " --json");
      EXPECT_EQ(js.code, 1) << js.out;
      EXPECT_NE(js.out.find("\"truncated\":true"), std::string::npos) << js.out;
      EXPECT_NE(js.out.find("\"max_tokens\":300"), std::string::npos) << js.out;
    }
  }
  // What was sent: the limit, under each provider's name for it.
  bool openai = false, anthropic = false;
  for (const auto& s : server.seen()) {
    if (s.path == "/v1/messages" && s.body.find("\"max_tokens\":300") != std::string::npos) anthropic = true;
    if (s.path == "/v1/chat/completions" && s.body.find("\"max_tokens\":300") != std::string::npos) openai = true;
  }
  EXPECT_TRUE(openai);
  EXPECT_TRUE(anthropic);
}
