// main() of the widget tests: an offscreen QApplication (unless QT_QPA_PLATFORM is set), settings and
// application data (agent sessions) in a temporary directory, never the user's own, then GoogleTest.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>

// What the widgets write (settings, agent sessions) lands in the test's temporary home.
TEST(TestMain, SettingsAndDataStayOutOfTheUsersHome) {
  for (auto loc : {QStandardPaths::AppConfigLocation, QStandardPaths::AppDataLocation}) {
    const QString p = QStandardPaths::writableLocation(loc);
    EXPECT_FALSE(p.startsWith(QDir::homePath() + QLatin1Char('/'))) << p.toStdString();
  }
}

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir home;
  qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toUtf8());
  qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toUtf8());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("StepForgeTests"));
  QApplication::setApplicationName(QStringLiteral("test_widgets"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
