// The trace pane (issue 8 item 7): the live list of agent calls with filters (role, verdict, task) and a search
// box over a TraceFilterProxy; the detail under it shows the selected call's prompt, response, parsed program,
// the guardian's diff and the verdict with its diagnostics. Ctrl+G (or the context menu) promotes the selected
// call's program to the golden set (widgets/editor/golden_promote.hpp), Ctrl+L opens its episode's lineage.
#pragma once

#include <QWidget>

#include "widgets/campaign/trace_model.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QLabel;

namespace sf::widgets {

class TracePane : public QWidget {
  Q_OBJECT
 public:
  explicit TracePane(QWidget* parent = nullptr);

  void apply(const CampaignUpdate& u);
  void clear();

  TraceModel* model() const { return model_; }
  TraceFilterProxy* proxy() const { return proxy_; }
  QTableView* view() const { return view_; }
  // The detail texts shown (for tests): "prompt", "response", "impl", "diff", "verdict", "reasoning".
  QString detailText(const QString& which) const;
  // Shows the detail of source row `row` and selects it.
  void showRow(int row);
  // Ctrl+L / context menu: asks for the lineage of the current row's episode (sage: iteration = episode).
  bool requestLineage();
  QAction* lineageAction() const { return lineageAction_; }
  // Ctrl+G / context menu: verifies the current row's program and adds it to the golden set
  // (goldenFileForWorkspace of the shown workspace) with its provenance (campaign, workspace, task, iteration,
  // sample, model, "trace"); no confirmation; refused with the reason when it does not verify. The outcome
  // goes out as statusMessage.
  bool promoteCurrent();
  QAction* promoteAction() const { return promoteAction_; }

 signals:
  void lineageRequested(int episode, const QString& task);
  void statusMessage(const QString& text);

 public slots:
  void setSearchText(const QString& text);
  void setTaskFilter(const QString& task);

 private:
  void showDetail(const QModelIndex& proxyIndex);
  void updateCount();

  TraceModel* model_;
  TraceFilterProxy* proxy_;
  QComboBox* role_;
  QComboBox* verdict_;
  QLineEdit* task_;
  QLineEdit* search_;
  QCheckBox* deep_;
  QCheckBox* follow_;
  QLabel* count_;
  QTableView* view_;
  QTabWidget* tabs_;
  QAction* lineageAction_;
  QAction* promoteAction_;
  QString dir_, campaign_, llmModel_;  // of the shown workspace (the provenance of a promotion)
  QPlainTextEdit *prompt_, *response_, *impl_, *diff_, *verdictText_, *reasoning_;
};

}  // namespace sf::widgets
