// stepforge-cli end to end for mode sage on the builtin backend (issue 7): experiences are created by the
// offline distiller, retrieved, adopted (truthfully: their pattern occurs in the program), credited and
// consolidated (validated, abstracted, promoted); `campaign report --json` has er / rounds_to_first_correct;
// the memory commands show, export and import (with a clear error for a bad file).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/e2e/cli_test_util.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

using sf::e2e::cli;
using sf::e2e::CliRun;

namespace {

std::vector<json> events(const fs::path& dir) {
  std::vector<json> out;
  std::ifstream in(dir / "events.jsonl");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

std::string config_path() {
  return std::string(SF_SOURCE_DIR) + "/resources/configs/sage-demo.json";
}

// Two tasks, two passes, one round, validation after one adoption by one operator: fast and exercises every
// stage of the memory's lifecycle.
const std::string kSmall =
    " --quiet --set tasks=gemm_easy/batched_matvec,moe_index/mlp_score_threshold --set memory.episodes=2"
    " --set memory.rounds=1 --set memory.k_ado=1 --set memory.k_op=1 --set order=given";

}  // namespace

TEST(CliSage, MemoryLifecycleOnTheBuiltinBackend) {
  fs::path ws = fs::temp_directory_path() / "sf_e2e_sage";
  fs::remove_all(ws);
  CliRun run = cli("campaign run " + config_path() + " --out " + ws.string() + kSmall);
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("ER 1.000"), std::string::npos) << run.out;

  auto ev = events(ws);
  std::map<std::string, int> n;
  int adopted = 0, positive_credit = 0;
  for (const auto& e : ev) {
    n[e["type"]]++;
    if (e["type"] == "adoption_record" && e["adopted"].get<bool>()) ++adopted;
    if (e["type"] == "credit" && e["credit"].get<double>() > 0) ++positive_credit;
  }
  EXPECT_EQ(n["episode_started"], 4);
  EXPECT_EQ(n["episode_finished"], 4);
  EXPECT_EQ(n["consolidation"], 4);
  EXPECT_GE(n["experience_added"], 2);  // one per solved task in the first pass
  EXPECT_GE(n["adoption_record"], 2);   // retrieved in the second pass
  EXPECT_GE(adopted, 2);                // the synthesizer used the retrieved chains
  EXPECT_GE(positive_credit, 2);        // ATU: s - beta = 0.8 shared by the adopted set
  // Experiences carry the machine-readable pattern of the offline distiller.
  for (const auto& e : ev) {
    if (e["type"] == "experience_added") {
      EXPECT_NE(e["pattern"].get<std::string>().find('>'), std::string::npos);
    }
  }

  // Consolidated: validated, abstracted and promoted to the hot context.
  CliRun hot = cli("memory show " + ws.string() + " --state hot --json", false);
  ASSERT_EQ(hot.code, 0) << hot.out;
  json h = json::parse(hot.out);
  ASSERT_GE(h["items"].size(), 1u);
  for (const auto& it : h["items"]) {
    EXPECT_EQ(it["state"], "hot");
    EXPECT_TRUE(it["resident_rule"].is_string());
    EXPECT_GT(it["utility"].get<double>(), 0.0);
  }
  CliRun text = cli("memory show " + ws.string());
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("hot"), std::string::npos) << text.out;

  CliRun rep = cli("campaign report " + ws.string() + " --json", false);
  ASSERT_EQ(rep.code, 0) << rep.out;
  json r = json::parse(rep.out);
  EXPECT_DOUBLE_EQ(r["er"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["rounds_to_first_correct"].get<double>(), 1.0);
  EXPECT_EQ(r["mode"], "sage");
  EXPECT_FALSE(r["utility_trajectories"].empty());
  EXPECT_TRUE(r["pass_at_k_episodes"].contains("2"));

  // Export, then import into a config (frozen) and run from it: the imported memory is used, never changed.
  fs::path mem = fs::temp_directory_path() / "sf_e2e_sage_memory.json";
  CliRun ex = cli("memory export " + ws.string() + " " + mem.string());
  ASSERT_EQ(ex.code, 0) << ex.out;
  fs::path cfg = fs::temp_directory_path() / "sf_e2e_sage_config.json";
  fs::copy_file(config_path(), cfg, fs::copy_options::overwrite_existing);
  CliRun im = cli("memory import " + mem.string() + " --into " + cfg.string() + " --frozen");
  ASSERT_EQ(im.code, 0) << im.out;
  std::ifstream cin(cfg);
  json c = json::parse(cin);
  EXPECT_EQ(c["memory"]["frozen"], true);
  EXPECT_EQ(fs::path(c["memory"]["import"].get<std::string>()), mem);
  fs::path ws2 = fs::temp_directory_path() / "sf_e2e_sage_frozen";
  fs::remove_all(ws2);
  CliRun run2 =
      cli("campaign run " + cfg.string() + " --out " + ws2.string() +
          " --quiet --set tasks=gemm_easy/batched_matvec --set memory.rounds=1 --set memory.episodes=1");
  ASSERT_EQ(run2.code, 0) << run2.out;
  int credits = 0, retrieved_or_hot = 0;
  for (const auto& e : events(ws2)) {
    if (e["type"] == "credit" || e["type"] == "experience_added" || e["type"] == "consolidation") ++credits;
    if (e["type"] == "llm_call" && e["trace"]["role"] == "proposer") {
      // The log names the prompt's long pieces in blobs/; `campaign prompt` reassembles it.
      CliRun p = cli("campaign prompt " + ws2.string() + " " + e["seq"].dump() + " --json", false);
      ASSERT_EQ(p.code, 0) << p.out;
      json messages = json::parse(p.out);
      EXPECT_TRUE(e["trace"]["prompt"][1].contains("parts"));
      std::string prompt = messages[1]["content"];
      if (prompt.find("## Resident rules") != std::string::npos) ++retrieved_or_hot;
    }
  }
  CliRun none = cli("campaign prompt " + ws2.string() + " 999999");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.out.find("has no event 999999"), std::string::npos) << none.out;
  EXPECT_EQ(credits, 0);           // frozen: no memory updates
  EXPECT_EQ(retrieved_or_hot, 1);  // the imported hot rules are in the prompt
}

TEST(CliSage, AblationsAreSettableAndReportedInTheConfigEcho) {
  fs::path ws = fs::temp_directory_path() / "sf_e2e_sage_off";
  fs::remove_all(ws);
  CliRun run = cli("campaign run " + config_path() + " --out " + ws.string() + kSmall +
                   " --set memory.enabled=false --set memory.credit=uniform --set order=easy-to-hard");
  ASSERT_EQ(run.code, 0) << run.out;
  auto ev = events(ws);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev[0]["config"]["memory"]["enabled"], false);
  EXPECT_EQ(ev[0]["config"]["memory"]["credit"], "uniform");
  for (const auto& e : ev) {
    EXPECT_NE(e["type"], "adoption_record");  // memory off: nothing retrieved
    EXPECT_NE(e["type"], "credit");
  }
  CliRun bad =
      cli("campaign run " + config_path() + " --out " + (ws.string() + "_x") + " --set memory.credit=gold");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("credit"), std::string::npos) << bad.out;
}

TEST(CliSage, BadMemoryFilesAreRejectedWithAClearMessage) {
  fs::path bad = fs::temp_directory_path() / "sf_e2e_bad_memory.json";
  {
    std::ofstream o(bad);
    o << R"({"format":"stepforge-memory","version":1,"items":[{"id":"a","rule":"r","utility":"high"}]})";
  }
  fs::path cfg = fs::temp_directory_path() / "sf_e2e_sage_config_bad.json";
  fs::copy_file(config_path(), cfg, fs::copy_options::overwrite_existing);
  CliRun im = cli("memory import " + bad.string() + " --into " + cfg.string());
  EXPECT_EQ(im.code, 2);
  EXPECT_NE(im.out.find("items[0].utility"), std::string::npos) << im.out;
  EXPECT_NE(im.out.find("M-IMPORT"), std::string::npos) << im.out;
  std::ifstream cin(cfg);
  json c = json::parse(cin);
  EXPECT_FALSE(c["memory"].contains("import"));  // the config is untouched

  {
    std::ofstream o(bad);
    o << R"({"format":"stepforge-memory","version":7,"items":[]})";
  }
  CliRun v = cli("memory show " + bad.string());
  EXPECT_EQ(v.code, 2);
  EXPECT_NE(v.out.find("unsupported version 7"), std::string::npos) << v.out;
  CliRun missing = cli("memory show /nonexistent/dir");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("no such file"), std::string::npos) << missing.out;
  CliRun st = cli("memory show " + bad.string() + " --state warm");
  EXPECT_EQ(st.code, 2);
}
