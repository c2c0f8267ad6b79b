// The keyboard cheat sheet of a pane (`?` / F1; issue 20 item 4): a non-modal window listing every shortcut,
// one per line ("KEY — action"), created on first use and kept (shown again, raised) afterwards.
#pragma once

#include <functional>

#include <QPointer>
#include <QString>

class QDialog;
class QKeyEvent;
class QWidget;

namespace sf::widgets {

// Shows the sheet of `parent` (creating it in `sheet` when null) with `title` and `text`.
void showShortcutSheet(QWidget* parent, QPointer<QDialog>& sheet, const QString& objectName, const QString& title,
                       const QString& text);

// The keys the panes' key handlers share (run comparison, audit, episode lineage): J / K call move(1) /
// move(-1); `?` / F1 without Ctrl call showSheet(). True when `key` was one of them (the caller consumes it).
bool handleSharedPaneKeys(const QKeyEvent& key, const std::function<void(int)>& move,
                          const std::function<void()>& showSheet);

}  // namespace sf::widgets
