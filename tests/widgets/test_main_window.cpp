// End to end: the main window offscreen loads a solution, verifies it and saves a non-blank screenshot.
#include <gtest/gtest.h>

#include <QDir>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>

#include "test_support.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/editor/issues_model.hpp"
#include "widgets/main_window.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/inspect/stream_inspector.hpp"
#include "widgets/editor/task_browser.hpp"
#include "widgets/editor/task_browser_model.hpp"

using namespace sf::widgets;

TEST(MainWindow, VerifiesASolutionAndSavesAScreenshot) {
  MainWindow w;
  w.resize(1200, 800);
  w.show();
  const QString file = QStringLiteral(SF_SOURCE_DIR "/resources/solutions/gemm_easy/batched_matvec.yaml");
  ASSERT_TRUE(w.openFile(file));
  EXPECT_TRUE(w.windowTitle().startsWith(QStringLiteral("batched_matvec.yaml")));
  QSignalSpy checked(w.editor(), &StepEditor::checked);
  QSignalSpy verified(&w, &MainWindow::verified);
  w.verifyProgram();
  ASSERT_TRUE(verified.wait(120000));
  auto s = verified.at(0).at(0).value<VerifySnapshot>();
  EXPECT_TRUE(s.pass);
  EXPECT_EQ(s.taskId, QStringLiteral("gemm_easy/batched_matvec"));
  EXPECT_TRUE(w.verifySummary().startsWith(QStringLiteral("PASS"))) << w.verifySummary().toStdString();
  EXPECT_EQ(w.verifySetsModel()->rowCount(), 4);
  if (checked.isEmpty()) {
    ASSERT_TRUE(checked.wait(30000));
  }
  EXPECT_EQ(w.issuesModel()->errorCount(), 0);

  // An issue row jumps to its location.
  w.issuesModel()->setIssues({{sf::Severity::Error, QStringLiteral("X-TEST"), QStringLiteral("here"), 4, 3}});
  auto* view = w.findChild<QTreeView*>(QStringLiteral("IssuesView"));
  ASSERT_NE(view, nullptr);
  emit view->activated(w.issuesModel()->index(0, 0));
  int line = -1, col = -1;
  w.editor()->getCursorPosition(&line, &col);
  EXPECT_EQ(line, 3);
  EXPECT_EQ(col, 2);

  QTemporaryDir dir;
  const QString png = dir.filePath(QStringLiteral("shot.png"));
  ASSERT_TRUE(w.saveScreenshot(png));
  QImage img(png);
  ASSERT_FALSE(img.isNull());
  EXPECT_GE(img.width(), 600);
  QSet<QRgb> colours;
  for (int y = 0; y < img.height(); y += 4)
    for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
  EXPECT_GT(colours.size(), 20) << "the screenshot looks blank";
}

TEST(MainWindow, NewFromTaskSaveAndSettings) {
  QTemporaryDir dir;
  {
    MainWindow w;
    ASSERT_TRUE(w.newFromTask(QStringLiteral("norm/rmsnorm_streaming")));
    EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("id: norm/rmsnorm_streaming")));
    EXPECT_TRUE(w.editor()->text().endsWith(QStringLiteral("impl: |\n  \n")));
    EXPECT_FALSE(w.newFromTask(QStringLiteral("no/such_task")));
    w.editor()->setCursorPosition(0, 0);
    w.editor()->insert(QStringLiteral("# ü\n"));
    const QString path = dir.filePath(QStringLiteral("doc.yaml"));
    ASSERT_TRUE(w.saveTo(path));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().startsWith("# \xc3\xbc\n"));  // UTF-8 on disk
    w.close();
  }
  QSettings s;
  EXPECT_EQ(s.value(QStringLiteral("settings/version")).toInt(), MainWindow::kSettingsVersion);
  EXPECT_FALSE(s.value(QStringLiteral("window/state")).toByteArray().isEmpty());
}

// A layout saved by another settings version is dropped; the user's preferences are not.
TEST(MainWindow, AnOldLayoutVersionResetsOnlyTheLayout) {
  {
    QSettings s;
    s.setValue(QStringLiteral("settings/version"), MainWindow::kSettingsVersion + 1);
    s.setValue(QStringLiteral("window/state"), QByteArray("not a layout"));
    s.setValue(QStringLiteral("audit/auditor"), QStringLiteral("ada"));
  }
  {
    MainWindow w;
    QSettings s;
    EXPECT_EQ(s.value(QStringLiteral("settings/version")).toInt(), MainWindow::kSettingsVersion);
    EXPECT_FALSE(s.contains(QStringLiteral("window/state")));
    EXPECT_EQ(s.value(QStringLiteral("audit/auditor")).toString(), QStringLiteral("ada"));
  }
  QSettings().remove(QStringLiteral("audit/auditor"));
}

TEST(MainWindow, InsertCopiesRewritesTheBuffer) {
  MainWindow w;
  w.setDocument(test::demoWith(QStringLiteral("apply((E0, E4))"),
                               QStringLiteral("apply((E0, E4))\n  X = step.Identity().apply(E0)")));
  QSignalSpy rewritten(w.bridge(), &EngineBridge::rewriteFinished);
  w.insertCopies();
  ASSERT_TRUE(rewritten.wait(30000));
  EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("E0_0, E0_r1 = step.Copy().apply(E0)")));
  w.editor()->undo();  // one undoable edit
  EXPECT_FALSE(w.editor()->text().contains(QStringLiteral("step.Copy()")));
}

TEST(MainWindow, SimulateFillsTheStreamInspectorAndTheTaskBrowserLists26PlusTasks) {
  MainWindow w;
  QSignalSpy tasks(w.bridge(), &EngineBridge::taskListReady);
  w.setDocument(MainWindow::demoDocument());
  QSignalSpy simulated(&w, &MainWindow::simulated);
  w.simulate();
  ASSERT_TRUE(simulated.wait(60000));
  ASSERT_TRUE(simulated.at(0).at(0).value<SimulateSnapshot>().ok);
  ASSERT_NE(w.streamInspector()->snapshot(), nullptr);
  EXPECT_TRUE(w.streamInspector()->selectStream(QStringLiteral("E4")));
  ASSERT_EQ(w.streamInspector()->snapshot()->outputs.size(), 1u);
  EXPECT_TRUE(w.streamInspector()->snapshot()->outputs[0].pass());
  if (tasks.isEmpty()) {
    ASSERT_TRUE(tasks.wait(30000));
  }
  auto list = tasks.at(0).at(0).value<TaskListSnapshot>();
  ASSERT_TRUE(list.tasks);
  EXPECT_GE(list.tasks->size(), 26u);
  EXPECT_TRUE(w.taskBrowser()->selectTask(QStringLiteral("norm/rmsnorm_streaming")));
  // Activating a task opens a new buffer for it.
  emit w.taskBrowser()->taskActivated(QStringLiteral("bmm/row_wise"));
  EXPECT_TRUE(w.editor()->text().contains(QStringLiteral("id: bmm/row_wise")));
}
