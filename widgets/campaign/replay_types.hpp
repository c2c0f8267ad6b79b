// The story of a replayed campaign (issue 21): where its iterations / episodes start and its key moments,
// computed once by the campaign worker from the whole log (learn::StoryView) when a replay starts.
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

namespace sf::widgets {

struct ReplayMoment {
  int position = 0;  // events applied when it happened
  int x = 0;         // iteration or episode (the curves' x)
  QString kind;      // learn::moment_kind_name
  QString caption;   // one line for an audience
};

struct ReplayStory {
  int length = 0;              // events in the log
  QVector<int> episodeStarts;  // positions at which an iteration / episode starts
  QVector<ReplayMoment> moments;
};

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::ReplayStory)
