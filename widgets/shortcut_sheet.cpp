#include "widgets/shortcut_sheet.hpp"

#include <QDialog>
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

}  // namespace sf::widgets
