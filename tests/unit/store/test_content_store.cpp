// The content store (blobs/) and prompts logged as parts: round trip, bounds, damaged and missing blobs, the
// workspace storing an llm_call's prompt once, and old events with the prompt inline.
#include <gtest/gtest.h>

#include <unistd.h>

#include "core/common/sha256.hpp"
#include "core/store/content_store.hpp"
#include "core/store/workspace.hpp"
#include "tests/support/files.hpp"

using nlohmann::json;
namespace fs = std::filesystem;
using namespace sf::store;

namespace content_store_test {

fs::path scratch(const std::string& name) {
  return sf::test_support::scratch_dir("sf_content_store_" + name, false);
}

// A prompt like the proposer's: a long system prompt, demonstrations, the task and the answer format.
json proposer_prompt(const std::string& task, const std::string& previous = "") {
  std::string manual(6000, 'm');
  std::string user = "## Demonstrations\n\nVerified solutions of other tasks.\n\n### Demonstration 1: a/b\n\n```yaml\n" +
                     std::string(900, 'd') + "\n```\n\n## Task\n\nWrite the `impl`.\n\n```yaml\nid: " + task + "\n" +
                     std::string(700, 't') + "\n```\n";
  if (!previous.empty()) user += "\n## Previous attempt\n\n" + previous + "\n";
  user += "\n## Answer format\n\nAnswer with one block.\n";
  return json::array({{{"role", "system"}, {"content", "You are the proposer.\n\n" + manual}},
                      {{"role", "user"}, {"content", user}}});
}

json llm_call(std::int64_t seq, const json& prompt) {
  return {{"v", 1}, {"seq", seq}, {"t", 1.0}, {"type", "llm_call"}, {"iteration", 0}, {"task", "a/x"},
          {"temperature_index", 0}, {"sample_index", static_cast<int>(seq)},
          {"trace", {{"role", "proposer"}, {"prompt", prompt}, {"response", "ok"}}}};
}

std::size_t files_in(const fs::path& d) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(d)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

}  // namespace content_store_test

using namespace content_store_test;

TEST(ContentStore, PutStoresOnceUnderTheHashAndGetChecksIt) {
  fs::path d = scratch("put");
  ContentStore s(d / "blobs");
  std::string err;
  const std::string text = "the manual\n";
  std::string h = s.put(text, err);
  ASSERT_EQ(h, sf::sha256_hex(text)) << err;
  EXPECT_TRUE(is_content_hash(h));
  EXPECT_EQ(s.put(text, err), h);
  EXPECT_EQ(files_in(d / "blobs"), 1u);
  EXPECT_EQ(s.get(h, err).value_or(""), text);

  // A second store over the same folder finds the blob (no rewrite needed) and reads it.
  ContentStore s2(d / "blobs");
  EXPECT_EQ(s2.put(text, err), h);
  EXPECT_EQ(s2.get(h, err).value_or(""), text);

  // Names that are not hashes are refused before touching the file system.
  for (const char* bad : {"../campaign.json", "", "ABCDEF", "0123"}) {
    EXPECT_FALSE(s.get(bad, err)) << bad;
    EXPECT_NE(err.find("no content hash"), std::string::npos) << err;
  }
  // Missing and damaged blobs name the file.
  const std::string other = sf::sha256_hex("other");
  EXPECT_FALSE(s.get(other, err));
  EXPECT_NE(err.find((d / "blobs" / other).string()), std::string::npos) << err;
  EXPECT_NE(err.find("missing"), std::string::npos) << err;
  sf::test_support::write_text(d / "blobs" / h, "the manual, edited\n");
  EXPECT_FALSE(s.get(h, err));
  EXPECT_NE(err.find("damaged"), std::string::npos) << err;
  fs::remove_all(d);
}

TEST(ContentStore, PromptPartsRoundTripAndKeepShortPiecesInline) {
  fs::path d = scratch("parts");
  ContentStore s(d / "blobs");
  std::string err;
  const json prompt = proposer_prompt("a/x", "short previous");
  auto parts = store_prompt(prompt, s, err);
  ASSERT_TRUE(parts) << err;
  ASSERT_EQ(parts->size(), 2u);
  // system: one blob; user: the intro text inline, demonstration, task blobs, the short tail inline.
  EXPECT_EQ((*parts)[0]["role"], "system");
  EXPECT_EQ((*parts)[0]["parts"], json::array({{{"blob", sf::sha256_hex(prompt[0]["content"].get<std::string>())}}}));
  const json& up = (*parts)[1]["parts"];
  ASSERT_EQ(up.size(), 4u) << up.dump();
  EXPECT_EQ(up[0]["text"], "## Demonstrations\n\nVerified solutions of other tasks.\n\n");
  EXPECT_TRUE(up[1].contains("blob"));
  EXPECT_TRUE(up[2].contains("blob"));
  EXPECT_TRUE(up[3]["text"].get<std::string>().find("short previous") != std::string::npos);
  EXPECT_LT(parts->dump().size(), 600u);
  auto back = load_prompt(*parts, s, err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(*back, prompt);

  // A second call differing only in its per-call text adds no blob.
  const std::size_t blobs = files_in(d / "blobs");
  auto parts2 = store_prompt(proposer_prompt("a/x", "another short previous"), s, err);
  ASSERT_TRUE(parts2) << err;
  EXPECT_EQ(files_in(d / "blobs"), blobs);
  EXPECT_EQ((*parts2)[0], (*parts)[0]);

  // Inline messages (logs written before the content store) come back as they are; mixed forms too.
  auto old = load_prompt(prompt, s, err);
  ASSERT_TRUE(old) << err;
  EXPECT_EQ(*old, prompt);
  json mixed = json::array({(*parts)[0], prompt[1]});
  EXPECT_EQ(load_prompt(mixed, s, err).value_or(json()), prompt);
  // Empty content: no parts, and back.
  auto empty = store_prompt(json::array({{{"role", "user"}, {"content", ""}}}), s, err);
  ASSERT_TRUE(empty) << err;
  EXPECT_EQ(load_prompt(*empty, s, err).value_or(json()), json::array({{{"role", "user"}, {"content", ""}}}));
  fs::remove_all(d);
}

TEST(ContentStore, MalformedOrOversizedPromptsAreClearErrors) {
  fs::path d = scratch("bad");
  ContentStore s(d / "blobs");
  std::string err;
  EXPECT_FALSE(load_prompt(json::object(), s, err));
  EXPECT_FALSE(load_prompt(json::array({{{"role", "user"}}}), s, err));
  EXPECT_EQ(err, "prompt message 1: has neither content nor parts");
  EXPECT_FALSE(load_prompt(json::array({{{"role", "user"}, {"parts", json::array({{{"x", 1}}})}}}), s, err));
  EXPECT_EQ(err, "prompt message 1: a part must be {text} or {blob}");
  EXPECT_FALSE(load_prompt(json::array({{{"role", "user"}, {"parts", json::array({{{"blob", "../../etc/passwd"}}})}}}),
                           s, err));
  EXPECT_NE(err.find("no content hash"), std::string::npos) << err;
  json many = json::array();
  for (std::size_t i = 0; i <= kMaxPromptParts; ++i) many.push_back({{"text", "x"}});
  EXPECT_FALSE(load_prompt(json::array({{{"role", "user"}, {"parts", many}}}), s, err));
  EXPECT_NE(err.find("parts"), std::string::npos) << err;
  // One blob named over and over cannot blow the prompt up past the bound.
  std::string h = s.put(std::string(1 << 20, 'z'), err);
  ASSERT_FALSE(h.empty()) << err;
  json refs = json::array();
  for (std::size_t i = 0; i < (kMaxPromptChars >> 20) + 1; ++i) refs.push_back({{"blob", h}});
  EXPECT_FALSE(load_prompt(json::array({{{"role", "user"}, {"parts", refs}}}), s, err));
  EXPECT_NE(err.find("exceeds"), std::string::npos) << err;
  EXPECT_FALSE(store_prompt(json::array({{{"role", "user"}, {"content", 3}}}), s, err));
  fs::remove_all(d);
}

TEST(ContentStore, WorkspaceLogsAnLlmCallsPromptAsPartsAndOldEventsStillRead) {
  fs::path d = scratch("ws");
  std::string err;
  const json p0 = proposer_prompt("a/x", "first"), p1 = proposer_prompt("a/x", "second");
  {
    auto ws = Workspace::create(d, json::object(), err);
    ASSERT_TRUE(ws) << err;
    ASSERT_TRUE(ws->append(llm_call(0, p0), err)) << err;
    ASSERT_TRUE(ws->append(llm_call(1, p1), err)) << err;
    // Only llm_call events are rewritten.
    ASSERT_TRUE(ws->append({{"v", 1}, {"seq", 2}, {"t", 1.0}, {"type", "warning"}, {"prompt", "kept"}}, err)) << err;
  }
  const std::string log = sf::test_support::read_text(d / "events.jsonl");
  EXPECT_EQ(log.find(std::string(900, 'd')), std::string::npos);  // no demonstration text in the log
  EXPECT_LT(log.size(), 2000u);
  // An old line (prompt inline) appended by an older StepForge.
  std::ofstream(d / "events.jsonl", std::ios::app) << llm_call(3, p0).dump() << "\n";

  auto ws = Workspace::open_read_only(d, err);
  ASSERT_TRUE(ws) << err;
  const auto& evs = ws->loaded_events();
  ASSERT_EQ(evs.size(), 4u);
  EXPECT_TRUE(evs[0]["trace"]["prompt"][0].contains("parts"));
  EXPECT_EQ(evs[2]["prompt"], "kept");
  EXPECT_TRUE(evs[3]["trace"]["prompt"][0].contains("content"));
  EXPECT_EQ(load_prompt(evs[0]["trace"]["prompt"], ws->blobs(), err).value_or(json()), p0) << err;
  EXPECT_EQ(load_prompt(evs[1]["trace"]["prompt"], ws->blobs(), err).value_or(json()), p1) << err;
  EXPECT_EQ(load_prompt(evs[3]["trace"]["prompt"], ws->blobs(), err).value_or(json()), p0) << err;

  // A lost blob: the error names the workspace file.
  const std::string h = evs[0]["trace"]["prompt"][0]["parts"][0]["blob"];
  fs::remove(d / "blobs" / h);
  EXPECT_FALSE(load_prompt(evs[0]["trace"]["prompt"], ws->blobs(), err));
  EXPECT_NE(err.find((d / "blobs" / h).string()), std::string::npos) << err;
  EXPECT_EQ(err.rfind("prompt message 1: ", 0), 0u) << err;
  fs::remove_all(d);
}
