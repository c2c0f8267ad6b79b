// ReplayControls (issue 21): the learning curves (it hosts them) plus scrubbing a demo replay and telling its
// story. A slider over the event index
// and ←/→ (previous / next iteration or episode) move the replay (EngineBridge::seekReplay: every dock is
// rebuilt from the first events); the key moments of the story (learn::StoryView, computed by the campaign
// worker) are listed as highlights (activating one jumps to it), marked on the learning curves once reached,
// and the last one reached is shown as a one-line caption. "Pause at key moments" makes the replay stop
// after each. Hidden until a replay's story arrives; a live or followed run hides it again.
#pragma once

#include <QWidget>

#include "widgets/campaign/replay_types.hpp"

class QAction;
class QCheckBox;
class QLabel;
class QListWidget;
class QSlider;
class QToolButton;

namespace sf::widgets {

class EngineBridge;
class LearningCurves;

class ReplayControls : public QWidget {
  Q_OBJECT
 public:
  ReplayControls(EngineBridge* bridge, LearningCurves* curves, QWidget* parent = nullptr);

  const ReplayStory& story() const { return story_; }
  int position() const { return position_; }
  QSlider* slider() const { return slider_; }
  QListWidget* highlights() const { return highlights_; }
  QString caption() const;
  // The position ←/→ would move to from `from` (previous / next iteration or episode start; the end).
  int stepTarget(int from, int direction) const;
  // ←/→ as window shortcuts (on in the presentation layout, where no editor needs the arrow keys).
  void setArrowKeysEnabled(bool on);
  void setPauseAtMoments(bool on);

 public slots:
  void seek(int position);        // asks the bridge; the docks follow when the update arrives
  void stepEpisode(int direction);  // -1: back, +1: forward

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void fitCaption();  // two lines of its font, whatever the caption: the chart below never jumps
  void setStory(const ReplayStory& story);
  void setPosition(int position);
  void refreshMoments();

  EngineBridge* bridge_;
  LearningCurves* curves_;
  ReplayStory story_;
  quint64 storySession_ = 0;
  int position_ = 0;
  int shownMoments_ = -1;  // moments reached at the last refresh
  bool arrowKeys_ = false;  // ←/→ shortcuts wanted (presentation layout)
  QSlider* slider_;
  QLabel* where_;
  QLabel* caption_;
  QCheckBox* pauseAt_;
  QListWidget* highlights_;
  QToolButton *back_, *forward_;
  QAction *backKey_, *forwardKey_;
};

}  // namespace sf::widgets
