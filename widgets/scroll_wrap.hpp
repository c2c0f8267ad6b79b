// A dock's contents in a scroll area: a short (or narrow) dock scrolls instead of squeezing its widgets together
// or forcing the main window larger than the screen (the default layout fits 1366×768).
#pragma once

#include <QFrame>
#include <QScrollArea>

namespace sf::widgets {

enum class ScrollWrap { Vertical, Both };

inline QScrollArea* inScrollArea(QWidget* contents, QWidget* parent, ScrollWrap how = ScrollWrap::Vertical) {
  auto* scroll = new QScrollArea(parent);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(contents);
  if (how == ScrollWrap::Vertical) {
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(contents->minimumSizeHint().width());  // as wide as the contents were without it
  }
  return scroll;
}

}  // namespace sf::widgets
