// Item models of the stream inspector: the list of streams, the token table of one stream, the list of
// outputs and the value-by-value comparison of one output with its reference. All read a snapshot.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "core/inspect/stream_data.hpp"

namespace sf::widgets {

// Rows: the snapshot's streams. Columns: name, type, dims (values, innermost-first), elements.
class StreamListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, TypeColumn, DimsColumn, ElementsColumn, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  void setStreams(std::shared_ptr<const inspect::InspectorSnapshot> snap);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const inspect::InspectorSnapshot> snap_;
};

// The token view of one stream (step-dialect §3.4): one row per data token with the stop token emitted after
// it, then a final row for the done token. Columns: token index, position (i0, …, ir), value, stop.
// At most kMaxRows data rows are shown (truncated() tells).
class TokenTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { IndexColumn, PositionColumn, ValueColumn, StopColumn, ColumnCount };
  static constexpr std::int64_t kMaxRows = 200000;
  using QAbstractTableModel::QAbstractTableModel;
  void setStream(const sim::StreamValue* value, std::shared_ptr<const inspect::InspectorSnapshot> keep);
  bool truncated() const;
  // Stop level after the element at stream position p (0 = none); -1 for an invalid position.
  int stopLevel(std::int64_t p) const;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::int64_t dataRows() const;
  std::shared_ptr<const inspect::InspectorSnapshot> keep_;
  const sim::StreamValue* value_ = nullptr;
};

// Rows: the snapshot's outputs. Columns: name, status (pass / n mismatches), max abs error.
class OutputListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, StatusColumn, MaxAbsColumn, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  void setOutputs(std::shared_ptr<const inspect::InspectorSnapshot> snap);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const inspect::InspectorSnapshot> snap_;
};

// One output against its reference, one row per scalar of the full tensor (or only the mismatching ones).
// Mismatching rows have a red background. Columns: FT index, position, program, reference, |error|, status.
class OutputCompareModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    IndexColumn,
    PositionColumn,
    ProgramColumn,
    ReferenceColumn,
    ErrorColumn,
    StatusColumn,
    ColumnCount
  };
  static constexpr std::int64_t kMaxRows = 1000000;
  using QAbstractTableModel::QAbstractTableModel;
  void setOutput(const inspect::InspectedOutput* out, std::shared_ptr<const inspect::InspectorSnapshot> keep);
  void setMismatchesOnly(bool on);
  bool mismatchesOnly() const { return mismatches_only_; }
  std::int64_t ftIndex(int row) const;  // full-tensor index shown in a row, -1 if none
  inspect::ValueStatus status(std::int64_t ft) const;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  static QColor mismatchBackground();

 private:
  std::int64_t compared() const;
  std::shared_ptr<const inspect::InspectorSnapshot> keep_;
  const inspect::InspectedOutput* out_ = nullptr;
  bool mismatches_only_ = false;
  std::vector<std::int64_t> bad_;  // FT indices of mismatches (and NaN references)
};

}  // namespace sf::widgets
