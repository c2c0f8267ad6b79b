#include "widgets/editor/issues_model.hpp"

#include <QApplication>
#include <QColor>
#include <QStyle>

namespace sf::widgets {

IssuesModel::IssuesModel(QObject* parent) : QAbstractTableModel(parent) {}

void IssuesModel::setIssues(const QVector<IssueRow>& issues) {
  beginResetModel();
  rows_ = issues;
  endResetModel();
}

int IssuesModel::errorCount() const {
  return static_cast<int>(std::count_if(rows_.begin(), rows_.end(), [](const IssueRow& r) {
    return r.severity == Severity::Error;
  }));
}

int IssuesModel::warningCount() const {
  return static_cast<int>(std::count_if(rows_.begin(), rows_.end(), [](const IssueRow& r) {
    return r.severity == Severity::Warning;
  }));
}

int IssuesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int IssuesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IssuesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const IssueRow& r = rows_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case SeverityColumn:
          return r.severity == Severity::Error ? tr("error") : r.severity == Severity::Warning ? tr("warning")
                                                                                                : tr("note");
        case CodeColumn: return r.code;
        case LocationColumn:
          return r.line > 0 ? (r.column > 0 ? QStringLiteral("%1:%2").arg(r.line).arg(r.column) : QString::number(r.line))
                            : QString();
        case MessageColumn: return r.message;
      }
      return {};
    case Qt::ToolTipRole: return QStringLiteral("%1: %2").arg(r.code, r.message);
    case Qt::DecorationRole:
      if (index.column() != SeverityColumn || !qApp) return {};
      return QApplication::style()->standardIcon(r.severity == Severity::Error     ? QStyle::SP_MessageBoxCritical
                                                 : r.severity == Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                                   : QStyle::SP_MessageBoxInformation);
    case LineRole: return r.line;
    case ColumnRole: return r.column;
    case CodeRole: return r.code;
    case SeverityRole: return static_cast<int>(r.severity);
  }
  return {};
}

QVariant IssuesModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, o, role);
  switch (section) {
    case SeverityColumn: return tr("Severity");
    case CodeColumn: return tr("Code");
    case LocationColumn: return tr("Line:Col");
    case MessageColumn: return tr("Message");
  }
  return {};
}

VerifySetsModel::VerifySetsModel(QObject* parent) : QAbstractTableModel(parent) {}

void VerifySetsModel::setSets(const QVector<VerifySetRow>& sets) {
  beginResetModel();
  rows_ = sets;
  endResetModel();
}

int VerifySetsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int VerifySetsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant VerifySetsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const VerifySetRow& r = rows_[index.row()];
  if (role == Qt::DisplayRole && !r.failedStage.isEmpty()) {  // stopped before the input sets
    switch (index.column()) {
      case BindingColumn: return tr("no input set ran");
      case SeedColumn: return QStringLiteral("—");
      case ResultColumn: return tr("FAIL at stage %1 (%2)").arg(r.failedStage, r.failedCode);
      case ErrorColumn: return QStringLiteral("—");
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case BindingColumn: return r.alt ? tr("%1 (alternative sizes)").arg(r.binding) : r.binding;
      case SeedColumn: return QString::number(r.seed);
      case ResultColumn: return r.pass ? tr("pass") : tr("FAIL");
      case ErrorColumn: return QString::number(r.maxAbsError, 'g', 3);
    }
  }
  if (role == Qt::ForegroundRole && index.column() == ResultColumn)
    return r.pass ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
  return {};
}

QVariant VerifySetsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, o, role);
  switch (section) {
    case BindingColumn: return tr("Sizes");
    case SeedColumn: return tr("Seed");
    case ResultColumn: return tr("Result");
    case ErrorColumn: return tr("Max abs error");
  }
  return {};
}

}  // namespace sf::widgets
