// Episode lineage (issue 20 item 5): a sage episode's rounds as a chain (round -> program -> verdict ->
// adopted items), each step with a ProgramDiffView of the previous round's program against this round's.
// The data is learn::episode_lineage (core); reachable from the trace pane (Ctrl+L, context menu) and the
// audit pane (L / Ctrl+L, context menu). Keys: J / K step, C canonical form, N / P change, ? / F1, Esc closes.
#pragma once

#include <QDialog>
#include <QPointer>

#include "core/learn/episode_lineage.hpp"

class QLabel;
class QListWidget;

namespace sf::widgets {

class ProgramDiffView;

class EpisodeLineageView : public QDialog {
  Q_OBJECT
 public:
  explicit EpisodeLineageView(QWidget* parent = nullptr);
  void setLineage(learn::EpisodeLineage lineage);
  const learn::EpisodeLineage& lineage() const { return lineage_; }

  QListWidget* steps() const { return steps_; }
  ProgramDiffView* diffView() const { return diff_; }
  QLabel* stepText() const { return stepText_; }
  void showStep(int index);
  void moveStep(int delta);
  static QString cheatSheetText();
  void showCheatSheet();
  QWidget* cheatSheet() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  learn::EpisodeLineage lineage_;
  QLabel* title_;
  QListWidget* steps_;
  QLabel* stepText_;
  ProgramDiffView* diff_;
  QPointer<QDialog> cheatSheet_;
};

// Opens (non-modal, deleted on close) the lineage of `episode` of the campaign workspace `dir`; nullptr with
// `error` (not a sage campaign, no such episode, an unreadable log).
EpisodeLineageView* showEpisodeLineage(QWidget* parent, const QString& dir, int episode, QString* error);

}  // namespace sf::widgets
