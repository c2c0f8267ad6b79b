// The stream inspector pane (issue 8, item 4): after a simulation, the token sequence (data and stop tokens)
// and the values of a selected stream; each output against its reference with mismatches highlighted.
// Shows an InspectorSnapshot (see core/inspect/stream_data.hpp); it never runs the engine.
#pragma once

#include <QWidget>
#include <memory>

#include "core/inspect/stream_data.hpp"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QTabWidget;

namespace sf::widgets {

class StreamListModel;
class TokenTableModel;
class OutputListModel;
class OutputCompareModel;

class StreamInspector : public QWidget {
  Q_OBJECT
 public:
  explicit StreamInspector(QWidget* parent = nullptr);
  ~StreamInspector() override;

  void setSnapshot(inspect::InspectorSnapshot snapshot);
  void clear();
  const inspect::InspectorSnapshot* snapshot() const { return snap_.get(); }

  StreamListModel* streamModel() const { return streams_; }
  TokenTableModel* tokenModel() const { return tokens_; }
  OutputListModel* outputModel() const { return outputs_; }
  OutputCompareModel* compareModel() const { return compare_; }
  QString tokenText() const;      // the token sequence of the selected stream ("1 2 S1 3 4 S1 D")
  QString outputSummary() const;  // the §12 message of the selected output
  QString currentStream() const;
  QString currentOutput() const;

 public Q_SLOTS:
  bool selectStream(const QString& name);  // false if there is no such stream
  bool selectOutput(const QString& name);
  void setMismatchesOnly(bool on);

 Q_SIGNALS:
  void streamSelected(const QString& name);

 private:
  void showStream(int row);
  void showOutput(int row);

  std::shared_ptr<const inspect::InspectorSnapshot> snap_;
  StreamListModel* streams_;
  TokenTableModel* tokens_;
  OutputListModel* outputs_;
  OutputCompareModel* compare_;
  QTabWidget* tabs_;
  QLabel* error_;
  QTableView* stream_view_;
  QPlainTextEdit* token_text_;
  QTableView* token_view_;
  QTableView* output_view_;
  QLabel* summary_;
  QCheckBox* mismatches_only_;
  QTableView* compare_view_;
  int current_stream_ = -1, current_output_ = -1;
};

}  // namespace sf::widgets
