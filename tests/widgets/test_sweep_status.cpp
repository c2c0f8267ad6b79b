// The sweep window (issue 35 item 5): the cell grid (variants × seeds) with states from the sweep folder's
// records, colours and legend, job ids, Resubmit/Cancel enabled for a submitted sweep, a double click opening
// the cell's workspace, and a folder that is not a sweep refused. The snapshot is built on the window's own
// thread: the grid fills only after the event loop delivers it.
#include <gtest/gtest.h>

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/learn/sweep_slurm.hpp"
#include "widgets/campaign/sweep_status.hpp"
#include "widgets/main_window.hpp"

using nlohmann::json;
using namespace sf::widgets;
namespace learn = sf::learn;

namespace {

// 2 variants × 2 seeds; job 77 holds cells 1-3; records: cell 1 and 3 cancelled, cell 2 failed ("boom").
// (States that do not depend on whether Slurm can be asked on this machine.)
void writeSweep(const QString& dir) {
  json sweep = {{"format", "stepforge-sweep"},
                {"version", 1},
                {"config", json::object()},
                {"seeds", {1, 2}},
                {"variants", {{{"name", "v0"}, {"overrides", json::array()}}, {{"name", "v1"}, {"overrides", {"n=3"}}}}}};
  std::ofstream(dir.toStdString() + "/sweep.json") << sweep.dump();
  learn::SlurmJobs jobs;
  jobs.submissions.push_back({"77", {1, 2, 3}});
  for (int i : {1, 2, 3}) jobs.cell_job[i] = "77";
  std::string err;
  ASSERT_TRUE(learn::write_slurm_jobs(dir.toStdString(), jobs, err)) << err;
  ASSERT_TRUE(learn::write_cell_record(dir.toStdString(), 1, {0, "cancelled", "77_1", "n1", "cancelled (scancel)"}, err));
  ASSERT_TRUE(learn::write_cell_record(dir.toStdString(), 2, {1, "failed", "77_2", "n1", "boom"}, err));
  ASSERT_TRUE(learn::write_cell_record(dir.toStdString(), 3, {0, "cancelled", "77_3", "n1", ""}, err));
}

}  // namespace

// No Slurm client on PATH while a test runs: the window must fall back on the cells' records and say so (and
// the test never waits on a squeue looking for a cluster).
struct NoSlurmOnPath {
  QByteArray saved = qgetenv("PATH");
  QTemporaryDir empty;
  NoSlurmOnPath() { qputenv("PATH", empty.path().toUtf8()); }
  ~NoSlurmOnPath() { qputenv("PATH", saved); }
};

TEST(SweepStatus, GridStatesColoursJobsAndDoubleClick) {
  QTemporaryDir tmp;
  ASSERT_TRUE(tmp.isValid());
  writeSweep(tmp.path());
  NoSlurmOnPath noSlurm;
  QString opened;
  SweepStatusDialog d(tmp.path(), [&](const QString& ws) { opened = ws; });
  QSignalSpy spy(&d, &SweepStatusDialog::refreshed);
  EXPECT_EQ(d.grid()->rowCount(), 0);  // nothing applied before the worker's snapshot arrives
  ASSERT_TRUE(spy.size() >= 1 || spy.wait(30000));
  QTableWidget* g = d.grid();
  ASSERT_EQ(g->rowCount(), 2);
  ASSERT_EQ(g->columnCount(), 2);
  EXPECT_EQ(g->verticalHeaderItem(1)->text(), "v1 n=3");
  EXPECT_EQ(g->horizontalHeaderItem(1)->text(), "seed 2");
  // cell index = seed position × variants + variant: (row variant, column seed)
  EXPECT_EQ(g->item(0, 0)->data(Qt::UserRole).toString(), "not_submitted");
  EXPECT_EQ(g->item(1, 0)->data(Qt::UserRole).toString(), "cancelled");
  EXPECT_EQ(g->item(0, 1)->data(Qt::UserRole).toString(), "failed");
  EXPECT_EQ(g->item(1, 1)->data(Qt::UserRole).toString(), "cancelled");
  EXPECT_EQ(g->item(1, 0)->background().color(), sweepStateColor("cancelled"));
  EXPECT_EQ(g->item(0, 1)->background().color(), sweepStateColor("failed"));
  EXPECT_NE(sweepStateColor("failed"), sweepStateColor("finished"));
  EXPECT_TRUE(g->item(0, 1)->toolTip().contains("boom")) << g->item(0, 1)->toolTip().toStdString();
  EXPECT_TRUE(g->item(0, 1)->text().contains("job 77_2")) << g->item(0, 1)->text().toStdString();
  EXPECT_EQ(d.snapshot().jobIds, QStringList{"77"});
  EXPECT_TRUE(d.snapshot().note.contains("squeue")) << d.snapshot().note.toStdString();
  EXPECT_EQ(d.snapshot().finished, 0);
  for (const char* st : {"finished", "running", "pending", "failed", "cancelled", "not_submitted"}) {
    auto* l = d.findChild<QLabel*>(QStringLiteral("legend_%1").arg(st));
    ASSERT_TRUE(l) << st;
    EXPECT_EQ(l->palette().color(QPalette::Window), sweepStateColor(st)) << st;
  }
  bool resubmit = false, cancel = false;
  for (auto* b : d.findChildren<QPushButton*>()) {
    if (b->text().contains("submit")) resubmit = b->isEnabled();
    if (b->text().contains("Cancel jobs")) cancel = b->isEnabled();
  }
  EXPECT_TRUE(resubmit);
  EXPECT_TRUE(cancel);

  QSignalSpy open(&d, &SweepStatusDialog::openCellWorkspace);
  emit g->cellDoubleClicked(1, 0);
  ASSERT_EQ(open.size(), 1);
  EXPECT_TRUE(opened.endsWith("cells/v1/seed-1")) << opened.toStdString();
  EXPECT_EQ(open.at(0).at(0).toString(), opened);
}

TEST(SweepStatus, LocalSweepHasNoJobsAndAFolderWithoutSweepIsRefused) {
  QTemporaryDir tmp;
  ASSERT_TRUE(tmp.isValid());
  {
    SweepStatusDialog d(tmp.path(), nullptr);
    QSignalSpy spy(&d, &SweepStatusDialog::refreshed);
    ASSERT_TRUE(spy.size() >= 1 || spy.wait(30000));
    EXPECT_TRUE(d.snapshot().error.contains("not a sweep folder")) << d.snapshot().error.toStdString();
    EXPECT_EQ(d.grid()->rowCount(), 0);
  }
  json sweep = {{"format", "stepforge-sweep"}, {"version", 1}, {"config", json::object()}, {"seeds", {5}},
                {"variants", {{{"name", "v0"}, {"overrides", json::array()}}}}};
  std::ofstream(tmp.path().toStdString() + "/sweep.json") << sweep.dump();
  SweepSnapshot s = loadSweepSnapshot(tmp.path(), false);
  EXPECT_TRUE(s.error.isEmpty());
  EXPECT_FALSE(s.submitted);
  ASSERT_EQ(s.cells.size(), 1);
  EXPECT_EQ(s.cells[0].state, "not_submitted");
  EXPECT_EQ(s.summary, "1 cells: 1 not_submitted");
}

TEST(SweepStatus, FileMenuHasOpenSweep) {
  MainWindow w;
  QMenu* file = nullptr;
  for (QAction* m : w.menuBar()->actions())
    if (m->menu() && m->text() == MainWindow::tr("&File")) file = m->menu();
  ASSERT_TRUE(file);
  bool found = false;
  for (QAction* a : file->actions()) found = found || a->text() == MainWindow::tr("Open S&weep…");
  EXPECT_TRUE(found);
}
