#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/store/workspace.hpp"
#include "tests/support/files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using sf::store::Workspace;
using sf::test_support::read_text;
using sf::test_support::write_text;

namespace {
fs::path fresh_dir(const std::string& name) {
  return sf::test_support::scratch_dir("sf_store_test_" + name, false);
}
json ev(int seq) { return {{"v", 1}, {"seq", seq}, {"type", "x"}}; }
}  // namespace

TEST(Workspace, CreateAppendReopen) {
  auto d = fresh_dir("roundtrip");
  std::string err;
  {
    auto ws = Workspace::create(d, {{"n", 4}}, err);
    ASSERT_TRUE(ws) << err;
    EXPECT_TRUE(fs::is_directory(d / "cache"));
    ASSERT_TRUE(ws->append(ev(0), err));
    ASSERT_TRUE(ws->append(ev(1), err));
    ASSERT_TRUE(ws->sync(err));
  }
  EXPECT_EQ(read_text(d / "events.jsonl"), ev(0).dump() + "\n" + ev(1).dump() + "\n");
  auto ws = Workspace::open(d, err);
  ASSERT_TRUE(ws) << err;
  EXPECT_EQ(ws->config()["n"], 4);
  ASSERT_EQ(ws->loaded_events().size(), 2u);
  EXPECT_EQ(ws->loaded_events()[1]["seq"], 1);
  EXPECT_FALSE(ws->had_truncated_tail());
  // A second create in the same folder is refused.
  EXPECT_FALSE(Workspace::create(d, {{"n", 4}}, err));
  EXPECT_NE(err.find("already holds a campaign"), std::string::npos);
  fs::remove_all(d);
}

TEST(Workspace, TruncatedLastLineIsIgnoredAndCutBeforeAppending) {
  auto d = fresh_dir("trunc");
  std::string err;
  ASSERT_TRUE(Workspace::create(d, json::object(), err));
  write_text(d / "events.jsonl", ev(0).dump() + "\n" + "{\"v\":1,\"seq\":1,\"ty");
  {
    auto ws = Workspace::open(d, err);
    ASSERT_TRUE(ws) << err;
    EXPECT_TRUE(ws->had_truncated_tail());
    ASSERT_EQ(ws->loaded_events().size(), 1u);
    ASSERT_TRUE(ws->append(ev(1), err));
  }
  EXPECT_EQ(read_text(d / "events.jsonl"), ev(0).dump() + "\n" + ev(1).dump() + "\n");
  fs::remove_all(d);
}

TEST(Workspace, CorruptedMiddleLineIsAnErrorWithItsLine) {
  auto d = fresh_dir("corrupt");
  std::string err;
  ASSERT_TRUE(Workspace::create(d, json::object(), err));
  write_text(d / "events.jsonl", ev(0).dump() + "\n" + "garbage{\n" + ev(2).dump() + "\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("events.jsonl:2:"), std::string::npos) << err;
  write_text(d / "events.jsonl", ev(0).dump() + "\n[1,2]\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("events.jsonl:2: not an event"), std::string::npos) << err;
  fs::remove_all(d);
}

TEST(Workspace, NewerVersionsAreClearErrors) {
  auto d = fresh_dir("newer");
  std::string err;
  ASSERT_TRUE(Workspace::create(d, json::object(), err));
  write_text(d / "events.jsonl", json({{"v", 7}, {"type", "x"}}).dump() + "\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("newer StepForge (event format v7"), std::string::npos) << err;
  write_text(d / "events.jsonl", "");
  write_text(d / "campaign.json",
             json({{"format", "stepforge-campaign"}, {"version", 3}, {"config", json::object()}}).dump());
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("newer StepForge (workspace format v3"), std::string::npos) << err;
  write_text(d / "campaign.json", "{not json");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("corrupted"), std::string::npos) << err;
  write_text(d / "campaign.json", "{\"n\": 3}");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("not a StepForge campaign file"), std::string::npos) << err;
  EXPECT_FALSE(Workspace::open(d / "nowhere", err));
  EXPECT_NE(err.find("not a campaign workspace"), std::string::npos);
  fs::remove_all(d);
}

TEST(Workspace, MemorySnapshotIsWrittenAtomically) {
  auto d = fresh_dir("memory");
  std::string err;
  auto ws = Workspace::create(d, json::object(), err);
  ASSERT_TRUE(ws);
  ASSERT_TRUE(ws->write_memory({{"solved", {1, 2}}}, err)) << err;
  ASSERT_TRUE(ws->write_memory({{"solved", {1, 2, 3}}}, err)) << err;
  EXPECT_EQ(json::parse(read_text(d / "memory.json"))["solved"].size(), 3u);
  int files = 0;
  for (const auto& e : fs::directory_iterator(d)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 3);  // campaign.json, events.jsonl, memory.json: no temp file left
  fs::remove_all(d);
}

// The tailing reader (following a live log, replaying, opening): every event is returned once, whatever the
// appends and read sizes; a line still being written waits for its newline; a bad line is reported with its
// number and the reader goes on after it.
TEST(EventLogReader, ReturnsEachEventOnceAcrossAppendsAndAPartialLastLine) {
  auto d = fresh_dir("tail");
  fs::create_directories(d);
  const fs::path f = d / "events.jsonl";
  sf::store::EventLogReader reader(f);
  std::vector<json> got;
  std::string err;
  ASSERT_TRUE(reader.read(got, err)) << err;  // no file yet: nothing
  EXPECT_TRUE(got.empty());
  auto append = [&](const std::string& s) { std::ofstream(f, std::ios::binary | std::ios::app) << s; };
  append(ev(0).dump() + "\n" + ev(1).dump() + "\n");
  const std::string third = ev(2).dump();
  append(third.substr(0, 5));  // the writer is mid-line
  ASSERT_TRUE(reader.read(got, err)) << err;
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(reader.valid_bytes(), ev(0).dump().size() + ev(1).dump().size() + 2);
  ASSERT_TRUE(reader.read(got, err)) << err;  // nothing new: nothing returned again
  EXPECT_EQ(got.size(), 2u);
  append(third.substr(5) + "\n" + ev(3).dump());  // the line completed; the next one still partial
  ASSERT_TRUE(reader.read(got, err)) << err;
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2], ev(2));
  append("\n");
  // Read in small steps (a budget of 7 bytes per call): the same events, once each.
  while (got.size() < 4) ASSERT_TRUE(reader.read(got, err, 7)) << err;
  EXPECT_EQ(got[3], ev(3));
  ASSERT_TRUE(reader.read(got, err)) << err;
  EXPECT_EQ(got.size(), 4u);
  // A bad line: reported with its number, the lines after it still come.
  append("garbage{\n" + ev(5).dump() + "\n");
  EXPECT_FALSE(reader.read(got, err));
  EXPECT_NE(err.find("events.jsonl:5:"), std::string::npos) << err;
  ASSERT_TRUE(reader.read(got, err)) << err;
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[4], ev(5));
  // The end of a log nobody writes: a complete unterminated last line is taken, a partial one ignored.
  append(ev(6).dump());
  ASSERT_TRUE(reader.read(got, err)) << err;
  EXPECT_EQ(got.size(), 5u);
  ASSERT_TRUE(reader.finish(got, err)) << err;
  ASSERT_EQ(got.size(), 6u);
  EXPECT_FALSE(reader.truncated_tail());
  sf::store::EventLogReader again(f);
  append("\n{\"v\":1,\"se");
  std::vector<json> all;
  EXPECT_FALSE(again.read(all, err));  // stops at the garbage line
  ASSERT_TRUE(again.read(all, err)) << err;
  ASSERT_TRUE(again.finish(all, err)) << err;
  EXPECT_EQ(all, got);
  EXPECT_TRUE(again.truncated_tail());
  fs::remove_all(d);
}
