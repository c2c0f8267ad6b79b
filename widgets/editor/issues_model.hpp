// IssuesModel: the rows of the issues pane (one diagnostic per row: severity, code, location, message).
#pragma once

#include <QAbstractTableModel>
#include <QVector>

#include "widgets/engine/engine_types.hpp"

namespace sf::widgets {

class IssuesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { SeverityColumn = 0, CodeColumn, LocationColumn, MessageColumn, ColumnCount };
  enum Role { LineRole = Qt::UserRole + 1, ColumnRole, CodeRole, SeverityRole };

  explicit IssuesModel(QObject* parent = nullptr);

  // Replaces all rows (a new check result).
  void setIssues(const QVector<IssueRow>& issues);
  const QVector<IssueRow>& issues() const { return rows_; }
  int errorCount() const;
  int warningCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  QVector<IssueRow> rows_;
};

// VerifySetsModel: the input sets of the last verification (sizes, seed, pass, max abs error).
class VerifySetsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { BindingColumn = 0, SeedColumn, ResultColumn, ErrorColumn, ColumnCount };
  explicit VerifySetsModel(QObject* parent = nullptr);
  void setSets(const QVector<VerifySetRow>& sets);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  QVector<VerifySetRow> rows_;
};

}  // namespace sf::widgets
