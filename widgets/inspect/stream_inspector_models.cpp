#include "widgets/inspect/stream_inspector_models.hpp"
#include "widgets/qt_text.hpp"

#include <QBrush>
#include <QColor>
#include <cmath>

#include "core/sim/token_view.hpp"

namespace sf::widgets {

namespace {


QString dims_text(const std::vector<std::int64_t>& dims) {
  return qs(sim::format_ints(dims));
}

QString number(double v) {
  return qs(sim::format_number(v));
}

}  // namespace

// ---- StreamListModel ----

void StreamListModel::setStreams(std::shared_ptr<const inspect::InspectorSnapshot> snap) {
  beginResetModel();
  snap_ = std::move(snap);
  endResetModel();
}

int StreamListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !snap_ ? 0 : static_cast<int>(snap_->streams.size());
}

int StreamListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StreamListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !snap_) return {};
  const auto& s = snap_->streams[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case NameColumn:
        return qs(s.name);
      case TypeColumn:
        return qs(s.type);
      case DimsColumn:
        return dims_text(s.value.dims);
      case ElementsColumn:
        return QVariant::fromValue<qlonglong>(s.value.positions());
    }
  } else if (role == Qt::ToolTipRole) {
    return qs(s.name) + (s.type.empty() ? QString() : QStringLiteral(": ") + qs(s.type));
  }
  return {};
}

QVariant StreamListModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Stream");
    case TypeColumn:
      return tr("Type");
    case DimsColumn:
      return tr("Dims");
    case ElementsColumn:
      return tr("Elements");
  }
  return {};
}

// ---- TokenTableModel ----

void TokenTableModel::setStream(const sim::StreamValue* value,
                                std::shared_ptr<const inspect::InspectorSnapshot> keep) {
  beginResetModel();
  keep_ = std::move(keep);
  value_ = value;
  endResetModel();
}

std::int64_t TokenTableModel::dataRows() const {
  if (!value_) return 0;
  return std::min(value_->positions(), kMaxRows);
}

bool TokenTableModel::truncated() const {
  return value_ && value_->positions() > kMaxRows;
}

int TokenTableModel::stopLevel(std::int64_t p) const {
  if (!value_ || p < 0 || p >= value_->positions()) return -1;
  int t = 0;
  for (std::int64_t s : value_->dims) {
    if (p % s != s - 1) break;
    p /= s;
    ++t;
  }
  return std::min(t, value_->rank());
}

int TokenTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !value_) return 0;
  return static_cast<int>(dataRows()) + (truncated() ? 0 : 1);  // + the done token
}

int TokenTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant TokenTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !value_) return {};
  const std::int64_t row = index.row();
  const bool done = row == dataRows();
  if (role == Qt::DisplayRole) {
    if (done) {
      switch (index.column()) {
        case IndexColumn:
          return QVariant::fromValue<qlonglong>(row);
        case StopColumn:
          return QStringLiteral("D");
        default:
          return QString();
      }
    }
    switch (index.column()) {
      case IndexColumn:
        return QVariant::fromValue<qlonglong>(row);
      case PositionColumn: {
        QStringList parts;
        std::int64_t p = row;
        for (std::int64_t s : value_->dims) {
          parts << QString::number(s > 0 ? p % s : 0);
          p = s > 0 ? p / s : 0;
        }
        return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
      }
      case ValueColumn:
        return qs(sim::format_element(*value_, row));
      case StopColumn: {
        int k = stopLevel(row);
        return k > 0 ? QStringLiteral("S%1").arg(k) : QString();
      }
    }
  } else if (role == Qt::ForegroundRole && index.column() == StopColumn) {
    return QBrush(QColor(QStringLiteral("#1d4ed8")));
  }
  return {};
}

QVariant TokenTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IndexColumn:
      return tr("#");
    case PositionColumn:
      return tr("Position (i0, …)");
    case ValueColumn:
      return tr("Value");
    case StopColumn:
      return tr("Stop");
  }
  return {};
}

// ---- OutputListModel ----

void OutputListModel::setOutputs(std::shared_ptr<const inspect::InspectorSnapshot> snap) {
  beginResetModel();
  snap_ = std::move(snap);
  endResetModel();
}

int OutputListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !snap_ ? 0 : static_cast<int>(snap_->outputs.size());
}

int OutputListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant OutputListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !snap_) return {};
  const auto& o = snap_->outputs[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case NameColumn:
        return qs(o.name);
      case StatusColumn:
        if (o.size_mismatch) return tr("size differs");
        if (o.stats.ref_nan) return tr("reference NaN");
        return o.pass() ? tr("pass") : tr("%n mismatch(es)", nullptr, static_cast<int>(o.stats.bad));
      case MaxAbsColumn:
        return number(o.stats.max_abs);
    }
  } else if (role == Qt::ToolTipRole) {
    return qs(o.summary);
  } else if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
    return QBrush(o.pass() ? QColor(QStringLiteral("#15803d")) : QColor(QStringLiteral("#b91c1c")));
  }
  return {};
}

QVariant OutputListModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Output");
    case StatusColumn:
      return tr("Status");
    case MaxAbsColumn:
      return tr("Max abs error");
  }
  return {};
}

// ---- OutputCompareModel ----

QColor OutputCompareModel::mismatchBackground() {
  return QColor(QStringLiteral("#fecaca"));
}

void OutputCompareModel::setOutput(const inspect::InspectedOutput* out,
                                   std::shared_ptr<const inspect::InspectorSnapshot> keep) {
  beginResetModel();
  keep_ = std::move(keep);
  out_ = out;
  bad_.clear();
  if (out_) {
    const auto& data = out_->value.fields.front().data;
    const std::int64_t n = compared();
    for (std::int64_t k = 0; k < n && static_cast<std::int64_t>(bad_.size()) < kMaxRows; ++k)
      if (inspect::compare_value(data[static_cast<std::size_t>(k)], out_->reference[static_cast<std::size_t>(k)],
                        out_->atol, out_->rtol) != inspect::ValueStatus::Ok)
        bad_.push_back(k);
  }
  endResetModel();
}

void OutputCompareModel::setMismatchesOnly(bool on) {
  if (on == mismatches_only_) return;
  beginResetModel();
  mismatches_only_ = on;
  endResetModel();
}

std::int64_t OutputCompareModel::compared() const {
  if (!out_ || out_->value.fields.empty()) return 0;
  return static_cast<std::int64_t>(std::min(out_->value.fields.front().data.size(), out_->reference.size()));
}

std::int64_t OutputCompareModel::ftIndex(int row) const {
  if (row < 0 || row >= rowCount()) return -1;
  return mismatches_only_ ? bad_[static_cast<std::size_t>(row)] : row;
}

inspect::ValueStatus OutputCompareModel::status(std::int64_t ft) const {
  if (!out_ || ft < 0 || ft >= compared()) return inspect::ValueStatus::Ok;
  return inspect::compare_value(out_->value.fields.front().data[static_cast<std::size_t>(ft)],
                       out_->reference[static_cast<std::size_t>(ft)], out_->atol, out_->rtol);
}

int OutputCompareModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !out_) return 0;
  return static_cast<int>(mismatches_only_ ? static_cast<std::int64_t>(bad_.size())
                                           : std::min(compared(), kMaxRows));
}

int OutputCompareModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant OutputCompareModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !out_) return {};
  const std::int64_t k = ftIndex(index.row());
  if (k < 0) return {};
  const float out = out_->value.fields.front().data[static_cast<std::size_t>(k)];
  const double ref = out_->reference[static_cast<std::size_t>(k)];
  const inspect::ValueStatus st = status(k);
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case IndexColumn:
        return QVariant::fromValue<qlonglong>(k);
      case PositionColumn:
        return qs(sim::format_position(k, out_->value.dims, out_->value.fields.front().esh));
      case ProgramColumn:
        return number(out);
      case ReferenceColumn:
        return number(static_cast<double>(static_cast<float>(ref)));
      case ErrorColumn: {
        const double r = static_cast<double>(static_cast<float>(ref));
        return std::isfinite(out) && std::isfinite(r) ? number(std::fabs(out - r)) : QStringLiteral("inf");
      }
      case StatusColumn:
        switch (st) {
          case inspect::ValueStatus::Ok:
            return tr("ok");
          case inspect::ValueStatus::Mismatch:
            return tr("mismatch");
          case inspect::ValueStatus::RefNaN:
            return tr("reference NaN");
        }
    }
  } else if (role == Qt::BackgroundRole && st != inspect::ValueStatus::Ok) {
    return QBrush(mismatchBackground());
  }
  return {};
}

QVariant OutputCompareModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IndexColumn:
      return tr("Index");
    case PositionColumn:
      return tr("Position");
    case ProgramColumn:
      return tr("Program");
    case ReferenceColumn:
      return tr("Reference");
    case ErrorColumn:
      return tr("|Error|");
    case StatusColumn:
      return tr("Status");
  }
  return {};
}

}  // namespace sf::widgets
