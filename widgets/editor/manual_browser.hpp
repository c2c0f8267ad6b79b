// Help → STeP Manual: the chapters of resources/manual/ in a list, rendered as Markdown.
#pragma once

#include <QWidget>

#include "widgets/editor/manual_index.hpp"

class QListWidget;
class QTextBrowser;

namespace sf::widgets {

class ManualBrowser : public QWidget {
  Q_OBJECT
 public:
  explicit ManualBrowser(ManualIndex manual, QWidget* parent = nullptr);
  // Shows the chapter whose file name (without .md) is `name`, e.g. "map"; false when there is none.
  bool showChapter(const QString& name);
  int chapterCount() const;
  QString currentMarkdown() const { return markdown_; }

 private:
  void showIndex(int row);

  ManualIndex manual_;
  QListWidget* list_;
  QTextBrowser* text_;
  QString markdown_;
};

}  // namespace sf::widgets
