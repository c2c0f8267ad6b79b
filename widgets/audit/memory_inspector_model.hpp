// MemoryInspectorModel: the items of a sage campaign's adoption-aware memory (algorithms §4.1) — state,
// utility, counts (retrievals, adoptions, updates), distinct adopting operators, access estimate, tokens —
// with each item's utility trajectory over episodes (from `credit` events) and the hot budget (from
// `consolidation` events or campaign.json). Built from an opened workspace (the snapshot of memory.json and
// events.jsonl the campaign thread folds), from an imported memory file, and from live events (the live feed or
// the demo replay). See docs/audit.md.
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QPointF>
#include <QSet>
#include <QVector>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/learn/projections.hpp"
#include "core/memory/memory_item.hpp"
#include "widgets/audit/audit_snapshot.hpp"

namespace sf::widgets {

class MemoryInspectorModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    IdColumn = 0,
    StateColumn,
    UtilityColumn,
    RetrievalsColumn,
    AdoptionsColumn,
    UpdatesColumn,
    OperatorsColumn,
    AccessColumn,
    TokensColumn,
    RuleColumn,
    ColumnCount
  };
  enum Role { StateRole = Qt::UserRole + 1, IdRole, SortRole };

  explicit MemoryInspectorModel(QObject* parent = nullptr);

  // Shows an opened workspace as the campaign thread read it (audit_snapshot.hpp; nothing is read here):
  // memory.json's items and counts when it is there, the events' trajectories and budget (and their items
  // when there is no memory.json). False with the snapshot's error; the model is unchanged then.
  bool openSnapshot(const AuditMemorySnapshot& s, QString* error = nullptr);
  // Replaces the items with a stepforge-memory file (strictly validated; M-IMPORT / M-IO message on error,
  // the model unchanged). Trajectories are rebuilt from the items' credit histories.
  bool importFile(const QString& path, QString* error = nullptr);
  // Writes the items as a stepforge-memory file (atomic; validated by the core's importer first).
  bool exportFile(const QString& path, QString* error = nullptr) const;
  nlohmann::json toJson() const;
  void clear();

  // One event. Events with a seq not after the last applied one are ignored (a live feed that starts with the
  // events already loaded); a `campaign_started` with seq 0 starts over (a replay).
  void applyEvent(const learn::Event& event);
  // An envelope (a hand-written list): decoded by learn::event_from_json; a malformed one changes nothing.
  void applyEvent(const nlohmann::json& envelope);

  const memory::MemoryItem& item(int row) const { return items_[static_cast<std::size_t>(row)]; }
  int rowOfId(const QString& id) const { return index_.value(id, -1); }
  // (episode, utility after the update) per credit event of the item, in log order.
  QVector<QPointF> trajectory(const QString& id) const { return trajectories_.value(id); }
  int hotTokens() const;
  int budget() const;
  qint64 lastSeq() const { return lastSeq_; }
  int countInState(memory::ItemState s) const;
  // The consolidation guard's rollbacks folded so far (`consolidation_rollback` events), in log order.
  const std::vector<learn::MemoryView::Rollback>& rollbacks() const { return view_.rollbacks(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 signals:
  void budgetChanged();
  void trajectoryChanged(const QString& id);
  void rollbacksChanged();

 private:
  void setItems(std::vector<memory::MemoryItem> items, const nlohmann::json& header);
  void restart();  // a replay from seq 0: empty, but the memory.json snapshot is kept
  void foldEvent(const learn::Event& event);  // into view_
  memory::MemoryItem shown(const memory::MemoryItem& fromView) const;  // + what memory.json adds
  void syncFromView();                              // items_ := the view's items (row signals)
  void syncTrajectories(QSet<QString>* changed);    // trajectories_ := the view's

  // The items shown: the view's (folded from events) or, right after loading a workspace with memory.json or
  // importing a file, that file's until the next event.
  std::vector<memory::MemoryItem> items_;
  QHash<QString, int> index_;
  QHash<QString, QVector<QPointF>> trajectories_;
  learn::MemoryView view_;  // the memory at the last event applied (core projection: the memory's own rules)
  std::optional<memory::MemoryStore> initial_;  // the campaign's imported memory, when the snapshot had it
  bool importedHotTokens_ = false;  // an imported file: hot tokens = the sum over its hot items
  nlohmann::json header_ = nlohmann::json::object();  // next_id, episodes, consolidations (export)
  qint64 lastSeq_ = -1;
  // Items of the workspace's memory.json: what events do not carry (code example, abstracted resident form).
  std::map<std::string, memory::MemoryItem> snapshot_;
};

}  // namespace sf::widgets
