// Run comparison models (issue 9 item 4): two or more campaigns side by side. ComparisonSummaryModel has one
// row per campaign (mode, solved, final pass@1 / pass@n, tokens, cost, stop reason); ComparisonTaskModel has
// one row per task (union, in the first campaign's order) and one column per campaign with its success rate
// and whether it solved the task.
#pragma once

#include <QAbstractTableModel>

#include "widgets/campaign/campaign_types.hpp"

namespace sf::widgets {

// A run's name in every comparison view (issue 34 item 5): runs of one config share its name, so the workspace
// folder comes first ("demo-a · demo"); the folder alone when it is the name, the name alone without a folder.
QString runLabel(const QString& dir, const QString& name);

class ComparisonSummaryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, ModeColumn, SolvedColumn, Pass1Column, PassNColumn, TokensColumn, CostColumn,
                StatusColumn, ColumnCount };
  explicit ComparisonSummaryModel(QObject* parent = nullptr);
  void setCampaigns(const QVector<CampaignSummary>& c);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  QVector<CampaignSummary> c_;
};

class ComparisonTaskModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // BestSpeedupRole: the task's best PASS speedup in that campaign (-1 when its log has none).
  enum Role { RateRole = Qt::UserRole + 1, SolvedRole, SamplesRole, BestSpeedupRole };
  explicit ComparisonTaskModel(QObject* parent = nullptr);
  void setCampaigns(const QVector<CampaignSummary>& c);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;  // 1 + campaigns
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  QVector<CampaignSummary> c_;
  QStringList tasks_;
  QVector<QHash<QString, TaskStatusRow>> byTask_;
};

}  // namespace sf::widgets
