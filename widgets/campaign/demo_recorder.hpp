// Recording a demo replay to files (issue 21 item 5, `stepforge --demo WORKSPACE --record DIR`): the main
// window replays the workspace in the presentation layout, moved through the log at a fixed number of events
// per frame (EngineBridge::seekReplay, so every frame is the state at its event position whatever the
// machine's speed), each frame grabbed to DIR/frame_00000.png, … (no display needed: the offscreen
// platform), holding each key moment for a while, and DIR/captions.srt with one caption per key moment.
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
  double holdSeconds = 2.0;      // how long the replay stays on each key moment
};

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
