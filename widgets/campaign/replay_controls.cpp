#include "widgets/campaign/replay_controls.hpp"

#include <QAction>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSlider>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "widgets/engine/engine_bridge.hpp"
#include "widgets/campaign/learning_curves.hpp"

namespace sf::widgets {

ReplayControls::ReplayControls(EngineBridge* bridge, LearningCurves* curves, QWidget* parent)
    : QWidget(parent), bridge_(bridge), curves_(curves) {
  setObjectName(QStringLiteral("ReplayControls"));
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("ReplayCaption"));
  QFont cf = caption_->font();
  cf.setBold(true);
  caption_->setFont(cf);
  caption_->setTextFormat(Qt::PlainText);
  caption_->setWordWrap(true);  // a long caption wraps instead of widening the window
  caption_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  caption_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  fitCaption();
  highlights_ = new QListWidget(this);
  highlights_->setObjectName(QStringLiteral("Highlights"));
  highlights_->setToolTip(tr("Key moments of the campaign: activate one to jump to it"));
  highlights_->setWordWrap(true);  // wraps to the list's width: no sideways scrolling
  highlights_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  highlights_->setResizeMode(QListView::Adjust);
  highlights_->setMinimumWidth(highlights_->fontMetrics().averageCharWidth() * 28);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(curves_);
  split->addWidget(highlights_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  split->setSizes({3000, 1000});

  back_ = new QToolButton(this);
  back_->setText(QStringLiteral("◀"));
  back_->setToolTip(tr("Previous iteration / episode (←)"));
  forward_ = new QToolButton(this);
  forward_->setText(QStringLiteral("▶"));
  forward_->setToolTip(tr("Next iteration / episode (→)"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("ReplaySlider"));
  slider_->setToolTip(tr("Replay position (events applied)"));
  slider_->setTracking(false);  // a drag seeks once, when released
  where_ = new QLabel(this);
  pauseAt_ = new QCheckBox(tr("Pause at key moments"), this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(back_);
  bar->addWidget(slider_, 1);
  bar->addWidget(forward_);
  bar->addWidget(where_);
  bar->addWidget(pauseAt_);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(caption_);
  l->addWidget(split, 1);
  l->addLayout(bar);

  backKey_ = new QAction(tr("Previous Episode"), this);
  backKey_->setShortcut(QKeySequence(Qt::Key_Left));
  forwardKey_ = new QAction(tr("Next Episode"), this);
  forwardKey_->setShortcut(QKeySequence(Qt::Key_Right));
  for (QAction* a : {backKey_, forwardKey_}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
    addAction(a);
  }
  connect(backKey_, &QAction::triggered, this, [this] { stepEpisode(-1); });
  connect(forwardKey_, &QAction::triggered, this, [this] { stepEpisode(+1); });
  connect(back_, &QToolButton::clicked, this, [this] { stepEpisode(-1); });
  connect(forward_, &QToolButton::clicked, this, [this] { stepEpisode(+1); });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (v != position_) seek(v);
  });
  connect(highlights_, &QListWidget::itemActivated, this, [this](QListWidgetItem* it) {
    seek(it->data(Qt::UserRole).toInt());
  });
  connect(pauseAt_, &QCheckBox::toggled, this, [this](bool on) {
    if (bridge_) bridge_->setPauseAtMoments(on);
  });
  if (bridge_) {
    connect(bridge_, &EngineBridge::replayStory, this, &ReplayControls::setStory);
    connect(bridge_, &EngineBridge::campaignUpdated, this, [this](const CampaignUpdate& u) {
      if (u.reset && story_.length > 0 && u.session != storySession_) setStory({});  // another session
      if (story_.length > 0) setPosition(static_cast<int>(u.events));
    });
  }
  setStory({});
}

void ReplayControls::setStory(const ReplayStory& story) {
  story_ = story;
  storySession_ = bridge_ ? bridge_->campaignSession() : 0;
  position_ = 0;
  shownMoments_ = -1;
  const bool on = story_.length > 0;
  highlights_->clear();
  for (const auto& m : story_.moments) {
    // A zero-width space after each '/' lets a long task id wrap there in the narrow list.
    QString shown = m.caption;
    shown.replace(QLatin1Char('/'), QStringLiteral("/\u200B"));
    auto* it = new QListWidgetItem(shown, highlights_);
    it->setData(Qt::UserRole, m.position);
    it->setToolTip(tr("%1 — event %2").arg(m.kind).arg(m.position));
  }
  for (QWidget* w : std::initializer_list<QWidget*>{highlights_, caption_, back_, forward_, slider_, where_, pauseAt_})
    w->setVisible(on);
  slider_->blockSignals(true);
  slider_->setRange(on ? 1 : 0, std::max(1, story_.length));
  slider_->setPageStep(std::max(1, story_.length / 20));
  slider_->setValue(0);
  slider_->blockSignals(false);
  setArrowKeysEnabled(arrowKeys_);
  refreshMoments();
}

void ReplayControls::setPosition(int position) {
  position_ = position;
  slider_->blockSignals(true);
  slider_->setValue(position);
  slider_->blockSignals(false);
  int episode = 0;
  for (int s : story_.episodeStarts)
    if (s < position) ++episode;
  where_->setText(tr("event %1 of %2 · %3").arg(position).arg(story_.length).arg(
      episode > 0 ? tr("part %1 of %2").arg(episode).arg(story_.episodeStarts.size()) : tr("start")));
  refreshMoments();
}

void ReplayControls::refreshMoments() {
  int reached = 0;
  while (reached < story_.moments.size() && story_.moments[reached].position <= position_) ++reached;
  if (reached == shownMoments_) return;
  shownMoments_ = reached;
  caption_->setText(reached > 0 ? story_.moments[reached - 1].caption : QString());
  caption_->setToolTip(caption_->text());
  for (int i = 0; i < highlights_->count(); ++i) {
    QFont f = highlights_->font();
    f.setBold(i == reached - 1);
    highlights_->item(i)->setFont(f);
  }
  if (reached > 0) highlights_->setCurrentRow(reached - 1);
  if (curves_) curves_->setMoments(story_.moments.mid(0, reached));
}

void ReplayControls::fitCaption() {
  caption_->setFixedHeight(2 * caption_->fontMetrics().lineSpacing() + 2 * caption_->margin());
}

void ReplayControls::changeEvent(QEvent* e) {
  if (e->type() == QEvent::FontChange) fitCaption();  // the presentation font
  QWidget::changeEvent(e);
}

QString ReplayControls::caption() const { return caption_->text(); }

int ReplayControls::stepTarget(int from, int direction) const {
  if (story_.length <= 0) return from;
  if (direction > 0) {
    for (int s : story_.episodeStarts)
      if (s > from) return s;
    return story_.length;
  }
  int target = 1;
  for (int s : story_.episodeStarts)
    if (s < from) target = std::max(target, s);
  return target;
}

void ReplayControls::stepEpisode(int direction) { seek(stepTarget(position_, direction)); }

void ReplayControls::seek(int position) {
  if (story_.length <= 0 || !bridge_) return;
  bridge_->seekReplay(std::clamp(position, 1, story_.length));
}

void ReplayControls::setArrowKeysEnabled(bool on) {
  arrowKeys_ = on;
  backKey_->setEnabled(on && story_.length > 0);
  forwardKey_->setEnabled(on && story_.length > 0);
}

void ReplayControls::setPauseAtMoments(bool on) { pauseAt_->setChecked(on); }

}  // namespace sf::widgets
