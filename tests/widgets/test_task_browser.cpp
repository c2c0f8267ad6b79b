// Task browser: groups -> tasks with tags, campaign status, filter, activation.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <cmath>

#include "core/bench/catalogue.hpp"
#include "widgets/editor/task_browser.hpp"

using namespace sf;
using namespace sf::widgets;

namespace {

std::vector<TaskEntry> sample() {
  return {
      {"rope/neox_halves", "rope", "NeoX RoPE", "G_0_3_02", {"C", "Once"}},
      {"norm/layernorm_buffer", "norm", "LayerNorm", "G_0_9_02", {"C", "Reuse"}},
      {"rope/gptj_interleaved", "rope", "GPT-J RoPE", "", {"CS", "Once"}},
  };
}

}  // namespace

TEST(TaskBrowserModel, GroupsTasksAndTags) {
  TaskBrowserModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setTasks(sample());
  ASSERT_EQ(m.rowCount(), 2);  // norm, rope (sorted)
  EXPECT_EQ(m.index(0, 0).data().toString(), QStringLiteral("norm"));
  const QModelIndex rope = m.index(1, 0);
  ASSERT_EQ(m.rowCount(rope), 2);
  EXPECT_EQ(m.index(0, 0, rope).data().toString(), QStringLiteral("gptj_interleaved"));
  EXPECT_EQ(m.index(1, TaskBrowserModel::TagsColumn, rope).data().toString(), QStringLiteral("C, Once"));
  EXPECT_EQ(m.index(1, 0, rope).data(TaskBrowserModel::TaskIdRole).toString(),
            QStringLiteral("rope/neox_halves"));
  EXPECT_EQ(m.index(1, TaskBrowserModel::TagsColumn).data().toString(), QStringLiteral("2 task(s)"));
  // No campaign: blank status columns.
  EXPECT_FALSE(m.index(1, TaskBrowserModel::SolvedColumn, rope).data().isValid());
  EXPECT_FALSE(m.index(1, TaskBrowserModel::SolvedColumn).data().isValid());
}

TEST(TaskBrowserModel, CampaignStatusAndGroupAggregates) {
  TaskBrowserModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setTasks(sample());
  EXPECT_TRUE(m.setTaskStatus(QStringLiteral("rope/neox_halves"), true, 0.75));
  EXPECT_TRUE(m.setTaskStatus(QStringLiteral("rope/gptj_interleaved"), false, 0.125));
  EXPECT_FALSE(m.setTaskStatus(QStringLiteral("rope/unknown"), true, 1.0));
  const QModelIndex rope = m.indexOfGroup(QStringLiteral("rope"));
  const QModelIndex neox = m.indexOfTask(QStringLiteral("rope/neox_halves"));
  EXPECT_EQ(neox.sibling(neox.row(), TaskBrowserModel::SolvedColumn).data().toString(),
            QStringLiteral("solved"));
  EXPECT_EQ(neox.sibling(neox.row(), TaskBrowserModel::RateColumn).data().toString(), QStringLiteral("75%"));
  EXPECT_DOUBLE_EQ(neox.data(TaskBrowserModel::RateRole).toDouble(), 0.75);
  EXPECT_EQ(rope.sibling(rope.row(), TaskBrowserModel::SolvedColumn).data().toString(),
            QStringLiteral("1/2"));
  // Mean of 0.75 and 0.125 = 0.4375 -> 44%.
  EXPECT_EQ(rope.sibling(rope.row(), TaskBrowserModel::RateColumn).data().toString(), QStringLiteral("44%"));
  const QModelIndex norm = m.indexOfTask(QStringLiteral("norm/layernorm_buffer"));
  EXPECT_EQ(norm.sibling(norm.row(), TaskBrowserModel::SolvedColumn).data().toString(), QStringLiteral("—"));
  // Rates are clamped; a status survives a reload of the same tasks.
  m.setTaskStatus(QStringLiteral("norm/layernorm_buffer"), true, 1.5);
  m.setTasks(sample());
  const QModelIndex norm2 = m.indexOfTask(QStringLiteral("norm/layernorm_buffer"));
  EXPECT_EQ(norm2.sibling(norm2.row(), TaskBrowserModel::RateColumn).data().toString(),
            QStringLiteral("100%"));
  m.clearStatuses();
  EXPECT_FALSE(m.hasStatus());
  const QModelIndex norm3 = m.indexOfTask(QStringLiteral("norm/layernorm_buffer"));
  EXPECT_FALSE(norm3.sibling(norm3.row(), TaskBrowserModel::RateColumn).data().isValid());
}

TEST(TaskBrowser, CatalogueFilterAndActivation) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  TaskBrowser w;
  QAbstractItemModelTester tester(w.proxy(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  w.setTasks(task_entries(cat));
  auto* m = w.model();
  EXPECT_EQ(m->rowCount(), 9);  // nine groups under resources/benchmark
  const QModelIndex norm = m->indexOfTask(QStringLiteral("norm/layernorm_buffer"));
  ASSERT_TRUE(norm.isValid());
  EXPECT_EQ(norm.sibling(norm.row(), TaskBrowserModel::TagsColumn).data().toString(),
            QStringLiteral("C, Reuse"));
  const QModelIndex neox = m->indexOfTask(QStringLiteral("rope/neox_halves"));
  EXPECT_EQ(neox.sibling(neox.row(), TaskBrowserModel::TagsColumn).data().toString(),
            QStringLiteral("C, Once"));
  EXPECT_EQ(m->rowCount(m->indexOfGroup(QStringLiteral("rope"))), 3);

  w.setFilterText(QStringLiteral("layernorm"));
  ASSERT_EQ(w.proxy()->rowCount(), 1);  // only the norm group
  const QModelIndex g = w.proxy()->index(0, 0);
  EXPECT_EQ(g.data().toString(), QStringLiteral("norm"));
  EXPECT_EQ(w.proxy()->rowCount(g), 2);
  w.setFilterText(QString());
  EXPECT_EQ(w.proxy()->rowCount(), 9);

  std::vector<QString> activated;
  QObject::connect(&w, &TaskBrowser::taskActivated, [&](const QString& id) { activated.push_back(id); });
  ASSERT_TRUE(w.selectTask(QStringLiteral("rope/neox_halves")));
  EXPECT_EQ(w.currentTask(), QStringLiteral("rope/neox_halves"));
  EXPECT_TRUE(activated.empty());
  Q_EMIT w.view()->activated(w.view()->currentIndex());
  ASSERT_EQ(activated.size(), 1u);
  EXPECT_EQ(activated[0], QStringLiteral("rope/neox_halves"));
  // Activating a group row emits nothing.
  Q_EMIT w.view()->activated(w.proxy()->index(0, 0));
  EXPECT_EQ(activated.size(), 1u);
  w.setTaskStatus(QStringLiteral("rope/neox_halves"), true, 0.5);
  EXPECT_EQ(neox.sibling(neox.row(), TaskBrowserModel::RateColumn).data().toString(), QStringLiteral("50%"));
}
