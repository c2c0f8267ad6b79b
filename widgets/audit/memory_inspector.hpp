// MemoryInspector: the adoption-aware memory of a sage campaign (issue 9.2): cold / validated / hot items
// (MemoryInspectorModel) with a state filter; a gauge of the hot budget (resident hot tokens / budget); a
// QtCharts line chart of the selected item's utility over episodes (credit events); its provenance (source
// episode and task, rule, evidence, resident form); export and import of stepforge-memory files (a bad file
// gets a clear error dialog). Follows live events (applyEvent) and shows opened workspaces (openSnapshot).
// See docs/audit.md.
#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

#include "widgets/audit/audit_snapshot.hpp"

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QProgressBar;
class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;
class QValueAxis;

namespace sf::widgets {

class MemoryInspectorModel;

class MemoryInspector : public QWidget {
  Q_OBJECT
 public:
  explicit MemoryInspector(QWidget* parent = nullptr);

  MemoryInspectorModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* table() const { return table_; }
  QProgressBar* gauge() const { return gauge_; }
  QLineSeries* series() const { return series_; }
  QString provenanceText() const;
  // The consolidation guard's line: the last rollback (resident set kept, and why), "" when there was none.
  QString rollbackText() const;
  QLabel* rollbackLabel() const { return rollback_; }
  QString selectedId() const;
  void selectItem(const QString& id);
  // "" = every state, or "cold" / "validated" / "hot".
  void setStateFilter(const QString& state);

  // Without a dialog: false with the message (used by the dialogs and the tests).
  bool importFrom(const QString& path, QString* error = nullptr);
  bool exportTo(const QString& path, QString* error = nullptr);

 public slots:
  // An opened workspace, as the campaign thread read it (audit_snapshot.hpp; nothing is read here).
  bool openSnapshot(const AuditMemorySnapshot& s);
  void applyEvent(const learn::Event& event);
  void applyEvent(const nlohmann::json& envelope);  // a hand-written list (see MemoryInspectorModel)
  void importDialog();
  void exportDialog();

 signals:
  void statusMessage(const QString& text);

 protected:
  void changeEvent(QEvent* e) override;  // a font change (presentation layout) reaches the chart

 private:
  void applyChartFonts();
  void updateGauge();
  void updateRollbacks();
  void updateDetail();

  MemoryInspectorModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QComboBox* stateCombo_;
  QProgressBar* gauge_;
  QLabel* counts_;
  QChartView* chartView_;
  QLineSeries* series_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
  QTextBrowser* provenance_;
  QLabel* status_;
  QLabel* legend_ = nullptr;    // the states and the credit, in words
  QLabel* rollback_ = nullptr;  // the consolidation guard's line (hidden without a rollback)
  QString shownId_;
};

}  // namespace sf::widgets
