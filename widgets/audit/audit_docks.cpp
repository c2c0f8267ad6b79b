#include "widgets/audit/audit_docks.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>
#include <algorithm>

#include "widgets/audit/audit_model.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "widgets/audit/memory_inspector.hpp"
#include "widgets/audit/memory_inspector_model.hpp"

namespace sf::widgets {

AuditDocks::AuditDocks(QMainWindow* window)
    : QObject(window), w_(window), audit_(new AuditPane(window)), memory_(new MemoryInspector(window)) {
  auditDock_ = new QDockWidget(tr("Adoption Audit"), w_);
  auditDock_->setObjectName(QStringLiteral("AuditDock"));
  auditDock_->setWidget(audit_);
  w_->addDockWidget(Qt::BottomDockWidgetArea, auditDock_);
  memoryDock_ = new QDockWidget(tr("Memory"), w_);
  memoryDock_->setObjectName(QStringLiteral("MemoryDock"));
  memoryDock_->setWidget(memory_);
  w_->addDockWidget(Qt::BottomDockWidgetArea, memoryDock_);
  w_->tabifyDockWidget(auditDock_, memoryDock_);
  auditDock_->hide();
  memoryDock_->hide();

  connect(audit_, &AuditPane::statusMessage, this,
          [this](const QString& m) { w_->statusBar()->showMessage(m, 5000); });
  connect(memory_, &MemoryInspector::statusMessage, this,
          [this](const QString& m) { w_->statusBar()->showMessage(m, 5000); });
}

void AuditDocks::applyEvents(const std::vector<nlohmann::json>& envelopes) {
  applyEvents(learn::decode_events(envelopes));
}

void AuditDocks::applyEvents(const std::vector<learn::Event>& events) {
  // The first events of an opened workspace's session are in its snapshot already.
  const std::size_t skip = std::min(events.size(), static_cast<std::size_t>(std::max<qint64>(folded_, 0)));
  folded_ -= static_cast<qint64>(skip);
  for (std::size_t i = skip; i < events.size(); ++i) {
    audit_->applyEvent(events[i]);
    memory_->applyEvent(events[i]);
  }
  if (replaying_) return;  // a demo replay keeps the presentation layout; View shows them
  if (auditDock_->isHidden() && audit_->model()->rowCount() > 0) auditDock_->show();
  if (memoryDock_->isHidden() && memory_->model()->rowCount() > 0) memoryDock_->show();
}

void AuditDocks::applySnapshot(const AuditMemorySnapshotPtr& s) {
  if (!s) return;
  replaying_ = false;
  folded_ = s->events;
  audit_->openSnapshot(*s);
  memory_->openSnapshot(*s);
  const bool sage = audit_->model()->rowCount() > 0 || memory_->model()->rowCount() > 0 || s->memoryFileExists;
  if (sage) {
    memoryDock_->show();
    auditDock_->show();
    auditDock_->raise();
  }
}

void AuditDocks::startReplay(const QString& dir) {
  replaying_ = true;
  folded_ = 0;
  audit_->model()->startReplay(dir);
  emit audit_->statusMessage(tr("Replay: the records follow the replayed events"));
  memory_->model()->clear();  // the memory.json snapshot goes too: hot items show their rule text
}

}  // namespace sf::widgets
