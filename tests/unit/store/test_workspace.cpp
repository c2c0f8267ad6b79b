#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/store/workspace.hpp"
#include "tests/unit/store/store_test_util.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using sf::store::Workspace;
using sf::store::test_util::slurp;
using sf::store::test_util::write;

namespace {
fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sf_store_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
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
  EXPECT_EQ(slurp(d / "events.jsonl"), ev(0).dump() + "\n" + ev(1).dump() + "\n");
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
  write(d / "events.jsonl", ev(0).dump() + "\n" + "{\"v\":1,\"seq\":1,\"ty");
  {
    auto ws = Workspace::open(d, err);
    ASSERT_TRUE(ws) << err;
    EXPECT_TRUE(ws->had_truncated_tail());
    ASSERT_EQ(ws->loaded_events().size(), 1u);
    ASSERT_TRUE(ws->append(ev(1), err));
  }
  EXPECT_EQ(slurp(d / "events.jsonl"), ev(0).dump() + "\n" + ev(1).dump() + "\n");
  fs::remove_all(d);
}

TEST(Workspace, CorruptedMiddleLineIsAnErrorWithItsLine) {
  auto d = fresh_dir("corrupt");
  std::string err;
  ASSERT_TRUE(Workspace::create(d, json::object(), err));
  write(d / "events.jsonl", ev(0).dump() + "\n" + "garbage{\n" + ev(2).dump() + "\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("events.jsonl:2:"), std::string::npos) << err;
  write(d / "events.jsonl", ev(0).dump() + "\n[1,2]\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("events.jsonl:2: not an event"), std::string::npos) << err;
  fs::remove_all(d);
}

TEST(Workspace, NewerVersionsAreClearErrors) {
  auto d = fresh_dir("newer");
  std::string err;
  ASSERT_TRUE(Workspace::create(d, json::object(), err));
  write(d / "events.jsonl", json({{"v", 7}, {"type", "x"}}).dump() + "\n");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("newer StepForge (event format v7"), std::string::npos) << err;
  write(d / "events.jsonl", "");
  write(d / "campaign.json", json({{"format", "stepforge-campaign"}, {"version", 3}, {"config", json::object()}}).dump());
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("newer StepForge (workspace format v3"), std::string::npos) << err;
  write(d / "campaign.json", "{not json");
  EXPECT_FALSE(Workspace::open(d, err));
  EXPECT_NE(err.find("corrupted"), std::string::npos) << err;
  write(d / "campaign.json", "{\"n\": 3}");
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
  EXPECT_EQ(json::parse(slurp(d / "memory.json"))["solved"].size(), 3u);
  int files = 0;
  for (const auto& e : fs::directory_iterator(d)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 3);  // campaign.json, events.jsonl, memory.json: no temp file left
  fs::remove_all(d);
}
