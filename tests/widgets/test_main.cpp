// main() of the widget tests: an offscreen QApplication (unless QT_QPA_PLATFORM is set) and settings in a
// temporary directory, then GoogleTest.
#include <gtest/gtest.h>

#include <QApplication>
#include <QTemporaryDir>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("StepForgeTests"));
  QApplication::setApplicationName(QStringLiteral("test_widgets"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
