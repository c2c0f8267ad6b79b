#include "widgets/audit/audit_model.hpp"
#include "core/common/speedup.hpp"
#include "widgets/qt_text.hpp"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QSet>
#include <set>
#include <string>

namespace sf::widgets {

AuditModel::AuditModel(QObject* parent) : QAbstractTableModel(parent) {
  auditor_ = qEnvironmentVariable("USER");
  if (auditor_.isEmpty()) auditor_ = QStringLiteral("auditor");
}

bool AuditModel::openSnapshot(const AuditMemorySnapshot& s, QString* error) {
  if (!s.auditError.isEmpty()) {
    // The previous workspace goes: the session's events are the unreadable workspace's, and a label set now
    // must not land in another workspace's audit.json. Until the next open the model stays empty and
    // read-only (its events are ignored, setLabel refuses with the error); nothing is written.
    replay_ = false;
    openError_ = s.auditError;
    reset({});
    if (error) *error = s.auditError;
    return false;
  }
  beginResetModel();
  replay_ = false;
  openError_.clear();
  ws_ = s.audit;
  verdicts_ = s.verdicts;
  skipped_ = s.malformed;
  endResetModel();
  emit labelsChanged();
  return true;
}

double AuditModel::speedupOf(std::int64_t episode, const std::string& task, int round) const {
  return verdicts_.speedup(episode, task, round).value_or(-1.0);
}

void AuditModel::reset(const std::filesystem::path& dir) {
  beginResetModel();
  ws_ = store::AuditWorkspace{};
  ws_.dir = dir;
  verdicts_ = learn::AuditView{};
  skipped_ = 0;
  endResetModel();
  emit labelsChanged();
}

void AuditModel::clear() {
  replay_ = false;
  openError_.clear();
  reset({});
}

void AuditModel::startReplay(const QString& dir) {
  replay_ = true;
  openError_.clear();
  reset(dir.toStdString());
}

QString AuditModel::workspaceDir() const {
  return qs(ws_.dir.string());
}

void AuditModel::applyEvent(const nlohmann::json& envelope) {
  std::string err;
  if (auto e = learn::event_from_json(envelope, err)) applyEvent(*e);
}

void AuditModel::applyEvent(const learn::Event& e) {
  if (!openError_.isEmpty()) return;  // the events of a workspace whose audit could not be opened
  if (std::holds_alternative<learn::CampaignStarted>(e.body)) {
    if (replay_ && e.seq == 0) reset(ws_.dir);
    verdicts_.apply(e);  // the campaign's tie tolerance
    if (rowCount() > 0) emit dataChanged(index(0, SpeedupColumn), index(rowCount() - 1, SpeedupColumn));
    return;
  }
  if (const auto* v = std::get_if<learn::Verdict>(&e.body)) {
    if (!verdicts_.note_verdict(v->iteration, v->task, v->sample_index, v->pass, v->speedup, v->feasible)) return;
    // The verdict follows its round's adoption records: refresh their speedup cells.
    for (int row = 0; row < rowCount(); ++row) {
      const auto& r = record(row);
      if (r.episode == v->iteration && r.round == v->sample_index && r.task == v->task)
        emit dataChanged(index(row, SpeedupColumn), index(row, SpeedupColumn));
    }
  } else if (const auto* a = std::get_if<learn::AdoptionRecord>(&e.body)) {
    const int existing = rowOf(a->key());
    if (existing >= 0) {
      ws_.log.records[static_cast<std::size_t>(existing)] = *a;
      emit dataChanged(index(existing, 0), index(existing, ColumnCount - 1));
      return;
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    store::fold_audit_record(ws_.log, *a);
    endInsertRows();
  } else if (const auto* x = std::get_if<learn::ExperienceAdded>(&e.body)) {
    store::fold_audit_experience(ws_.log, *x);
  } else if (const auto* l = std::get_if<learn::AuditLabel>(&e.body)) {
    const auto* cur = ws_.labels.find(l->key(), l->auditor);
    if (cur && *cur == *l) return;  // our own label coming back through the live feed
    store::fold_audit_label(ws_.log, *l);
    ws_.labels.set(*l);
    const int row = rowOf(l->key());
    if (row >= 0) emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit labelsChanged();
  }
}

bool AuditModel::setLabel(int row, const QString& label, const QString& note, QString* error,
                          const QString& time) {
  if (!openError_.isEmpty()) {
    if (error) *error = tr("the audit could not be opened: %1").arg(openError_);
    return false;
  }
  if (ws_.dir.empty()) {
    if (error) *error = tr("No campaign workspace is open.");
    return false;
  }
  if (row < 0 || row >= rowCount()) {
    if (error) *error = tr("No adoption record selected.");
    return false;
  }
  const auto& r = record(row);
  store::AuditLabelEntry l;
  l.episode = r.episode;
  l.task = r.task;
  l.round = r.round;
  l.item = r.item;
  l.label = label.toStdString();
  l.note = note.toStdString();
  l.auditor = auditor_.toStdString();
  const QDateTime now = QDateTime::currentDateTimeUtc();
  l.time = (time.isEmpty() ? now.toString(Qt::ISODate) : time).toStdString();
  std::string err;
  if (!store::record_audit_label(ws_, l, static_cast<double>(now.toMSecsSinceEpoch()) / 1000.0, err)) {
    if (error) *error = qs(err);
    return false;
  }
  // The labels were re-read from audit.json: other processes' labels may have arrived with ours.
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit labelsChanged();
  return true;
}

void AuditModel::setAuditor(const QString& a) {
  if (a == auditor_) return;
  auditor_ = a;
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit labelsChanged();
}

const store::ExperienceEntry* AuditModel::experience(const std::string& item) const {
  auto it = ws_.log.experiences.find(item);
  return it == ws_.log.experiences.end() ? nullptr : &it->second;
}

int AuditModel::rowOf(const store::AdoptionKey& k) const {
  auto it = ws_.log.index.find(k);
  return it == ws_.log.index.end() ? -1 : static_cast<int>(it->second);
}

QStringList AuditModel::tasks() const {
  std::set<std::string> s;
  for (const auto& r : ws_.log.records) s.insert(r.task);
  QStringList out;
  for (const auto& t : s) out << qs(t);
  return out;
}

int AuditModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(ws_.log.records.size());
}

int AuditModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& r = record(index.row());
  const auto* l = labelOf(index.row());
  const double speedup = speedupOf(r.episode, r.task, r.round);
  const bool suspicious = speedup > kSuspiciousSpeedup;
  switch (role) {
    case SpeedupRole:
      return speedup;
    case SuspiciousRole:
      return suspicious;
    case Qt::ForegroundRole:
      if (index.column() == SpeedupColumn && suspicious) return QColor(0xc0, 0x30, 0x30);
      return {};
    case Qt::FontRole:
      if (index.column() == SpeedupColumn && suspicious) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case TaskRole:
      return qs(r.task);
    case AdoptedRole:
      return r.adopted;
    case LabelRole:
      return l ? qs(l->label) : QString();
    case SearchTextRole: {
      QString s = qs(r.task) + QLatin1Char('\n') + qs(r.item) + QLatin1Char('\n') + qs(r.rationale);
      if (l) s += QLatin1Char('\n') + qs(l->note);
      if (const auto* e = experience(r.item)) s += QLatin1Char('\n') + qs(e->rule);
      return s.toLower();
    }
    case SortRole:
      switch (index.column()) {
        case EpisodeColumn:
          return static_cast<qlonglong>(r.episode);
        case RoundColumn:
          return r.round;
        case RankColumn:
          return r.rank;
        case ScoreColumn:
          return r.score;
        case AdoptedColumn:
          return r.adopted ? 1 : 0;
        case SpeedupColumn:
          return speedup;
        default:
          return data(index, Qt::DisplayRole);
      }
    case Qt::DisplayRole:
      switch (index.column()) {
        case TaskColumn:
          return qs(r.task);
        case EpisodeColumn:
          return static_cast<qlonglong>(r.episode);
        case RoundColumn:
          return r.round;
        case ItemColumn:
          return qs(r.item);
        case RankColumn:
          return r.rank;
        case ScoreColumn:
          return QString::number(r.score, 'f', 3);
        case AdoptedColumn:
          return r.adopted ? tr("adopted") : tr("not adopted");
        case RationaleColumn:
          return qs(r.rationale).simplified();
        case LabelColumn:
          return l ? qs(l->label) : QString();
        case SpeedupColumn:
          if (speedup < 0) return QString();
          return suspicious ? tr("⚠ %1× suspicious").arg(speedup, 0, 'f', 2)
                            : QString::fromStdString(speedup_text(speedup, verdicts_.fast_tolerance()));
        default:
          return {};
      }
    case Qt::ToolTipRole:
      if (index.column() == SpeedupColumn && suspicious)
        return tr("A speedup above %1× is suspicious: check the program by hand").arg(kSuspiciousSpeedup);
      if (index.column() == RationaleColumn) return qs(r.rationale);
      if (index.column() == LabelColumn && l)
        return tr("%1 by %2 at %3\n%4").arg(qs(l->label), qs(l->auditor), qs(l->time), qs(l->note));
      if (index.column() == AdoptedColumn && r.reasked) return tr("resolved after a re-ask");
      return {};
    case Qt::TextAlignmentRole:
      switch (index.column()) {
        case EpisodeColumn:
        case RoundColumn:
        case RankColumn:
        case ScoreColumn:
        case SpeedupColumn:
          return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        default:
          return {};
      }
    default:
      return {};
  }
}

QVariant AuditModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case TaskColumn:
      return tr("Task");
    case EpisodeColumn:
      return tr("Episode");
    case RoundColumn:
      return tr("Round");
    case ItemColumn:
      return tr("Item");
    case RankColumn:
      return tr("Rank");
    case ScoreColumn:
      return tr("Score");
    case AdoptedColumn:
      return tr("Adopted");
    case RationaleColumn:
      return tr("Rationale");
    case LabelColumn:
      return tr("Label");
    case SpeedupColumn:
      return tr("Speedup");
    default:
      return {};
  }
}

// ---- AuditFilterModel

AuditFilterModel::AuditFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(AuditModel::SortRole);
  setDynamicSortFilter(true);
}

void AuditFilterModel::setTaskFilter(const QString& task) {
  task_ = task;
  invalidateFilter();
}
void AuditFilterModel::setAdoptedFilter(Adopted a) {
  adopted_ = a;
  invalidateFilter();
}
void AuditFilterModel::setLabelFilter(const QString& label) {
  label_ = label;
  invalidateFilter();
}
void AuditFilterModel::setTextFilter(const QString& text) {
  text_ = text.trimmed().toLower();
  invalidateFilter();
}

void AuditFilterModel::setSample(const std::vector<store::AdoptionKey>& keys) {
  sampleKeys_ = keys;
  samplePos_.clear();
  for (std::size_t i = 0; i < keys.size(); ++i) samplePos_.emplace(keys[i], static_cast<int>(i));
  sampling_ = true;
  invalidate();
  sort(0);  // draw order (lessThan)
}

void AuditFilterModel::clearSample() {
  sampling_ = false;
  sampleKeys_.clear();
  samplePos_.clear();
  invalidate();
  sort(-1);  // back to log order
}

bool AuditFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
  if (sampling_) {
    auto* m = qobject_cast<const AuditModel*>(sourceModel());
    if (!m || !samplePos_.count(m->record(sourceRow).key())) return false;
  }
  if (!task_.isEmpty() && i.data(AuditModel::TaskRole).toString() != task_) return false;
  if (adopted_ != Adopted::Any && i.data(AuditModel::AdoptedRole).toBool() != (adopted_ == Adopted::Yes))
    return false;
  if (!label_.isEmpty()) {
    const QString l = i.data(AuditModel::LabelRole).toString();
    if (label_ == QLatin1String("-") ? !l.isEmpty() : l != label_) return false;
  }
  if (!text_.isEmpty() && !i.data(AuditModel::SearchTextRole).toString().contains(text_)) return false;
  return true;
}

bool AuditFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  if (sampling_) {
    auto* m = qobject_cast<const AuditModel*>(sourceModel());
    if (m) {
      auto a = samplePos_.find(m->record(left.row()).key());
      auto b = samplePos_.find(m->record(right.row()).key());
      if (a != samplePos_.end() && b != samplePos_.end()) return a->second < b->second;
    }
  }
  return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace sf::widgets
