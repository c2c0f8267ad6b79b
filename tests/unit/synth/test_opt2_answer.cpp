// The STeP-25 optimisation round for real models (core/synth/opt2_answer): round_request's system and user
// messages (nothing of round_prompt lost or repeated, the builtin still answers it), read_answer on the shapes
// real models answer in (fences, CRLF, prose, <think>, missing adopted line, an unclosed fence), bounded.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/agent/response_parser.hpp"
#include "core/bench/catalogue.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/synth/opt2_answer.hpp"
#include "core/synth/provider.hpp"
#include "core/verify/program_file.hpp"

namespace sf::synth::opt2 {
namespace {

const std::string kRes = std::string(SF_SOURCE_DIR) + "/resources";

// A task of the v2 benchmark with its baseline solution as the program, on the task's chip.
Opt2Task task_with_baseline(const std::string& id) {
  Diagnostics d;
  static const auto cat = bench::Catalogue::load_v2(kRes, d);
  auto pf = verify::load_program_file(kRes + "/solutions_v2/" + id + ".yaml", &cat, d);
  EXPECT_TRUE(pf) << id;
  std::string err;
  auto chip = step2::perf::chip_for(pf->task, "", kRes, err);
  EXPECT_TRUE(chip) << err;
  return {pf->task, pf->impl, *chip};
}

BankRule bank_rule(const char* move, const char* id, const char* statement, double speedup = 1) {
  BankRule r;
  r.rule = *parse_rule_move(move, id);
  r.statement = statement;
  r.best_speedup = speedup;
  return r;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Opt2Request, SystemHoldsRoleCardAndFormatUserHoldsTheRound) {
  auto t = task_with_baseline("gemm/small");
  auto j = judge(t, t.baseline_impl, 0, 0.01);
  const BankRule r = bank_rule("par_dispatch 16", "r1", "On a pmu_read-bound gemm program, par_dispatch=16 paid 1.20x", 1.2);
  auto req = round_request(t, t.baseline_impl, j, {&r}, "CARD");
  ASSERT_EQ(req.messages.size(), 2u);
  const auto& sys = req.messages[0];
  const auto& user = req.messages[1];
  EXPECT_EQ(sys.role, "system");
  EXPECT_EQ(user.role, "user");
  EXPECT_TRUE(sys.content.starts_with(kRoleStatement));
  EXPECT_NE(sys.content.find("## Operator card\n\nCARD\n"), std::string::npos) << sys.content;
  EXPECT_NE(sys.content.find("## Answer format\n"), std::string::npos) << sys.content;
  EXPECT_NE(sys.content.find("adopted: [ids]"), std::string::npos);
  EXPECT_EQ(req.cache_prefix_hint, sys.content);  // the static part is the cache prefix
  EXPECT_TRUE(user.content.starts_with("## Task\n")) << user.content;
  for (const char* s : {"## Program to improve", "## Performance", "## Retrieved experiences", "[r1]", "cycles "})
    EXPECT_NE(user.content.find(s), std::string::npos) << s;
  EXPECT_EQ(user.content.find("## Operator card"), std::string::npos);
  EXPECT_EQ(user.content.find("## Answer format"), std::string::npos);
  EXPECT_EQ(sys.content.find("## Program to improve"), std::string::npos);
  // Nothing of the one-message prompt is lost or repeated: card + user + answer format is round_prompt.
  const std::string format = sys.content.substr(sys.content.find("## Answer format\n"));
  EXPECT_EQ("## Operator card\n\nCARD\n" + user.content + format, round_prompt(t, t.baseline_impl, j, {&r}, "CARD"));
  // Without rules there is no memory block; the system message is the same (one cache prefix per campaign).
  auto bare = round_request(t, t.baseline_impl, j, {}, "CARD");
  EXPECT_EQ(bare.messages[1].content.find("## Retrieved experiences"), std::string::npos);
  EXPECT_EQ(bare.messages[0].content, sys.content);
}

// The builtin backend answers the two-message request (it reads the user message) with a program and the
// adopted rule; the answer reads back.
TEST(Opt2Request, BuiltinAnswersTheRequest) {
  auto t = task_with_baseline("gemm/small");
  auto base = judge(t, t.baseline_impl, 0, 0.01);
  const BankRule r = bank_rule("par_dispatch 16", "r7", "par_dispatch=16 paid");
  std::string card_err;
  auto card = read_operator_card(kRes, card_err);
  ASSERT_TRUE(card) << card_err;
  EXPECT_NE(card->find("OffChipLoad"), std::string::npos);
  int programs = 0, adopted = 0;
  for (int s = 0; s < 6; ++s) {
    auto req = round_request(t, t.baseline_impl, base, {&r}, *card);
    req.seed = 5;
    req.sample_index = s;
    llm::CancelToken cancel;
    auto out = synth_chat(req, cancel);
    ASSERT_TRUE(out.ok()) << out.error.message;
    auto a = read_answer(out.response->text);
    programs += !a.impl.empty();
    for (const auto& id : a.adopted) adopted += id == "r7";
  }
  EXPECT_EQ(programs, 6);
  EXPECT_GT(adopted, 0);
  std::string err;
  EXPECT_FALSE(read_operator_card(kRes + "/no-such-dir", err));
  EXPECT_NE(err.find("step2_operator_card.md"), std::string::npos);
}

const std::string kProg = "a = step.OffChipLoad(tile=[128, 128]).apply(A)\nC = step.OffChipStore().apply(a)\n";

TEST(Opt2ReadAnswer, ReadsWhatRealModelsWrite) {
  struct Case {
    const char* name;
    std::string text;
    std::string impl;
    std::vector<std::string> adopted;
    bool unterminated = false;
  };
  const std::string body = "  a = step.OffChipLoad(tile=[128, 128]).apply(A)\n  C = step.OffChipStore().apply(a)\n";
  const std::vector<Case> cases = {
      {"clean", "```yaml\nimpl: |\n" + body + "```\nadopted: [r1, r2]\n", kProg, {"r1", "r2"}},
      {"crlf", "Here it is.\r\n```yaml\r\nimpl: |\r\n  a = step.OffChipLoad(tile=[128, 128]).apply(A)\r\n"
               "  C = step.OffChipStore().apply(a)\r\n```\r\nadopted: [r1]\r\n",
       kProg, {"r1"}},
      {"bare program in a plain fence", "I doubled the tiles:\n\n```\n" + kProg + "```\n\nadopted: []\n", kProg, {}},
      {"solution document, 4-space body, strip chomp",
       "```yml\ntask: gemm/small\nimpl: |-\n    a = step.OffChipLoad(tile=[128, 128]).apply(A)\n"
       "    C = step.OffChipStore().apply(a)\n```\n",
       kProg, {}},
      {"the last program block wins", "Before:\n```yaml\nimpl: |\n  x = step.Old().apply(A)\n```\nAfter:\n```yaml\nimpl: |\n" +
                                          body + "```\nadopted: [r3]\n",
       kProg, {"r3"}},
      {"explanation block after the program", "```yaml\nimpl: |\n" + body + "```\nShapes:\n```\n[M, N] -> [M, N]\n```\n",
       kProg, {}},
      {"adopted in backticks", "```yaml\nimpl: |\n" + body + "```\n`adopted: [r2, \"r9\"]`\n", kProg, {"r2", "r9"}},
      {"adopted in bold without brackets", "```yaml\nimpl: |\n" + body + "```\n**Adopted:** r3, r4.\n", kProg, {"r3", "r4"}},
      {"adopted inside the block", "```yaml\nimpl: |\n" + body + "adopted: [r5]\n```\n", kProg, {"r5"}},
      {"unclosed fence (cut)", "```yaml\nimpl: |\n" + body, kProg, {}, true},
      {"think block with a draft", "<think>\n```yaml\nimpl: |\n  d = step.Draft().apply(A)\n```\n</think>\n```yaml\nimpl: |\n" +
                                       body + "```\n",
       kProg, {}},
      {"tilde fence, unindented body", "~~~yaml\nimpl: |\n" + kProg + "~~~\n", kProg, {}},
      {"impl outside fences", "impl: |\n" + body + "\nadopted: [r1]\n", kProg, {"r1"}},
      {"prose only", "I cannot make this faster without more information.\nadopted: []\n", "", {}},
      {"a fence without a program", "```yaml\nnotes: none\n```\n", "", {}},
      {"bad ids dropped", "```yaml\nimpl: |\n" + body + "```\nadopted: [r1, r 2, $x, none, r1]\n", kProg, {"r1"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto a = read_answer(c.text);
    EXPECT_EQ(a.impl, c.impl);
    EXPECT_EQ(a.adopted, c.adopted);
    EXPECT_EQ(a.unterminated, c.unterminated);
  }
}

// The v1 answer parser's corpus (tests/data/responses): where the v1 parser reads a program from a fence or a
// bare `impl:`, read_answer reads the same text.
TEST(Opt2ReadAnswer, AgreesWithTheV1ParserOnItsCorpus) {
  int compared = 0;
  for (const char* f : {"01_clean_yaml_fence.md", "02_prose_around.md", "03_bare_impl.txt", "04_missing_pipe.md",
                        "05_crlf.md", "06_tabs.md", "07_python_fence_impl.md", "08_python_fence_program.md",
                        "09_several_blocks_last_wins.md", "10_block_then_explanation_block.md",
                        "11_unindented_body.md", "12_strip_chomp.md", "13_tilde_fence.md", "14_unclosed_fence.md",
                        "15_comments_and_blank_lines.md"}) {
    SCOPED_TRACE(f);
    const std::string text = file_text(std::string(SF_TEST_DATA_DIR) + "/responses/" + f);
    ASSERT_FALSE(text.empty());
    auto v1 = agent::parse_response(text, {});
    ASSERT_TRUE(v1.impl);
    EXPECT_EQ(read_answer(text).impl, *v1.impl);
    ++compared;
  }
  EXPECT_EQ(compared, 15);
}

TEST(Opt2ReadAnswer, HostileAnswersAreBounded) {
  // 1.6 MB of fence lines, a 100 000-id adopted line, a 1 MiB program line: bounded results.
  std::string fences;
  for (int i = 0; i < 200000; ++i) fences += "```\n";
  std::string ids = "adopted: [";
  for (int i = 0; i < 100000; ++i) ids += "r" + std::to_string(i) + ",";
  const std::string huge = "```yaml\nimpl: |\n  a = step.X().apply(" + std::string(1 << 20, 'A') + ")\n```\n";
  auto a = read_answer(fences + fences);
  EXPECT_TRUE(a.impl.empty());
  auto b = read_answer(ids + "]\n");
  EXPECT_EQ(b.adopted.size(), 16u);
  auto c = read_answer(huge);
  EXPECT_LE(c.impl.size(), 256u * 1024u);
  EXPECT_TRUE(c.unterminated);  // the closing fence is past the 256 KiB read
}

}  // namespace
}  // namespace sf::synth::opt2
