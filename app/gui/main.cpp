// stepforge: the workbench. `stepforge [FILE]` opens a task document or solution file;
// `stepforge --screenshot OUT.png [FILE | --task ID|FILE] [--campaign DIR] [--size WxH] [--pane NAME]
// [--presentation-font]` verifies FILE (or the bundled demo), opens the workspace, raises the pane and saves a PNG
// of the window at that size (offscreen);
// `stepforge --demo WORKSPACE --record DIR [--fps N] [--size WxH]` renders the replay to PNG frames offscreen.
#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QTimer>

#include <cstdio>
#include <cstring>


#include "widgets/editor/agent_runner.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/demo_recorder.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/main_window.hpp"
#include "widgets/screenshot_panes.hpp"
#include "widgets/settings_dialog.hpp"
#include "widgets/editor/step_editor.hpp"

int main(int argc, char** argv) {
  // Recording needs no display: the offscreen platform unless the caller chose one.
  for (int i = 1; i < argc; ++i)
    if ((std::strcmp(argv[i], "--record") == 0 || std::strncmp(argv[i], "--record=", 9) == 0) &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
      qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("StepForge"));
  QApplication::setApplicationName(QStringLiteral("stepforge"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
  QApplication::setDesktopFileName(QStringLiteral("io.github.stepforge.StepForge"));
  // The language: Preferences (QSettings "ui/language"), else the system locale; applied before any UI
  // exists.
  sf::widgets::installTranslations(&app, sf::widgets::effectiveLanguage(sf::widgets::languageSetting()));

  QCommandLineParser cli;
  cli.setApplicationDescription(QApplication::translate("main", "StepForge workbench"));
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption shot(QStringLiteral("screenshot"),
                          QApplication::translate("main", "Verify the document, save a PNG of the window, exit."),
                          QStringLiteral("FILE"));
  QCommandLineOption task(QStringLiteral("task"),
                          QApplication::translate("main", "Open a task: a task document FILE, a bundled STeP-25 task id "
                                                          "with its baseline program (e.g. gemm/small), or a bundled "
                                                          "v1 task id (a new buffer)."),
                          QStringLiteral("ID|FILE"));
  QCommandLineOption presentationFont(
      QStringLiteral("presentation-font"),
      QApplication::translate("main", "With --screenshot: the presentation layout's larger font."));
  QCommandLineOption campaign(QStringLiteral("campaign"),
                              QApplication::translate("main", "Open a campaign workspace (finished, or live: followed)."),
                              QStringLiteral("DIR"));
  QCommandLineOption demo(QStringLiteral("demo"),
                          QApplication::translate("main", "Replay a recorded campaign workspace in the presentation layout."),
                          QStringLiteral("DIR"));
  QCommandLineOption record(QStringLiteral("record"),
                            QApplication::translate("main", "With --demo: render the replay offscreen to DIR/frame_NNNNN.png "
                                                            "and DIR/captions.srt, then exit."),
                            QStringLiteral("DIR"));
  QCommandLineOption fps(QStringLiteral("fps"), QApplication::translate("main", "Frames per second of --record (default 10)."),
                         QStringLiteral("N"), QStringLiteral("10"));
  QCommandLineOption size(QStringLiteral("size"),
                          QApplication::translate("main", "Window size of --screenshot (default 1400x860) and frame size "
                                                          "of --record (default 1920x1080)."),
                          QStringLiteral("WxH"), QStringLiteral("1920x1080"));
  QCommandLineOption pane(QStringLiteral("pane"),
                          QApplication::translate("main", "With --screenshot: raise this pane before the picture, one of: %1.")
                              .arg(sf::widgets::screenshotPaneNames().join(QStringLiteral(", "))),
                          QStringLiteral("NAME"));
  QCommandLineOption palette(QStringLiteral("palette"),
                             QApplication::translate("main", "With --screenshot: save a 256-colour PNG (a third of the "
                                                             "size, for pictures kept in the docs)."));
  cli.addOptions({shot, task, campaign, demo, record, fps, size, pane, presentationFont, palette});
  cli.addPositionalArgument(QStringLiteral("file"), QApplication::translate("main", "Task document or solution file."));
  cli.process(app);

  // Keys stored in the OS keyring from Preferences → Agent (when the build has the keyring): to the core, by name.
  if (!cli.isSet(shot)) sf::widgets::loadKeysFromKeyring();
  sf::widgets::MainWindow w;
  const QStringList files = cli.positionalArguments();
  if (!files.isEmpty()) {
    if (!w.openFile(files.front()))
      std::fprintf(
          stderr, "%s\n",
          qPrintable(QApplication::translate("main", "stepforge: cannot open %1").arg(files.front())));
  } else if (cli.isSet(task)) {
    QString error;
    if (!sf::widgets::openTask(w, cli.value(task), &error)) {
      std::fprintf(stderr, "stepforge: %s\n", qPrintable(error));
      if (cli.isSet(shot)) return 2;
    }
  } else {
    w.setDocument(sf::widgets::MainWindow::demoDocument());
  }

  if (cli.isSet(record)) {
    if (!cli.isSet(demo)) {
      std::fprintf(stderr, "%s\n", qPrintable(QApplication::translate("main", "stepforge: --record needs --demo WORKSPACE")));
      return 2;
    }
    sf::widgets::RecordOptions ro;
    ro.workspace = cli.value(demo);
    ro.outDir = cli.value(record);
    bool ok = false;
    ro.fps = cli.value(fps).toInt(&ok);
    if (!ok) ro.fps = 0;  // rejected with a message below
    ro.size = sf::widgets::parseFrameSize(cli.value(size));
    const sf::widgets::RecordResult r = sf::widgets::recordDemo(w, ro);
    if (!r.ok) {
      std::fprintf(stderr, "stepforge: %s\n", qPrintable(r.error));
      return 1;
    }
    std::printf("%s\n", qPrintable(QApplication::translate("main", "%1 frames and %2 captions in %3")
                                        .arg(r.frames)
                                        .arg(r.captions)
                                        .arg(ro.outDir)));
    return 0;
  }

  sf::widgets::CampaignDocks* campaignDocks = w.campaignDocks();
  if (cli.isSet(demo)) campaignDocks->startDemo(cli.value(demo), sf::widgets::CampaignDocks::speedForSlider(3));
  else if (cli.isSet(campaign)) campaignDocks->openWorkspace(cli.value(campaign));

  if (!cli.isSet(shot)) {
    w.show();
    return app.exec();
  }
  // Screenshot mode: the window at --size (default 1400x860), Verify and Simulate, then grab once both results
  // (and the campaign, when one is opened) are shown, with --pane raised.
  const QSize windowSize = cli.isSet(size) ? sf::widgets::parseWindowSize(cli.value(size)) : QSize(1400, 860);
  if (!windowSize.isValid()) {
    std::fprintf(stderr, "%s\n",
                 qPrintable(QApplication::translate("main", "stepforge: --size wants WxH, e.g. 1366x768 (each side 320 to 7680)")));
    return 2;
  }
  const QString paneName = cli.value(pane);
  if (cli.isSet(pane) && !sf::widgets::findScreenshotPane(paneName)) {
    std::fprintf(stderr, "%s\n",
                 qPrintable(QApplication::translate("main", "stepforge: unknown pane '%1' (one of: %2)")
                                .arg(paneName, sf::widgets::screenshotPaneNames().join(QStringLiteral(", ")))));
    return 2;
  }
  if (cli.isSet(presentationFont)) w.setFont(sf::widgets::presentationFont(w.font()));
  w.resize(windowSize);
  w.show();
  const QString out = cli.value(shot);
  int pending = cli.isSet(campaign) ? 3 : 2;  // verified, simulated (and the campaign loaded)
  bool finishing = false;
  auto finish = [&](bool ok) {
    if (finishing) return;
    finishing = true;
    if (!paneName.isEmpty()) {
      QString error;
      if (!sf::widgets::showScreenshotPane(w, paneName, &error)) {
        std::fprintf(stderr, "stepforge: %s\n", qPrintable(error));
        ok = false;
      }
    }
    QTimer::singleShot(300, &app, [&, ok] {
      // The window never grows past --size silently: a layout that needs more room is reported.
      if (w.width() > windowSize.width() || w.height() > windowSize.height())
        std::fprintf(stderr, "%s\n",
                     qPrintable(QApplication::translate("main", "stepforge: the window needs %1x%2, more than --size %3x%4")
                                    .arg(w.width())
                                    .arg(w.height())
                                    .arg(windowSize.width())
                                    .arg(windowSize.height())));
      bool saved = cli.isSet(palette)
                       ? w.grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither).save(out, "PNG")
                       : w.saveScreenshot(out);
      if (!saved)
        std::fprintf(stderr, "%s\n",
                     qPrintable(QApplication::translate("main", "stepforge: cannot write %1").arg(out)));
      app.exit(saved && ok ? 0 : 1);
    });
  };
  auto done = [&] {
    if (--pending == 0) finish(true);
  };
  QObject::connect(&w, &sf::widgets::MainWindow::verified, &app, done);
  QObject::connect(&w, &sf::widgets::MainWindow::simulated, &app, done);
  QObject::connect(w.bridge(), &sf::widgets::EngineBridge::campaignStateChanged, &app,
                   [&](sf::widgets::CampaignRunState s, const QString&) {
                     using S = sf::widgets::CampaignRunState;
                     if (s != S::Finished && s != S::Cancelled && s != S::Failed) return;
                     // Show the campaign panes: the traces (a passing call's detail) and the learning curves.
                     sf::widgets::showScreenshotPane(w, QStringLiteral("curves"));
                     sf::widgets::showScreenshotPane(w, QStringLiteral("traces"));
                     done();
                   });
  QTimer::singleShot(100, &app, [&] {
    w.revealImpl();
    w.simulate();
    w.verifyProgram();
  });
  QTimer::singleShot(120000, &app, [&] {
    std::fprintf(
        stderr, "%s\n",
        qPrintable(QApplication::translate("main", "stepforge: timed out waiting for the verification")));
    finish(false);
  });
  return app.exec();
}
