#include "widgets/campaign/demo_recorder.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QSaveFile>
#include <QThread>
#include <algorithm>
#include <cmath>

#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/main_window.hpp"
#include "widgets/campaign/replay_controls.hpp"

namespace sf::widgets {

namespace {

// Runs the event loop until `done()` or the timeout; false on timeout.
template <class F>
bool waitFor(F done, int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (!done()) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(1);
  }
  return true;
}

QString srtTime(double seconds) {
  const qint64 ms = qint64(std::llround(seconds * 1000));
  return QStringLiteral("%1:%2:%3,%4")
      .arg(ms / 3600000, 2, 10, QLatin1Char('0'))
      .arg(ms / 60000 % 60, 2, 10, QLatin1Char('0'))
      .arg(ms / 1000 % 60, 2, 10, QLatin1Char('0'))
      .arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

}  // namespace

double captionSeconds(const QString& caption, double holdSeconds) {
  const double reading = double(caption.toUcs4().size()) / kCaptionCharsPerSecond;
  return std::max({holdSeconds, kMinCaptionSeconds, reading});
}

QSize parseFrameSize(const QString& text) {
  static const QRegularExpression re(QStringLiteral("^(\\d{3,4})[xX](\\d{3,4})$"));
  const auto m = re.match(text.trimmed());
  if (!m.hasMatch()) return {};
  const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
  if (w < 320 || h < 320 || w > 7680 || h > 7680) return {};
  return {w, h};
}

RecordResult recordDemo(MainWindow& w, const RecordOptions& o) {
  RecordResult r;
  if (o.fps < 1 || o.fps > 120) {
    r.error = QCoreApplication::translate("record", "--fps must be between 1 and 120");
    return r;
  }
  if (!o.size.isValid()) {
    r.error = QCoreApplication::translate("record", "--size must be WIDTHxHEIGHT, e.g. 1920x1080");
    return r;
  }
  QDir out(o.outDir);
  if (!QDir().mkpath(o.outDir)) {
    r.error = QCoreApplication::translate("record", "cannot create %1").arg(o.outDir);
    return r;
  }
  CampaignDocks* cd = w.campaignDocks();
  ReplayControls* rc = cd->replayControls();
  EngineBridge* bridge = w.bridge();
  bool failed = false;
  QString failure;
  auto stateConn = QObject::connect(bridge, &EngineBridge::campaignStateChanged, &w,
                                    [&](CampaignRunState s, const QString& m) {
                                      if (s == CampaignRunState::Failed) failed = true, failure = m;
                                    });
  w.resize(o.size);
  w.show();
  cd->startDemo(o.workspace, o.eventsPerSecond);
  bridge->pauseCampaign();  // the recorder moves the replay itself
  w.setFixedSize(o.size);   // frames of exactly this size, whatever the docks' size hints ask for
  const bool storyArrived = waitFor([&] { return failed || rc->story().length > 0; }, 60000);
  QObject::disconnect(stateConn);
  if (failed || !storyArrived) {
    r.error = failed ? failure : QCoreApplication::translate("record", "the replay did not start");
    return r;
  }
  const ReplayStory story = rc->story();
  const double perFrame = std::max(1.0, o.eventsPerSecond / o.fps);
  QString srt;
  double pos = 1;
  int moment = 0;  // the next key moment to stop at
  while (true) {
    int target = std::min(story.length, int(std::ceil(pos)));
    const bool atMoment = moment < story.moments.size() && story.moments[moment].position <= target;
    if (atMoment) target = std::max(1, story.moments[moment].position);  // stop exactly on it
    if (target != rc->position()) {
      rc->seek(target);
      if (!waitFor([&] { return rc->position() == target; }, 30000)) {
        r.error = QCoreApplication::translate("record", "the replay did not reach event %1").arg(target);
        return r;
      }
    }
    QCoreApplication::processEvents();  // layouts and charts catch up
    const QImage frame = w.grab().toImage();
    auto save = [&] {
      const QString path = out.filePath(QStringLiteral("frame_%1.png").arg(r.frames, 5, 10, QLatin1Char('0')));
      if (!frame.save(path, "PNG")) {
        r.error = QCoreApplication::translate("record", "cannot write %1").arg(path);
        return false;
      }
      ++r.frames;
      return true;
    };
    if (!save()) return r;
    if (atMoment) {
      // The moment's frame plus held copies for the caption's time and one frame more; the caption ends 1 ms
      // before the next frame (where the next caption may begin), so consecutive captions never overlap and each
      // is on screen at least captionSeconds.
      const QString& caption = story.moments[moment].caption;
      const int first = r.frames - 1;
      const int shown = int(std::ceil(captionSeconds(caption, o.holdSeconds) * o.fps - 1e-9)) + 1;
      for (int i = 1; i < shown; ++i)
        if (!save()) return r;
      ++r.captions;
      srt += QStringLiteral("%1\n%2 --> %3\n%4\n\n")
                 .arg(r.captions)
                 .arg(srtTime(double(first) / o.fps), srtTime(double(first + shown) / o.fps - 0.001), caption);
      ++moment;
    }
    const bool momentLeft = moment < story.moments.size() && story.moments[moment].position <= target;
    if (target >= story.length && !momentLeft) break;
    pos = momentLeft ? target : target + perFrame;
  }
  QSaveFile captions(out.filePath(QStringLiteral("captions.srt")));
  if (!captions.open(QIODevice::WriteOnly) || captions.write(srt.toUtf8()) < 0 || !captions.commit()) {
    r.error = QCoreApplication::translate("record", "cannot write %1").arg(captions.fileName());
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace sf::widgets
