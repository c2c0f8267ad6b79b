// The story of a replayed campaign (issue 21): where its iterations / episodes start and its key moments,
// computed once by the campaign worker from the whole log (learn::StoryView) when a replay starts.
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

#include "widgets/campaign/campaign_types.hpp"

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
  // A sage story's memory-off baseline (learn::memory_off_baseline, a sibling workspace): its folder and
  // learning curve, drawn under the replayed sage curve; empty when there is none.
  QString baselineDir;
  QVector<CurvePoint> baselineCurve;
};

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::ReplayStory)
