// AuditModel: the adoption records of a sage campaign (one `adoption_record` event per row) with their human
// audit labels; AuditFilterModel: the pane's filters (task, adopted, label, text) and the random sample of a
// blind audit. The data and the files are core/store/audit.hpp's (audit.json + `audit_label` events), so the
// CLI (`stepforge-cli audit`) sees the same labels. See docs/audit.md.
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

#include "core/learn/projections.hpp"
#include "core/store/audit.hpp"
#include "widgets/audit/audit_snapshot.hpp"

namespace sf::widgets {

class AuditModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    TaskColumn = 0,
    EpisodeColumn,
    RoundColumn,
    ItemColumn,
    RankColumn,
    ScoreColumn,
    AdoptedColumn,
    RationaleColumn,
    LabelColumn,
    SpeedupColumn,  // the speedup of the round's PASS verdict (optional "speedup" field); > 10× is suspicious
    ColumnCount
  };
  static constexpr double kSuspiciousSpeedup = 10.0;  // docs/cost-model.md §6
  enum Role {
    TaskRole = Qt::UserRole + 1,  // QString
    AdoptedRole,                  // bool
    LabelRole,                    // QString ("" = unlabelled)
    SearchTextRole,               // task, item, rationale, note, experience rule (lower-case)
    SortRole,                     // numeric value of numeric columns
    SpeedupRole,                  // double, -1 when the round's verdict has none
    SuspiciousRole                // bool: speedup > kSuspiciousSpeedup
  };

  explicit AuditModel(QObject* parent = nullptr);

  // Shows an opened workspace: the audit the campaign thread folded from its log and audit.json
  // (audit_snapshot.hpp; nothing is read here). False with its error: the model is then empty, without a
  // workspace and read-only (openError(); live events ignored, setLabel refused) until the next open, replay or
  // clear, so a label can never reach the previously shown workspace.
  bool openSnapshot(const AuditMemorySnapshot& s, QString* error = nullptr);
  QString openError() const { return openError_; }  // non-empty after a failed open
  bool canLabel() const { return openError_.isEmpty() && !ws_.dir.empty(); }
  qint64 skippedEvents() const { return skipped_; }  // events of the opened log that did not decode
  // A replay of `dir` (demo mode): empty, nothing read from disk; every row comes from the replayed events,
  // and a `campaign_started` with seq 0 (the replay starting over, e.g. scrubbed back) empties it again.
  void startReplay(const QString& dir);
  void clear();
  QString workspaceDir() const;
  bool hasWorkspace() const { return !ws_.dir.empty(); }

  // A live event: adoption_record rows are appended (or replaced by key), experience_added and audit_label
  // events are recorded, a verdict's speedup is noted, campaign_started sets the campaign's tie tolerance (a
  // speedup within its `fast_tolerance` of 1× reads "tie"). Other types are ignored.
  void applyEvent(const learn::Event& event);
  // An envelope (a hand-written list): decoded by learn::event_from_json; a malformed one is ignored.
  void applyEvent(const nlohmann::json& envelope);

  // Labels row `row` ("full" / "partial" / "unrelated"), saving audit.json and appending an audit_label
  // event to the workspace. `time` defaults to the current UTC time, the auditor to $USER.
  bool setLabel(int row, const QString& label, const QString& note, QString* error = nullptr,
                const QString& time = {});

  const store::AdoptionEntry& record(int row) const { return ws_.log.records[static_cast<std::size_t>(row)]; }
  // The current auditor's label of row `row` (other auditors' labels: workspace().labels.of(key)).
  const store::AuditLabelEntry* labelOf(int row) const {
    return ws_.labels.find(record(row).key(), auditor_.toStdString());
  }
  const store::ExperienceEntry* experience(const std::string& item) const;
  int rowOf(const store::AdoptionKey& k) const;
  const store::AuditWorkspace& workspace() const { return ws_; }
  QStringList tasks() const;  // distinct tasks, sorted
  // The speedup of the PASS verdict of (episode, task, round), -1 when unknown (older logs have none).
  double speedupOf(std::int64_t episode, const std::string& task, int round) const;
  // Whose labels the Label column shows and setLabel writes (Preferences → Auditor name; default $USER).
  void setAuditor(const QString& a);
  QString auditor() const { return auditor_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 signals:
  void labelsChanged();

 private:
  void reset(const std::filesystem::path& dir);  // empty, with `dir` as the workspace

  store::AuditWorkspace ws_;
  QString auditor_;
  learn::AuditView verdicts_;  // the speedups of the PASS verdicts (core projection)
  bool replay_ = false;
  qint64 skipped_ = 0;
  QString openError_;  // the last open failed (see openSnapshot)
};

// Filters the AuditModel; with a sample set only the sampled records are shown, in draw order.
class AuditFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  enum class Adopted { Any, Yes, No };
  explicit AuditFilterModel(QObject* parent = nullptr);

  void setTaskFilter(const QString& task);  // "" = any
  void setAdoptedFilter(Adopted a);
  void setLabelFilter(const QString& label);  // "" = any, "-" = unlabelled, or a label name
  void setTextFilter(const QString& text);    // case-insensitive substring
  // Restricts to these keys, shown in this order (the blind-audit sample); empty vector + false = all
  // records.
  void setSample(const std::vector<store::AdoptionKey>& keys);
  void clearSample();
  bool sampling() const { return sampling_; }
  const std::vector<store::AdoptionKey>& sample() const { return sampleKeys_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QString task_, label_, text_;
  Adopted adopted_ = Adopted::Any;
  bool sampling_ = false;
  std::vector<store::AdoptionKey> sampleKeys_;
  std::map<store::AdoptionKey, int> samplePos_;
};

}  // namespace sf::widgets
