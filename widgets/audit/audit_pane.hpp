// AuditPane: the adoption audit (issue 9.1). A filterable table of adoption records; a detail view with the
// experience (rule, evidence, provenance), the agent's rationale and the code revision before → after side by
// side (STeP colours, changed lines marked); labels full / partial / unrelated + note from the keyboard
// (1/2/3 label the current record, J/K move), saved to audit.json and as `audit_label` events; a random
// sample of N records from a shown, settable seed (blind audit: the claim columns are hidden); the summary
// (counts and % per label) exported as CSV or Markdown. See docs/audit.md.
#pragma once

#include <QDialog>
#include <QHash>
#include <QPointer>
#include <QWidget>
#include <array>
#include <nlohmann/json.hpp>

#include "core/store/audit.hpp"
#include "widgets/audit/audit_snapshot.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;
class QTextBrowser;

namespace sf::widgets {

class AuditModel;
class EpisodeLineageView;
class AuditFilterModel;
class AuditCodeView;

class AuditPane : public QWidget {
  Q_OBJECT
 public:
  explicit AuditPane(QWidget* parent = nullptr);

  AuditModel* model() const { return model_; }
  AuditFilterModel* filterModel() const { return filter_; }
  QTableView* table() const { return table_; }
  AuditCodeView* beforeView() const { return before_; }
  AuditCodeView* afterView() const { return after_; }
  QLineEdit* noteEdit() const { return note_; }
  QString detailText() const;  // experience + rationale as plain text (tests, screen readers)

  // Source row of the current record, -1 when none.
  int currentSourceRow() const;
  void selectProxyRow(int row);

  // Draws `n` records from the current filter-independent population with `seed` and shows only them, in
  // draw order (a blind audit hides the adopted / rank / score / label columns).
  void sample(int n, quint64 seed);
  void showAll();
  quint64 seed() const;
  void setSeed(quint64 seed);
  bool blind() const;

  // Over the sample while sampling, else over every record.
  store::AuditSummary summary() const;
  bool exportSummary(const QString& path, bool markdown, QString* error = nullptr) const;

 public slots:
  // Shows an opened campaign workspace from its snapshot (audit_snapshot.hpp: the log, audit.json and
  // memory.json, for experiences without an event, as the campaign thread read them; nothing is read here).
  bool openSnapshot(const AuditMemorySnapshot& s);
  // A live event (see AuditModel::applyEvent).
  void applyEvent(const learn::Event& event);
  // Labels the current record with kAuditLabels[index] and the note field, then advances to the next record
  // (complete-and-advance); shows errors in the status line.
  bool labelCurrent(int index);
  // Ctrl+Enter: saves the note with the current auditor's label of the record and advances (no label yet:
  // a status message asks for 1/2/3).
  bool completeCurrent();
  // The auditor whose labels are shown and written (saved in the preferences, default $USER).
  void setAuditor(const QString& name);
  QString auditor() const;
  // The keyboard cheat sheet (`?` or F1): every shortcut of the pane, one per line ("KEY — action").
  static QString cheatSheetText();
  void showCheatSheet();
  QWidget* cheatSheet() const;
  // L / Ctrl+L / context menu: the lineage of the current record's episode (nullptr: none, the status says why).
  EpisodeLineageView* showLineage();
  void moveBy(int delta);

 signals:
  void statusMessage(const QString& text);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void updateDetail();
  void updateSummary();
  void updateTaskFilter();
  void updateBlind();
  void exportDialog(bool markdown);

  AuditModel* model_;
  AuditFilterModel* filter_;
  QTableView* table_;
  QComboBox* taskCombo_;
  QComboBox* adoptedCombo_;
  QComboBox* labelCombo_;
  QLineEdit* search_;
  QSpinBox* sampleN_;
  QLineEdit* seedEdit_;
  QCheckBox* blind_;
  QLabel* sampleInfo_;
  QTextBrowser* detail_;
  AuditCodeView* before_;
  AuditCodeView* after_;
  QLabel* beforeTitle_;
  QLabel* afterTitle_;
  QLineEdit* note_;
  std::array<QWidget*, 3> labelButtons_{};  // full, partial, unrelated
  QLabel* currentLabel_;
  QLineEdit* auditorEdit_;
  QPointer<QDialog> cheatSheet_;
  QLabel* summary_;
  QLabel* status_;
  struct MemoryText {
    QString rule, evidence, sourceTask;
    qint64 sourceEpisode = 0;
  };
  QHash<QString, MemoryText> memoryItems_;  // from memory.json (the snapshot), for items without an
                                            // experience_added event
};

}  // namespace sf::widgets
