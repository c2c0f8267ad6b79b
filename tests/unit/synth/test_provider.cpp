// The synthesizer behind the builtin LLM seam: it reads the proposer's prompt (built by
// core/agent/prompt_builder) and answers like an LLM (impl + truthful adoption).
#include <gtest/gtest.h>

#include <string>

#include "core/agent/guardian.hpp"
#include "core/agent/prompt_builder.hpp"
#include "core/agent/response_parser.hpp"
#include "core/bench/catalogue.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/synth/provider.hpp"
#include "core/verify/verifier.hpp"
#include "tests/support/catalogue.hpp"

namespace sf::synth {
namespace {

using test_support::catalogue;

agent::PromptInput prompt_for(const step::TaskDoc& t) {
  agent::PromptInput in;
  in.manual_text = "(manual)";
  in.task_text = t.raw_text_without_impl;
  return in;
}

TEST(SynthProvider, ParsesThePromptSections) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  auto in = prompt_for(*t);
  in.demos.push_back({"x/demo", "id: x/demo\n", "E1 = step.Identity().apply(E0)\nreturn E1\n"});
  in.experiences.push_back({"exp-1", "use scan", "", "", "Scan>Map"});
  in.experiences.push_back({"exp-2", "no pattern here", "evidence", "", ""});
  auto pc = parse_prompt(agent::build_messages(in));
  EXPECT_EQ(pc.task_text.substr(0, 15), t->raw_text_without_impl.substr(0, 15));
  ASSERT_EQ(pc.demo_texts.size(), 1u);
  EXPECT_NE(pc.demo_texts[0].find("impl: |\n  E1 = step.Identity().apply(E0)"), std::string::npos);
  ASSERT_EQ(pc.memory.size(), 2u);
  EXPECT_EQ(pc.memory[0].id, "exp-1");
  EXPECT_EQ(pc.memory[0].pattern, "Scan>Map");
  EXPECT_EQ(pc.memory[1].id, "exp-2");
  EXPECT_EQ(pc.memory[1].pattern, "");
  EXPECT_TRUE(pc.rule_patterns.empty());
}

// Resident rules may carry patterns (in their text or on a `pattern:` line); they steer the search but are
// not part of the adoption block.
TEST(SynthProvider, ReadsResidentRulePatterns) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  auto in = prompt_for(*t);
  in.rules.push_back({"r1", "reduce partial sums (pattern: `Promote>Accum>Streamify>Flatten`)", ""});
  in.rules.push_back({"r2", "no pattern in this one", ""});
  auto msgs = agent::build_messages(in);
  for (auto& m : msgs) {  // a separate pattern line, as a rule item may print it
    if (m.role != "user") continue;
    auto k = m.content.find("- [r2]");
    ASSERT_NE(k, std::string::npos);
    auto e = m.content.find('\n', k);
    m.content.insert(e + 1, "  pattern: Scan>Map\n");
  }
  auto pc = parse_prompt(msgs);
  ASSERT_EQ(pc.rule_patterns.size(), 2u);
  EXPECT_EQ(pc.rule_patterns[0], "Promote>Accum>Streamify>Flatten");
  EXPECT_EQ(pc.rule_patterns[1], "Scan>Map");
  EXPECT_EQ(pc.rule_ids, (std::vector<std::string>{"r1", "r2"}));
  EXPECT_TRUE(pc.memory.empty());
  EXPECT_FALSE(pc.performance);
  in.baseline_cycles = 1234;  // the performance objective's prompt
  EXPECT_TRUE(parse_prompt(agent::build_messages(in)).performance);
}

TEST(SynthProvider, AnswersLikeAnLlmThroughTheBuiltinBackend) {
  const auto* t = catalogue().find("extra/exclusive_cumsum");
  ASSERT_NE(t, nullptr);
  register_builtin_provider();
  ASSERT_TRUE(llm::has_builtin_provider("synth"));
  auto in = prompt_for(*t);
  in.experiences.push_back({"exp-scan", "running sums are a Scan", "", "", "Scan"});
  in.experiences.push_back({"exp-rep", "broadcast with Repeat", "", "", "Bufferize>Repeat>Streamify"});
  llm::ChatRequest req;
  req.messages = agent::build_messages(in);
  req.temperature = 0.0;
  llm::BuiltinBackend backend("synth");
  auto r = backend.chat(req, llm::CancelToken());
  ASSERT_TRUE(r.ok()) << r.error.message;
  auto parsed = agent::parse_response(r.response->text, {"exp-scan", "exp-rep"});
  ASSERT_TRUE(parsed.impl) << r.response->text;
  // emitted without Copy (E0 feeds the Scan and the subtraction): the guardian's rewrite inserts it
  EXPECT_EQ(parsed.impl->find("Copy"), std::string::npos) << *parsed.impl;
  auto guarded = agent::copy_rewrite(*t, *parsed.impl);
  ASSERT_TRUE(guarded);
  EXPECT_NE(guarded->find("step.Copy()"), std::string::npos) << *guarded;
  verify::Verifier v;
  EXPECT_TRUE(v.verify(*t, *guarded).pass) << *guarded;  // the full task: alt sizes, both seeds
  EXPECT_TRUE(parsed.adoption_complete());
  // truthful adoption: the program of an exclusive cumsum uses a Scan, and no broadcast chain
  EXPECT_EQ(parsed.adopted("exp-scan"), std::optional<bool>(true)) << *parsed.impl;
  EXPECT_EQ(parsed.adopted("exp-rep"), std::optional<bool>(false)) << *parsed.impl;
  // deterministic at temperature 0: the same request gives the same answer
  auto r2 = backend.chat(req, llm::CancelToken());
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2.response->text, r.response->text);
}

TEST(SynthProvider, APromptWithoutATaskIsAProviderError) {
  llm::ChatRequest req;
  req.messages = {{"system", "manual"}, {"user", "## Demonstrations\n\nnothing\n"}};
  auto r = synth_chat(req, llm::CancelToken());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "provider");
  req.messages[1].content = "## Task\n\n```yaml\nid: [unclosed\n```\n";
  r = synth_chat(req, llm::CancelToken());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "provider");
}

TEST(SynthProvider, SampleIndexAndSeedChangeTheSearchSeed) {
  llm::ChatRequest a, b, c;
  b.sample_index = 1;
  c.seed = 7;
  EXPECT_NE(options_for(a).seed, options_for(b).seed);
  EXPECT_NE(options_for(a).seed, options_for(c).seed);
  EXPECT_EQ(options_for(a).seed, options_for(llm::ChatRequest{}).seed);
  a.temperature = 0.7;
  EXPECT_DOUBLE_EQ(options_for(a).temperature, 0.7);
}

// Config novelty: the "## Already tried" programs of the prompt are never answered again (canonical form).
TEST(SynthProvider, NeverAnswersAnAlreadyTriedProgram) {
  const auto* t = catalogue().find("rope/gptj_interleaved");
  ASSERT_NE(t, nullptr);
  auto in = prompt_for(*t);
  llm::ChatRequest req;
  req.messages = agent::build_messages(in);
  auto first = synth_chat(req, llm::CancelToken());
  ASSERT_TRUE(first.ok());
  auto p1 = agent::parse_response(first.response->text, {});
  ASSERT_TRUE(p1.impl);
  in.already_tried.push_back(*p1.impl);
  auto msgs = agent::build_messages(in);
  EXPECT_NE(msgs.back().content.find("## Already tried"), std::string::npos);
  ASSERT_EQ(parse_prompt(msgs).tried.size(), 1u);
  req.messages = msgs;
  auto second = synth_chat(req, llm::CancelToken());
  ASSERT_TRUE(second.ok());
  auto p2 = agent::parse_response(second.response->text, {});
  if (p2.impl) {
    EXPECT_NE(*p2.impl, *p1.impl);
  }
}

}  // namespace
}  // namespace sf::synth
