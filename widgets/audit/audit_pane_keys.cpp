// AuditPane's keyboard: the key handler and the cheat sheet (the layout and the actions are in audit_pane.cpp).
#include "widgets/audit/audit_pane.hpp"

#include <QCheckBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>

#include "widgets/shortcut_sheet.hpp"

namespace sf::widgets {

QString AuditPane::cheatSheetText() {
  return tr("1 / Ctrl+1 — label full and go to the next record\n"
            "2 / Ctrl+2 — label partial and go to the next record\n"
            "3 / Ctrl+3 — label unrelated and go to the next record\n"
            "Ctrl+Enter — complete: save the note with your label and go to the next record\n"
            "J / Ctrl+J — next record\n"
            "K / Ctrl+K — previous record\n"
            "N — write a note (focus the note field; Esc goes back to the table)\n"
            "S — draw the random sample (N records, the seed shown)\n"
            "A — show all records\n"
            "B — blind on / off (hides the claim and other auditors' labels)\n"
            "L / Ctrl+L — episode lineage of the record's episode (rounds, programs, verdicts, adopted items)\n"
            "? / F1 — this cheat sheet\n"
            "Keys with Ctrl also work while the note field has focus.");
}

QWidget* AuditPane::cheatSheet() const {
  return cheatSheet_;
}

void AuditPane::showCheatSheet() {
  showShortcutSheet(this, cheatSheet_, QStringLiteral("auditCheatSheet"), tr("Audit keyboard shortcuts"),
                    cheatSheetText());
}

bool AuditPane::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, event);
  auto* k = static_cast<QKeyEvent*>(event);
  const auto mods = k->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
  const bool ctrl = mods == Qt::ControlModifier;
  const bool inNote = watched == note_;
  // In the note field plain keys are text: only Ctrl shortcuts (and Esc) act there.
  if (inNote && !ctrl) {
    if (k->key() == Qt::Key_Escape) {
      table_->setFocus();
      return true;
    }
    if (k->key() == Qt::Key_F1) {
      showCheatSheet();
      return true;
    }
    return QWidget::eventFilter(watched, event);
  }
  if (mods && !ctrl) return QWidget::eventFilter(watched, event);
  if (handleSharedPaneKeys(*k, [this](int d) { moveBy(d); }, [this] { showCheatSheet(); })) return true;
  switch (k->key()) {
    case Qt::Key_1:
      labelCurrent(0);
      return true;
    case Qt::Key_2:
      labelCurrent(1);
      return true;
    case Qt::Key_3:
      labelCurrent(2);
      return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (!ctrl) break;
      completeCurrent();
      return true;
    case Qt::Key_L:
      showLineage();
      return true;
    default:
      break;
  }
  if (ctrl) return QWidget::eventFilter(watched, event);
  switch (k->key()) {
    case Qt::Key_N:
      note_->setFocus();
      return true;
    case Qt::Key_S:
      sample(sampleN_->value(), seed());
      return true;
    case Qt::Key_A:
      showAll();
      return true;
    case Qt::Key_B:
      blind_->toggle();
      return true;
    default:
      break;
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace sf::widgets
