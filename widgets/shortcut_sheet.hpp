// The keyboard cheat sheet of a pane (`?` / F1; issue 20 item 4): a non-modal window listing every shortcut,
// one per line ("KEY — action"), created on first use and kept (shown again, raised) afterwards.
#pragma once

#include <QPointer>
#include <QString>

class QDialog;
class QWidget;

namespace sf::widgets {

// Shows the sheet of `parent` (creating it in `sheet` when null) with `title` and `text`.
void showShortcutSheet(QWidget* parent, QPointer<QDialog>& sheet, const QString& objectName, const QString& title,
                       const QString& text);

}  // namespace sf::widgets
