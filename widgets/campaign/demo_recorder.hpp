// Recording a demo replay to files (issue 21 item 5, `stepforge --demo WORKSPACE --record DIR`): the main
// window replays the workspace in the presentation layout, moved through the log at a fixed number of events
// per frame (EngineBridge::seekReplay, so every frame is the state at its event position whatever the
// machine's speed), each frame grabbed to DIR/frame_00000.png, … (no display needed: the offscreen
// platform), holding each key moment while its caption is read, and DIR/captions.srt with one caption per key
// moment: shown from the moment's frame to the end of its hold, so captions never overlap, each on screen at
// least kMinCaptionSeconds and long enough to read at kCaptionCharsPerSecond (captionSeconds).
// `ffmpeg -framerate FPS -i DIR/frame_%05d.png -vf subtitles=DIR/captions.srt demo.mp4` makes the video.
#pragma once

#include <QSize>
#include <QString>

namespace sf::widgets {

class MainWindow;

struct RecordOptions {
  QString workspace;             // a campaign workspace (campaign.json + events.jsonl)
  QString outDir;                // created when missing
  int fps = 10;                  // frames per second of the video
  QSize size{1920, 1080};        // window size = frame size
  double eventsPerSecond = 200;  // replay pace
  double holdSeconds = 2.5;      // the least time the replay stays on each key moment (captionSeconds)
};

inline constexpr double kMinCaptionSeconds = 2.5;      // no caption is shown shorter than this
inline constexpr double kCaptionCharsPerSecond = 15.0;  // reading speed of an audience

// How long a key moment and its caption stay on screen: at least `holdSeconds`, kMinCaptionSeconds and the
// time to read `caption` at kCaptionCharsPerSecond (characters, not bytes).
double captionSeconds(const QString& caption, double holdSeconds);

struct RecordResult {
  bool ok = false;
  QString error;
  int frames = 0;
  int captions = 0;
};

// Blocks (running the event loop) until the last frame is written. `w` must not be showing another session.
RecordResult recordDemo(MainWindow& w, const RecordOptions& options);

// "1920x1080" → QSize; an invalid size (not WxH with 320 ≤ W, H ≤ 7680) on error.
QSize parseFrameSize(const QString& text);

}  // namespace sf::widgets
