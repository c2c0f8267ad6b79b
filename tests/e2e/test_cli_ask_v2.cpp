// `stepforge-cli ask --optimise` on a STeP-25 task (docs/llm.md, "STeP-25 optimisation rounds"): one round
// against the loopback stand-in for an OpenAI-compatible and an Anthropic endpoint (the canned answer is a
// known-optimised program of resources/solutions_v2), the prompt as sent, an answer cut at the token limit, no
// program, endpoint errors, and the recorded transcript of tests/data/replay_v2 replayed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/cli_test_util.hpp"
#include "tests/support/loopback_server.hpp"

namespace ask_v2_test {

using sf::e2e::CliRun;

const std::string kSolutions = std::string(SF_SOURCE_DIR) + "/resources/solutions_v2/gemm/";
const std::string kFrom = kSolutions + "small.yaml";  // the baseline: correct, slow

CliRun run(const std::string& cmd, bool merge_stderr = true) { return sf::e2e::run_command(cmd, merge_stderr, 60); }

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The `impl: |` block of a solution file, as a model would answer it: prose, the block, the adopted line.
std::string answer_with(const std::string& solution_file) {
  const std::string text = file_text(solution_file);
  return "The PMU reads bound this program; larger tiles and more requests in flight help.\n\n```yaml\n" +
         text.substr(text.find("impl: |")) + "```\n\nadopted: []\n";
}

// Runs `cmd`, expects exit `code` and every text of `says` in the output; returns the run.
CliRun expect_run(const std::string& cmd, int code, std::initializer_list<std::string> says) {
  CliRun r = run(cmd);
  EXPECT_EQ(r.code, code) << r.out;
  for (const auto& s : says) EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  return r;
}

nlohmann::json verdict_of(const std::string& out) {
  std::istringstream lines(out);
  for (std::string l; std::getline(lines, l);) {
    auto j = nlohmann::json::parse(l, nullptr, false);
    if (!j.is_discarded() && j.value("type", "") == "verdict") return j;
  }
  return {};
}

struct Endpoint {
  std::string backend, url, path;
};

std::string ask(const Endpoint& e, const std::string& extra) {
  return "env SF_E2E_KEY=k " + std::string(SF_CLI) + " ask --backend " + e.backend + " --base-url " + e.url +
         " --model m --key-env SF_E2E_KEY --task gemm/small --optimise " + extra;
}

// Both protocols: the round is sent as a system message (role, operator card, answer format; Anthropic marks it
// cacheable) and a user message (task, program, performance), the known-optimised answer is judged
// correct+faster with the cycles before and after, in text and JSON.
TEST(CliAskV2, BothBackendsJudgeAFasterProgramWithCyclesBeforeAndAfter) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text = answer_with(kSolutions + "small.known_opt_1.yaml");
  const std::string card_line = "STeP-25 (dialect step-v2) in one card.";
  for (const Endpoint& e : {Endpoint{"openai", server.base_url(), "/v1/chat/completions"},
                            Endpoint{"anthropic", server.anthropic_base_url(), "/v1/messages"}}) {
    SCOPED_TRACE(e.backend);
    CliRun js = run(ask(e, "--from " + kFrom + " --seed 7 --max-tokens 2000 --json"), false);
    EXPECT_EQ(js.code, 0) << js.out;
    auto v = verdict_of(js.out);
    ASSERT_TRUE(v.is_object()) << js.out;
    EXPECT_EQ(v["verdict"], "correct+faster");
    EXPECT_EQ(v["dialect"], "step-v2");
    const std::int64_t before = v["cycles_before"], after = v["cycles_after"];
    EXPECT_GT(before, after);
    EXPECT_GT(after, 0);
    EXPECT_NEAR(v["speedup"].get<double>(), static_cast<double>(before) / after, 1e-9);
    EXPECT_EQ(v["faster"], true);
    EXPECT_EQ(v["adopted"], nlohmann::json::array());
    EXPECT_NE(v["impl"].get<std::string>().find("tile=[256, 128]"), std::string::npos);

    CliRun text = run(ask(e, "--from " + kFrom + " --seed 7 --max-tokens 2000"));
    EXPECT_EQ(text.code, 0) << text.out;
    char line[160];
    std::snprintf(line, sizeof line, "verdict: gemm/small: correct+faster, %lld -> %lld cycles, speedup %.2fx, ",
                  static_cast<long long>(before), static_cast<long long>(after), static_cast<double>(before) / after);
    EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("% of peak, adopted: none"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("+++ proposal"), std::string::npos) << text.out;

    // What was sent.
    const auto sent = server.seen().back();
    EXPECT_EQ(sent.path, e.path);
    auto body = nlohmann::json::parse(sent.body);
    EXPECT_EQ(body["max_tokens"], 2000);
    std::string system, user;
    if (e.backend == "openai") {
      EXPECT_EQ(body["seed"], 7);
      ASSERT_EQ(body["messages"].size(), 2u);
      EXPECT_EQ(body["messages"][0]["role"], "system");
      system = body["messages"][0]["content"];
      EXPECT_EQ(body["messages"][1]["role"], "user");
      user = body["messages"][1]["content"];
    } else {
      ASSERT_TRUE(body["system"].is_array()) << sent.body;  // prompt caching: the system prompt as blocks
      EXPECT_EQ(body["system"][0]["cache_control"]["type"], "ephemeral");
      for (const auto& b : body["system"]) system += b["text"].get<std::string>();
      ASSERT_EQ(body["messages"].size(), 1u);
      EXPECT_EQ(body["messages"][0]["role"], "user");
      user = body["messages"][0]["content"];
    }
    for (const std::string& s : {std::string("## Operator card"), card_line, std::string("## Answer format"),
                                 std::string("adopted: [ids]")})
      EXPECT_NE(system.find(s), std::string::npos) << s;
    for (const std::string& s : {std::string("## Task"), std::string("## Program to improve"),
                                 std::string("## Performance"), std::string("cycles " + std::to_string(before)),
                                 std::string("  a = step.OffChipLoad(tile=[128, 128]")})
      EXPECT_NE(user.find(s), std::string::npos) << s;
    EXPECT_EQ(user.find(card_line), std::string::npos);
    EXPECT_EQ(user.find("Baseline"), std::string::npos);  // the solution file's comments are never sent
  }
}

// An answer cut at the token limit (finish_reason "length" / stop_reason "max_tokens") is said to be cut, with
// the limit and the option that raises it, on both protocols; an answer without a program says so.
TEST(CliAskV2, TruncatedOrProgramFreeAnswersSaySo) {
  sf::llm::testing::LoopbackServer server;
  server.finish_reason = "length";
  const std::string full = answer_with(kSolutions + "small.known_opt_1.yaml");
  server.answer_text = full.substr(0, full.find("b = step."));
  for (const Endpoint& e : {Endpoint{"openai", server.base_url(), ""}, Endpoint{"anthropic", server.anthropic_base_url(), ""}}) {
    SCOPED_TRACE(e.backend);
    expect_run(ask(e, "--from " + kFrom + " --max-tokens 300"), 1,
               {"verdict: gemm/small: no answer: truncated: the answer was cut at the token limit (max_tokens = 300",
                "raise --max-tokens (e.g. --max-tokens 600)"});
    CliRun js = run(ask(e, "--from " + kFrom + " --max-tokens 300 --json"), false);
    EXPECT_EQ(js.code, 1) << js.out;
    auto v = verdict_of(js.out);
    EXPECT_EQ(v["truncated"], true) << js.out;
    EXPECT_EQ(v["max_tokens"], 300);
    EXPECT_FALSE(v.contains("verdict"));
  }
  server.finish_reason = "stop";
  server.answer_text = "I would raise par_dispatch, but I am not sure the tiles fit.\n";
  expect_run(ask({"openai", server.base_url(), ""}, "--from " + kFrom), 1,
             {"no answer: no program: the answer contains no program"});
  // A program that breaks the compute budget: judged, not faster.
  std::string over = answer_with(kSolutions + "small.known_opt_1.yaml");
  over.replace(over.find("compute_bw=4096"), 15, "compute_bw=9000");
  server.answer_text = over;
  expect_run(ask({"openai", server.base_url(), ""}, "--from " + kFrom), 1, {"verdict: gemm/small: infeasible [C-"});
}

// --stream: the answer as it arrives (once), the end line, then the verdict.
TEST(CliAskV2, StreamShowsTheAnswerThenTheVerdict) {
  sf::llm::testing::LoopbackServer server;
  server.answer_text = answer_with(kSolutions + "small.known_opt_1.yaml");
  server.stream_pieces = 5;
  CliRun r = expect_run(ask({"anthropic", server.anthropic_base_url(), ""}, "--from " + kFrom + " --stream"), 0,
                        {"-- end of answer (", "verdict: gemm/small: correct+faster"});
  EXPECT_NE(server.seen().back().body.find("\"stream\":true"), std::string::npos);
  const auto answer = r.out.find("The PMU reads bound this program");
  EXPECT_LT(answer, r.out.find("-- end of answer ("));
  EXPECT_EQ(r.out.find("The PMU reads bound this program", answer + 1), std::string::npos) << r.out;
  EXPECT_LT(r.out.find("-- end of answer ("), r.out.find("verdict: "));
}

// Errors that are not the model's: the endpoint (exit 3, the diagnosis), and usage errors (exit 2).
TEST(CliAskV2, EndpointAndUsageErrors) {
  sf::llm::testing::LoopbackServer server;
  server.script({sf::llm::testing::Mode::Unauthorized});
  CliRun auth = expect_run(ask({"openai", server.base_url(), ""}, "--from " + kFrom), 3,
                           {"error: authentication failed (HTTP 401)"});
  EXPECT_EQ(auth.out.find("verdict:"), std::string::npos) << auth.out;

  const std::string base = std::string(SF_CLI) + " ask --backend builtin --task gemm/small";
  expect_run(base + " --from " + kFrom, 2, {"is a STeP-25 task: ask works on it with --optimise --from FILE only"});
  const std::string dir = ::testing::TempDir() + "sf_ask_v2_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::string broken = file_text(kFrom);
  broken.replace(broken.find("tile=[128, 128]"), 15, "tile=[128, 100]");
  { std::ofstream(dir + "/broken.yaml") << broken; }
  expect_run(base + " --optimise --from " + dir + "/broken.yaml", 2, {"is not correct [", "repair it first"});
  expect_run(base + " --optimise --from " + kSolutions + "rect.yaml", 2,
             {"is a program for task 'gemm/rect', not 'gemm/small'"});
  std::filesystem::remove_all(dir);
}

// tests/data/replay_v2: one round recorded through the builtin backend (its README says how). Replayed with
// --backend replay it gives the recorded verdict, cycles and program without the builtin; a request that
// differs from the recorded one (another seed, another program) is a cache miss (exit 3), never an invented
// answer.
TEST(CliAskV2, RecordedTranscriptReplaysToTheSameVerdict) {
  const std::string data = std::string(SF_TEST_DATA_DIR) + "/replay_v2";
  auto expected = verdict_of(file_text(data + "/expected.jsonl"));
  ASSERT_TRUE(expected.is_object()) << "tests/data/replay_v2/expected.jsonl has no verdict line";
  const std::string base = std::string(SF_CLI) + " ask --backend replay --replay-kind builtin --cache " + data +
                           " --model builtin --task gemm/small --optimise";
  CliRun r = run(base + " --from " + kFrom + " --seed 3 --json", false);
  auto v = verdict_of(r.out);
  ASSERT_TRUE(v.is_object()) << r.out
                             << "\n(a cache miss: the v2 prompt changed; re-record as tests/data/replay_v2/README.md says)";
  for (const char* k : {"verdict", "cycles_before", "cycles_after", "pct_of_peak_before", "pct_of_peak_after",
                        "adopted", "impl", "speedup"})
    EXPECT_EQ(v[k], expected[k]) << k;
  EXPECT_EQ(v["from_cache"], true);
  EXPECT_EQ(v["verdict"], "correct+faster");
  EXPECT_EQ(r.code, 0) << r.out;

  // A miss is the endpoint's failure (exit 3), not a verdict.
  CliRun seed = expect_run(base + " --from " + kFrom + " --seed 4", 3, {"error: replay: no recorded answer for request"});
  EXPECT_EQ(seed.out.find("verdict:"), std::string::npos) << seed.out;
  expect_run(base + " --from " + kSolutions + "small.known_opt_1.yaml --seed 3", 3,
             {"error: replay: no recorded answer for request"});
}

}  // namespace ask_v2_test
