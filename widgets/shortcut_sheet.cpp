#include "widgets/shortcut_sheet.hpp"

#include <QDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace sf::widgets {

void showShortcutSheet(QWidget* parent, QPointer<QDialog>& sheet, const QString& objectName, const QString& title,
                       const QString& text) {
  if (!sheet) {
    sheet = new QDialog(parent);
    sheet->setObjectName(objectName);
    sheet->setWindowTitle(title);
    auto* l = new QVBoxLayout(sheet);
    auto* label = new QLabel(text, sheet);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->addWidget(label);
  }
  sheet->show();
  sheet->raise();
}

bool handleSharedPaneKeys(const QKeyEvent& key, const std::function<void(int)>& move,
                          const std::function<void()>& showSheet) {
  switch (key.key()) {
    case Qt::Key_J: move(1); return true;
    case Qt::Key_K: move(-1); return true;
    case Qt::Key_Question:
    case Qt::Key_F1:
      if (key.modifiers() & Qt::ControlModifier) return false;
      showSheet();
      return true;
    default: return false;
  }
}

}  // namespace sf::widgets
