// Issue 34 item 4: the last layout comes back. A dock resized, one moved to another area, one hidden; the window
// closes (saving its settings) and a new one opened with the same QSettings has them as they were. A layout
// saved by another settings version is dropped (the defaults come back) while the preferences stay.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QSettings>
#include <QTest>

#include "widgets/main_window.hpp"

namespace {

using sf::widgets::MainWindow;

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QLatin1String(name)); }

// The window's layout and size are the test's own: later tests start from the first-start layout again.
struct ForgetLayout {
  ~ForgetLayout() {
    QSettings s;
    s.remove(QStringLiteral("window"));
    s.remove(QStringLiteral("audit/auditor"));
  }
};

struct Layout {
  int graphWidth = 0;
  Qt::DockWidgetArea comparisonArea = Qt::NoDockWidgetArea;
  bool issuesVisible = false, tasksVisible = false;
  QSize size;
};

Layout layoutOf(MainWindow& w) {
  Layout l;
  l.graphWidth = dock(w, "GraphDock")->width();
  l.comparisonArea = w.dockWidgetArea(dock(w, "ComparisonDock"));
  l.issuesVisible = dock(w, "IssuesDock")->isVisible();
  l.tasksVisible = dock(w, "TasksDock")->isVisible();
  l.size = w.size();
  return l;
}

void showAndSettle(MainWindow& w) {
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
}

TEST(LayoutRestore, TheLastLayoutComesBackAndAnotherVersionResetsOnlyIt) {
  ForgetLayout forget;
  Layout first, changed;
  {
    MainWindow w;
    w.resize(1500, 900);
    ASSERT_NO_FATAL_FAILURE(showAndSettle(w));
    first = layoutOf(w);
    ASSERT_EQ(first.comparisonArea, Qt::BottomDockWidgetArea);
    ASSERT_TRUE(first.issuesVisible);
    // The user's changes: a wider right dock, the comparison moved to the right, the issues closed.
    w.resize(1400, 860);
    w.resizeDocks({dock(w, "GraphDock")}, {first.graphWidth + 120}, Qt::Horizontal);
    w.addDockWidget(Qt::RightDockWidgetArea, dock(w, "ComparisonDock"));
    dock(w, "IssuesDock")->close();
    QCoreApplication::processEvents();
    changed = layoutOf(w);
    ASSERT_NE(changed.graphWidth, first.graphWidth);
    ASSERT_TRUE(w.close());
  }
  QSettings().setValue(QStringLiteral("audit/auditor"), QStringLiteral("ada"));  // a preference
  {
    MainWindow w;  // the same QSettings
    ASSERT_NO_FATAL_FAILURE(showAndSettle(w));
    const Layout back = layoutOf(w);
    EXPECT_EQ(back.size, changed.size);
    EXPECT_EQ(back.comparisonArea, Qt::RightDockWidgetArea);
    EXPECT_FALSE(back.issuesVisible);
    EXPECT_TRUE(back.tasksVisible);
    EXPECT_NEAR(back.graphWidth, changed.graphWidth, 2);
    ASSERT_TRUE(w.close());
  }
  // A layout of another settings version: the default layout, the preference kept.
  QSettings().setValue(QStringLiteral("settings/version"), MainWindow::kSettingsVersion + 1);
  {
    MainWindow w;
    w.resize(1500, 900);
    ASSERT_NO_FATAL_FAILURE(showAndSettle(w));
    const Layout reset = layoutOf(w);
    EXPECT_EQ(reset.comparisonArea, Qt::BottomDockWidgetArea);
    EXPECT_TRUE(reset.issuesVisible);
    EXPECT_NEAR(reset.graphWidth, first.graphWidth, 2);
    EXPECT_EQ(QSettings().value(QStringLiteral("audit/auditor")).toString(), QStringLiteral("ada"));
    EXPECT_EQ(QSettings().value(QStringLiteral("settings/version")).toInt(), MainWindow::kSettingsVersion);
  }
}

}  // namespace
