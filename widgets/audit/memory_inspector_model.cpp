#include "widgets/audit/memory_inspector_model.hpp"
#include "widgets/qt_text.hpp"

#include <QColor>
#include <QFont>
#include <algorithm>

#include "core/memory/memory_config.hpp"
#include "core/memory/memory_json.hpp"
#include "core/memory/memory_store.hpp"
#include "core/memory/utility.hpp"
#include "core/learn/events.hpp"

namespace sf::widgets {

using nlohmann::json;

namespace {

// Trajectory from a credit history: U starts at 0 and follows the ATU update with the default η floor.
QVector<QPointF> trajectoryFromHistory(const memory::MemoryItem& it) {
  QVector<QPointF> out;
  double u = 0.0;
  int n = 0;
  const double etaMin = memory::MemoryConfig{}.eta_min;
  for (const auto& h : it.history) {
    auto st = memory::update_utility(u, n, h.credit, etaMin);
    u = st.utility;
    n = st.n_updates;
    out.append(QPointF(static_cast<double>(h.episode), u));
  }
  return out;
}

template <class T>
T num(const json& j, const char* k, T def) {
  auto it = j.find(k);
  if (it == j.end() || !it->is_number()) return def;
  return it->get<T>();
}

}  // namespace

MemoryInspectorModel::MemoryInspectorModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryInspectorModel::clear() {
  snapshot_.clear();
  restart();
}

void MemoryInspectorModel::restart() {
  beginResetModel();
  items_.clear();
  index_.clear();
  trajectories_.clear();
  view_ = learn::MemoryView(initial_);
  header_ = json::object();
  importedHotTokens_ = false;
  lastSeq_ = -1;
  endResetModel();
  emit budgetChanged();
}

void MemoryInspectorModel::setItems(std::vector<memory::MemoryItem> items, const json& header) {
  items_ = std::move(items);
  index_.clear();
  for (std::size_t i = 0; i < items_.size(); ++i) index_.insert(qs(items_[i].id), static_cast<int>(i));
  header_ = {{"next_id", num<std::int64_t>(header, "next_id", 1)},
             {"episodes", num<std::int64_t>(header, "episodes", 0)},
             {"consolidations", num<std::int64_t>(header, "consolidations", 0)}};
}

memory::MemoryItem MemoryInspectorModel::shown(const memory::MemoryItem& fromView) const {
  memory::MemoryItem m = fromView;
  // What events do not carry (code example, abstracted resident form) comes from the workspace's memory.json.
  if (auto snap = snapshot_.find(m.id); snap != snapshot_.end()) {
    if (!m.code_example) m.code_example = snap->second.code_example;
    if (m.state == memory::ItemState::Hot && !m.resident_rule) {
      m.resident_rule = snap->second.resident_rule;
      m.resident_code = snap->second.resident_code;
    }
  }
  if (m.state == memory::ItemState::Hot && !m.resident_rule) m.resident_rule = m.rule;  // not in the events
  return m;
}

void MemoryInspectorModel::syncFromView() {
  const auto& src = view_.store().items();
  bool sameRows = src.size() >= items_.size();
  for (std::size_t r = 0; sameRows && r < items_.size(); ++r) sameRows = src[r].id == items_[r].id;
  if (!sameRows) {  // e.g. the shown items were another file's: start over with the events'
    beginResetModel();
    items_.clear();
    index_.clear();
    for (const auto& it : src) {
      index_.insert(qs(it.id), static_cast<int>(items_.size()));
      items_.push_back(shown(it));
    }
    endResetModel();
  } else {
    for (std::size_t r = 0; r < items_.size(); ++r) {
      memory::MemoryItem m = shown(src[r]);
      if (!(m == items_[r])) {
        items_[r] = std::move(m);
        emit dataChanged(index(static_cast<int>(r), 0), index(static_cast<int>(r), ColumnCount - 1));
      }
    }
    if (src.size() > items_.size()) {
      beginInsertRows({}, static_cast<int>(items_.size()), static_cast<int>(src.size()) - 1);
      for (std::size_t r = items_.size(); r < src.size(); ++r) {
        index_.insert(qs(src[r].id), static_cast<int>(r));
        items_.push_back(shown(src[r]));
      }
      endInsertRows();
    }
  }
  json j = view_.store().to_json();
  header_ = {{"next_id", j.value("next_id", 1)},
             {"episodes", j.value("episodes", 0)},
             {"consolidations", j.value("consolidations", 0)}};
}

void MemoryInspectorModel::syncTrajectories(QSet<QString>* changed) {
  for (const auto& [id, pts] : view_.trajectories()) {
    const QString q = qs(id);
    QVector<QPointF>& cur = trajectories_[q];
    if (cur.size() == static_cast<int>(pts.size())) continue;
    cur.clear();
    for (const auto& [ep, u] : pts) cur.append(QPointF(static_cast<double>(ep), u));
    if (changed) changed->insert(q);
  }
}

bool MemoryInspectorModel::openSnapshot(const AuditMemorySnapshot& s, QString* error) {
  if (!s.memoryError.isEmpty()) {
    if (error) *error = s.memoryError;
    return false;
  }
  beginResetModel();
  initial_ = s.initial;
  view_ = s.memoryView;  // the events folded on the campaign thread
  items_.clear();
  index_.clear();
  trajectories_.clear();
  snapshot_.clear();
  importedHotTokens_ = false;
  lastSeq_ = s.lastSeq;
  syncTrajectories(nullptr);
  if (s.memory) {
    // memory.json holds the items (with their abstracted forms); the events give trajectories and budget,
    // and the items from the next event on (a followed live run).
    json j = s.memory->to_json();
    setItems(s.memory->items(), j);
    for (const auto& it : items_) snapshot_[it.id] = it;
    if (trajectories_.isEmpty())
      for (const auto& it : items_)
        if (!it.history.empty()) trajectories_.insert(qs(it.id), trajectoryFromHistory(it));
  } else {
    for (const auto& it : view_.store().items()) {
      index_.insert(qs(it.id), static_cast<int>(items_.size()));
      items_.push_back(shown(it));
    }
  }
  endResetModel();
  emit budgetChanged();
  return true;
}

bool MemoryInspectorModel::importFile(const QString& path, QString* error) {
  auto o = memory::load_memory_file(path.toStdString());
  if (!o.ok()) {
    if (error) *error = memoryDiagnosticText(*o.error);
    return false;
  }
  beginResetModel();
  json j = o.value->to_json();
  setItems(o.value->items(), j);
  snapshot_.clear();
  trajectories_.clear();
  importedHotTokens_ = true;
  for (const auto& it : items_)
    if (!it.history.empty()) trajectories_.insert(qs(it.id), trajectoryFromHistory(it));
  endResetModel();
  emit budgetChanged();
  return true;
}

json MemoryInspectorModel::toJson() const {
  json items = json::array();
  for (const auto& it : items_) items.push_back(memory::item_to_json(it));
  return json{{"format", memory::kMemoryFormat},
              {"version", memory::kMemoryVersion},
              {"next_id", header_.value("next_id", 1)},
              {"episodes", header_.value("episodes", 0)},
              {"consolidations", header_.value("consolidations", 0)},
              {"items", items}};
}

bool MemoryInspectorModel::exportFile(const QString& path, QString* error) const {
  auto o = memory::MemoryStore::from_json(toJson());
  if (!o.ok()) {
    if (error) *error = memoryDiagnosticText(*o.error);
    return false;
  }
  if (auto d = memory::save_memory_file(*o.value, path.toStdString())) {
    if (error) *error = memoryDiagnosticText(*d);
    return false;
  }
  return true;
}

void MemoryInspectorModel::foldEvent(const learn::Event& e) {
  lastSeq_ = std::max<qint64>(lastSeq_, e.seq);
  view_.apply(e);
}

void MemoryInspectorModel::applyEvent(const json& envelope) {
  std::string err;
  if (auto e = learn::event_from_json(envelope, err)) applyEvent(*e);  // a malformed event changes nothing
}

void MemoryInspectorModel::applyEvent(const learn::Event& e) {
  const bool started = std::holds_alternative<learn::CampaignStarted>(e.body);
  if (e.seq == 0 && started && lastSeq_ >= 0) restart();  // a replay from its start
  if (e.seq <= lastSeq_) return;
  const int budget = view_.budget();
  foldEvent(e);
  importedHotTokens_ = false;
  syncFromView();
  QSet<QString> changed;
  syncTrajectories(&changed);
  for (const auto& id : changed) emit trajectoryChanged(id);
  const bool rollback = std::holds_alternative<learn::ConsolidationRollback>(e.body);
  if (started || rollback || std::holds_alternative<learn::Consolidation>(e.body) || budget != view_.budget())
    emit budgetChanged();
  if (rollback || started) emit rollbacksChanged();
}

int MemoryInspectorModel::budget() const {
  return view_.budget();
}

int MemoryInspectorModel::hotTokens() const {
  if (!importedHotTokens_ && view_.consolidations() > 0) return view_.hot_tokens();
  int sum = 0;
  for (const auto& it : items_)
    if (it.state == memory::ItemState::Hot) sum += it.resident_tokens;
  return sum;
}

int MemoryInspectorModel::countInState(memory::ItemState s) const {
  int n = 0;
  for (const auto& it : items_) n += it.state == s ? 1 : 0;
  return n;
}

int MemoryInspectorModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(items_.size());
}
int MemoryInspectorModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryInspectorModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& m = item(index.row());
  if (role == IdRole) return qs(m.id);
  if (role == StateRole) return qs(std::string(memory::state_name(m.state)));
  if (role == SortRole || role == Qt::DisplayRole) {
    const bool sort = role == SortRole;
    switch (index.column()) {
      case IdColumn:
        return qs(m.id);
      case StateColumn:
        return sort ? QVariant(static_cast<int>(m.state))
                    : QVariant(qs(std::string(memory::state_name(m.state))));
      case UtilityColumn:
        return sort ? QVariant(m.utility) : QVariant(QString::number(m.utility, 'f', 3));
      case RetrievalsColumn:
        return m.retrieval_count;
      case AdoptionsColumn:
        return m.adoption_count;
      case UpdatesColumn:
        return m.n_updates;
      case OperatorsColumn:
        return static_cast<int>(m.adopting_tasks.size());
      case AccessColumn:
        return sort ? QVariant(m.access) : QVariant(QString::number(m.access, 'f', 2));
      case TokensColumn:
        return m.state == memory::ItemState::Hot && m.resident_tokens > 0 ? m.resident_tokens : m.tokens;
      case RuleColumn:
        return qs(m.rule).simplified();
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    if (index.column() == RuleColumn) return qs(m.rule);
    if (index.column() == OperatorsColumn) {
      QStringList t;
      for (const auto& s : m.adopting_tasks) t << qs(s);
      return t.join(QLatin1Char('\n'));
    }
    if (index.column() == TokensColumn && m.state == memory::ItemState::Hot)
      return tr("resident tokens (abstracted form); %1 in the retrieval view").arg(m.tokens);
    return {};
  }
  if (role == Qt::TextAlignmentRole && index.column() != IdColumn && index.column() != RuleColumn &&
      index.column() != StateColumn)
    return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && index.column() == StateColumn) {
    switch (m.state) {
      case memory::ItemState::Hot:
        return QColor(0xc0, 0x39, 0x2b);
      case memory::ItemState::Validated:
        return QColor(0x1e, 0x84, 0x49);
      case memory::ItemState::Cold:
        return QColor(0x28, 0x74, 0xa6);
    }
  }
  return {};
}

QVariant MemoryInspectorModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IdColumn:
      return tr("Item");
    case StateColumn:
      return tr("State");
    case UtilityColumn:
      return tr("Utility");
    case RetrievalsColumn:
      return tr("Retrievals");
    case AdoptionsColumn:
      return tr("Adoptions");
    case UpdatesColumn:
      return tr("Updates");
    case OperatorsColumn:
      return tr("Operators");
    case AccessColumn:
      return tr("Access");
    case TokensColumn:
      return tr("Tokens");
    case RuleColumn:
      return tr("Rule");
    default:
      return {};
  }
}

}  // namespace sf::widgets
