// The builtin backend's offline distiller and abstractor (core/synth/offline_roles, issue 5 §6) answer the
// prompts core/agent builds in exactly the format core/agent parses, so the sage engine's memory phase is the
// same code path offline as with an LLM.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/agent/distiller.hpp"
#include "core/bench/catalogue.hpp"
#include "core/synth/guidance.hpp"
#include "core/synth/offline_roles.hpp"
#include "core/verify/checker.hpp"

namespace {

const std::string kTask = "gemm_easy/batched_matvec";

std::string solution_impl() {
  std::ifstream in(std::string(SF_SOURCE_DIR) + "/resources/solutions/" + kTask + ".yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  s = s.substr(s.find("impl: |") + 8);
  std::string out, line;
  std::istringstream ls(s);
  while (std::getline(ls, line)) out += (line.size() >= 2 ? line.substr(2) : line) + "\n";
  return out;
}

const sf::step::TaskDoc& task() {
  sf::Diagnostics d;
  static auto cat = sf::bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  for (const auto& t : cat.tasks())
    if (t.id == kTask) return t;
  throw std::runtime_error("task missing");
}

}  // namespace

TEST(SageOfflineRoles, TheDistillerNamesTheFixingChainAndTheDiagnosticItFixed) {
  const std::string impl = solution_impl();
  sf::agent::Episode ep;
  ep.task_id = kTask;
  ep.task_text = task().raw_text_without_impl;
  // The failing attempt lacks the Bufferize > Repeat > Streamify chain.
  ep.attempts.push_back(
      {"E2 = step.Zip().apply((E0, E1))\nreturn E2\n",
       "impl:1:1: error: the output type differs [O-TYPE]\nimpl:2:1: error: again [V-MISMATCH]", false});
  ep.attempts.push_back({impl, "", true});
  ep.final_program = impl;
  auto msgs = sf::agent::Distiller::prompt(ep);
  EXPECT_EQ(sf::synth::offline_role(msgs), "distiller");
  std::string answer = sf::synth::offline_distill_answer(msgs);
  auto r = sf::agent::parse_distill_answer(answer, kTask);
  ASSERT_TRUE(r.diagnostics.empty()) << answer;
  ASSERT_GE(r.experiences.size(), 1u) << answer;
  const auto& x = r.experiences[0];
  EXPECT_NE(x.rule.find("Bufferize > Repeat > Streamify"), std::string::npos) << x.rule;
  EXPECT_NE(x.rule.find("fixed a failing attempt (O-TYPE)"), std::string::npos) << x.rule;
  EXPECT_NE(x.evidence.find("O-TYPE, V-MISMATCH"), std::string::npos) << x.evidence;
  EXPECT_EQ(x.code_example,
            "E2 = step.Bufferize(a=1).apply(E1)                 # [N] of Buffer(fp32, [K])   the vector of "
            "batch n\n"
            "E3 = step.Repeat(n=M).apply(E2)                    # [M, N] of Buffer(fp32, [K])\n"
            "E4 = step.Streamify().apply(E3)                    # [K, M, N] of fp32");
  // The machine-readable pattern occurs in the verified program (so adoption can be truthful).
  auto pat = answer.find("pattern: \"Bufferize>Repeat>Streamify\"");
  ASSERT_NE(pat, std::string::npos) << answer;
  auto ck = sf::verify::check_program(task(), impl, {});
  ASSERT_TRUE(ck.program);
  EXPECT_TRUE(sf::synth::pattern_occurs(*ck.program, "Bufferize>Repeat>Streamify"));

  // The abstractor turns it into a resident rule naming the chain, with at most four example lines.
  sf::agent::Experience e{x.id, x.rule, x.evidence, x.code_example, "Bufferize>Repeat>Streamify"};
  auto am = sf::agent::Abstractor::prompt(e);
  EXPECT_EQ(sf::synth::offline_role(am), "abstractor");
  auto ar = sf::agent::parse_abstract_answer(sf::synth::offline_abstract_answer(am), x.id);
  ASSERT_TRUE(ar.rule);
  EXPECT_NE(ar.rule->text.find("build Bufferize > Repeat > Streamify as one dataflow chain"),
            std::string::npos)
      << ar.rule->text;
  EXPECT_NE(ar.rule->example.find("step.Repeat"), std::string::npos);
}

TEST(SageOfflineRoles, NoVerifiedAttemptGivesNoExperienceAndProposerPromptsAreNotRoles) {
  sf::agent::Episode ep;
  ep.task_id = kTask;
  ep.task_text = task().raw_text_without_impl;
  ep.attempts.push_back({"return E0\n", "impl:1:1: error: wrong [O-TYPE]", false});
  auto msgs = sf::agent::Distiller::prompt(ep);
  auto r = sf::agent::parse_distill_answer(sf::synth::offline_distill_answer(msgs), kTask);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_TRUE(r.experiences.empty());
  sf::agent::PromptInput in;
  in.manual_text = "manual";
  in.task_text = task().raw_text_without_impl;
  EXPECT_EQ(sf::synth::offline_role(sf::agent::build_messages(in)), "");
  sf::llm::ChatRequest req;
  req.messages = sf::agent::build_messages(in);
  EXPECT_FALSE(sf::synth::offline_role_chat(req));
  // Garbage never throws and gives an empty list.
  std::vector<sf::llm::ChatMessage> junk = {
      {"system", "You are the distiller of StepForge."},
      {"user", "## Task x\n```yaml\n: : :\n```\n### Attempt 1 (verified)\n"}};
  auto j = sf::agent::parse_distill_answer(sf::synth::offline_distill_answer(junk), "x");
  EXPECT_TRUE(j.experiences.empty());
  EXPECT_TRUE(j.diagnostics.empty());
}
