// Column sizing shared by the tables (issue 21: no header elided at common screen sizes).
#pragma once

#include <QFontMetrics>
#include <QHeaderView>
#include <algorithm>

namespace sf::widgets {

// Short columns as wide as their contents; the free-text column `textColumn` (a rule, a rationale) starts
// `chars` average characters wide and never narrower than its header: a narrow pane scrolls sideways instead
// of squeezing it to nothing (a Stretch section can shrink below its header text).
inline void sizeColumnsWithTextColumn(QHeaderView* h, int textColumn, int chars = 32) {
  h->setStretchLastSection(false);
  h->setSectionResizeMode(QHeaderView::ResizeToContents);
  h->setSectionResizeMode(textColumn, QHeaderView::Interactive);
  const QFontMetrics fm(h->font());
  h->resizeSection(textColumn, std::max(fm.averageCharWidth() * chars, h->sectionSizeHint(textColumn)));
}

}  // namespace sf::widgets
