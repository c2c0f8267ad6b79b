// The trace pane's models (issue 8 item 7): TraceModel, a flat list of agent calls appended in batches (one
// beginInsertRows per batch, so 100,000 rows stay smooth), and TraceFilterProxy, the filters (role, verdict,
// task) and the search (task, role, verdict, error, and optionally the response text).
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <vector>

#include "widgets/campaign/campaign_types.hpp"

namespace sf::widgets {

class TraceModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { SeqColumn, RoleColumn, TaskColumn, IterationColumn, SampleColumn, VerdictColumn, CyclesColumn,
                SpeedupColumn, TokensColumn, LatencyColumn, ColumnCount };
  // Speedups above this are flagged suspicious (docs/cost-model.md §6).
  static constexpr double kSuspiciousSpeedup = 10.0;
  enum Role { RowRole = Qt::UserRole + 1, RoleNameRole, TaskRole, VerdictRole, PassRole, SearchTextRole,
              CyclesRole, SpeedupRole };  // -1 when the verdict has no cost numbers

  explicit TraceModel(QObject* parent = nullptr);

  void clear();
  void append(const QVector<TraceRow>& rows);
  void applyVerdicts(const QVector<TraceVerdictUpdate>& updates);
  // Both of the above, from one campaign update.
  void apply(const CampaignUpdate& u);

  const TraceRow& row(int r) const { return rows_[static_cast<std::size_t>(r)]; }
  QStringList roles() const;  // distinct roles seen, in first-seen order

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 signals:
  void rolesChanged(const QStringList& roles);

 private:
  std::vector<TraceRow> rows_;
  QStringList roles_;
  double fastTolerance_ = kDefaultFastTolerance;  // the campaign's: a speedup within it reads "tie (1.00×)"
};

class TraceFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  enum class VerdictFilter { Any, Pass, Fail, Pending };
  explicit TraceFilterProxy(QObject* parent = nullptr);

  void setRoleFilter(const QString& role);  // "" = every role
  void setVerdictFilter(VerdictFilter v);
  void setTaskFilter(const QString& task);  // exact task id; "" = every task
  void setSearchText(const QString& text);  // case-insensitive substring of task, role, verdict, error
  void setSearchResponses(bool on);         // the search also looks into responses and programs

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QString role_, task_, search_;
  VerdictFilter verdict_ = VerdictFilter::Any;
  bool searchResponses_ = false;
};

}  // namespace sf::widgets
