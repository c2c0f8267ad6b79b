// Campaign sweeps on Slurm (issue 35): the array spec, the job script, the parsers of squeue/scontrol output
// and every cell state of `campaign sweep status` from the workspace, the cell's record and Slurm's word. The
// real cluster run is tests/cluster/test_sweep_slurm.sh.
#include <gtest/gtest.h>

#include <fstream>

#include "core/learn/sweep_slurm.hpp"

namespace sf::learn {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(SweepSlurm, ArraySpecCompressesRangesAndThrottles) {
  EXPECT_EQ(array_spec({0, 1, 2, 3}, 2), "0-3%2");
  EXPECT_EQ(array_spec({7, 3, 1, 5, 6, 3}, 0), "1,3,5-7");
  EXPECT_EQ(array_spec({4}, 1), "4%1");
}

TEST(SweepSlurm, ScriptIsReadableAndChecksItsArguments) {
  std::string err;
  auto s = sbatch_script("/shared/sweep it", "/opt/sf/bin/stepforge-cli", 6, 2, {"--partition=gpu", "-t 02:00:00"}, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_NE(s->find("\n#SBATCH --array=0-5%2\n"), std::string::npos) << *s;
  EXPECT_NE(s->find("\n#SBATCH --output=/shared/sweep it/slurm/logs/cell-%a.out\n"), std::string::npos) << *s;
  EXPECT_NE(s->find("\n#SBATCH --partition=gpu\n#SBATCH -t 02:00:00\n"), std::string::npos) << *s;
  EXPECT_NE(s->find("\nexec '/opt/sf/bin/stepforge-cli' campaign sweep-cell '/shared/sweep it' \"$SLURM_ARRAY_TASK_ID\"\n"),
            std::string::npos)
      << *s;
  EXPECT_FALSE(sbatch_script("/s", "/b", 2, 0, {"partition=gpu"}, err));
  EXPECT_NE(err.find("--sbatch-arg 'partition=gpu'"), std::string::npos) << err;
  EXPECT_FALSE(sbatch_script("/s", "/b", 2, 0, {"--comment=a\n#SBATCH --x"}, err));
  EXPECT_FALSE(sbatch_script("relative", "/b", 2, 0, {}, err));
  EXPECT_FALSE(sbatch_script("/s/100%", "/b", 2, 0, {}, err));
}

TEST(SweepSlurm, ParsesSqueueAndScontrol) {
  std::map<std::string, std::string> t;
  parse_squeue("12_0|RUNNING\n12_[2-3%1]|PENDING\ngarbage\n13|PENDING\n", t);
  EXPECT_EQ(t["12_0"], "RUNNING");
  EXPECT_EQ(t["12_2"], "PENDING");
  EXPECT_EQ(t["12_3"], "PENDING");
  EXPECT_EQ(t.size(), 3u);
  parse_scontrol("JobId=15 ArrayJobId=12 ArrayTaskId=1 JobName=sf-sweep JobState=CANCELLED Reason=None\n"
                 "JobId=16 ArrayJobId=12 ArrayTaskId=0 JobState=COMPLETED\n"
                 "JobId=20 JobName=other JobState=FAILED\n",
                 t);
  EXPECT_EQ(t["12_1"], "CANCELLED");
  EXPECT_EQ(t["12_0"], "RUNNING");  // squeue's live word wins
  EXPECT_EQ(t.size(), 4u);
}

class SweepStatusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("sf-sweep-status-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    json sweep = {{"format", "stepforge-sweep"}, {"version", 1}, {"config", json::object()},
                  {"seeds", {1, 2, 3, 4, 5, 6}}, {"variants", {{{"name", "v0"}, {"overrides", json::array()}}}}};
    std::ofstream(root_ / "sweep.json") << sweep.dump();
    std::string err;
    auto f = read_sweep_folder(root_, err);
    ASSERT_TRUE(f) << err;
    folder_ = *f;
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
  SweepFolder folder_;
};

TEST_F(SweepStatusTest, EveryStateFromRecordsAndSlurm) {
  SlurmJobs jobs;
  jobs.submissions.push_back({"40", {0, 1, 2, 3, 4}});
  for (int i = 0; i < 5; ++i) jobs.cell_job[i] = "40";
  std::string err;
  ASSERT_TRUE(write_slurm_jobs(root_, jobs, err)) << err;
  auto back = read_slurm_jobs(root_, err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->cell_job.size(), 5u);
  EXPECT_EQ(back->submissions.at(0).indices, (std::vector<int>{0, 1, 2, 3, 4}));

  ASSERT_TRUE(write_cell_record(root_, 2, {1, "cancelled", "40_2", "node1", "cancelled (scancel)"}, err));
  ASSERT_TRUE(write_cell_record(root_, 3, {3, "failed", "40_3", "node1", "gave up after 3 attempts"}, err));
  SlurmView view;
  view.tasks = {{"40_0", "RUNNING"}, {"40_1", "PENDING"}, {"40_4", "COMPLETED"}};
  auto st = sweep_status(root_, folder_, &*back, &view);
  ASSERT_EQ(st.size(), 6u);
  EXPECT_EQ(st[0].state, CellState::Running);
  EXPECT_EQ(st[1].state, CellState::Pending);
  EXPECT_EQ(st[2].state, CellState::Cancelled);  // Slurm forgot it: the cell's own record
  EXPECT_EQ(st[3].state, CellState::Failed);
  EXPECT_EQ(st[3].attempts, 3);
  EXPECT_NE(st[3].last_error.find("gave up after 3 attempts"), std::string::npos);
  EXPECT_EQ(st[4].state, CellState::Failed);  // the job completed but the campaign did not finish
  EXPECT_NE(st[4].last_error.find("not finished"), std::string::npos) << st[4].last_error;
  EXPECT_EQ(st[5].state, CellState::NotSubmitted);
  EXPECT_EQ(st[0].job_id, "40_0");

  // A job Slurm forgot and that left no record: the shared-filesystem hint.
  view.tasks.erase("40_4");
  st = sweep_status(root_, folder_, &*back, &view);
  EXPECT_EQ(st[4].state, CellState::Failed);
  EXPECT_NE(st[4].last_error.find("shared filesystem"), std::string::npos) << st[4].last_error;

  json j = sweep_status_json(st);
  ASSERT_EQ(j["cells"].size(), 6u);
  const json& c = j["cells"][2];
  EXPECT_EQ(c["variant"], "v0");
  EXPECT_EQ(c["seed"], 3);
  EXPECT_EQ(c["state"], "cancelled");
  EXPECT_EQ(c["samples_done"], 0);
  EXPECT_EQ(c["job_id"], "40_2");
  EXPECT_TRUE(j["cells"][5]["job_id"].is_null());
  EXPECT_EQ(j["cells"][5]["state"], "not_submitted");
}

TEST_F(SweepStatusTest, CorruptedJobsFileIsAnErrorNotACrash) {
  fs::create_directories(root_ / "slurm");
  std::ofstream(root_ / "slurm" / "jobs.json") << R"({"format": "stepforge-sweep-slurm", "cells": {"x": 3}})";
  std::string err;
  EXPECT_FALSE(read_slurm_jobs(root_, err));
  EXPECT_NE(err.find("corrupted"), std::string::npos);
  EXPECT_EQ(cell_log_tail(root_, 0), "");
}

}  // namespace
}  // namespace sf::learn
