#include "widgets/memory_inspector_model.hpp"
#include "widgets/qt_text.hpp"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/memory/memory_config.hpp"
#include "core/memory/memory_json.hpp"
#include "core/memory/memory_store.hpp"
#include "core/memory/utility.hpp"
#include "core/store/event_log.hpp"

namespace sf::widgets {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {


QString diagText(const Diagnostic& d) {
  return qs(d.message) + QStringLiteral(" [") + qs(d.code) + QLatin1Char(']');
}

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
std::string str(const json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

MemoryInspectorModel::MemoryInspectorModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryInspectorModel::clear() {
  snapshot_.clear();
  restart();
}

void MemoryInspectorModel::resetState(int budget) {
  items_.clear();
  index_.clear();
  trajectories_.clear();
  retrieved_.clear();
  adopted_.clear();
  nextId_ = 1;
  episodes_ = consolidations_ = 0;
  budget_ = budget;
  eventHotTokens_ = -1;
  lastSeq_ = -1;
}

void MemoryInspectorModel::restart() {
  beginResetModel();
  resetState(memory::MemoryConfig{}.budget);
  endResetModel();
  emit budgetChanged();
}

void MemoryInspectorModel::setItems(std::vector<memory::MemoryItem> items, const json& header) {
  items_ = std::move(items);
  index_.clear();
  for (std::size_t i = 0; i < items_.size(); ++i) index_.insert(qs(items_[i].id), static_cast<int>(i));
  nextId_ = num<std::int64_t>(header, "next_id", 1);
  episodes_ = num<std::int64_t>(header, "episodes", 0);
  consolidations_ = num<std::int64_t>(header, "consolidations", 0);
}

bool MemoryInspectorModel::loadWorkspace(const QString& dir, QString* error) {
  const fs::path d = dir.toStdString();
  // Everything is read first; the model changes only when all of it is fine.
  std::optional<memory::MemoryStore> store;
  if (fs::exists(d / "memory.json")) {
    auto o = memory::load_memory_file((d / "memory.json").string());
    if (!o.ok()) {
      if (error) *error = diagText(*o.error);
      return false;
    }
    store = std::move(o.value);
  }
  store::LoadedLog log;
  std::string err;
  if (!store::read_event_log(d / "events.jsonl", log, err)) {
    if (error) *error = qs(err);
    return false;
  }
  int budget = memory::MemoryConfig{}.budget;
  {
    std::ifstream in(d / "campaign.json", std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      json c = json::parse(ss.str(), nullptr, false);
      if (c.is_object() && c.contains("config") && c["config"].is_object()) {
        const json& cfg = c["config"];
        if (cfg.contains("memory") && cfg["memory"].is_object())
          budget = num<int>(cfg["memory"], "budget", budget);
      }
    }
  }
  beginResetModel();
  resetState(budget);
  snapshot_.clear();
  if (store) {
    json j = store->to_json();
    setItems(store->items(), j);
    for (const auto& it : items_) snapshot_[it.id] = it;
  }
  // With memory.json the items and counts are the file's; the events add trajectories, budget and items
  // created after the last snapshot.
  bulk_ = true;
  for (const auto& e : log.events) fold(e, !store.has_value());
  bulk_ = false;
  bool anyCredit = !trajectories_.isEmpty();
  if (!anyCredit)
    for (const auto& it : items_)
      if (!it.history.empty()) trajectories_.insert(qs(it.id), trajectoryFromHistory(it));
  endResetModel();
  emit budgetChanged();
  return true;
}

bool MemoryInspectorModel::importFile(const QString& path, QString* error) {
  auto o = memory::load_memory_file(path.toStdString());
  if (!o.ok()) {
    if (error) *error = diagText(*o.error);
    return false;
  }
  beginResetModel();
  json j = o.value->to_json();
  setItems(o.value->items(), j);
  snapshot_.clear();
  trajectories_.clear();
  retrieved_.clear();
  adopted_.clear();
  eventHotTokens_ = -1;
  for (const auto& it : items_)
    if (!it.history.empty()) trajectories_.insert(qs(it.id), trajectoryFromHistory(it));
  endResetModel();
  emit budgetChanged();
  return true;
}

json MemoryInspectorModel::toJson() const {
  json items = json::array();
  for (const auto& it : items_) items.push_back(memory::item_to_json(it));
  return json{{"format", memory::kMemoryFormat}, {"version", memory::kMemoryVersion}, {"next_id", nextId_},
              {"episodes", episodes_},           {"consolidations", consolidations_}, {"items", items}};
}

bool MemoryInspectorModel::exportFile(const QString& path, QString* error) const {
  auto o = memory::MemoryStore::from_json(toJson());
  if (!o.ok()) {
    if (error) *error = diagText(*o.error);
    return false;
  }
  if (auto d = memory::save_memory_file(*o.value, path.toStdString())) {
    if (error) *error = diagText(*d);
    return false;
  }
  return true;
}

int MemoryInspectorModel::ensureItem(const std::string& id) {
  const QString q = qs(id);
  auto it = index_.find(q);
  if (it != index_.end()) return *it;
  const int row = static_cast<int>(items_.size());
  if (!bulk_) beginInsertRows({}, row, row);
  memory::MemoryItem m;
  m.id = id;
  m.rule = id;  // until its experience_added event (a log that starts mid-campaign)
  items_.push_back(std::move(m));
  index_.insert(q, row);
  if (!bulk_) endInsertRows();
  return row;
}

void MemoryInspectorModel::rowChanged(int row) {
  if (!bulk_) emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void MemoryInspectorModel::applyEvent(const json& event) {
  if (!event.is_object()) return;
  const std::string type = str(event, "type");
  auto s = event.find("seq");
  if (s != event.end() && s->is_number_integer()) {
    const qint64 seq = s->get<qint64>();
    if (seq == 0 && type == "campaign_started" && lastSeq_ >= 0) restart();
    if (seq <= lastSeq_) return;
  }
  fold(event, true);
}

void MemoryInspectorModel::fold(const json& e, bool counts) {
  if (!e.is_object()) return;
  auto s = e.find("seq");
  if (s != e.end() && s->is_number_integer()) lastSeq_ = std::max<qint64>(lastSeq_, s->get<qint64>());
  const std::string type = str(e, "type");
  const std::int64_t episode = num<std::int64_t>(e, "episode", 0);
  if (type == "campaign_started") {
    auto c = e.find("config");
    if (c != e.end() && c->is_object() && c->contains("memory") && (*c)["memory"].is_object()) {
      budget_ = num<int>((*c)["memory"], "budget", budget_);
      emit budgetChanged();
    }
  } else if (type == "experience_added") {
    const std::string id = str(e, "item");
    if (id.empty()) return;
    const bool known = index_.contains(qs(id));
    if (known && !counts) return;  // memory.json already has it
    const int row = ensureItem(id);
    auto& m = items_[static_cast<std::size_t>(row)];
    m.rule = str(e, "rule");
    m.evidence = str(e, "evidence");
    const std::string p = str(e, "pattern");
    if (!p.empty()) m.pattern = p;
    m.source_episode = episode;
    m.source_task = str(e, "source_task");
    m.tokens = num<int>(e, "tokens", memory::estimate_tokens(m.rule));
    if (auto snap = snapshot_.find(id); snap != snapshot_.end()) {
      m.code_example = snap->second.code_example;
      m.resident_rule = snap->second.resident_rule;
      m.resident_code = snap->second.resident_code;
    }
    rowChanged(row);
  } else if (type == "adoption_record") {
    if (!counts) return;
    const std::string id = str(e, "item");
    if (id.empty()) return;
    const int row = ensureItem(id);
    auto& m = items_[static_cast<std::size_t>(row)];
    if (retrieved_.insert({episode, id}).second) ++m.retrieval_count;
    auto a = e.find("adopted");
    if (a != e.end() && a->is_boolean() && a->get<bool>() && adopted_.insert({episode, id}).second) {
      ++m.adoption_count;
      m.adopting_tasks.insert(str(e, "task"));
    }
    rowChanged(row);
  } else if (type == "credit") {
    const std::string id = str(e, "item");
    if (id.empty()) return;
    const double after = num<double>(e, "utility_after", 0.0);
    trajectories_[qs(id)].append(QPointF(static_cast<double>(episode), after));
    if (counts || !index_.contains(qs(id))) {
      const int row = ensureItem(id);
      auto& m = items_[static_cast<std::size_t>(row)];
      m.utility = after;
      m.n_updates = num<int>(e, "n_updates", m.n_updates + 1);
      m.history.push_back({episode, num<double>(e, "credit", 0.0)});
      rowChanged(row);
    }
    emit trajectoryChanged(qs(id));
  } else if (type == "access_update") {
    if (!counts) return;
    const std::string id = str(e, "item");
    if (id.empty()) return;
    const int row = ensureItem(id);
    items_[static_cast<std::size_t>(row)].access = std::clamp(num<double>(e, "access_after", 0.0), 0.0, 1.0);
    rowChanged(row);
  } else if (type == "consolidation") {
    if (counts) {
      // UGC step 1 (docs/memory.md decision 9): access of the retrievable items = retrievals / eligible
      // episodes; hot items keep their smoothed estimate (access_update events).
      auto ratio = [](const memory::MemoryItem& m) {
        return m.eligible_episodes > 0
                   ? std::clamp(static_cast<double>(m.retrieval_count) / m.eligible_episodes, 0.0, 1.0)
                   : 0.0;
      };
      for (std::size_t r = 0; r < items_.size(); ++r)
        if (items_[r].state != memory::ItemState::Hot && items_[r].access != ratio(items_[r])) {
          items_[r].access = ratio(items_[r]);
          rowChanged(static_cast<int>(r));
        }
      auto apply = [&](const char* key, memory::ItemState st) {
        auto arr = e.find(key);
        if (arr == e.end() || !arr->is_array()) return;
        for (const auto& c : *arr) {
          if (!c.is_object()) continue;
          const std::string id = str(c, "item");
          if (id.empty()) continue;
          const int row = ensureItem(id);
          auto& m = items_[static_cast<std::size_t>(row)];
          if (m.state == memory::ItemState::Hot && st == memory::ItemState::Validated) m.access = ratio(m);
          m.state = st;
          if (st == memory::ItemState::Hot) {
            m.resident_tokens = num<int>(c, "tokens", m.tokens);
            if (!m.resident_rule) m.resident_rule = m.rule;  // the abstracted text is not in the event
          }
          rowChanged(row);
        }
      };
      apply("validated", memory::ItemState::Validated);
      apply("demoted", memory::ItemState::Validated);
      apply("promoted", memory::ItemState::Hot);
      ++consolidations_;
    }
    eventHotTokens_ = num<int>(e, "hot_tokens", eventHotTokens_);
    budget_ = num<int>(e, "budget", budget_);
    emit budgetChanged();
  } else if (type == "episode_finished") {
    if (counts) {
      episodes_ = std::max(episodes_, episode + 1);
      // end_episode counts an eligible episode for every item that could have been retrieved (not hot).
      for (auto& m : items_)
        if (m.state != memory::ItemState::Hot) ++m.eligible_episodes;
    }
  }
}

int MemoryInspectorModel::hotTokens() const {
  if (eventHotTokens_ >= 0) return eventHotTokens_;
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
